//! The suppression rules (#16 §3), family `config`: findings about the accepted-findings
//! list itself, built from these constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const SUPPRESSION_EXPIRED: Rule = Rule {
    id: "config/suppression-expired",
    severity: Severity::Error,
    short: "Suppression past its expiry date",
    description: "An entry of `suppress:` or `mcpward.suppress.yaml` whose `expires` date has passed. It no longer suppresses anything: the finding it accepted is reported again as it is, and this result names the entry (rule, location, expiry) so the accepted risk is reviewed again.",
    fix: "Fix the finding and delete the entry, or, if the risk is still accepted, review it and move `expires` to a new date.",
};

pub const SUPPRESSION_STALE: Rule = Rule {
    id: "config/suppression-stale",
    severity: Severity::Warning,
    short: "Suppression that matched nothing",
    description: "An entry of `suppress:` or `mcpward.suppress.yaml` that matched no failing or warning result of this run, like an unused `noqa`: the finding it accepted is gone (or the rule or location changed), so the entry only hides a future finding nobody reviewed. A warning; with `--strict` it fails. Judged only for entries whose rule's family ran and, in a fleet, whose servers were all tested.",
    fix: "Delete the entry, or correct its `rule` / `location` to the finding it is meant to accept.",
};

/// Report and docs order.
pub const RULES: &[Rule] = &[SUPPRESSION_EXPIRED, SUPPRESSION_STALE];

//! The collision family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const DESCRIPTION_COLLISION: Rule = Rule {
    id: "collision/description-collision",
    severity: Severity::Warning,
    short: "Description collision (tool selection hazard)",
    description: "Two tools have near-identical descriptions (character-trigram Dice similarity at or above the threshold) but accept different payloads: the types of their required parameters or their nesting depth differ. An agent that picks tools by description can confidently call the wrong one with the wrong arguments, and no error check can see it. Ordinary families with the same shape (list_users / list_projects) are not reported. Sentences shared by a third or more of the server's tools (and by at least three) are boilerplate and left out of the score; tools linked by flagged pairs are reported together, one finding per cluster.",
    fix: "Make each description say what distinguishes the tool (the entity it acts on, the shape of its input), or merge the tools. Raise `checks.collision.threshold` only if the pair is genuinely distinguishable.",
};

pub const SUMMARY: Rule = Rule {
    id: "collision/summary",
    severity: Severity::Warning,
    short: "Description collision lint summary",
    description: "One result per run: how many collisions were found among how many tools, or that the lint was skipped because the server exposes more tools than `checks.collision.max_tools`.",
    fix: "Fix the individual collisions; if the lint was skipped, raise `checks.collision.max_tools`.",
};

pub const LIST_TOOLS: Rule = Rule {
    id: "collision/list-tools",
    severity: Severity::Error,
    short: "Tool listing for the collision lint",
    description: "The server's tools/list could not be read completely, so descriptions could not be compared.",
    fix: "Make tools/list answer every page with a valid `tools` array and a terminating `nextCursor`.",
};

pub const RULES: &[Rule] = &[DESCRIPTION_COLLISION, SUMMARY, LIST_TOOLS];

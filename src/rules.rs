//! The one registry of public rule ids. Each check family declares its rules as constants
//! in `checks/<family>/rules.rs` (its `RULES` table) and builds every finding from them;
//! this file is the single place that lists the families, so docs/rules.md, SARIF and the
//! JSON report read the same facts (id, default severity, texts, family category). The
//! rule and family types live in [`types`], below the checks, so no family imports this
//! file.

pub mod types;

pub use types::{anchor, Family, Rule};

use crate::checks;
use types::{severity_name, UNKNOWN_CATEGORY};

/// Every family, in run order. Add a family here and nowhere else.
pub const FAMILIES: &[Family] = &[
    Family {
        name: "compliance",
        config_key: "server",
        category: "correctness",
        security: false,
        rules: checks::compliance::rules::RULES,
    },
    Family {
        name: "auth",
        config_key: "checks.auth",
        category: "security",
        security: true,
        rules: checks::auth::rules::RULES,
    },
    Family {
        name: "schema",
        config_key: "checks.schema",
        category: "correctness",
        security: false,
        rules: checks::schema::rules::RULES,
    },
    Family {
        name: "drift",
        config_key: "checks.drift",
        category: "maintainability",
        security: false,
        rules: checks::drift::rules::RULES,
    },
    Family {
        name: "security",
        config_key: "checks.security",
        category: "security",
        security: true,
        rules: checks::security::rules::RULES,
    },
    Family {
        name: "collision",
        config_key: "checks.collision",
        category: "correctness",
        security: false,
        rules: checks::collision::rules::RULES,
    },
    Family {
        name: "behavioral",
        config_key: "suites",
        category: "general",
        security: false,
        rules: checks::behavioral::rules::RULES,
    },
    Family {
        name: "errors",
        config_key: "checks.errors",
        category: "general",
        security: false,
        rules: checks::errors::rules::RULES,
    },
    Family {
        name: "latency",
        config_key: "checks.latency",
        category: "general",
        security: false,
        rules: checks::latency::rules::RULES,
    },
    Family {
        name: "http",
        config_key: "checks.http",
        category: "security",
        security: true,
        rules: checks::http::rules::RULES,
    },
    Family {
        name: "config",
        config_key: "suppress",
        category: "general",
        security: false,
        rules: checks::suppress::rules::RULES,
    },
];

/// Every family's rules, in family order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    FAMILIES.iter().flat_map(|f| f.rules.iter())
}

pub fn lookup(id: &str) -> Option<&'static Rule> {
    all().find(|r| r.id == id)
}

pub fn family(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|f| f.name == name)
}

/// SARIF `properties.category` of an id's family (`general` for an unregistered one).
pub fn category_of(id: &str) -> &'static str {
    let name = id.split('/').next().unwrap_or(id);
    family(name).map_or(UNKNOWN_CATEGORY, |f| f.category)
}

/// Rules whose findings are about a narrower key than their family's.
const RULE_CONFIG_KEYS: &[(&str, &str)] = &[
    (
        "compliance/expected-protocol-version",
        "expect.protocol_version",
    ),
    ("drift/baseline-missing", "checks.drift.baseline"),
    ("drift/baseline-invalid", "checks.drift.baseline"),
    ("errors/unknown-tool", "checks.errors.unknown_tool"),
    ("errors/invalid-params", "checks.errors.invalid_params"),
];

/// The config keys a finding of `id` is about, most specific first; `server` (the block
/// that names the server under test) is always last. Reports anchor a finding to the first
/// of these the config file spells out.
pub fn config_keys(id: &str) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = RULE_CONFIG_KEYS
        .iter()
        .filter(|(rule, _)| *rule == id)
        .map(|(_, key)| *key)
        .collect();
    let name = id.split('/').next().unwrap_or(id);
    if let Some(f) = family(name) {
        keys.push(f.config_key);
    }
    keys.push("server");
    keys.dedup();
    keys
}

/// Where [`rules_markdown`] is committed (relative to the repository root).
pub const RULES_DOC_PATH: &str = "docs/rules.md";

/// `docs/rules.md`, generated from the registry: one `###` heading per rule whose GitHub
/// anchor is [`anchor`] (the SARIF `helpUri` target), grouped by family in registry order.
pub fn rules_markdown() -> String {
    let families: Vec<(&str, &[Rule])> = FAMILIES.iter().map(|f| (f.name, f.rules)).collect();
    let mut out = String::new();
    out.push_str(
        "<!-- Generated from the rule registry by mcpward::rules::rules_markdown(); do not edit.\n",
    );
    out.push_str("     Regenerate with: MCPWARD_BLESS=1 cargo test --lib rules -->\n");
    out.push_str("# Rules\n\n");
    out.push_str(
        "Every result in a mcpward report carries a rule id `<family>/<rule>`. Ids are public \
         contract: an id keeps its meaning and is never reused (see [stability](stability.md)). \
         SARIF `helpUri` links point at the headings below.\n\n",
    );
    out.push_str(
        "**Default severity** is what the rule's finding reports in a run with default \
         configuration: the severity of its failing result, or, for a rule that only warns or \
         notes, of that result. SARIF `defaultConfiguration.level` is the same value (`info` is \
         SARIF `note`). A passing result is usually reported as `info`; some rules also report \
         `warn` results (warnings never fail a run). Configuration can change what a drift \
         change reports (`checks.drift.severity`, `checks.drift.fail_on`: a failing change is \
         always `error`) and makes collisions fail (`checks.collision.fail`). A drift class \
         outside the default `fail_on` (`tool_added`, the `nonbreaking_*` classes) reports a \
         `pass` at `info` by default.\n\n",
    );
    out.push_str(
        "**SARIF locations.** Every SARIF alert (and every GitHub or GitLab annotation) is \
         anchored to the config file actually used (`--config`), as a path relative to the \
         repository root (`GITHUB_WORKSPACE`, else the nearest directory holding `.git`), \
         so code scanning shows findings on that file. A SARIF result points at the line of \
         the config key its rule is about (`checks.security`, `checks.drift.baseline`, the \
         suite of its tool, …) and at the `server:` block when the file does not spell that \
         key out; run-level results included. See [sarif.md](sarif.md).\n\n",
    );
    out.push_str(
        "**Protocol eras.** mcpward talks to servers of the stateful revisions (2024-11-05 … \
         2025-11-25, `initialize` handshake) and of the stateless 2026-07-28 revision \
         (`server/discover`, `_meta` on every request). With `server.protocol_era: auto` (the \
         default) it sends `server/discover` first and falls back to `initialize` when the \
         server does not speak the new revision; `legacy` / `modern` (or `--protocol-era`) \
         force one, and an `expect.protocol_version` of a pre-2026 version means `legacy`. \
         Every rule below works in both eras; the compliance rules marked for the 2026-07-28 \
         revision are only emitted there, and `compliance/ping` is a skip there.\n\n",
    );
    out.push_str("## Families\n\n");
    for (family, rules) in &families {
        out.push_str(&format!(
            "- [{family}](#{family}): {} rule{}\n",
            rules.len(),
            if rules.len() == 1 { "" } else { "s" }
        ));
    }
    for (family, rules) in &families {
        out.push_str(&format!("\n## {family}\n"));
        for r in rules.iter() {
            out.push_str(&format!(
                "\n### {}\n\n- **Family:** {}\n- **Default severity:** {}\n- **Summary:** {}\n\n**What and why.** {}\n\n**How to fix.** {}\n",
                r.id,
                r.family(),
                severity_name(r.severity),
                r.short,
                r.description,
                r.fix
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GitHub's heading anchor: lower-case, drop everything but letters, digits, spaces,
    /// `-` and `_`, spaces become `-`.
    fn github_slug(heading: &str) -> String {
        heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect()
    }

    #[test]
    fn committed_rules_doc_is_generated() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RULES_DOC_PATH);
        let generated = rules_markdown();
        if std::env::var("MCPWARD_BLESS").as_deref() == Ok("1") {
            std::fs::write(&path, &generated).expect("write docs/rules.md");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "docs/rules.md is stale: run `MCPWARD_BLESS=1 cargo test --lib rules`"
        );
    }

    /// Every rule (hence every SARIF helpUri) has a heading whose anchor is `anchor(id)`.
    #[test]
    fn every_rule_has_its_anchor() {
        let doc = rules_markdown();
        let slugs: std::collections::BTreeSet<String> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("### ").or_else(|| l.strip_prefix("## ")))
            .map(github_slug)
            .collect();
        for r in all() {
            assert!(slugs.contains(&r.anchor()), "{} (#{})", r.id, r.anchor());
            assert!(
                doc.contains(r.fix) && doc.contains(r.description),
                "{}",
                r.id
            );
        }
        for (id, anchor) in [
            ("compliance/handshake", "compliancehandshake"),
            ("schema/tool-name", "schematool-name"),
            ("drift/tool_removed", "drifttool_removed"),
        ] {
            assert_eq!(github_slug(id), anchor);
            assert!(slugs.contains(anchor), "{id}");
        }
        // reporters.md §12: the document covers more than 40 ids, including these.
        assert!(all().count() > 40);
        for id in [
            "collision/description-collision",
            "drift/breaking_output_shape_change",
            "security/hidden-unicode",
        ] {
            assert!(slugs.contains(&anchor(id)), "{id}");
        }
        // Family headings never collide with a rule anchor.
        let families: Vec<&str> = all().map(|r| r.family()).collect();
        for f in families {
            assert!(all().all(|r| r.anchor() != f));
        }
    }

    #[test]
    fn ids_are_well_formed_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for r in all() {
            let (fam, rule) = r.id.split_once('/').expect("family/rule");
            assert!(
                !fam.is_empty() && fam.bytes().all(|b| b.is_ascii_lowercase()),
                "{}",
                r.id
            );
            assert!(
                !rule.is_empty()
                    && rule.bytes().all(|b| b.is_ascii_lowercase()
                        || b.is_ascii_digit()
                        || b == b'_'
                        || b == b'-'),
                "{}",
                r.id
            );
            assert!(seen.insert(r.id), "duplicate rule id {}", r.id);
            assert!(
                !r.short.is_empty() && !r.description.is_empty() && !r.fix.is_empty(),
                "{}",
                r.id
            );
        }
    }

    /// The severity a rule's finding has in a default run: a drift change through the
    /// override function with the default policy, any other rule's failing result.
    fn default_finding(rule: &Rule) -> crate::model::Finding {
        use crate::checks::drift;
        match rule
            .id
            .strip_prefix("drift/")
            .and_then(drift::DriftClass::parse)
        {
            Some(class) => drift::change_finding(
                &drift::Change {
                    class,
                    tool: "t".into(),
                    message: "m".into(),
                    previous: None,
                    current: None,
                },
                &drift::DriftConfig::default(),
            ),
            None => rule.fail("m"),
        }
    }

    /// For every registered rule, docs/rules.md, SARIF `defaultConfiguration.level` and the
    /// severity of its (default-run) result in the JSON report agree.
    #[test]
    fn docs_sarif_and_json_report_agree_on_every_rule() {
        use crate::model::{Report, ServerSummary};
        use crate::report::{json::JsonReporter, sarif::SarifReporter, RenderContext, Reporter};
        // The committed docs/rules.md is this text (`committed_rules_doc_is_generated`).
        let doc = rules_markdown();
        let findings: Vec<_> = all().map(default_finding).collect();
        let report = Report::new(
            ServerSummary {
                name: "s".into(),
                version: "1".into(),
                protocol_version: "p".into(),
            },
            findings,
            "2024-01-15T10:30:00.000Z".into(),
        );
        let ctx = RenderContext::default();
        let json: serde_json::Value =
            serde_json::from_str(&JsonReporter.render(&report, &ctx)).unwrap();
        let sarif: serde_json::Value =
            serde_json::from_str(&SarifReporter.render(&report, &ctx)).unwrap();
        let descriptors = sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap();
        for (i, r) in all().enumerate() {
            let want = severity_name(r.severity);
            let section = doc
                .split(&format!("\n### {}\n", r.id))
                .nth(1)
                .unwrap_or_else(|| panic!("{} has no heading", r.id));
            let documented = section
                .lines()
                .find_map(|l| l.strip_prefix("- **Default severity:** "))
                .unwrap();
            assert_eq!(documented, want, "docs/rules.md, {}", r.id);
            let result = &json["results"][i];
            assert_eq!(result["id"], r.id);
            assert_eq!(result["severity"], want, "JSON report, {}", r.id);
            let d = descriptors
                .iter()
                .find(|d| d["name"] == r.id)
                .unwrap_or_else(|| panic!("{} has no SARIF rule", r.id));
            let sarif_level = if want == "info" { "note" } else { want };
            assert_eq!(
                d["defaultConfiguration"]["level"], sarif_level,
                "SARIF, {}",
                r.id
            );
        }
    }

    /// Public contract: a rule id that changes or disappears breaks users' pipelines.
    #[test]
    fn rule_ids_snapshot() {
        let ids: Vec<&str> = all().map(|r| r.id).collect();
        insta::assert_snapshot!(ids.join("\n"));
    }
}

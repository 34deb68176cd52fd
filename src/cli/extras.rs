//! The commands around the checks (#18 §3): `explain RULE` from the registry, shell
//! completions and the man page generated from the clap definitions, and `version`.

use crate::rules;

/// `--version`: the bare version first (scripts that read the first word keep working),
/// then the commit.
pub fn version_line() -> String {
    format!("{} (commit {})", crate::VERSION, crate::COMMIT)
}

pub fn version(json: bool) -> String {
    if json {
        let v = serde_json::json!({
            "name": "mcpward",
            "version": crate::VERSION,
            "commit": crate::COMMIT,
            "target": format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
            "reportSchemaVersion": crate::model::REPORT_SCHEMA_VERSION,
            "lockfileSchemaVersion": crate::surface::lockfile::SCHEMA_VERSION,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default()
    } else {
        version_line()
    }
}

/// Up to three ids near `query`: the same rule name in another family, a prefix, or a
/// small edit away.
pub fn nearest(query: &str) -> Vec<&'static str> {
    let q = query.trim().to_ascii_lowercase();
    let tail = |id: &str| {
        id.split_once('/')
            .map_or(id.to_string(), |(_, t)| t.to_string())
    };
    let qt = tail(&q);
    let mut scored: Vec<(f64, &'static str)> = rules::all()
        .map(|r| {
            let whole = strsim::normalized_damerau_levenshtein(&q, r.id);
            let name = strsim::normalized_damerau_levenshtein(&qt, &tail(r.id));
            let contains = !qt.is_empty() && r.id.contains(qt.as_str());
            let score = whole.max(name * 0.95).max(if contains { 0.9 } else { 0.0 });
            (score, r.id)
        })
        .filter(|(s, _)| *s >= 0.6)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, id)| id).collect()
}

/// The rule's docs as the console shows them.
pub fn explain_text(rule: &rules::Rule) -> String {
    let family = rules::family(rule.family());
    let mut lines = vec![
        format!("{} — {}", rule.id, rule.short),
        String::new(),
        format!(
            "Family: {}   Default severity: {}   Category: {}",
            rule.family(),
            rules::types::severity_name(rule.severity),
            rules::category_of(rule.id)
        ),
    ];
    let keys = rules::config_keys(rule.id);
    if !keys.is_empty() {
        lines.push(format!("Configured by: {}", keys.join(", ")));
    } else if let Some(f) = family {
        lines.push(format!("Configured by: {}", f.config_key));
    }
    lines.push(String::new());
    lines.push(rule.description.to_string());
    lines.push(String::new());
    lines.push(format!("How to fix: {}", rule.fix));
    lines.push(String::new());
    lines.push(format!("Docs: {}#{}", rules::RULES_DOC_PATH, rule.anchor()));
    lines.join("\n")
}

/// The docs of `id`, or the message for an unknown one.
pub fn explain(id: &str) -> Result<String, String> {
    match rules::lookup(id.trim()) {
        Some(rule) => Ok(explain_text(rule)),
        None => {
            let near = nearest(id);
            let hint = if near.is_empty() {
                "; docs/rules.md lists every rule".to_string()
            } else {
                format!("; did you mean {}?", near.join(", "))
            };
            Err(format!("unknown rule id {id:?}{hint}"))
        }
    }
}

/// `cmd`: the CLI's clap definition.
pub fn completions(mut cmd: clap::Command, shell: clap_complete::Shell) -> String {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "mcpward", &mut out);
    String::from_utf8_lossy(&out).trim_end().to_string()
}

pub fn man(cmd: clap::Command) -> Result<String, String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.version(crate::VERSION))
        .render(&mut out)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    Ok(String::from_utf8_lossy(&out).trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_ids_for_typos_and_bare_names() {
        assert_eq!(
            nearest("security/tool-shadowin")[0],
            "security/tool-shadowing"
        );
        assert_eq!(nearest("tool-shadowing")[0], "security/tool-shadowing");
        assert_eq!(nearest("drift/baseline-stal")[0], "drift/baseline-stale");
        assert!(nearest("zzzzzzzz/qqqqqq").is_empty());
    }

    #[test]
    fn every_rule_explains_with_its_docs() {
        for r in rules::all() {
            let t = explain_text(r);
            assert!(t.starts_with(r.id) && t.contains(r.description) && t.contains(r.fix));
        }
    }
}

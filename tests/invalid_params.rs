//! #12 §6: `errors/invalid-params` for a call that succeeds without its required arguments
//! is a `warn` by default at every protocol version (as in the original), and a `fail` with
//! `checks.errors: { invalid_params: strict }`.

mod common;
use common::*;

/// Only the error-contract family; `unknown_tool: either` so the `wrong-errors` table's
/// tool-error answer to the unknown tool passes and only the invalid-params verdicts remain.
fn cfg(tag: &str, fixture: &[&str], era: &str, invalid_params: Option<&str>) -> String {
    let policy = invalid_params
        .map(|p| format!(", invalid_params: {p}"))
        .unwrap_or_default();
    stdio_config(
        fixture,
        tag,
        &format!(
            "timeouts: {{connect_ms: 5000, call_ms: 3000, run_ms: 30000}}\nchecks:\n  compliance: false\n  schema: false\n  security: false\n  collision: {{enabled: false}}\n  errors: {{unknown_tool: either{policy}}}\n"
        ),
    )
    .replace("  protocol_era: legacy\n", &format!("  protocol_era: {era}\n"))
}

fn run(fixture: &[&str], era: &str, invalid_params: Option<&str>) -> (Option<i32>, Vec<String>) {
    let w = Workdir::new();
    let tag = unique_tag("invalid-params");
    w.write("mcpward.yaml", &cfg(&tag, fixture, era, invalid_params));
    let o = w.run(&["run", "--json"]);
    let r = json_report(&o);
    (o.status.code(), non_pass(&r))
}

/// (fixture args, era) for every protocol version the fixture speaks: before 2025-11-25,
/// 2025-11-25 and the stateless 2026-07-28.
fn versions(table: &str) -> Vec<(Vec<String>, &'static str)> {
    let base = vec!["--tools".to_string(), table.to_string()];
    let with = |extra: &[&str]| {
        let mut v = base.clone();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    vec![
        (with(&["--protocol-version", "2025-06-18"]), "legacy"),
        (with(&[]), "legacy"),
        (with(&["--era", "modern"]), "modern"),
    ]
}

#[test]
fn a_succeeding_call_warns_by_default_at_every_version() {
    for (args, era) in versions("wrong-errors") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for policy in [None, Some("warn")] {
            let (code, np) = run(&args, era, policy);
            assert!(
                np.contains(&"errors/invalid-params warn lenient_tool".to_string()),
                "{args:?} {policy:?}: {np:#?}"
            );
            assert!(
                !np.iter().any(|l| l.contains(" fail")),
                "{args:?} {policy:?}: {np:#?}"
            );
            assert_eq!(code, Some(0), "{args:?} {policy:?}: {np:#?}");
        }
    }
}

#[test]
fn strict_makes_a_succeeding_call_fail_at_every_version() {
    for (args, era) in versions("wrong-errors") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, np) = run(&args, era, Some("strict"));
        assert!(
            np.contains(&"errors/invalid-params fail lenient_tool".to_string()),
            "{args:?}: {np:#?}"
        );
        assert!(
            np.iter().any(|l| l.starts_with("errors/summary fail")),
            "{args:?}: {np:#?}"
        );
        assert_eq!(code, Some(1), "{args:?}: {np:#?}");
    }
}

#[test]
fn strict_is_silent_on_a_server_that_rejects_the_call() {
    for (args, era) in versions("clean") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, np) = run(&args, era, Some("strict"));
        assert!(
            !np.iter().any(|l| l.starts_with("errors/")),
            "{args:?}: {np:#?}"
        );
        assert_eq!(code, Some(0), "{args:?}: {np:#?}");
    }
}

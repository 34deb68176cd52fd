//! SARIF of real failing runs, as GitHub code scanning would ingest it: valid against the
//! SARIF 2.1.0 schema, accepted by GitHub's ingestion rules (every result located, rule ids
//! declared, a fingerprint per distinct finding), and stable from one run to the next.

mod common;
mod sarif_github;

use common::*;
use serde_json::Value;

fn tables(name: &str) -> String {
    format!("{}/fixtures/tables/{name}.json", env!("CARGO_MANIFEST_DIR"))
}

/// `mcpward run --reporter sarif` against the fixture with these arguments; the config
/// spells out `checks:` so findings have a key of their own to point at.
fn sarif_of(fixture_args: &[&str], extra: &str) -> (String, String) {
    let w = Workdir::new();
    let tag = unique_tag("sarif");
    let config = stdio_config(fixture_args, &tag, extra);
    w.write("mcpward.yaml", &config);
    let o = w.run(&["run", "--reporter", "sarif"]);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "exit {:?}: {}",
        o.status.code(),
        stderr(&o)
    );
    (String::from_utf8(o.stdout).unwrap(), config)
}

fn results(doc: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(doc).unwrap();
    v["runs"][0]["results"].as_array().unwrap().clone()
}

fn line_of(config: &str, key_line: &str) -> u64 {
    config
        .lines()
        .position(|l| l == key_line)
        .map(|i| i as u64 + 1)
        .unwrap_or_else(|| panic!("{key_line:?} not in\n{config}"))
}

const CHECKS: &str =
    "checks:\n  compliance: true\n  schema: true\n  security: true\n  errors:\n    unknown_tool: protocol_error\n";

#[test]
fn failing_runs_are_accepted_by_github_and_the_schema() {
    let poisoned = tables("poisoned");
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("poisoned", vec!["--tools-file", &poisoned]),
        ("malformed", vec!["--tools", "malformed"]),
        ("wrong-errors", vec!["--tools", "wrong-errors"]),
        (
            "no-server-info",
            vec!["--tools", "clean", "--behavior", "no-server-info"],
        ),
    ];
    let mut summaries = 0;
    for (what, args) in runs {
        let (doc, config) = sarif_of(&args, CHECKS);
        let schema = sarif_github::schema_problems(&doc);
        assert!(schema.is_empty(), "{what}: invalid SARIF: {schema:#?}");
        let github = sarif_github::github_problems(&doc);
        assert!(
            github.is_empty(),
            "{what}: GitHub would reject it: {github:#?}"
        );
        let rs = results(&doc);
        assert!(
            rs.iter().any(|r| r["level"] == "error"),
            "{what}: expected a failing run"
        );
        for r in &rs {
            let id = r["ruleId"].as_str().unwrap();
            let region = r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap();
            // Run-level results point at a key too: the family's line, else `server:`.
            let want = match id.split('-').next().unwrap() {
                "security" => line_of(&config, "  security: true"),
                "schema" => line_of(&config, "  schema: true"),
                "errors" if id == "errors-unknown-tool" => {
                    line_of(&config, "    unknown_tool: protocol_error")
                }
                "errors" => line_of(&config, "  errors:"),
                "compliance" => line_of(&config, "server:"),
                _ => continue,
            };
            assert_eq!(region, want, "{what}: {id} points at line {region}");
            if r.get("locations")
                .and_then(|l| l[0].get("logicalLocations"))
                .is_none()
            {
                summaries += 1;
            }
        }
    }
    // The defect this fixes: run-level results (summaries) used to carry no location.
    assert!(summaries > 0, "no run-level result was checked");
}

#[test]
fn fingerprints_are_stable_and_distinct() {
    let poisoned = tables("poisoned");
    let args = ["--tools-file", poisoned.as_str()];
    let prints = |doc: &str| -> Vec<(String, String)> {
        results(doc)
            .iter()
            .map(|r| {
                (
                    r["ruleId"].as_str().unwrap().to_string(),
                    r["partialFingerprints"]["primaryLocationLineHash"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                )
            })
            .collect()
    };
    let (first, _) = sarif_of(&args, CHECKS);
    let (second, _) = sarif_of(&args, CHECKS);
    let a = prints(&first);
    assert!(a.len() > 3, "{a:?}");
    assert_eq!(
        a,
        prints(&second),
        "fingerprints changed between identical runs"
    );
    let distinct: std::collections::BTreeSet<&(String, String)> = a.iter().collect();
    assert_eq!(distinct.len(), a.len(), "two results share a fingerprint");
}

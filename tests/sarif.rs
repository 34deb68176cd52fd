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

// ---------------------------------------------------------------- fleets (#15)

/// The JSON report of `mcpward run` against the fixture with these arguments.
fn report_of(fixture_args: &[&str]) -> mcpward::model::Report {
    let w = Workdir::new();
    let tag = unique_tag("sarif-fleet");
    w.write("mcpward.yaml", &stdio_config(fixture_args, &tag, CHECKS));
    let o = w.run(&["run", "--json"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    serde_json::from_value(json_report(&o)).unwrap()
}

/// A fleet of real failing runs: the poisoned listing on two servers (one of them in both
/// eras), the malformed one, and an unreachable server.
fn fleet_sarif() -> String {
    use mcpward::model::{FleetMember, FleetReport};
    let poisoned = tables("poisoned");
    let p = report_of(&["--tools-file", &poisoned]);
    let m = report_of(&["--tools", "malformed"]);
    let mut lanes = p.clone();
    let modern: Vec<_> = p
        .results
        .iter()
        .cloned()
        .map(|mut f| {
            f.era = Some("modern".into());
            f
        })
        .collect();
    for f in &mut lanes.results {
        f.era = Some("legacy".into());
    }
    lanes.results.extend(modern);
    lanes.summary = mcpward::model::Summary::of(&lanes.results);
    let fleet = FleetReport::new(
        vec![
            "one".into(),
            "two".into(),
            "both".into(),
            "bad".into(),
            "gone".into(),
        ],
        None,
        vec![
            FleetMember::tested("one", p.clone(), vec![]),
            FleetMember::tested("two", p, vec![]),
            FleetMember::tested("both", lanes, vec![]),
            FleetMember::tested("bad", m, vec![]),
            FleetMember::incomplete("gone", "connect: connection refused", None),
        ],
        vec![],
        "2024-01-15T10:30:00.000Z".into(),
    );
    mcpward::report::render_fleet(
        mcpward::report::ReporterKind::Sarif,
        &fleet,
        &mcpward::report::RenderContext::default().with_artifact_path("ci/fleet.yaml"),
    )
}

#[test]
fn fleet_sarif_is_one_run_github_accepts_with_an_alert_per_server_and_era() {
    let doc = fleet_sarif();
    let schema = sarif_github::schema_problems(&doc);
    assert!(schema.is_empty(), "invalid SARIF: {schema:#?}");
    let github = sarif_github::github_problems(&doc);
    assert!(github.is_empty(), "GitHub would reject it: {github:#?}");
    let v: Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(
        v["runs"].as_array().unwrap().len(),
        1,
        "one run for the fleet"
    );
    let rs = results(&doc);
    let server_of = |r: &Value| {
        r["locations"][0]["logicalLocations"][0]["name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let of = |name: &str| rs.iter().filter(|r| server_of(r) == name).count();
    let (one, two, both) = (of("one"), of("two"), of("both"));
    assert!(
        one > 3 && one == two && both == 2 * one,
        "{one} {two} {both}"
    );
    for r in &rs {
        let name = server_of(r);
        assert_eq!(r["locations"][0]["logicalLocations"][0]["kind"], "server");
        assert!(r["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("[{name}] ")));
    }
    // The same finding on two servers and in two eras: distinct fingerprints (the GitHub
    // check above already refuses shared ones), and the same from one rendering to the next.
    let prints = |doc: &str| -> Vec<String> {
        results(doc)
            .iter()
            .map(|r| {
                r["partialFingerprints"]["primaryLocationLineHash"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let a = prints(&doc);
    assert_eq!(
        a.iter().collect::<std::collections::BTreeSet<_>>().len(),
        a.len()
    );
    assert!(
        a.iter().all(|p| p.ends_with(":1")),
        "server and era keep them apart: {a:?}"
    );
    assert_eq!(
        a,
        prints(&fleet_sarif()),
        "fingerprints changed between identical runs"
    );
    let note = &v["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(
        note["message"]["text"],
        "[gone] not fully tested: connect: connection refused"
    );
}

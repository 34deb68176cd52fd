//! Security and collision families end to end: the fixture server serves the poisoned
//! table across two pages, the smuggling and collision tables, over stdio and HTTP; the
//! findings equal those of the pure checks on the same tables (tests/fixture_tables.rs pins
//! those exactly).

mod common;
use common::*;
use mcpward::checks::{collision, security};
use serde_json::Value;

const ONLY: &str = "checks:\n  compliance: false\n  schema: false\n  errors: false\n";

fn table_path(name: &str) -> String {
    format!("{}/fixtures/tables/{name}.json", env!("CARGO_MANIFEST_DIR"))
}

fn table(name: &str) -> Vec<Value> {
    serde_json::from_str(&std::fs::read_to_string(table_path(name)).unwrap()).unwrap()
}

fn family(report: &Value, fam: &str) -> Vec<(String, String, String, String)> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["family"] == fam)
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["status"].as_str().unwrap().to_string(),
                r["location"].as_str().unwrap_or("").to_string(),
                r["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn pure(fs: &[mcpward::model::Finding]) -> Vec<(String, String, String, String)> {
    let v = serde_json::to_value(fs).unwrap();
    family(
        &serde_json::json!({ "results": v }),
        fs.first().map(|f| f.family.as_str()).unwrap_or(""),
    )
}

fn run_stdio(args: &[&str]) -> Value {
    let w = Workdir::new();
    let tag = unique_tag("sec");
    w.write("mcpward.yaml", &stdio_config(args, &tag, ONLY));
    let o = w.run(&["run", "--json"]);
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "{}",
        stderr(&o)
    );
    json_report(&o)
}

#[test]
fn poisoned_tools_on_page_two_are_found_over_both_transports() {
    let path = table_path("poisoned");
    let want = pure(&security::check(&Ok(table("poisoned"))));
    assert!(!want.iter().any(|f| f.2 == "clean_tool"));
    let stdio = run_stdio(&["--tools-file", &path, "--page-size", "5"]);
    assert_eq!(family(&stdio, "security"), want);
    // Page 2 really is page 2: tools after the fifth are flagged.
    assert!(want.iter().any(|f| f.2.starts_with("nested_injector")));

    let server = HttpFixture::start(&["--tools-file", &path, "--page-size", "5"]);
    let w = Workdir::new();
    w.write("mcpward.yaml", &http_config(&server.url, ONLY));
    let http = json_report(&w.run(&["run", "--json"]));
    assert_eq!(family(&http, "security"), want);
}

#[test]
fn smuggled_tag_text_is_decoded_and_valid_flags_are_silent() {
    let r = run_stdio(&["--tools-file", &table_path("smuggling")]);
    let sec = family(&r, "security");
    assert!(
        !sec.iter()
            .any(|f| f.2 == "england_flag" || f.2 == "scotland_flag"),
        "{sec:#?}"
    );
    assert_eq!(sec, pure(&security::check(&Ok(table("smuggling")))));
}

#[test]
fn one_true_collision_and_silent_negative_families() {
    let r = run_stdio(&["--tools-file", &table_path("collision")]);
    let col = family(&r, "collision");
    let hits: Vec<_> = col
        .iter()
        .filter(|f| f.0 == "collision/description-collision")
        .collect();
    assert_eq!(hits.len(), 1, "{col:#?}");
    assert!(hits[0].3.contains("find_orders") && hits[0].3.contains("search_orders"));
    assert_eq!(hits[0].1, "warn");
    assert_eq!(
        col,
        pure(&collision::check(
            &Ok(table("collision")),
            &collision::CollisionConfig::default()
        ))
    );
}

#[test]
fn clean_fixture_has_no_security_or_collision_findings() {
    let r = run_stdio(&["--tools", "clean"]);
    for fam in ["security", "collision"] {
        // Exactly the family's passing summary: nothing found, and the family did run.
        let ids: Vec<(String, String)> = family(&r, fam).into_iter().map(|f| (f.0, f.1)).collect();
        assert!(
            ids == [(format!("{fam}/summary"), "pass".to_string())],
            "{fam}: {:#?}",
            family(&r, fam)
        );
    }
}

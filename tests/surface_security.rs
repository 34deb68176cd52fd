//! Security and collision families on the whole surface (#14), end to end: the fixture server
//! serves poisoned prompts, resources, a template and instructions
//! (`tests/fixtures/surface/poisoned.json`) and a clean surface (`full.json`), over stdio, HTTP
//! and the modern era; every transport and era gives the same findings.

mod common;
use common::*;
use serde_json::Value;

const ONLY: &str = "checks:\n  compliance: false\n  schema: false\n  errors: false\n";

fn surface_path(name: &str) -> String {
    format!(
        "{}/tests/fixtures/surface/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// (id, status, location) of a family's results, in report order.
fn family(report: &Value, fam: &str) -> Vec<(String, String, String)> {
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
            )
        })
        .collect()
}

fn run(cfg: &str) -> Value {
    let w = Workdir::new();
    w.write("mcpward.yaml", cfg);
    let o = w.run(&["run", "--json"]);
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "{}",
        stderr(&o)
    );
    json_report(&o)
}

fn stdio(args: &[&str], era: &str) -> Value {
    let tag = unique_tag("surface-sec");
    let mut all = args.to_vec();
    all.extend(["--era", era]);
    let cfg = stdio_config(&all, &tag, ONLY)
        .replace("protocol_era: legacy", &format!("protocol_era: {era}"));
    run(&cfg)
}

fn http(args: &[&str]) -> Value {
    let server = HttpFixture::start(args);
    run(&http_config(&server.url, ONLY))
}

fn triple(id: &str, status: &str, loc: &str) -> (String, String, String) {
    (id.to_string(), status.to_string(), loc.to_string())
}

#[test]
fn poisoned_surface_is_found_the_same_everywhere() {
    let path = surface_path("poisoned");
    let args = [
        "--tools",
        "clean",
        "--surface-file",
        &path,
        "--page-size",
        "2",
    ];
    let legacy = stdio(&args, "legacy");
    let got = family(&legacy, "security");
    let fail = |id: &str, loc: &str| triple(id, "fail", loc);
    let want = vec![
        triple("security/summary", "fail", ""),
        fail("security/injection-pattern", "instructions"),
        fail("security/hidden-unicode", "prompt:review_code"),
        fail("security/injection-pattern", "prompt:review_code.arg.code"),
        fail("security/secret-in-schema", "prompt:review_code"),
        // Mixed scripts in one word are hidden-unicode's too, as for a tool name.
        fail("security/hidden-unicode", "prompt:summ\u{430}rise"),
        fail("security/confusable-name", "prompt:summ\u{430}rise"),
        fail("security/tool-shadowing", "prompt:translate"),
        fail(
            "security/hidden-unicode",
            "resource:file:///notes/se\u{200b}crets.txt",
        ),
        fail("security/command-execution", "resource:mem://setup"),
        fail(
            "security/injection-pattern",
            "resource_template:file:///notes/{name}",
        ),
    ];
    // Each expected finding is there (a place may carry more than one hit of a rule).
    for w in &want {
        assert!(got.contains(w), "missing {w:?} in {got:#?}");
    }
    assert_eq!(got[0], want[0]);
    // The clean prompt, the clean resource and the clean tools stay silent.
    for quiet in ["prompt:summarise", "resource:file:///notes/readme.md"] {
        assert!(
            !got.iter().any(|f| f.2.starts_with(quiet)),
            "{quiet}: {got:#?}"
        );
    }
    assert!(!got
        .iter()
        .any(|f| f.1 == "fail" && !f.2.is_empty() && !f.2.contains(':') && f.2 != "instructions"));
    let summary = legacy["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "security/summary")
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        summary.contains(
            "4 prompt(s), 3 resource(s), 1 resource template(s) and the server instructions"
        ),
        "{summary}"
    );

    // Same findings over HTTP (JSON and SSE answers) and in the modern era (the
    // instructions come from server/discover), also modern over HTTP.
    assert_eq!(family(&http(&args), "security"), got);
    let sse: Vec<&str> = args.iter().copied().chain(["--behavior", "sse"]).collect();
    assert_eq!(family(&http(&sse), "security"), got);
    assert_eq!(family(&stdio(&args, "modern"), "security"), got);
    let modern: Vec<&str> = args.iter().copied().chain(["--era", "modern"]).collect();
    let server = HttpFixture::start(&modern);
    let cfg =
        http_config(&server.url, ONLY).replace("protocol_era: legacy", "protocol_era: modern");
    assert!(cfg.contains("protocol_era: modern"), "{cfg}");
    assert_eq!(family(&run(&cfg), "security"), got);
}

#[test]
fn clean_surface_is_silent() {
    let path = surface_path("full");
    let args = ["--tools", "clean", "--surface-file", &path];
    for report in [stdio(&args, "legacy"), http(&args), stdio(&args, "modern")] {
        for fam in ["security", "collision"] {
            let got = family(&report, fam);
            assert_eq!(
                got,
                [triple(&format!("{fam}/summary"), "pass", "")],
                "{fam}"
            );
        }
        let msg = |fam: &str| {
            report["results"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["id"] == format!("{fam}/summary"))
                .unwrap()["message"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert!(
            msg("security").contains(
                "2 prompt(s), 3 resource(s), 1 resource template(s) and the server instructions"
            ),
            "{}",
            msg("security")
        );
        assert!(
            msg("collision").contains("and 2 prompt(s)"),
            "{}",
            msg("collision")
        );
    }
}

#[test]
fn a_declared_list_that_fails_cannot_be_scanned() {
    let w = Workdir::new();
    let file = w.write(
        "surface.json",
        r#"{"prompts": [{"name": "p", "description": "A prompt."}], "fail": ["prompts/list"]}"#,
    );
    let file = file.display().to_string();
    let r = stdio(&["--tools", "clean", "--surface-file", &file], "legacy");
    let got = family(&r, "security");
    assert!(
        got.contains(&triple("security/list-surface", "fail", "")),
        "{got:#?}"
    );
    assert_eq!(got[0], triple("security/summary", "fail", ""));
}

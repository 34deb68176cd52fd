//! `mcpward baseline` / `mcpward diff` end to end against fixture servers serving the
//! drift tables (fixtures/tables/drift-v1.json, drift-v2.json) and the lockfile.md §4.4
//! example tools.

mod common;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn table(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/tables")
        .join(name)
        .display()
        .to_string()
}

fn config(w: &Workdir, file: &str, name: &str, fixture_args: &[&str], drift: &str) {
    let tag = unique_tag("drift");
    let mut args = vec!["--tools-file", file];
    args.extend_from_slice(fixture_args);
    w.write(
        name,
        &stdio_config(
            &args,
            &tag,
            &format!("checks:\n  drift:\n    baseline: ./mcpward.lock.json\n{drift}"),
        ),
    );
}

fn failing(report: &Value) -> Vec<String> {
    let mut v: Vec<String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "fail" && r["id"] != "drift/summary")
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v.dedup();
    v
}

fn ids(report: &Value) -> Vec<(String, String, String)> {
    triples(report)
}

#[test]
fn readme_example_baseline_then_diff() {
    let w = Workdir::new();
    config(&w, &table("drift-v1.json"), "v1.yaml", &[], "");
    config(&w, &table("drift-v2.json"), "v2.yaml", &[], "");
    let o = w.run(&["baseline", "-c", "v1.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("✓ Captured 18 tool(s)"), "{out}");
    assert!(out.contains("  • read_data [readOnly]"), "{out}");

    // Unchanged server: no drift, exit 0.
    let o = w.run(&["diff", "-c", "v1.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r = json_report(&o);
    assert_eq!(
        ids(&r),
        vec![("drift/no-changes".into(), "pass".into(), String::new())]
    );

    // Drifted server: every class, exit 1.
    let o = w.run(&["diff", "-c", "v2.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let r = json_report(&o);
    let got = ids(&r);
    let has = |id: &str, status: &str, loc: &str| {
        got.iter()
            .any(|(i, s, l)| i == id && s == status && l == loc)
    };
    assert!(
        has("drift/tool_removed", "fail", "removed_tool"),
        "{got:#?}"
    );
    assert!(has("drift/description_changed", "fail", "echo"), "{got:#?}");
    assert!(has(
        "drift/description_changed",
        "fail",
        "deep_param_description"
    ));
    assert!(has(
        "drift/description_changed",
        "fail",
        "combinator_description"
    ));
    assert!(has("drift/description_changed", "fail", "root_description"));
    assert!(has("drift/breaking_schema_change", "fail", "compute"));
    assert!(has("drift/breaking_schema_change", "fail", "nested_filter"));
    assert!(has("drift/breaking_schema_change", "fail", "rows_tool"));
    assert!(has("drift/annotation_changed", "fail", "read_data"));
    assert!(has("drift/annotation_changed", "fail", "open_world"));
    assert!(got
        .iter()
        .any(|(i, s, _)| i == "drift/tool_added" && s != "fail"));
    assert!(got
        .iter()
        .any(|(i, s, _)| i == "drift/nonbreaking_schema_change" && s != "fail"));
    // A description changed only by whitespace/CRLF is not drift.
    assert!(!got
        .iter()
        .any(|(_, _, l)| l == "whitespace_only" || l == "stable_tool"));
    // Description changes carry the full before/after text.
    let echo = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "drift/description_changed" && x["location"] == "echo")
        .unwrap();
    assert_eq!(
        echo["expected"],
        "Original description: echoes back the message."
    );
    assert_eq!(
        echo["actual"],
        "Modified description: now it also logs the message internally."
    );
}

#[test]
fn fail_on_and_severity_policies() {
    let cases: [(&str, Vec<&str>); 3] = [
        (
            "    fail_on: high\n",
            vec!["drift/annotation_changed", "drift/description_changed"],
        ),
        ("    fail_on: [tool_removed]\n", vec!["drift/tool_removed"]),
        (
            "    fail_on: high\n    severity:\n      tool_removed: high\n",
            vec![
                "drift/annotation_changed",
                "drift/description_changed",
                "drift/tool_removed",
            ],
        ),
    ];
    for (policy, want) in cases {
        let w = Workdir::new();
        config(&w, &table("drift-v1.json"), "v1.yaml", &[], policy);
        config(&w, &table("drift-v2.json"), "v2.yaml", &[], policy);
        assert_eq!(w.run(&["baseline", "-c", "v1.yaml"]).status.code(), Some(0));
        let o = w.run(&["diff", "-c", "v2.yaml", "--json"]);
        assert_eq!(o.status.code(), Some(1), "{policy}");
        assert_eq!(failing(&json_report(&o)), want, "{policy}");
    }
}

fn example_server_args() -> Vec<String> {
    vec![
        "--server-name".into(),
        "drift-server".into(),
        "--capabilities".into(),
        r#"{"tools":{},"resources":{},"prompts":{}}"#.into(),
    ]
}

/// Replace the members that legitimately differ between captures.
fn normalise(text: &str, like: &Value) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    for k in ["capturedAt", "mcpwardVersion", "target", "environment"] {
        v["meta"][k] = like["meta"][k].clone();
    }
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn original_lockfile_compatibility() {
    let example_path = table("lockfile-example.lock.json");
    let example_text = std::fs::read_to_string(&example_path).unwrap();
    let example: Value = serde_json::from_str(&example_text).unwrap();
    let extra = example_server_args();
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();

    // 1. A capture of the same tools is the original's file, byte for byte, apart from
    //    capturedAt, mcpwardVersion, target and environment.
    let w = Workdir::new();
    config(
        &w,
        &table("lockfile-example-tools.json"),
        "m.yaml",
        &extra,
        "",
    );
    let o = w.run(&["baseline", "-c", "m.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let ours = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
    // The layout is JSON.stringify(x, null, 2): same as serde's pretty printer here.
    assert_eq!(
        normalise(&ours, &example),
        serde_json::to_string_pretty(&example).unwrap()
    );
    assert_eq!(
        ours.lines().count(),
        example_text.lines().count(),
        "same layout line for line"
    );

    // 2. The original's file used as the baseline diffs clean.
    std::fs::write(w.path().join("mcpward.lock.json"), &example_text).unwrap();
    let o = w.run(&["diff", "-c", "m.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The only addition to the original's result is #16's reminder that the file is old.
    assert_eq!(
        ids(&json_report(&o)),
        vec![
            ("drift/baseline-stale".into(), "warn".into(), String::new()),
            ("drift/no-changes".into(), "pass".into(), String::new())
        ]
    );
}

#[test]
fn legacy_v1_lockfile_migrates_and_diffs_clean() {
    let w = Workdir::new();
    let tools: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(table("lockfile-example-tools.json")).unwrap(),
    )
    .unwrap();
    let read_data: Vec<&Value> = tools.iter().filter(|t| t["name"] == "read_data").collect();
    let file = w.write("tools.json", &serde_json::to_string(&read_data).unwrap());
    let extra = example_server_args();
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    config(&w, &file.display().to_string(), "m.yaml", &extra, "");
    let v1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/lockfiles/legacy-v1.lock.json");
    std::fs::copy(v1, w.path().join("mcpward.lock.json")).unwrap();
    let o = w.run(&["diff", "-c", "m.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The only addition to the original's result is #16's reminder that the file is old.
    assert_eq!(
        ids(&json_report(&o)),
        vec![
            ("drift/baseline-stale".into(), "warn".into(), String::new()),
            ("drift/no-changes".into(), "pass".into(), String::new())
        ]
    );
    assert!(
        stderr(&o).to_lowercase().contains("v1"),
        "migration notice: {}",
        stderr(&o)
    );
}

#[test]
fn diff_without_usable_baseline_exits_2() {
    let w = Workdir::new();
    config(&w, &table("drift-v1.json"), "v1.yaml", &[], "");
    let o = w.run(&["diff", "-c", "v1.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o)
        .contains("baseline not found at ./mcpward.lock.json; run `mcpward baseline` first"));
    assert!(o.stdout.is_empty());

    // Inside `run`, a missing baseline is a skip (exit 0).
    let o = w.run(&["run", "-c", "v1.yaml", "--json"]);
    let r = json_report(&o);
    assert!(ids(&r)
        .iter()
        .any(|(i, s, _)| i == "drift/baseline-missing" && s == "skip"));

    // Corrupt JSON: a drift/baseline-invalid finding naming the problem, exit 2.
    w.write(
        "mcpward.lock.json",
        "{\"tools\": 42, \"meta\": {\"schemaVersion\": 2}}",
    );
    let o = w.run(&["diff", "-c", "v1.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let r = json_report(&o);
    let f = &r["results"][0];
    assert_eq!(f["id"], "drift/baseline-invalid");
    assert!(f["message"].as_str().unwrap().contains("$."), "{f}");

    w.write("mcpward.lock.json", "not json at all");
    assert_eq!(w.run(&["diff", "-c", "v1.yaml"]).status.code(), Some(2));

    // A newer schemaVersion is refused (read while the server starts; reported first).
    w.write(
        "mcpward.lock.json",
        "{\"protocolVersion\":\"x\",\"capabilities\":{},\"tools\":{},\"meta\":{\"schemaVersion\":3}}",
    );
    let o = w.run(&["diff", "-c", "v1.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("schemaVersion 3 is newer than this mcpward supports (2)"),
        "{}",
        stderr(&o)
    );
}

/// A baseline killed mid-write (file-size limit hit while writing the temp file) leaves
/// the previous lockfile intact.
#[test]
fn interrupted_baseline_keeps_the_previous_lockfile() {
    let w = Workdir::new();
    config(&w, &table("drift-v1.json"), "v1.yaml", &[], "");
    let previous = "{\"previous\": \"lockfile\"}";
    w.write("mcpward.lock.json", previous);
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 4; exec {:?} baseline -c v1.yaml",
            mcpward().display().to_string()
        ))
        .current_dir(w.path())
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0), "the write must have been cut off");
    assert_eq!(
        std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap(),
        previous
    );
}

/// A baseline captured in one era diffs clean against the same server in the other era;
/// the era change is a non-failing warning.
#[test]
fn baseline_in_one_era_diffs_clean_in_the_other() {
    let w = Workdir::new();
    let file = table("drift-v1.json");
    config(&w, &file, "legacy.yaml", &["--era", "dual"], "");
    let modern = std::fs::read_to_string(w.path().join("legacy.yaml"))
        .unwrap()
        .replace("protocol_era: legacy", "protocol_era: modern");
    w.write("modern.yaml", &modern);
    // Both directions: legacy baseline against modern, then modern against legacy.
    for (base, other) in [
        ("legacy.yaml", "modern.yaml"),
        ("modern.yaml", "legacy.yaml"),
    ] {
        assert_eq!(w.run(&["baseline", "-c", base]).status.code(), Some(0));
        let o = w.run(&["diff", "-c", other, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{base}: {}", stderr(&o));
        let got = ids(&json_report(&o));
        assert!(
            got.iter()
                .any(|(i, s, _)| i == "drift/protocol-era-changed" && s == "warn"),
            "{base}: {got:#?}"
        );
        assert!(
            got.iter().any(|(i, _, _)| i == "drift/no-changes"),
            "{base}: {got:#?}"
        );
    }
}

/// Output-shape drift (opt-in): read-only tools are sampled, the destructive one never is;
/// a type change in the output is breaking, an added field is not.
#[test]
fn output_shape_drift_end_to_end() {
    let w = Workdir::new();
    let output = "    output:\n      enabled: true\n      shape_samples: 2\n";
    let rec1 = w.path().join("rec1.jsonl").display().to_string();
    let rec2 = w.path().join("rec2.jsonl").display().to_string();
    config(
        &w,
        &table("output-v1.json"),
        "v1.yaml",
        &["--record", &rec1],
        output,
    );
    config(
        &w,
        &table("output-v2.json"),
        "v2.yaml",
        &["--record", &rec2],
        output,
    );
    let o = w.run(&["baseline", "-c", "v1.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = w.run(&["diff", "-c", "v2.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let got = ids(&json_report(&o));
    assert!(got.contains(&(
        "drift/breaking_output_shape_change".into(),
        "fail".into(),
        "get_weather".into()
    )));
    assert!(got
        .iter()
        .any(|(i, s, l)| i == "drift/nonbreaking_output_shape_change"
            && s != "fail"
            && l == "list_items"));
    assert!(got
        .iter()
        .any(|(i, _, l)| i == "drift/output-sampling" && l == "delete_item"));
    for rec in [&rec1, &rec2] {
        let text = std::fs::read_to_string(rec).unwrap();
        assert!(text.contains("get_weather"));
        assert!(
            !text
                .lines()
                .any(|l| l.contains("tools/call") && l.contains("delete_item")),
            "the destructive tool was called"
        );
    }
    // Listed in `fail_on`, the non-breaking shape change fails as well.
    let strict = format!("{output}    fail_on: [nonbreaking_output_shape_change]\n");
    config(&w, &table("output-v2.json"), "strict.yaml", &[], &strict);
    let o = w.run(&["diff", "-c", "strict.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(ids(&json_report(&o)).contains(&(
        "drift/nonbreaking_output_shape_change".into(),
        "fail".into(),
        "list_items".into()
    )));
}

/// `baseline` and `diff` read listings as text on every wire: plain HTTP JSON answers, SSE
/// answers and the modern era capture exactly what stdio does.
#[test]
fn baseline_and_diff_agree_across_transports() {
    let lock_tools = |w: &Workdir| -> Value {
        let text = std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["tools"].clone()
    };
    let drift = "checks:\n  drift:\n    baseline: ./mcpward.lock.json\n";
    let v1 = table("drift-v1.json");
    let v2 = table("drift-v2.json");

    let w = Workdir::new();
    config(&w, &v1, "v1.yaml", &[], "");
    config(&w, &v2, "v2.yaml", &[], "");
    assert_eq!(w.run(&["baseline", "-c", "v1.yaml"]).status.code(), Some(0));
    let want_tools = lock_tools(&w);
    let o = w.run(&["diff", "-c", "v2.yaml", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let want_failing = failing(&json_report(&o));

    for (extra, era) in [
        (vec![], "legacy"),
        (vec!["--behavior", "sse"], "legacy"),
        (vec!["--era", "modern"], "modern"),
    ] {
        let http = |file: &str| {
            let mut args = vec!["--tools-file", file];
            args.extend(extra.iter().copied());
            HttpFixture::start(&args)
        };
        let (s1, s2) = (http(&v1), http(&v2));
        let w = Workdir::new();
        let cfg = |url: &str| {
            http_config(url, drift).replace("protocol_era: legacy", &format!("protocol_era: {era}"))
        };
        w.write("v1.yaml", &cfg(&s1.url));
        w.write("v2.yaml", &cfg(&s2.url));
        let o = w.run(&["baseline", "-c", "v1.yaml"]);
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {}", stderr(&o));
        assert_eq!(lock_tools(&w), want_tools, "{extra:?}");
        let o = w.run(&["diff", "-c", "v2.yaml", "--json"]);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", stderr(&o));
        assert_eq!(failing(&json_report(&o)), want_failing, "{extra:?}");
    }
}

use super::*;
use crate::checks::tool_args::ToolArgs;
use crate::observed::Era;
use crate::surface::capture::tests::{hello, opts, tools_of};
use crate::surface::capture::{capture, CaptureOptions};
use crate::surface::lockfile::{parse, Loaded};
use crate::surface::shape::{NoteStatus, Source};
use serde_json::json;

const V1: &str = include_str!("../../../fixtures/tables/drift-v1.json");
const V2: &str = include_str!("../../../fixtures/tables/drift-v2.json");

fn lock(tools: &[Value], o: &CaptureOptions) -> Lockfile {
    capture(&hello(Era::Legacy), tools, o).unwrap()
}

fn loaded(lf: Lockfile) -> BaselineState {
    BaselineState::Loaded(Box::new(Loaded {
        lockfile: lf,
        warnings: vec![],
    }))
}

fn rows(fs: &[Finding]) -> Vec<(String, Status, Severity, String)> {
    fs.iter()
        .map(|f| (f.id.clone(), f.status, f.severity, f.message.clone()))
        .collect()
}

fn row(id: &str, st: Status, sev: Severity, msg: &str) -> (String, Status, Severity, String) {
    (id.to_string(), st, sev, msg.to_string())
}

/// The README scenario (drift.md §8): the six original tools of the drift fixture.
fn readme_pair() -> (Lockfile, Lockfile) {
    let keep = [
        "removed_tool",
        "echo",
        "compute",
        "query",
        "read_data",
        "stable_tool",
        "added_tool",
    ];
    let pick = |text: &str| -> Vec<Value> {
        tools_of(text)
            .into_iter()
            .filter(|t| keep.contains(&t["name"].as_str().unwrap_or("")))
            .collect()
    };
    (lock(&pick(V1), &opts()), lock(&pick(V2), &opts()))
}

#[test]
fn readme_scenario_default_policy() {
    use Severity::*;
    use Status::*;
    let (b, c) = readme_pair();
    let fs = check(&loaded(b), &c, &DriftConfig::default());
    assert_eq!(
            rows(&fs),
            vec![
                row("drift/summary", Fail, Error, "Drift detected: 4 failing change(s) out of 6 total"),
                row("drift/tool_removed", Fail, Error, "Tool \"removed_tool\" was removed"),
                row("drift/tool_added", Pass, Info, "Tool \"added_tool\" was added"),
                row("drift/description_changed", Fail, Error, "Tool \"echo\" description changed (possible rug-pull)"),
                row("drift/breaking_schema_change", Fail, Error, "Tool \"compute\" inputSchema added required property \"multiplier\""),
                row("drift/nonbreaking_schema_change", Pass, Info, "Tool \"query\" inputSchema added optional property \"limit\""),
                row("drift/annotation_changed", Fail, Error, "Tool \"read_data\" readOnlyHint changed from true to false (tool may now mutate state)"),
            ]
        );
    assert_eq!(fs[0].actual, Some(json!("4 breaking, 2 non-breaking")));
    assert_eq!(fs[0].expected, Some(json!("No breaking changes")));
    assert_eq!(crate::model::exit_code_of(&fs), 1);
    // Descriptions carry the full before/after text.
    assert_eq!(
        fs[3].expected,
        Some(json!("Original description: echoes back the message."))
    );
    assert_eq!(
        fs[3].actual,
        Some(json!(
            "Modified description: now it also logs the message internally."
        ))
    );
    assert_eq!(fs[3].location.as_deref(), Some("echo"));
    assert_eq!(
        fs[1]
            .expected
            .as_ref()
            .and_then(|e| e.get("descriptionHash")),
        Some(&json!(
            "sha256:146c1091fd2bf29e67d58c514c355e50d77c30b61523237b459de48d2d805ff8"
        ))
    );
    assert_eq!(fs[1].actual, None);
}

#[test]
fn fail_on_high_fails_only_description_and_annotation() {
    use Severity::*;
    use Status::*;
    let (b, c) = readme_pair();
    let policy = DriftConfig {
        fail_on: FailOn::Level(Level::High),
        ..Default::default()
    };
    let fs = check(&loaded(b), &c, &policy);
    let got: Vec<(&str, Status, Severity)> = fs
        .iter()
        .map(|f| (f.id.as_str(), f.status, f.severity))
        .collect();
    assert_eq!(
        got,
        vec![
            ("drift/summary", Fail, Error),
            ("drift/tool_removed", Pass, Info),
            ("drift/tool_added", Pass, Info),
            ("drift/description_changed", Fail, Error),
            ("drift/breaking_schema_change", Pass, Warning),
            ("drift/nonbreaking_schema_change", Pass, Info),
            ("drift/annotation_changed", Fail, Error),
        ]
    );
    assert_eq!(
        fs[0].message,
        "Drift detected: 2 failing change(s) out of 6 total"
    );
}

#[test]
fn fail_on_class_list_and_overrides() {
    let (b, c) = readme_pair();
    let base = loaded(b);
    let failing = |p: &DriftConfig| -> Vec<String> {
        check(&base, &c, p)
            .into_iter()
            .filter(|f| f.status == Status::Fail && f.id != "drift/summary")
            .map(|f| f.id)
            .collect()
    };
    let list = DriftConfig {
        fail_on: FailOn::Classes(vec![DriftClass::ToolRemoved]),
        ..Default::default()
    };
    assert_eq!(failing(&list), ["drift/tool_removed"]);
    // Outside the list, a high change is warn/error; the summary still says non-breaking.
    let fs = check(
        &base,
        &c,
        &DriftConfig {
            fail_on: FailOn::Classes(vec![]),
            ..Default::default()
        },
    );
    assert_eq!(fs[0].message, "Drift detected: 6 non-breaking change(s)");
    assert_eq!(
        (fs[0].status, fs[0].severity),
        (Status::Pass, Severity::Info)
    );
    let desc = fs
        .iter()
        .find(|f| f.id == "drift/description_changed")
        .unwrap();
    assert_eq!(
        (desc.status, desc.severity),
        (Status::Warn, Severity::Error)
    );
    // severity: {tool_removed: high} moves a removal into fail_on: high.
    let high = DriftConfig {
        fail_on: FailOn::Level(Level::High),
        ..Default::default()
    };
    assert!(!failing(&high).contains(&"drift/tool_removed".to_string()));
    let mut overridden = high.clone();
    overridden
        .severity
        .insert(DriftClass::ToolRemoved, Level::High);
    assert!(failing(&overridden).contains(&"drift/tool_removed".to_string()));
    // Thresholds: high 2, medium 3 (+breaking), low all 6.
    let n = |l: Level| {
        failing(&DriftConfig {
            fail_on: FailOn::Level(l),
            ..Default::default()
        })
        .len()
    };
    assert_eq!((n(Level::High), n(Level::Medium), n(Level::Low)), (2, 3, 6));
}

#[test]
fn unchanged_server_and_round_trip() {
    let tools = tools_of(V1);
    let b = lock(&tools, &opts());
    // Write, read back, diff against a fresh capture (lockfile.md §11.1).
    let back = parse(&b.render()).unwrap();
    assert!(back.warnings.is_empty());
    assert_eq!(back.lockfile.meta.canonical_version, 2);
    let fs = check(
        &BaselineState::Loaded(Box::new(back)),
        &lock(&tools, &opts()),
        &DriftConfig::default(),
    );
    assert_eq!(
        rows(&fs),
        vec![row(
            "drift/no-changes",
            Status::Pass,
            Severity::Info,
            "No drift detected. Server surface matches baseline."
        )]
    );
}

#[test]
fn baseline_missing_and_invalid() {
    let c = lock(&[], &opts());
    let fs = check(
        &BaselineState::Missing {
            path: "./mcpward.lock.json".into(),
        },
        &c,
        &DriftConfig::default(),
    );
    assert_eq!(
        rows(&fs),
        vec![row(
            "drift/baseline-missing",
            Status::Skip,
            Severity::Warning,
            "Baseline file not found: ./mcpward.lock.json. Run 'mcpward baseline' first."
        )]
    );
    assert_eq!(fs[0].expected, Some(json!("Baseline lockfile")));
    assert_eq!(fs[0].actual, Some(json!("File not found")));
    let err =
        parse(r#"{"meta":{"schemaVersion":2},"tools":{"a":{"descriptionHash":1}}}"#).unwrap_err();
    let fs = check(&BaselineState::Invalid(err), &c, &DriftConfig::default());
    assert_eq!(rows(&fs), vec![row("drift/baseline-invalid", Status::Fail, Severity::Error,
            "Failed to load baseline: invalid lockfile at $.tools.a.descriptionHash: expected a string, found number")]);
    assert_eq!(fs[0].expected, Some(json!("Valid JSON lockfile")));
    let f = capture_failed("Tool \"deep\" inputSchema: Schema exceeds maximum depth of 64 (untrusted input protection)");
    assert_eq!(
        (f.id.as_str(), f.status),
        ("drift/capture-failed", Status::Fail)
    );
    assert!(f
        .message
        .starts_with("Failed to capture server surface: Tool \"deep\""));
}

#[test]
fn legacy_v1_baseline_diffs_clean() {
    let legacy = include_str!("../../../fixtures/lockfiles/legacy-v1.lock.json");
    let loaded = parse(legacy).unwrap();
    assert_eq!(loaded.warnings.len(), 2);
    let tools: Vec<Value> = tools_of(include_str!(
        "../../../fixtures/tables/lockfile-example-tools.json"
    ))
    .into_iter()
    .filter(|t| t["name"] == "read_data")
    .collect();
    let fs = check(
        &BaselineState::Loaded(Box::new(loaded)),
        &lock(&tools, &opts()),
        &DriftConfig::default(),
    );
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].id, "drift/no-changes");
}

#[test]
fn canonical_v1_baseline_flags_edge_feff() {
    // Under canonicalization v1 a leading U+FEFF was trimmed away (hash of "Reads a file.").
    let tools = vec![json!({"name": "r", "description": "\u{feff}Reads a file."})];
    let mut b = lock(
        &[json!({"name": "r", "description": "Reads a file."})],
        &opts(),
    );
    b.meta.canonical_version = 1;
    let text = b.render();
    let loaded = parse(&text).unwrap();
    assert_eq!(
        loaded.warnings,
        vec![crate::surface::canonical::canonical_version_warning(1).unwrap()]
    );
    let fs = check(
        &BaselineState::Loaded(Box::new(loaded)),
        &lock(&tools, &opts()),
        &DriftConfig::default(),
    );
    assert_eq!(fs[1].id, "drift/description_changed");
    assert_eq!(fs[1].actual, Some(json!("\u{feff}Reads a file.")));
}

#[test]
fn hash_only_sides_show_the_hash() {
    let mut o = opts();
    o.full_text = false;
    let b = lock(&[json!({"name": "r", "description": "Old."})], &o);
    let c = lock(&[json!({"name": "r", "description": "New."})], &opts());
    let fs = check(&loaded(b), &c, &DriftConfig::default());
    let d = &fs[1];
    assert_eq!(
        d.expected,
        Some(json!(crate::surface::canonical::sha256_tag("Old.")))
    );
    assert_eq!(d.actual, Some(json!("New.")));
}

#[test]
fn auth_and_era_notices() {
    let tools = vec![json!({"name": "a"})];
    let mut o = opts();
    o.auth_context = crate::surface::lockfile::AuthContext {
        kind: "env".into(),
        keys: vec!["API_KEY".into()],
        fingerprint: Some("4b1c76658eb25e42".into()),
        label: None,
    };
    let b = lock(&tools, &o);
    let mut o2 = o.clone();
    o2.auth_context.fingerprint = Some("0000000000000000".into());
    o2.auth_context.label = Some("ci-bot".into());
    let c = capture(&hello(Era::Modern), &tools, &o2).unwrap();
    let fs = check(&loaded(b.clone()), &c, &DriftConfig::default());
    assert_eq!(
            rows(&fs),
            vec![
                row("drift/auth-context-mismatch", Status::Warn, Severity::Warning,
                    "Auth context mismatch: baseline captured under \"unlabeled\", current under \"ci-bot\". Drift may be due to different permissions."),
                row("drift/protocol-era-changed", Status::Warn, Severity::Warning,
                    "Protocol era changed: baseline captured over the legacy era, current connection uses the modern era. Capabilities and server info may differ between eras; this alone is not drift."),
                row("drift/no-changes", Status::Pass, Severity::Info, "No drift detected. Server surface matches baseline."),
            ]
        );
    assert_eq!(fs[0].expected, Some(json!("4b1c76658eb25e42")));
    assert_eq!(fs[0].location, None);
    assert_eq!(
        (fs[1].expected.clone(), fs[1].actual.clone()),
        (Some(json!("legacy")), Some(json!("modern")))
    );
    assert_eq!(crate::model::exit_code_of(&fs), 0);
    // One null fingerprint, same era: nothing but no-changes.
    let mut o3 = o.clone();
    o3.auth_context.fingerprint = None;
    let fs = check(&loaded(b), &lock(&tools, &o3), &DriftConfig::default());
    assert_eq!(fs.len(), 1);
}

/// Every class through capture + check, from the fixture tables (plus injected output
/// shapes, which a tool listing cannot carry).
#[test]
fn fixture_tables_every_class() {
    use Severity::*;
    use Status::*;
    let shape = |fields: &[&str]| {
        let samples: Vec<(Source, Value)> = (0..3)
            .map(|_| {
                let mut m = serde_json::Map::new();
                for f in fields {
                    m.insert(f.to_string(), json!(1));
                }
                (Source::Structured, Value::Object(m))
            })
            .collect();
        crate::surface::shape::infer(&samples).unwrap()
    };
    let mut o1 = opts();
    o1.output_shapes = vec![
        ("status_feed".into(), shape(&["status", "uptime"])),
        ("metrics".into(), shape(&["p50"])),
    ];
    let mut o2 = opts();
    o2.output_shapes = vec![
        ("status_feed".into(), shape(&["status"])),
        ("metrics".into(), shape(&["p50", "p99"])),
    ];
    let b = lock(&tools_of(V1), &o1);
    let c = lock(&tools_of(V2), &o2);
    let notes = vec![crate::surface::shape::SamplingNote {
            tool: "echo".into(),
            status: NoteStatus::Refused,
            reason: "not annotated readOnlyHint: true and not in checks.drift.output.tools — mcpward will not call a tool that may have side effects".into(),
        }];
    let fs = check_with_sampling(&loaded(b), &c, &notes, &DriftConfig::default());
    let sfx = " (inferred; baseline 3 sample(s), current 3 sample(s))";
    assert_eq!(
            rows(&fs),
            vec![
                row("drift/summary", Fail, Error, "Drift detected: 13 failing change(s) out of 17 total"),
                row("drift/output-sampling", Skip, Info, "Output sampling refused for \"echo\": not annotated readOnlyHint: true and not in checks.drift.output.tools — mcpward will not call a tool that may have side effects"),
                row("drift/tool_removed", Fail, Error, "Tool \"removed_tool\" was removed"),
                row("drift/tool_added", Pass, Info, "Tool \"added_tool\" was added"),
                row("drift/description_changed", Fail, Error, "Tool \"echo\" description changed (possible rug-pull)"),
                row("drift/breaking_schema_change", Fail, Error, "Tool \"compute\" inputSchema added required property \"multiplier\""),
                row("drift/nonbreaking_schema_change", Pass, Info, "Tool \"query\" inputSchema added optional property \"limit\""),
                row("drift/annotation_changed", Fail, Error, "Tool \"read_data\" readOnlyHint changed from true to false (tool may now mutate state)"),
                row("drift/breaking_schema_change", Fail, Error, "Tool \"nested_filter\" inputSchema property \"filter.status\" enum tightened: removed [\"closed\"]"),
                row("drift/breaking_schema_change", Fail, Error, "Tool \"rows_tool\" inputSchema property \"rows[].id\" type narrowed from [\"string\",\"number\"] to \"string\""),
                row("drift/description_changed", Fail, Error, "Tool \"deep_param_description\" inputSchema property \"options.target.path\" description changed (possible rug-pull)"),
                row("drift/description_changed", Fail, Error, "Tool \"combinator_description\" inputSchema property \"key.anyOf[1]\" description changed (possible rug-pull)"),
                row("drift/description_changed", Fail, Error, "Tool \"root_description\" inputSchema description changed (possible rug-pull)"),
                row("drift/nonbreaking_schema_change", Pass, Info, "Tool \"widened\" inputSchema property \"value\" type widened from \"string\" to [\"string\",\"number\"]"),
                row("drift/breaking_schema_change", Fail, Error, "Tool \"ref_tool\" inputSchema property \"user.name\" maxLength lowered from 100 to 50"),
                row("drift/breaking_schema_change", Fail, Error, "Tool \"output_schema_tool\" outputSchema property \"unit\" was removed"),
                row("drift/annotation_changed", Fail, Error, "Tool \"open_world\" openWorldHint changed from false to true (tool may now reach external systems)"),
                row("drift/breaking_output_shape_change", Fail, Error, &format!("Tool \"status_feed\" output $.uptime was removed{sfx}")),
                row("drift/nonbreaking_output_shape_change", Pass, Info, &format!("Tool \"metrics\" output $.p99 was added{sfx}")),
            ]
        );
    // Whitespace/CRLF-only edits (tool and parameter description) are not drift.
    assert!(fs
        .iter()
        .all(|f| f.location.as_deref() != Some("whitespace_only")));
    assert!(fs
        .iter()
        .all(|f| f.location.as_deref() != Some("stable_tool")));
    // Every tool class appears (the rest of the surface: `surface_rows_default_policy`).
    for class in &DriftClass::ALL[..8] {
        let id = format!("drift/{}", class.as_str());
        assert!(fs.iter().any(|f| f.id == id), "{id}");
    }
}

#[test]
fn rules_cover_every_emitted_id() {
    let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    for class in DriftClass::ALL {
        assert!(ids.contains(&format!("drift/{}", class.as_str()).as_str()));
    }
    for id in [
        "drift/summary",
        "drift/no-changes",
        "drift/baseline-missing",
        "drift/baseline-invalid",
        "drift/baseline-stale",
        "drift/capture-failed",
        "drift/auth-context-mismatch",
        "drift/output-sampling",
        "drift/protocol-era-changed",
    ] {
        assert!(ids.contains(&id), "{id}");
    }
    assert_eq!(ids.len(), 32);
}

fn sampled_tool(name: &str, ann: Option<Value>, required: &[&str]) -> Value {
    let mut t = json!({"name": name, "inputSchema": {"type": "object", "required": required}});
    if let Some(a) = ann {
        t["annotations"] = a;
    }
    t
}

#[test]
fn side_effect_policy_truth_table() {
    let tools = vec![
        sampled_tool("none", None, &[]),
        sampled_tool("ro_false", Some(json!({"readOnlyHint": false})), &[]),
        sampled_tool("destructive", Some(json!({"destructiveHint": true})), &[]),
        sampled_tool(
            "both",
            Some(json!({"readOnlyHint": true, "destructiveHint": true})),
            &[],
        ),
        sampled_tool(
            "needs_args",
            Some(json!({"readOnlyHint": true})),
            &["id", "page"],
        ),
        sampled_tool("ok", Some(json!({"readOnlyHint": true})), &[]),
        sampled_tool("wipe", Some(json!({"destructiveHint": true})), &["scope"]),
    ];
    let args = |v: Value| v.as_object().cloned().unwrap();
    let cfg = OutputDriftConfig {
        tools: vec![
            ToolArgs {
                name: "ghost".into(),
                args: args(json!({})),
            },
            ToolArgs {
                name: "wipe".into(),
                args: args(json!({"scope": "tmp"})),
            },
        ],
        ..Default::default()
    };
    let (calls, notes) = output_sampling_plan(&tools, &cfg);
    assert_eq!(
        calls
            .iter()
            .map(|t| (t.name.clone(), t.args.clone()))
            .collect::<Vec<_>>(),
        vec![
            ("ok".to_string(), args(json!({}))),
            ("wipe".to_string(), args(json!({"scope": "tmp"})))
        ]
    );
    let got: Vec<(&str, &str, &str)> = notes
        .iter()
        .map(|n| (n.tool.as_str(), n.status.as_str(), n.reason.as_str()))
        .collect();
    let side = "not annotated readOnlyHint: true and not in checks.drift.output.tools — mcpward will not call a tool that may have side effects";
    assert_eq!(got, vec![
        ("ghost", "failed", "listed in checks.drift.output.tools but the server does not expose it"),
        ("none", "refused", side),
        ("ro_false", "refused", side),
        ("destructive", "refused", side),
        ("both", "refused", "annotated both readOnlyHint and destructiveHint — contradictory, refusing to call without an explicit allowlist entry"),
        ("needs_args", "skipped", "requires arguments (id, page) — add it to checks.drift.output.tools with args"),
    ]);
    let (calls, notes) = output_sampling_plan(
        &tools[5..6],
        &OutputDriftConfig {
            call_readonly: false,
            ..Default::default()
        },
    );
    assert!(calls.is_empty());
    assert_eq!(
        notes[0].reason,
        "call_readonly is disabled and the tool is not in checks.drift.output.tools"
    );
    // Notes as findings (drift.md §10.6).
    let f = super::sampling_finding(&notes[0]);
    assert_eq!(
        (f.id.as_str(), f.status, f.severity, f.location.as_deref()),
        (
            "drift/output-sampling",
            Status::Skip,
            Severity::Info,
            Some("ok")
        )
    );
    assert_eq!(f.message, "Output sampling refused for \"ok\": call_readonly is disabled and the tool is not in checks.drift.output.tools");
    let f = super::sampling_finding(&SamplingNote::new("t", NoteStatus::Partial, "x"));
    assert_eq!((f.status, f.severity), (Status::Warn, Severity::Warning));
}

/// #14's table through capture + check with the default policy: each v2 surface gives exactly
/// its row's class, failing or passing as the table says; equal surfaces give no-changes.
#[test]
fn surface_rows_default_policy() {
    use crate::surface::drift_vocab::SurfaceSet;
    use crate::surface::other::tests::{row_lock, surface_lock, ROWS, SAME, V1, V1_TOOLS};
    let base = loaded(surface_lock(V1_TOOLS, V1, SurfaceSet::ALL));
    for text in SAME {
        let fs = check(
            &base,
            &surface_lock(V1_TOOLS, text, SurfaceSet::ALL),
            &DriftConfig::default(),
        );
        assert_eq!(fs.len(), 1);
        assert_eq!(fs[0].id, "drift/no-changes");
    }
    let fails = [
        "prompt_removed",
        "prompt_renamed",
        "prompt_changed",
        "breaking_prompt_change",
        "resource_removed",
        "resource_changed",
        "breaking_resource_change",
        "resource_template_removed",
        "resource_template_changed",
        "instructions_changed",
        "tool_renamed",
    ];
    for (class, text) in ROWS {
        let fs = check(&base, &row_lock(class, text), &DriftConfig::default());
        assert_eq!(fs.len(), 2, "{fs:#?}");
        assert_eq!(fs[1].id, format!("drift/{class}"));
        let want = if fails.contains(&class) {
            Status::Fail
        } else {
            Status::Pass
        };
        assert_eq!((fs[0].status, fs[1].status), (want, want), "{class}");
        // fail_on and severity overrides apply to the new classes as to the old.
        let c = DriftClass::parse(class).unwrap();
        let none = DriftConfig {
            fail_on: FailOn::Classes(vec![]),
            ..Default::default()
        };
        assert_ne!(
            check(&base, &row_lock(class, text), &none)[1].status,
            Status::Fail
        );
        let only = DriftConfig {
            fail_on: FailOn::Level(Level::High),
            severity: [(c, Level::High)].into(),
            ..Default::default()
        };
        assert_eq!(
            check(&base, &row_lock(class, text), &only)[1].status,
            Status::Fail
        );
    }
}

#[test]
fn tool_rename_needs_the_same_schema_and_a_similar_description() {
    let t = |name: &str, desc: &str, prop: &str| json!({"name": name, "description": desc, "inputSchema": {"type": "object", "properties": {prop: {"type": "string"}}}});
    let classes = |a: Vec<Value>, b: Vec<Value>| -> Vec<String> {
        crate::surface::diff::diff_surfaces(&lock(&a, &opts()), &lock(&b, &opts()))
            .into_iter()
            .map(|c| format!("{} {}", c.class, c.message))
            .collect()
    };
    let old = t(
        "read_file",
        "Read a file from the sandbox and return its text.",
        "path",
    );
    // Same schema, similar description: one rename, and the pair is compared as one tool.
    assert_eq!(
        classes(
            vec![old.clone()],
            vec![t(
                "read",
                "Read a file from the sandbox and return its text!",
                "path"
            )]
        ),
        [
            "tool_renamed Tool \"read_file\" was renamed to \"read\"",
            "description_changed Tool \"read\" description changed (possible rug-pull)"
        ]
    );
    // Another schema, or another description: removed + added as before.
    assert_eq!(
        classes(
            vec![old.clone()],
            vec![t(
                "read",
                "Read a file from the sandbox and return its text.",
                "file"
            )]
        ),
        [
            "tool_removed Tool \"read_file\" was removed",
            "tool_added Tool \"read\" was added"
        ]
    );
    assert_eq!(
        classes(
            vec![old.clone()],
            vec![t("wipe", "Delete every file in the sandbox.", "path")]
        ),
        [
            "tool_removed Tool \"read_file\" was removed",
            "tool_added Tool \"wipe\" was added"
        ]
    );
    // Two candidates: the best description wins; ties go by name.
    let twin = |n: &str| {
        t(
            n,
            "Read a file from the sandbox and return its text.",
            "path",
        )
    };
    assert_eq!(
        classes(vec![old], vec![twin("b_read"), twin("a_read")]),
        [
            "tool_added Tool \"b_read\" was added",
            "tool_renamed Tool \"read_file\" was renamed to \"a_read\""
        ]
    );
}

#[test]
fn baseline_stale_only_past_max_age_days() {
    use crate::surface::lockfile;
    let mut l = lockfile::parse(include_str!(
        "../../../fixtures/tables/lockfile-example.lock.json"
    ))
    .unwrap()
    .lockfile;
    l.meta.captured_at = "2026-01-01T10:00:00.000Z".into();
    let day = crate::model::parse_day("2026-01-01").unwrap();
    assert!(super::baseline_stale(&l, day + 90, 90).is_none());
    let f = super::baseline_stale(&l, day + 91, 90).unwrap();
    assert_eq!(
        (f.id.as_str(), f.status),
        ("drift/baseline-stale", Status::Warn)
    );
    assert!(
        f.message.contains("91 days ago (2026-01-01)"),
        "{}",
        f.message
    );
    assert!(super::baseline_stale(&l, day + 10_000, 0).is_none());
    l.meta.captured_at = "garbage".into();
    assert!(super::baseline_stale(&l, day + 10_000, 90).is_none());
}

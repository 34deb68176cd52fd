//! Every family, run on every fixture tool table (fixtures/tables/*.json) and on a failed
//! listing, emits only registered ids, and each result's status and severity is what the
//! registry plus the configured overrides say: a failing result has its rule's severity,
//! a drift change has what `drift::resolve` gives for its class and policy.

use super::{behavioral, collision, compliance, drift, errors, latency, schema, security};
use crate::model::{Finding, Severity, Status};
use crate::observed::{CallOutcome, Era, Listing, RpcError, ServerHello};
use crate::rules;
use crate::surface::capture::tests::{hello, opts};
use crate::surface::capture::{capture, CaptureOptions};
use crate::surface::lockfile::{Loaded, Lockfile};
use crate::surface::shape::{NoteStatus, SamplingNote};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Every fixture table that is a tool listing, by file name.
fn tables() -> Vec<(String, Vec<Value>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tables");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if let Value::Array(tools) = v {
            out.push((
                path.file_name().unwrap().to_string_lossy().into_owned(),
                tools,
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "fixture tables: {:?}", out.len());
    out
}

fn listings() -> Vec<(String, Listing)> {
    let mut out: Vec<(String, Listing)> = tables()
        .into_iter()
        .map(|(name, tools)| (name, Ok(tools)))
        .collect();
    out.push(("failed listing".into(), Err("boom".into())));
    out.push(("empty listing".into(), Ok(vec![])));
    out
}

/// What a run of one family was configured with, as far as it changes a rule's defaults.
enum Overrides<'a> {
    None,
    Drift(&'a drift::DriftConfig),
    /// `checks.collision.fail: true`: collisions fail as errors.
    CollisionFails,
}

/// The checked property; returns the ids seen.
fn assert_by_registry(what: &str, findings: &[Finding], overrides: &Overrides) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for f in findings {
        let rule = rules::lookup(&f.id)
            .unwrap_or_else(|| panic!("{what}: unregistered id {} ({f:?})", f.id));
        assert_eq!(f.family, rule.family(), "{what}: {f:?}");
        seen.insert(f.id.clone());
        let class =
            f.id.strip_prefix("drift/")
                .and_then(drift::DriftClass::parse);
        match (class, overrides) {
            (Some(class), Overrides::Drift(policy)) => {
                assert_eq!(
                    (f.status, f.severity),
                    drift::resolve(class, policy),
                    "{what}: {f:?}"
                );
            }
            (Some(_), _) => panic!("{what}: drift change outside the drift family: {f:?}"),
            (None, Overrides::CollisionFails) if f.status == Status::Fail => {
                assert_eq!(f.severity, Severity::Error, "{what}: {f:?}")
            }
            (None, _) if f.status == Status::Fail => {
                assert_eq!(f.severity, rule.severity, "{what}: failing {f:?}")
            }
            (None, _) => {}
        }
    }
    seen
}

fn outcomes() -> Vec<CallOutcome> {
    vec![
        Ok(
            json!({"content": [{"type": "text", "text": "{\"x\": 1}"}], "structuredContent": {"x": 1}}),
        ),
        Ok(json!({"content": [], "isError": true})),
        Ok(json!({"content": "not an array"})),
        Err(RpcError::protocol(-32602, "Invalid params", None)),
        Err(RpcError::protocol(-32601, "Method not found", None)),
        Err(RpcError::protocol(7, "odd", None)),
        Err(RpcError::plain("Timeout: tool call \"t\" (30000ms)")),
    ]
}

fn run_schema_security_collision(what: &str, listing: &Listing, seen: &mut BTreeSet<String>) {
    for version in ["2024-11-05", "2025-11-25"] {
        seen.extend(assert_by_registry(
            what,
            &schema::check(listing, version),
            &Overrides::None,
        ));
    }
    seen.extend(assert_by_registry(
        what,
        &security::check(listing),
        &Overrides::None,
    ));
    seen.extend(assert_by_registry(
        what,
        &collision::check(listing, &Default::default()),
        &Overrides::None,
    ));
    let failing = collision::CollisionConfig {
        fail: true,
        ..Default::default()
    };
    seen.extend(assert_by_registry(
        what,
        &collision::check(listing, &failing),
        &Overrides::CollisionFails,
    ));
    let tiny = collision::CollisionConfig {
        max_tools: 1,
        ..Default::default()
    };
    seen.extend(assert_by_registry(
        what,
        &collision::check(listing, &tiny),
        &Overrides::None,
    ));
}

fn run_errors(what: &str, listing: &Listing, seen: &mut BTreeSet<String>) {
    let probes = match errors::plan(listing) {
        Ok(p) => p,
        Err(f) => {
            seen.extend(assert_by_registry(what, &[f], &Overrides::None));
            return;
        }
    };
    for outcome in outcomes() {
        let recorded: Vec<_> = probes
            .iter()
            .map(|p| (p.clone(), outcome.clone()))
            .collect();
        for version in ["2024-11-05", "2025-11-25"] {
            for policy in [
                errors::UnknownToolPolicy::ProtocolError,
                errors::UnknownToolPolicy::Either,
            ] {
                let fs = errors::judge(&recorded, version, policy);
                seen.extend(assert_by_registry(what, &fs, &Overrides::None));
            }
        }
    }
}

fn run_latency(what: &str, listing: &Listing, seen: &mut BTreeSet<String>) {
    for call_all in [false, true] {
        let policy = latency::LatencyConfig {
            call_all,
            tools: vec![crate::checks::tool_args::ToolArgs {
                name: "not_listed".into(),
                args: Map::new(),
            }],
            ..Default::default()
        };
        let plan = latency::plan(listing, &policy);
        let samples = |ok: bool| -> Vec<(String, Vec<Result<f64, String>>)> {
            plan.calls
                .iter()
                .map(|(name, _)| {
                    let s = if ok { Ok(5.0) } else { Err("boom".to_string()) };
                    (name.clone(), vec![s; 3])
                })
                .collect()
        };
        for budget in [0.0, 1e9] {
            let policy = latency::LatencyConfig {
                p95_budget_ms: budget,
                ..policy.clone()
            };
            for ok in [true, false] {
                let fs = latency::judge(&plan, &samples(ok), &policy);
                seen.extend(assert_by_registry(what, &fs, &Overrides::None));
            }
        }
    }
}

fn run_behavioral(what: &str, listing: &Listing, seen: &mut BTreeSet<String>) {
    let mut jsonpath = Map::new();
    jsonpath.insert("$.structuredContent.x".into(), json!(1));
    jsonpath.insert("$..[".into(), json!(1));
    let full = behavioral::CaseExpect {
        tool_is_error: Some(true),
        protocol_error_code: Some(-32602),
        output_matches_schema: Some(true),
        jsonpath: Some(jsonpath),
        golden: Some("golden/x.json".into()),
    };
    let case = |name: &str, expect: Option<behavioral::CaseExpect>| behavioral::SuiteCase {
        name: name.into(),
        args: Map::new(),
        expect,
    };
    let mut suites: Vec<behavioral::Suite> = vec![behavioral::Suite {
        tool: "no_such_tool".into(),
        cases: vec![case("smoke", None)],
    }];
    if let Ok(tools) = listing {
        for t in tools {
            if let Some(name) = t.get("name").and_then(Value::as_str) {
                suites.push(behavioral::Suite {
                    tool: name.into(),
                    cases: vec![
                        case("smoke", None),
                        case("empty", Some(Default::default())),
                        case("full", Some(full.clone())),
                    ],
                });
            }
        }
    }
    let steps = match behavioral::plan(listing, &suites) {
        Ok(s) => s,
        Err(f) => {
            seen.extend(assert_by_registry(what, &[*f], &Overrides::None));
            return;
        }
    };
    let goldens = [
        behavioral::GoldenState::Missing,
        behavioral::GoldenState::Present("{}".into()),
        behavioral::GoldenState::Unreadable("denied".into()),
    ];
    for outcome in outcomes() {
        for golden in &goldens {
            let mut results = Vec::new();
            for step in &steps {
                match step {
                    behavioral::Step::Report(f) => results.push((**f).clone()),
                    behavioral::Step::Call { tool, case, listed } => {
                        let v = behavioral::judge_case(
                            tool,
                            case,
                            Some(listed),
                            &outcome,
                            golden,
                            false,
                        );
                        results.extend(v.findings);
                        results.push(behavioral::golden_write_failed(tool, case, "denied"));
                    }
                }
            }
            let fs = behavioral::finish(results);
            seen.extend(assert_by_registry(what, &fs, &Overrides::None));
        }
    }
}

fn hellos() -> Vec<ServerHello> {
    let good = hello(Era::Legacy);
    let bad = ServerHello {
        protocol_version: String::new(),
        server_info: Value::Null,
        capabilities: json!([]),
        ..hello(Era::Legacy)
    };
    let odd = ServerHello {
        protocol_version: "v 1?".into(),
        server_info: json!({"name": "x", "version": ""}),
        capabilities: json!({}),
        ..hello(Era::Legacy)
    };
    vec![good, bad, odd, hello(Era::Modern)]
}

fn run_compliance(seen: &mut BTreeSet<String>) {
    let pings: [Option<Result<(), RpcError>>; 3] = [
        None,
        Some(Ok(())),
        Some(Err(RpcError::protocol(-32601, "Method not found", None))),
    ];
    for h in hellos() {
        for ping in &pings {
            for expected in [None, Some("2025-11-25"), Some("2024-11-05")] {
                let fs = compliance::check(&h, ping.as_ref(), expected);
                seen.extend(assert_by_registry("compliance", &fs, &Overrides::None));
            }
        }
        // Run-level results: nothing to say, invalid framing (failing and warning), a limit
        // reached, a 2026-07-28 server's messages.
        let mut chatters = vec![crate::observed::Chatter::default()];
        for failed in [0, 1] {
            let mut c = crate::observed::Chatter::default();
            c.framing.count = 2;
            c.framing.failed_requests = failed;
            c.cuts
                .push("message_bytes\0a message was over 16 MiB".into());
            c.notifications
                .push(json!({"method": "notifications/message"}));
            chatters.push(c);
        }
        for c in &chatters {
            let fs = compliance::run_level(&h, c, &[json!({"method": "sampling/createMessage"})]);
            seen.extend(assert_by_registry("compliance", &fs, &Overrides::None));
        }
        // The whole surface (#14): served or not, stable or not, spurious list_changed.
        let other = crate::observed::OtherSurface {
            prompts: Some(Err("MCP error -32603: Internal error".into())),
            ..Default::default()
        };
        for outcome in [Ok(json!({})), Err(RpcError::protocol(-32601, "m", None))] {
            let records: compliance::served::Records = compliance::served::plan(&h, &other)
                .into_iter()
                .map(|(m, _)| (m, crate::observed::ProbeRecord::new(None, outcome.clone())))
                .collect();
            let fs = compliance::served::judge(&h, &other, &records);
            seen.extend(assert_by_registry("compliance", &fs, &Overrides::None));
        }
        let first = compliance::stable::Snapshot::empty();
        let mut other_tools = first.clone();
        other_tools.tools = Ok(vec![json!({"name": "t"})]).into();
        let same = compliance::stable::Relisted::of(&first, &first);
        let relisted = compliance::stable::Relisted::of(&first, &other_tools);
        for second in [Ok(same.clone()), Ok(relisted), Err("refused".into())] {
            let f = compliance::stable::surface_stable(h.era, &first, &same, &second);
            seen.extend(assert_by_registry("compliance", &[f], &Overrides::None));
        }
        let changed = [json!({"method": "notifications/tools/list_changed"})];
        let fs: Vec<Finding> =
            compliance::stable::spurious_list_changed(&changed, &[("tools", 0)], &same)
                .into_iter()
                .collect();
        seen.extend(assert_by_registry("compliance", &fs, &Overrides::None));
    }
}

fn policies() -> Vec<drift::DriftConfig> {
    use drift::{DriftClass, DriftConfig, FailOn, Level};
    let every_class_high: BTreeMap<DriftClass, Level> = DriftClass::ALL
        .into_iter()
        .map(|c| (c, Level::High))
        .collect();
    let mut v = vec![DriftConfig::default()];
    for level in Level::ALL {
        v.push(DriftConfig {
            fail_on: FailOn::Level(level),
            ..Default::default()
        });
    }
    v.push(DriftConfig {
        fail_on: FailOn::Classes(vec![]),
        ..Default::default()
    });
    v.push(DriftConfig {
        fail_on: FailOn::Classes(vec![DriftClass::ToolAdded]),
        severity: every_class_high.clone(),
        ..Default::default()
    });
    v.push(DriftConfig {
        fail_on: FailOn::Level(Level::High),
        severity: [(DriftClass::ToolRemoved, Level::High)].into(),
        ..Default::default()
    });
    v.push(DriftConfig {
        fail_on: FailOn::Classes(vec![]),
        severity: [
            (DriftClass::ToolAdded, Level::Medium),
            (DriftClass::DescriptionChanged, Level::Low),
        ]
        .into(),
        ..Default::default()
    });
    v
}

fn lock(tools: &[Value], era: Era, o: &CaptureOptions) -> Lockfile {
    capture(&hello(era), tools, o).unwrap()
}

fn run_drift(seen: &mut BTreeSet<String>) {
    let tables = tables();
    let notes: Vec<SamplingNote> = [
        NoteStatus::Failed,
        NoteStatus::Partial,
        NoteStatus::Refused,
        NoteStatus::Skipped,
    ]
    .into_iter()
    .map(|status| SamplingNote {
        tool: "t".into(),
        status,
        reason: "why".into(),
    })
    .collect();
    let mut other_auth = opts();
    other_auth.auth_context = crate::surface::lockfile::AuthContext::from_env(
        &[("API_TOKEN".into(), "secret".into())],
        &other_auth.target.identity,
    );
    let mut other_auth2 = opts();
    other_auth2.auth_context = crate::surface::lockfile::AuthContext::from_env(
        &[("API_TOKEN".into(), "another".into())],
        &other_auth2.target.identity,
    );
    let mut pairs = Vec::new();
    for (_, a) in &tables {
        for (_, b) in &tables {
            pairs.push((lock(a, Era::Legacy, &opts()), lock(b, Era::Legacy, &opts())));
        }
    }
    let (_, first) = &tables[0];
    pairs.push((
        lock(first, Era::Legacy, &other_auth),
        lock(first, Era::Modern, &other_auth2),
    ));
    let drift_v1 = tables.iter().find(|(n, _)| n == "drift-v1.json").unwrap();
    let drift_v2 = tables.iter().find(|(n, _)| n == "drift-v2.json").unwrap();
    pairs.push((
        lock(&drift_v1.1, Era::Legacy, &opts()),
        lock(&drift_v2.1, Era::Modern, &other_auth),
    ));
    // The whole surface (#14): one pair per row of the table.
    {
        use crate::surface::drift_vocab::SurfaceSet;
        use crate::surface::other::tests::{row_lock, surface_lock, ROWS, V1, V1_TOOLS};
        let base = surface_lock(V1_TOOLS, V1, SurfaceSet::ALL);
        for (class, text) in ROWS {
            pairs.push((base.clone(), row_lock(class, text)));
        }
    }
    for policy in policies() {
        let what = format!("drift {policy:?}");
        for (base, current) in &pairs {
            let baseline = drift::BaselineState::Loaded(Box::new(Loaded {
                lockfile: base.clone(),
                warnings: vec![],
            }));
            let fs = drift::check_with_sampling(&baseline, current, &notes, &policy);
            seen.extend(assert_by_registry(&what, &fs, &Overrides::Drift(&policy)));
        }
        let missing = drift::BaselineState::Missing {
            path: "mcpward.lock.json".into(),
        };
        let fs = drift::check(&missing, &pairs[0].1, &policy);
        seen.extend(assert_by_registry(&what, &fs, &Overrides::Drift(&policy)));
    }
    let fs = [drift::capture_failed("too deep")];
    seen.extend(assert_by_registry("drift", &fs, &Overrides::None));
}

#[test]
fn every_family_on_the_fixture_tables_emits_registered_ids_at_registry_severity() {
    let mut seen = BTreeSet::new();
    for (what, listing) in listings() {
        run_schema_security_collision(&what, &listing, &mut seen);
        run_errors(&what, &listing, &mut seen);
        run_latency(&what, &listing, &mut seen);
        run_behavioral(&what, &listing, &mut seen);
    }
    run_compliance(&mut seen);
    run_drift(&mut seen);
    run_auth(&mut seen);
    // The run reaches most of the registry; the rest (baseline-invalid, the 2026-07-28
    // compliance probes, ...) have their own family tests.
    let registered = rules::all().count();
    assert!(
        seen.len() * 10 >= registered * 7,
        "only {} of {registered} rules reached: {seen:?}",
        seen.len()
    );
}

/// With no overrides, the override function gives each drift class its rule's registered
/// severity: docs/rules.md, SARIF and a default run's JSON report agree (docs/decisions.md).
#[test]
fn default_policy_reports_each_drift_class_at_its_registry_severity() {
    let policy = drift::DriftConfig::default();
    for class in drift::DriftClass::ALL {
        let rule = drift::rules::of_class(class);
        assert_eq!(rule.id, format!("drift/{}", class.as_str()));
        let (status, severity) = drift::resolve(class, &policy);
        assert_eq!(severity, rule.severity, "{}", rule.id);
        // A class in the default fail_on fails; the others pass (drift.md §3.1).
        assert_eq!(
            status == Status::Fail,
            drift::DEFAULT_FAIL_ON.contains(&class),
            "{}",
            rule.id
        );
    }
}

fn run_auth(seen: &mut BTreeSet<String>) {
    use crate::observed::{AuthObservation, AuthProbe, MetadataFetch};
    let url = "http://127.0.0.1:9/mcp";
    let probe = |status, served| AuthProbe {
        status: Some(status),
        served,
        error: None,
    };
    let fetch = |doc: Option<serde_json::Value>| MetadataFetch {
        tried: vec![("u".into(), "ok".into())],
        document: doc,
    };
    let good = AuthObservation {
        server_url: url.into(),
        grant: true,
        first: Some((401, Some("Bearer resource_metadata=\"x\"".into()))),
        resource_metadata: Some(fetch(Some(
            serde_json::json!({"resource": url, "authorization_servers": ["a"]}),
        ))),
        server_metadata: Some(fetch(Some(
            serde_json::json!({"token_endpoint": "t", "code_challenge_methods_supported": ["S256"]}),
        ))),
        without_token: Some(probe(401, false)),
        wrong_token: Some(probe(401, false)),
    };
    let bad = AuthObservation {
        first: Some((401, None)),
        resource_metadata: Some(fetch(None)),
        server_metadata: Some(fetch(None)),
        without_token: Some(probe(200, true)),
        wrong_token: Some(probe(200, true)),
        ..good.clone()
    };
    for obs in [good, bad] {
        let fs = crate::checks::auth::check(&obs);
        seen.extend(assert_by_registry("auth", &fs, &Overrides::None));
    }
}

//! Security + collision on a generated 10,000-tool surface (std::time only; no criterion).
//! Run: `cargo bench --bench checks`. Targets (release): total ≤ 500 ms, collision ≤ 300 ms.
//! Then the cross-server findings (#15) on a generated fleet of 50 servers × 100 tools, on
//! the benign corpus as one fleet, and on 200,000 minimal tools over two servers.

use mcpward::checks::collision::{self, CollisionConfig};
use mcpward::checks::security;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const VERBS: &[(&str, &str)] = &[
    ("get", "Gets a single {e} record by its unique identifier."),
    ("list", "Lists all {e}s in the workspace, newest first{q}."),
    (
        "create",
        "Creates a new {e} from the given fields and returns it{q}.",
    ),
    (
        "update",
        "Updates the fields of an existing {e}; omitted fields are left unchanged{q}.",
    ),
    (
        "delete",
        "Deletes the {e} with the given identifier. This cannot be undone{q}.",
    ),
    (
        "search",
        "Find {e}s matching the given filter. Returns a list of {e}s{q}.",
    ),
    (
        "export",
        "Exports every {e} to a CSV file at the given path{q}.",
    ),
    ("count", "Counts {e}s grouped by status{q}."),
    (
        "archive",
        "Moves the {e} to the archive; it can be restored later{q}.",
    ),
    (
        "sync",
        "Synchronises {e}s with the upstream system and reports conflicts{q}.",
    ),
];
const ENTITIES: &[&str] = &[
    "user",
    "project",
    "order",
    "invoice",
    "ticket",
    "repository",
    "branch",
    "issue",
    "comment",
    "label",
    "milestone",
    "team",
    "member",
    "document",
    "folder",
    "file",
    "event",
    "calendar",
    "contact",
    "deal",
    "lead",
    "account",
    "payment",
    "refund",
    "product",
    "variant",
    "shipment",
    "warehouse",
    "report",
    "dashboard",
    "alert",
    "incident",
    "deployment",
    "pipeline",
    "job",
    "secret_ref",
    "webhook",
    "channel",
    "message",
    "thread",
    "workspace",
    "role",
    "policy",
    "device",
    "sensor",
    "reading",
    "article",
    "category",
    "tag",
    "note",
];
const QUALIFIERS: &[&str] = &[
    "",
    " using the admin API",
    " for the current tenant",
    " across all regions",
    " in batches of 100",
    " with audit logging",
    " from the read replica",
    " via the v2 endpoint",
    " for the selected locale",
    " with retries on rate limits",
    " including soft-deleted rows",
    " within the given date range",
    " for reporting",
    " with pagination",
    " in the sandbox",
    " for the billing module",
    " with field-level permissions",
    " using cached results",
    " for mobile clients",
    " with strict validation",
];

fn schema(verb: &str, entity: &str) -> Value {
    let id = format!("{entity}_id");
    match verb {
        "get" | "delete" | "archive" => json!({"type": "object",
            "properties": {id.clone(): {"type": "string", "description": format!("Identifier of the {entity}.")}},
            "required": [id]}),
        "create" | "update" => json!({"type": "object", "properties": {
            "fields": {"type": "object", "description": "Fields to set.", "properties": {
                "name": {"type": "string", "description": "Display name."},
                "tags": {"type": "array", "items": {"type": "string", "description": "A tag."}},
                "meta": {"type": "object", "additionalProperties": {"type": "string", "description": "Metadata value."}}}}},
            "required": ["fields"]}),
        _ => json!({"type": "object", "properties": {
            "limit": {"type": "number", "description": "Maximum number of results."},
            "cursor": {"type": "string", "description": "Pagination cursor from a previous call."}}}),
    }
}

fn surface(n: usize) -> Vec<Value> {
    let mut tools = Vec::with_capacity(n);
    'outer: for q in QUALIFIERS {
        for e in ENTITIES {
            for (verb, desc) in VERBS {
                if tools.len() == n {
                    break 'outer;
                }
                let description = desc.replace("{e}", e).replace("{q}", q);
                let suffix = QUALIFIERS.iter().position(|x| x == q).unwrap_or(0);
                tools.push(json!({
                    "name": format!("{verb}_{e}_{suffix}"),
                    "description": description,
                    "inputSchema": schema(verb, e),
                    "annotations": {"readOnlyHint": matches!(*verb, "get" | "list" | "search" | "count")},
                }));
            }
        }
    }
    tools
}

/// Best and median wall time over `runs` runs. The minimum is the figure least distorted by
/// other load on the machine; the median shows the spread.
fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut out = None;
    for _ in 0..runs {
        let start = Instant::now();
        let r = f();
        times.push(start.elapsed());
        out = Some(r);
    }
    times.sort();
    (times[0], times[runs / 2], out.expect("runs > 0"))
}

fn main() {
    let tools = surface(10_000);
    assert_eq!(tools.len(), 10_000);
    let listing = Ok(tools);
    let opts = CollisionConfig {
        threshold: 0.8,
        max_tools: 10_000,
        fail: false,
        ..Default::default()
    };
    // Each scan compiles the patterns it needs and frees them when done (#12): this is what
    // one run pays. Then they are kept across scans, as before, to time the scan alone.
    let (t_cold, m_cold, _) = time(11, || security::check(&listing));
    let _compiled = security::keep_compiled();
    // Warm-up compiles the regexes once, as a real run would before the first tool.
    let _ = security::check(&Ok(vec![json!({"name": "w", "description": "warm up"})]));

    let (t_sec, m_sec, sec) = time(11, || security::check(&listing));
    let (t_col, m_col, col) = time(11, || collision::check(&listing, &opts));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("tools: {}  (best / median of 11 runs)", 10_000);
    println!(
        "security, compiling: {:>7.1} / {:>7.1} ms  (each scan compiles and frees the patterns)",
        ms(t_cold),
        ms(m_cold)
    );
    println!(
        "security:  {:>7.1} / {:>7.1} ms  ({} results; {})",
        ms(t_sec),
        ms(m_sec),
        sec.len(),
        sec[0].message
    );
    println!(
        "collision: {:>7.1} / {:>7.1} ms  ({} results; {})",
        ms(t_col),
        ms(m_col),
        col.len(),
        col[0].message
    );
    println!(
        "total:     {:>7.1} / {:>7.1} ms",
        ms(t_sec + t_col),
        ms(m_sec + m_col)
    );
    let pairs = 10_000usize * 9_999 / 2;
    println!("(brute force would score {pairs} pairs)");
    long_example_list();
    fleet();
}

/// One description that lists 20,000 example domains (an indicator feed's "e.g." list): each
/// must be weighed once, not against every other (session 19's quadratic scan; the unit test
/// `a_long_example_list_is_scanned_once` checks the finding, this times it).
fn long_example_list() {
    let text = format!("Indicators (e.g. {})", "evil.com ".repeat(20_000));
    let listing = Ok(vec![
        json!({"name": "iocs", "description": text, "inputSchema": {"type": "object", "properties": {}}}),
    ]);
    let (best, median, out) = time(5, || security::check(&listing));
    println!(
        "security, one 180 KB example list: {:>7.1} / {:>7.1} ms  ({} results)",
        best.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3,
        out.len()
    );
}

/// A fleet of 50 servers × 100 tools: each server a slice of the generated surface (so names
/// and descriptions repeat across servers, as real fleets do), every tenth tool open-world.
fn fleet_members() -> Vec<(String, Vec<Value>)> {
    let base = surface(2_000);
    (0..50)
        .map(|s| {
            let tools = (0..100)
                .map(|i| {
                    let mut t = base[(s * 37 + i) % base.len()].clone();
                    if i % 10 == 0 {
                        t["annotations"]["openWorldHint"] = json!(true);
                    }
                    t
                })
                .collect();
            (format!("server-{s:02}"), tools)
        })
        .collect()
}

fn fleet() {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let run = |label: &str, members: &[(String, Vec<Value>)]| {
        let m: Vec<(&str, &[Value])> = members
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_slice()))
            .collect();
        let cfg = CollisionConfig::default();
        let (t_col, m_col, col) = time(11, || collision::check_fleet(&m, &cfg));
        let sec_cfg = security::FleetConfig::default();
        let (t_sec, m_sec, sec) = time(11, || security::check_fleet(&m, &sec_cfg));
        let count =
            |fs: &[mcpward::model::Finding], id: &str| fs.iter().filter(|f| f.id == id).count();
        let tools: usize = members.iter().map(|m| m.1.len()).sum();
        println!("fleet {label}: {} servers, {tools} tools", members.len());
        println!(
            "  collision::check_fleet: {:>7.1} / {:>7.1} ms  ({} cross-server names, {} description clusters, {} skips)",
            ms(t_col),
            ms(m_col),
            count(&col, "collision/cross-server-name"),
            count(&col, "collision/description-collision"),
            count(&col, "collision/summary"),
        );
        println!(
            "  security::check_fleet:  {:>7.1} / {:>7.1} ms  ({} cross-server shadowing, {} toxic-flow)",
            ms(t_sec),
            ms(m_sec),
            count(&sec, "security/tool-shadowing"),
            count(&sec, "security/toxic-flow"),
        );
    };
    run("50 x 100 generated", &fleet_members());
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/benign");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let corpus: Vec<(String, Vec<Value>)> = files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter_map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(p).ok()?).ok()?;
            let name = p.file_stem()?.to_string_lossy().into_owned();
            Some((name, v["tools"].as_array()?.clone()))
        })
        .collect();
    run("benign corpus", &corpus);
    let many: Vec<Value> = (0..100_000)
        .map(|i| json!({"name": format!("t{i}"), "description": "Returns the item.", "annotations": {"openWorldHint": true, "readOnlyHint": i % 2 == 0}}))
        .collect();
    run(
        "200,000 minimal tools",
        &[("a".to_string(), many.clone()), ("b".to_string(), many)],
    );
}

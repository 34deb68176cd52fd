//! The security family and the collision lint on the rest of the surface (#14): the real
//! server-everything surface (tests/corpus/surface/) and a generated one of 1,000 prompts
//! (with 10,000 resources for the second figure). std::time only; best / median of 11 runs.
//! Run: `cargo bench --bench surface_scan`.

use mcpward::checks::collision::{self, CollisionConfig};
use mcpward::checks::security;
use mcpward::observed::OtherSurface;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

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
    "document",
    "folder",
    "file",
    "event",
    "contact",
    "deal",
    "account",
    "payment",
    "product",
    "shipment",
    "report",
    "dashboard",
    "alert",
    "incident",
    "deployment",
    "pipeline",
    "job",
    "webhook",
    "channel",
    "message",
    "thread",
    "workspace",
    "role",
    "policy",
    "device",
    "article",
    "category",
    "note",
];
const ASKS: &[&str] = &[
    "Summarise the {e} and list its open questions.",
    "Review the {e} for mistakes and suggest fixes, one per line.",
    "Draft a short announcement about the {e} for the team channel.",
    "Explain the {e} to a new colleague in plain words.",
    "Compare two versions of the {e} and describe what changed.",
    "Write release notes for the {e} from its recent history.",
    "Plan the next steps for the {e}; keep it to five bullet points.",
    "Translate the {e} into the requested language, keeping its formatting.",
    "Find risks in the {e} and rate each one low, medium or high.",
    "Turn the {e} into a checklist a reviewer can tick off.",
];

fn prompts(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let e = ENTITIES[i % ENTITIES.len()];
            let ask = ASKS[(i / ENTITIES.len()) % ASKS.len()].replace("{e}", e);
            let args: Vec<Value> = (0..i % 4)
                .map(|k| {
                    json!({"name": format!("{e}_{k}"), "description": format!("The {e} to work on ({k})"),
                           "required": k == 0})
                })
                .collect();
            json!({"name": format!("{e}_prompt_{i}"), "title": format!("{e} {i}"),
                   "description": ask, "arguments": args})
        })
        .collect()
}

fn resources(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let e = ENTITIES[i % ENTITIES.len()];
            json!({"uri": format!("mem://{e}/{i}"), "name": format!("{e}-{i}"),
                   "description": format!("The {e} number {i}, as JSON."), "mimeType": "application/json"})
        })
        .collect()
}

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

fn read(rel: &str) -> Value {
    let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect(&path)).expect(&path)
}

fn list(v: &Value) -> Option<Result<Vec<Value>, String>> {
    v.as_array().map(|a| Ok(a.clone()))
}

fn main() {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let _ = security::check(&Ok(vec![json!({"name": "w", "description": "warm up"})]));

    // The real server-everything surface (13 tools, 4 prompts, 7 resources, 2 templates, and
    // its 1,700-character instructions).
    let file = read("tests/corpus/surface/modelcontextprotocol-server-everything.json");
    let tools =
        read("tests/corpus/benign/modelcontextprotocol-server-everything.json")["tools"].clone();
    let listing = Ok(tools.as_array().unwrap().clone());
    let other = OtherSurface {
        prompts: list(&file["prompts"]),
        resources: list(&file["resources"]),
        resource_templates: list(&file["resourceTemplates"]),
    };
    let instructions = file.get("instructions").cloned();
    let (t_tools, m_tools, _) = time(11, || security::check(&listing));
    let (t_all, m_all, all) = time(11, || {
        security::check_surface(&listing, &other, instructions.as_ref())
    });
    println!("server-everything (best / median of 11 runs)");
    println!(
        "  security, tools only:    {:>7.3} / {:>7.3} ms",
        ms(t_tools),
        ms(m_tools)
    );
    println!(
        "  security, whole surface: {:>7.3} / {:>7.3} ms  ({})",
        ms(t_all),
        ms(m_all),
        all[0].message
    );

    // 1,000 generated prompts (0-3 arguments each), then with 10,000 resources too.
    let none = Ok(Vec::new());
    let p = OtherSurface {
        prompts: Some(Ok(prompts(1_000))),
        ..OtherSurface::default()
    };
    let (t_p, m_p, sec) = time(11, || security::check_surface(&none, &p, None));
    let opts = CollisionConfig {
        max_tools: 10_000,
        ..CollisionConfig::default()
    };
    let (t_c, m_c, col) = time(11, || collision::check_surface(&none, &p, &opts));
    println!("1,000 prompts");
    println!(
        "  security:  {:>7.1} / {:>7.1} ms  ({})",
        ms(t_p),
        ms(m_p),
        sec[0].message
    );
    println!(
        "  collision: {:>7.1} / {:>7.1} ms  ({})",
        ms(t_c),
        ms(m_c),
        col[0].message
    );
    let pr = OtherSurface {
        prompts: Some(Ok(prompts(1_000))),
        resources: Some(Ok(resources(10_000))),
        resource_templates: None,
    };
    let (t_r, m_r, sec) = time(11, || security::check_surface(&none, &pr, None));
    println!("1,000 prompts + 10,000 resources");
    println!(
        "  security:  {:>7.1} / {:>7.1} ms  ({})",
        ms(t_r),
        ms(m_r),
        sec[0].message
    );
}

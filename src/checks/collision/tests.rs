use super::*;
use crate::model::{Severity, Status};
use serde_json::json;

fn flat() -> Value {
    json!({"type": "object", "properties": {"status": {"type": "string"}}, "required": ["status"]})
}
fn nested() -> Value {
    json!({"type": "object", "properties": {"filter": {"type": "object", "properties": {"s": {"type": "string"}}}}, "required": ["filter"]})
}
fn tool(name: &str, desc: &str, schema: Value) -> Value {
    json!({"name": name, "description": desc, "inputSchema": schema})
}
fn run(tools: Vec<Value>, opts: &CollisionConfig) -> Vec<Finding> {
    check(&Ok(tools), opts)
}
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn worked_examples() {
    let cases: &[(&str, &str, f64)] = &[
        ("abc", "abd", 0.5),
        ("Hello", "Help", 6.0 / 11.0),
        ("Reads a FILE.", "reads a file", 1.0),
        ("", "x", 0.0),
        (
            "Find orders by filter.",
            "Find orders by status.",
            30.0 / 44.0,
        ),
        (
            "Find orders matching a filter.",
            "Find orders by status.",
            24.0 / 52.0,
        ),
        ("Deletes the user.", "Deletes the users.", 32.0 / 35.0),
        (
            "Find orders matching the given filter. Returns a list of orders.",
            "Find orders matching the given status. Returns a list of orders.",
            110.0 / 126.0,
        ),
        (
            "Lists all users in the workspace, newest first.",
            "Lists all projects in the workspace, newest first.",
            80.0 / 95.0,
        ),
        (
            "Gets a single user record by its unique identifier.",
            "Gets a single project record by its unique identifier.",
            90.0 / 105.0,
        ),
        (
            "Sends an email message to a recipient address.",
            "Adds two numbers together.",
            8.0 / 72.0,
        ),
        (
            "Find orders matching the given filter. Returns a list of orders.",
            "Sends an email to a recipient.",
            6.0 / 93.0,
        ),
    ];
    for &(a, b, want) in cases {
        assert!(
            close(dice(a, b), want),
            "{a:?} vs {b:?}: {} != {want}",
            dice(a, b)
        );
        assert!((dice(a, b) - dice(b, a)).abs() < 1e-10, "symmetry {a:?}");
    }
    assert_eq!(trigrams("abc").len(), 4);
    assert!(
        dice(
            "Sends an email to a recipient.",
            "Find orders matching the given filter. Returns a list of orders."
        ) < 0.3
    );
}

#[test]
fn normalization_examples() {
    assert_eq!(normalize("Reads a FILE."), "reads a file");
    assert_eq!(
        normalize("  Don't  PANIC!\r\n Café—42 "),
        "don t panic café 42"
    );
    assert_eq!(normalize("İstanbul ΣΑΣ"), "i stanbul σας");
    assert_eq!(normalize("a\u{200B}b"), "a b");
    assert_eq!(normalize("Read a file\u{200B}"), "read a file");
    assert_eq!(dice("Cafe\u{301} menu", "Caf\u{e9} menu"), 1.0);
    // Outside the BMP the windows are UTF-16 units (a surrogate half can sit in a window).
    assert_eq!(trigrams("𝐀").len(), 3);
    // The ASCII fast path is the general path.
    for t in [
        "  Don't  PANIC!\r\n Cafe-42 ",
        "a\tb\rc\x0bd\x0c",
        "",
        "!!!",
        "Find_orders BY id#7.",
        "x\r\n\r\ny",
    ] {
        assert_eq!(normalize(t), normalize_unicode(t), "{t:?}");
    }
}

#[test]
fn both_conditions_are_required() {
    let d = "Find orders matching the given filter.";
    let o = CollisionConfig::default();
    assert_eq!(
        run(vec![tool("a", d, nested()), tool("b", d, flat())], &o).len(),
        2
    );
    assert_eq!(
        run(vec![tool("a", d, flat()), tool("b", d, flat())], &o).len(),
        1
    );
    assert_eq!(
        run(
            vec![tool("a", d, nested()), tool("b", "Sends an email.", flat())],
            &o
        )
        .len(),
        1
    );
}

#[test]
fn threshold_is_inclusive() {
    let (a, b) = ("Find orders by filter.", "Find orders by status.");
    let s = dice(a, b);
    let tools = || vec![tool("x", a, nested()), tool("y", b, flat())];
    let at = |t: f64| {
        run(
            tools(),
            &CollisionConfig {
                threshold: t,
                ..Default::default()
            },
        )
        .len()
            - 1
    };
    assert_eq!(at(s - 0.01), 1);
    assert_eq!(at(s), 1);
    assert_eq!(at(s + 0.01), 0);
}

#[test]
fn empty_descriptions_skipped_and_pairs_oriented() {
    let d = "Find orders matching the given filter.";
    let tools = vec![
        tool("zeta", d, flat()),
        tool("alpha", d, nested()),
        tool("none", "  \u{FEFF}\u{3000} ", nested()),
        json!({"name": "nodesc", "inputSchema": nested()}),
    ];
    let fs = run(tools, &CollisionConfig::default());
    assert_eq!(fs.len(), 2);
    assert_eq!(fs[0].message, "1 description collision(s) among 4 tool(s)");
    assert_eq!(fs[1].location.as_deref(), Some("alpha / zeta"));
    assert_eq!(
        fs[1].actual.as_ref().unwrap()["divergence"][0],
        json!({"kind": "required-shape", "a": ["object"], "b": ["string"]})
    );
    assert_eq!(fs[1].actual.as_ref().unwrap()["similarity"], json!(1));
    assert!(fs[1].message.contains("(similarity 1.00, trigram-dice)"));
}

#[test]
fn required_shape_and_divergence() {
    let user = json!({"type": "object", "properties": {"user_id": {"type": "string"}}, "required": ["user_id"]});
    let project = json!({"type": "object", "properties": {"project_id": {"type": "string"}}, "required": ["project_id"]});
    assert_eq!(required_shape(&user), ["string"]);
    assert_eq!(divergence(&user, &project), Ok(vec![]));
    let mixed = json!({"properties": {"a": {"type": ["string", "null"]}, "b": true, "c": {}}, "required": ["c", "a", "b", "missing", 3]});
    assert_eq!(
        required_shape(&mixed),
        ["any", "any", "any", "any", "null|string"]
    );
    assert_eq!(required_shape(&json!("nope")), Vec::<String>::new());
    assert_eq!(
        divergence(&nested(), &flat()),
        Ok(vec![
            Reason::RequiredShape(vec!["object".into()], vec!["string".into()]),
            Reason::Depth(2, 1)
        ])
    );
    let none = json!({"type": "object", "properties": {"x": {"type": "string"}}});
    assert_eq!(
        Reason::RequiredShape(vec![], vec!["string".into()]).text(),
        "required params [none] vs [string]"
    );
    assert_eq!(divergence(&none, &flat()).unwrap().len(), 1);
}

#[test]
fn depth_examples() {
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            1,
        ),
        (
            json!({"type": "object", "properties": {"f": {"type": "object", "properties": {"s": {"type": "string"}}}}}),
            2,
        ),
        (
            json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}),
            1,
        ),
        (
            json!({"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "object", "properties": {"id": {}}}}}}),
            2,
        ),
        (json!({"type": "object", "properties": {}}), 1),
        (
            json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {"x": {}}}]}),
            1,
        ),
        (
            json!({"properties": {"a": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"properties": {"b": {}}}}}),
            1,
        ),
        (json!({"items": [{"properties": {"a": {}}}, 3]}), 1),
        (json!(null), 0),
    ];
    for (schema, want) in cases {
        assert_eq!(depth(&schema), Ok(want), "{schema}");
    }
    let mut deep = json!({"type": "string"});
    for _ in 0..100 {
        deep = json!({"type": "object", "properties": {"n": deep}});
    }
    assert_eq!(
        depth(&deep),
        Err("Schema exceeds maximum depth of 64 (untrusted input protection)".to_string())
    );
    // During a run the pair is skipped, not reported or crashed on.
    let d = "Find orders matching the given filter.";
    let fs = run(
        vec![tool("a", d, deep), tool("b", d, flat())],
        &CollisionConfig::default(),
    );
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].status, Status::Pass);
    assert_eq!(
        fs[0].message,
        "No description collisions among 2 tool(s) (threshold 0.8)"
    );
}

#[test]
fn max_tools_gate() {
    let d = "Find orders matching the given filter.";
    let tools: Vec<Value> = (0..3)
        .map(|i| tool(&format!("t{i}"), d, if i == 0 { nested() } else { flat() }))
        .collect();
    let at_limit = run(
        tools.clone(),
        &CollisionConfig {
            max_tools: 3,
            ..Default::default()
        },
    );
    // t0 collides with t1 and with t2 (t1 and t2 share a schema): one cluster, one finding.
    assert_eq!(
        at_limit[0].message,
        "1 description collision(s) among 3 tool(s)"
    );
    assert_eq!(at_limit[1].location.as_deref(), Some("t0 / t1 / t2"));
    let over = run(
        tools,
        &CollisionConfig {
            max_tools: 2,
            ..Default::default()
        },
    );
    assert_eq!(over.len(), 1);
    assert_eq!(
        (over[0].status, over[0].severity),
        (Status::Skip, Severity::Warning)
    );
    assert!(over[0].message.contains("max_tools (2)"));
    // A huge surface above the limit returns at once.
    let many = vec![json!({}); 200_000];
    let fs = run(many, &CollisionConfig::default());
    assert!(fs[0].message.contains("19999900000 pairs"));
}

#[test]
fn fail_mode() {
    let d = "Find orders matching the given filter.";
    let fs = run(
        vec![tool("a", d, nested()), tool("b", d, flat())],
        &CollisionConfig {
            fail: true,
            ..Default::default()
        },
    );
    assert!(fs
        .iter()
        .all(|f| f.status == Status::Fail && f.severity == Severity::Error));
}

#[test]
fn listing_failure() {
    let fs = check(&Err("boom".into()), &CollisionConfig::default());
    assert_eq!(fs.len(), 1);
    assert_eq!(
        (fs[0].id.as_str(), fs[0].status),
        (LIST_TOOLS, Status::Fail)
    );
    assert_eq!(fs[0].message, "Failed to list tools: boom");
}

#[test]
fn rounding_is_half_up_on_the_exact_value() {
    assert_eq!(to_fixed(0.90625, 4), "0.9063");
    assert_eq!(to_fixed(0.625, 2), "0.63");
    assert_eq!(to_fixed(0.125, 2), "0.13");
    assert_eq!(to_fixed(110.0 / 126.0, 2), "0.87");
    assert_eq!(to_fixed(110.0 / 126.0, 4), "0.8730");
    assert_eq!(to_fixed(1.0, 2), "1.00");
    assert_eq!(to_fixed(0.999_96, 4), "1.0000");
    assert_eq!(to_fixed(0.0, 2), "0.00");
    // Exact binary values: 0.005 is just above, 0.015 and 1.005 just below the tie (as JS).
    assert_eq!(to_fixed(0.005, 2), "0.01");
    assert_eq!(to_fixed(0.015, 2), "0.01");
    assert_eq!(to_fixed(1.005, 2), "1.00");
    assert_eq!(js_number(0.8), "0.8");
    assert_eq!(js_number(1.0), "1");
    assert_eq!(js_number(0.85), "0.85");
    assert_eq!(js_number(0.0), "0");
    assert_eq!(js_number(1e-7), "1e-7");
}

#[test]
fn non_string_names_and_odd_values_do_not_panic() {
    let d = "Find orders matching the given filter.";
    let tools = vec![
        json!(null),
        json!({"name": 5, "description": d, "inputSchema": nested()}),
        json!({"description": d, "inputSchema": "x"}),
        json!({"name": "z", "description": 7}),
    ];
    for t in [0.0, 0.5, 1.0, 1.5, f64::NAN] {
        let fs = run(
            tools.clone(),
            &CollisionConfig {
                threshold: t,
                ..Default::default()
            },
        );
        assert_eq!(fs[0].id, SUMMARY);
    }
}

/// Tiny deterministic generator (no rand dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn random_profiles(seed: u64, n: usize) -> Vec<Profile> {
    const WORDS: &[&str] = &[
        "find", "orders", "user", "users", "list", "get", "the", "a", "by", "status", "filter",
        "project", "record", "returns", "of", "aa", "aaa", "ab", "ba", "é", "𝐀", "x",
    ];
    let mut rng = Lcg(seed);
    (0..n)
        .map(|_| {
            let len = rng.next(9);
            let words: Vec<&str> = (0..len).map(|_| WORDS[rng.next(WORDS.len())]).collect();
            let normalized = normalize(&words.join(" "));
            Profile {
                name: String::new(),
                grams: trigrams(&normalized),
                normalized,
                signature: None,
            }
        })
        .collect()
}

#[test]
fn indexed_pairs_equal_brute_force() {
    let mut checked = 0;
    for seed in 0..12 {
        let profiles = random_profiles(seed, 160);
        // All classes distinct: the pure score filter. Few classes: the schema-class skip.
        let distinct: Vec<u32> = (0..profiles.len() as u32).collect();
        let mut rng = Lcg(seed + 100);
        let few: Vec<u32> = (0..profiles.len())
            .map(|_| [0, 1, 2, NO_CLASS][rng.next(4)])
            .collect();
        for t in [0.05, 0.3, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.999, 1.0] {
            for classes in [&distinct, &few] {
                let fast = indexed_pairs(&profiles, classes, &Pairing::default(), t);
                let slow = brute_pairs(&profiles, classes, &Pairing::default(), t);
                assert_eq!(fast, slow, "seed {seed} threshold {t}");
                checked += slow.len();
            }
        }
    }
    assert!(checked > 1000, "inputs too easy: {checked} pairs");
}

#[test]
fn indexed_pairs_on_near_duplicates() {
    // Families of near-identical texts: many pairs right at the threshold boundary.
    let bases = [
        "Find orders matching the given filter.",
        "Lists all users in the workspace, newest first.",
    ];
    let mut texts = Vec::new();
    for b in bases {
        for i in 0..40 {
            let mut s = b.to_string();
            s.insert_str(i % b.len(), &"xy"[..(i % 3).min(2)]);
            texts.push(s);
        }
    }
    let profiles: Vec<Profile> = texts
        .iter()
        .map(|t| {
            let normalized = normalize(t);
            Profile {
                name: String::new(),
                grams: trigrams(&normalized),
                normalized,
                signature: None,
            }
        })
        .collect();
    let classes: Vec<u32> = (0..profiles.len() as u32).collect();
    for t in [0.8, 0.9, 0.95, 0.97, 1.0] {
        let slow = brute_pairs(&profiles, &classes, &Pairing::default(), t);
        assert!(!slow.is_empty());
        assert_eq!(
            indexed_pairs(&profiles, &classes, &Pairing::default(), t),
            slow,
            "threshold {t}"
        );
    }
}

#[test]
fn rules_table() {
    let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        [COLLISION, SUMMARY, LIST_TOOLS, rules::CROSS_SERVER_NAME.id]
    );
}

// ---------------------------------------------------------------------------------------
// Clusters and boilerplate (#13)

fn schema_n(n: usize) -> Value {
    // Distinct required shapes: n required string parameters.
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let required: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    json!({"type": "object", "properties": props, "required": required})
}

fn collisions(fs: &[Finding]) -> Vec<&Finding> {
    fs.iter().filter(|f| f.id == COLLISION).collect()
}

#[test]
fn sentences_split_where_a_reader_would() {
    assert_eq!(
        sentences("Notion | Retrieve a page\nError Responses:\n400: Bad request"),
        [
            "notion",
            "retrieve a page",
            "error responses",
            "400 bad request"
        ]
    );
    assert_eq!(
        sentences("Use v1.2 of the API. Then stop! Why? e.g.done"),
        ["use v1 2 of the api", "then stop", "why", "e g done"]
    );
    assert_eq!(sentences("a|b or a |b"), ["a b or a b"]);
    assert_eq!(sentences("一。二！三？"), ["一", "二", "三"]);
    assert_eq!(sentences(""), Vec::<String>::new());
    assert_eq!(sentences(" | . ! ? \n\r|"), Vec::<String>::new());
    // Joining the pieces is normalizing the whole (so a server without boilerplate scores
    // exactly as before).
    for d in [
        "Find orders matching the given filter. Returns a list of orders.",
        "  Don't  PANIC!\r\n Café—42 ",
        "x | y.z! ?",
    ] {
        assert_eq!(sentences(d).join(" "), normalize(d), "{d:?}");
    }
}

#[test]
fn boilerplate_needs_three_tools_and_a_third_of_them() {
    let b = "Use the action parameter to specify the operation.";
    let texts = |descs: &[&str]| discounted(descs);
    // Two tools sharing a sentence: not boilerplate (too few).
    assert_eq!(
        texts(&[&format!("Alpha one. {b}"), &format!("Beta two. {b}")]),
        [
            format!("alpha one {}", normalize(b)),
            format!("beta two {}", normalize(b))
        ]
    );
    // Three of nine: boilerplate (a third); three of ten: not.
    let mut nine: Vec<String> = vec![
        format!("Alpha. {b}"),
        format!("Beta. {b}"),
        format!("Gamma. {b}"),
    ];
    nine.extend((0..6).map(|i| format!("Other tool {i}.")));
    let refs: Vec<&str> = nine.iter().map(String::as_str).collect();
    assert_eq!(texts(&refs)[..3], ["alpha", "beta", "gamma"]);
    let mut ten = nine.clone();
    ten.push("One more.".into());
    let refs: Vec<&str> = ten.iter().map(String::as_str).collect();
    assert_eq!(texts(&refs)[0], format!("alpha {}", normalize(b)));
    // A description made only of boilerplate keeps its whole text.
    let only = [
        b,
        b,
        b,
        "Alpha. Use the action parameter to specify the operation.",
    ];
    assert_eq!(
        texts(&only),
        [
            normalize(b),
            normalize(b),
            normalize(b),
            "alpha".to_string()
        ]
    );
}

/// A leading module tag three or more tools open with is left out of the score (Alibaba
/// Cloud DevOps, session 18); a tag fewer tools share, or none, stays in.
#[test]
fn shared_leading_tags_are_discounted() {
    let descs = [
        "[Test Management] 获取测试用例信息",
        "[Test Management] 获取测试用例目录列表",
        "[Test Management] 获取测试计划中测试用例列表",
        "[Other] Lists things",
        "[Other] Gets a thing",
        "[x] y",
    ];
    assert_eq!(
        discounted(&descs),
        [
            normalize("获取测试用例信息"),
            normalize("获取测试用例目录列表"),
            normalize("获取测试计划中测试用例列表"),
            normalize("[Other] Lists things"),
            normalize("[Other] Gets a thing"),
            normalize("[x] y"),
        ]
    );
    // Tagged tools with short, different descriptions no longer pair; the same
    // descriptions still do.
    let tool = |n: &str, d: &str, k: usize| json!({"name": n, "description": d, "inputSchema": schema_n(k)});
    let fs = check(
        &Ok(vec![
            tool("get_testcase", "[Test Management] 获取测试用例信息", 1),
            tool("list_dirs", "[Test Management] 获取测试用例目录列表", 2),
            tool(
                "list_plan",
                "[Test Management] 获取测试计划中测试用例列表",
                3,
            ),
            tool("twin", "[Test Management] 获取测试用例信息", 4),
        ]),
        &CollisionConfig::default(),
    );
    let got: Vec<_> = collisions(&fs).iter().map(|f| f.location.clone()).collect();
    assert_eq!(got, [Some("get_testcase / twin".to_string())]);
}

/// The issue's real case: ~20 tools of one server share "Use the action parameter to specify
/// the operation." after a "Retrieve X data for a project." template; their schemas differ.
fn action_server(entities: &[&str]) -> Vec<Value> {
    entities
        .iter()
        .enumerate()
        .map(|(i, e)| {
            tool(
                &format!("get_{}", e.replace(' ', "_")),
                &format!(
                    "Retrieve {e} data for a project. Use the action parameter to specify the operation."
                ),
                schema_n(i % 5),
            )
        })
        .collect()
}

/// Entities of a word each: the template itself stays similar (one short word apart).
const SHORT: &[&str] = &[
    "issue",
    "merge request",
    "pipeline",
    "deployment",
    "member",
    "label",
    "milestone",
    "branch",
    "commit",
    "release",
    "runner",
    "variable",
    "environment",
    "wiki page",
    "snippet",
    "webhook",
    "badge",
    "board",
    "package",
    "schedule",
];
/// Entities that tell the tools apart, as real descriptions do.
const DISTINCT: &[&str] = &[
    "issue board",
    "merge request approval",
    "pipeline schedule",
    "container registry",
    "deploy key",
    "protected branch",
    "release evidence",
    "runner token",
    "environment variable",
    "wiki page history",
    "code snippet",
    "outgoing webhook",
    "badge image",
    "package registry",
    "audit event",
    "security report",
    "feature flag",
    "error tracking",
    "service desk",
    "value stream",
];

/// Pairs the lint flagged before the discount and the clusters: raw-text score (collision.md
/// §4) at or above 0.8 and different schemas.
fn raw_pairs(tools: &[Value]) -> usize {
    let descs: Vec<&str> = tools
        .iter()
        .map(|t| t["description"].as_str().unwrap())
        .collect();
    let schemas: Vec<&Value> = tools.iter().map(|t| &t["inputSchema"]).collect();
    (0..descs.len())
        .flat_map(|i| (i + 1..descs.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            dice(descs[i], descs[j]) >= 0.8
                && !divergence(schemas[i], schemas[j]).unwrap().is_empty()
        })
        .count()
}

#[test]
fn shared_boilerplate_no_longer_pairs_every_tool() {
    // Distinct otherwise: 150 of the 160 pairs with different schemas scored ≥ 0.8 on the
    // raw text (the shared sentence is most of it), so the lint reported 150 warnings.
    let tools = action_server(DISTINCT);
    assert_eq!(raw_pairs(&tools), 150);
    let fs = run(tools, &CollisionConfig::default());
    assert_eq!(fs.len(), 1);
    assert_eq!(
        fs[0].message,
        "No description collisions among 20 tool(s) (threshold 0.8)"
    );
    // One short word apart, the template itself still scores ≥ 0.8 for some pairs: those
    // are clustered (connected components chain them), 2 findings instead of 160.
    let tools = action_server(SHORT);
    assert_eq!(raw_pairs(&tools), 160);
    let fs = run(tools, &CollisionConfig::default());
    let locations: Vec<&str> = collisions(&fs)
        .iter()
        .filter_map(|f| f.location.as_deref())
        .collect();
    assert_eq!(
        locations,
        [
            "get_badge / get_board / get_branch / get_issue / get_package / get_release / get_wiki_page",
            "get_member / get_runner",
        ]
    );
    assert_eq!(fs[0].message, "2 description collision(s) among 20 tool(s)");
}

#[test]
fn genuine_duplicates_still_warn_among_boilerplate() {
    let mut tools = action_server(DISTINCT);
    // A tool a reviewer must tell apart from get_audit_event: the same text, another payload.
    tools.push(tool(
        "get_audit_event_v2",
        "Retrieve audit event data for a project. Use the action parameter to specify the operation.",
        nested(),
    ));
    let fs = run(tools, &CollisionConfig::default());
    assert_eq!(fs.len(), 2);
    assert_eq!(fs[0].message, "1 description collision(s) among 21 tool(s)");
    assert_eq!(
        fs[1].location.as_deref(),
        Some("get_audit_event / get_audit_event_v2")
    );
    assert_eq!(
        fs[1].message,
        "Tools \"get_audit_event\" and \"get_audit_event_v2\" have near-identical descriptions (similarity 1.00, trigram-dice) but divergent input schemas: required params [string, string, string, string] vs [object]; nesting depth 1 vs 2. An agent selecting tools by description may call the wrong one with the wrong payload."
    );
    // A near-duplicate (one word changed in the distinctive part) also still warns.
    let mut tools = action_server(DISTINCT);
    tools.push(tool(
        "get_audit_events",
        "Retrieve audit events data for a project. Use the action parameter to specify the operation.",
        nested(),
    ));
    let fs = run(tools, &CollisionConfig::default());
    let locations: Vec<&str> = collisions(&fs)
        .iter()
        .filter_map(|f| f.location.as_deref())
        .collect();
    assert_eq!(locations, ["get_audit_event / get_audit_events"]);
}

#[test]
fn identical_boilerplate_only_descriptions_form_one_cluster() {
    let d = "Use the action parameter to specify the operation.";
    let tools = vec![
        tool("delta", d, flat()),
        tool("beta", d, nested()),
        tool("alpha", d, flat()),
        tool("gamma", d, schema_n(0)),
    ];
    // Five flagged pairs (every pair but alpha/delta, which share a schema), one cluster.
    let pairs: Vec<(String, String)> = find(&tools, 0.8).into_iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(pairs.len(), 5);
    assert_eq!(pairs[0], ("alpha".to_string(), "beta".to_string()));
    let fs = run(tools, &CollisionConfig::default());
    assert_eq!(fs.len(), 2);
    assert_eq!(fs[0].message, "1 description collision(s) among 4 tool(s)");
    let f = &fs[1];
    assert_eq!((f.status, f.severity), (Status::Warn, Severity::Warning));
    assert_eq!(f.location.as_deref(), Some("alpha / beta / delta / gamma"));
    assert_eq!(
        f.message,
        "Tools \"alpha\", \"beta\", \"delta\" and \"gamma\" have near-identical descriptions (5 pair(s) at similarity 1.00, trigram-dice) but divergent input schemas: \"alpha\" required params [string], nesting depth 1; \"beta\" required params [object], nesting depth 2; \"delta\" required params [string], nesting depth 1; \"gamma\" required params [none], nesting depth 1. An agent selecting tools by description may call the wrong one with the wrong payload."
    );
    let actual = f.actual.as_ref().unwrap();
    assert_eq!(actual["similarity"], json!(1));
    assert_eq!(actual["pair_count"], json!(5));
    assert_eq!(
        actual["members"][1],
        json!({"name": "beta", "required": ["object"], "depth": 2})
    );
    assert_eq!(
        actual["pairs"][0],
        json!({"a": "alpha", "b": "beta", "similarity": 1})
    );
}

#[test]
fn clusters_are_connected_components_in_a_stable_order() {
    // a~b and b~c (one word each) but a and c further apart; d/e a separate pair.
    let a = "Find orders matching the given filter. Returns a list of orders.";
    let b = "Find orders matching the given status. Returns a list of orders.";
    let c = "Find orders matching the given status. Returns a list of users.";
    assert!(dice(a, b) >= 0.8 && dice(b, c) >= 0.8);
    let e = "Deletes the user.";
    let tools = vec![
        tool("c_tool", c, nested()),
        tool("e_tool", e, flat()),
        tool("b_tool", b, flat()),
        tool("a_tool", a, nested()),
        tool("d_tool", "Deletes the users.", nested()),
    ];
    let expect = |fs: &[Finding]| {
        let locs: Vec<String> = collisions(fs)
            .iter()
            .map(|f| f.location.clone().unwrap())
            .collect();
        assert_eq!(locs, ["a_tool / b_tool / c_tool", "d_tool / e_tool"]);
        // The pair keeps the original's finding exactly.
        assert!(collisions(fs)[1]
            .message
            .starts_with("Tools \"d_tool\" and \"e_tool\" have near-identical descriptions (similarity 0.91, trigram-dice) but divergent input schemas: required params [object] vs [string]; nesting depth 2 vs 1."));
    };
    let fs = run(tools.clone(), &CollisionConfig::default());
    expect(&fs);
    assert!(
        fs[1].message.contains("(2 pair(s) at similarity"),
        "{}",
        fs[1].message
    );
    // Listing order does not change the output.
    let mut reversed = tools;
    reversed.reverse();
    let again = run(reversed, &CollisionConfig::default());
    expect(&again);
    assert_eq!(again, fs);
}

#[test]
fn hostile_descriptions_do_not_panic() {
    let tools: Vec<Value> = [
        "",
        " | ",
        "|||",
        "...",
        ". . .",
        "\n\n\n",
        "。",
        "a |",
        "| a",
        "x.\u{2028}y",
        "\u{FEFF}",
    ]
    .iter()
    .enumerate()
    .map(|(i, d)| tool(&format!("t{i}"), d, schema_n(i % 3)))
    .collect();
    for t in [0.0, 0.8, 1.0] {
        let fs = run(
            tools.clone(),
            &CollisionConfig {
                threshold: t,
                ..Default::default()
            },
        );
        assert_eq!(fs[0].id, SUMMARY);
    }
    // 400 identical descriptions over 4 schemas: 60,000 flagged pairs, one finding whose
    // size stays linear in the members (pairs are counted, 100 listed).
    let d = "Use the action parameter to specify the operation.";
    let many: Vec<Value> = (0..400)
        .map(|i| tool(&format!("tool_{i:04}"), d, schema_n(i % 4)))
        .collect();
    let fs = run(
        many,
        &CollisionConfig {
            max_tools: 10_000,
            ..Default::default()
        },
    );
    assert_eq!(fs.len(), 2);
    let actual = fs[1].actual.as_ref().unwrap();
    assert_eq!(actual["pair_count"], json!(60_000));
    assert_eq!(actual["pairs"].as_array().unwrap().len(), 100);
    assert_eq!(actual["members"].as_array().unwrap().len(), 400);
    assert!(fs[1]
        .location
        .as_deref()
        .unwrap()
        .starts_with("tool_0000 / tool_0001 / "));
}

// ---------------------------------------------------------------------------------------
// Prompts among themselves (#14)

fn prompt(name: &str, desc: &str, required: usize, optional: usize) -> Value {
    let mut args: Vec<Value> = (0..required)
        .map(|i| json!({"name": format!("r{i}"), "required": true}))
        .collect();
    args.extend((0..optional).map(|i| json!({"name": format!("o{i}")})));
    json!({"name": name, "description": desc, "arguments": args})
}

fn with_prompts(prompts: Vec<Value>) -> OtherSurface {
    OtherSurface {
        prompts: Some(Ok(prompts)),
        ..OtherSurface::default()
    }
}

#[test]
fn without_prompts_the_result_is_the_tools_lint() {
    let tools = vec![
        tool("find_orders", "Find orders by filter.", nested()),
        tool("search_orders", "Find orders by status.", flat()),
    ];
    let opts = CollisionConfig::default();
    for other in [
        OtherSurface::default(),
        with_prompts(vec![]),
        OtherSurface {
            prompts: Some(Err("boom".into())),
            ..OtherSurface::default()
        },
    ] {
        assert_eq!(
            check_surface(&Ok(tools.clone()), &other, &opts),
            run(tools.clone(), &opts)
        );
    }
}

/// Two prompts worded alike that take a different number of arguments: they collide.
fn review_prompts() -> [Value; 2] {
    [
        prompt(
            "review",
            "Review the code in the current file for bugs.",
            1,
            0,
        ),
        prompt(
            "review_pr",
            "Review the code in the current file for bugs!",
            2,
            0,
        ),
    ]
}

#[test]
fn prompts_collide_among_themselves_like_tools() {
    let opts = CollisionConfig::default();
    let prompts = vec![
        review_prompts()[0].clone(),
        review_prompts()[1].clone(),
        // Same wording, same arguments: an ordinary family, silent.
        prompt("summarise", "Summarise the selected text.", 1, 1),
        prompt("summarise_doc", "Summarise the selected text", 1, 0),
    ];
    // A tool with a prompt's description does not pair with it: prompts pair among themselves.
    let tools = vec![tool(
        "review_tool",
        "Review the code in the current file for bugs.",
        nested(),
    )];
    let fs = check_surface(&Ok(tools), &with_prompts(prompts), &opts);
    assert_eq!(fs[0].id, SUMMARY);
    assert_eq!(
        (fs[0].status, fs[0].severity),
        (Status::Warn, Severity::Warning)
    );
    assert_eq!(
        fs[0].message,
        "1 description collision(s) among 1 tool(s) and 4 prompt(s)"
    );
    assert_eq!(fs.len(), 2, "{fs:#?}");
    assert_eq!(fs[1].id, COLLISION);
    assert_eq!(
        fs[1].location.as_deref(),
        Some("prompt:review / prompt:review_pr")
    );
    assert_eq!(
        fs[1].message,
        "Prompts \"review\" and \"review_pr\" have near-identical descriptions (similarity 1.00, trigram-dice) but take different arguments: 1 vs 2 required. A user or agent choosing prompts by description may pick the wrong one."
    );
    assert_eq!(
        fs[1].actual,
        Some(json!({"similarity": 1, "scorer": "trigram-dice",
                    "divergence": [{"kind": "required-arguments", "a": 1, "b": 2}]}))
    );
    // `fail: true` applies to prompts as to tools.
    let strict = CollisionConfig {
        fail: true,
        ..CollisionConfig::default()
    };
    let prompts = vec![
        prompt(
            "review",
            "Review the code in the current file for bugs.",
            1,
            0,
        ),
        prompt(
            "review_pr",
            "Review the code in the current file for bugs!",
            2,
            0,
        ),
    ];
    let fs = check_surface(&Ok(vec![]), &with_prompts(prompts), &strict);
    assert_eq!(fs[1].status, Status::Fail);
}

#[test]
fn prompt_clusters_and_silent_cases() {
    let opts = CollisionConfig::default();
    let prompts = vec![
        prompt("a", "Explain the selected code step by step.", 0, 0),
        prompt("b", "Explain the selected code step by step", 1, 0),
        prompt("c", "Explain the selected code, step by step.", 2, 0),
        prompt("quiet", "", 3, 0),
        json!("not a prompt"),
        json!({"name": 3, "description": ["x"], "arguments": "none"}),
    ];
    let fs = check_surface(&Ok(vec![]), &with_prompts(prompts), &opts);
    assert_eq!(fs.len(), 2, "{fs:#?}");
    assert_eq!(
        fs[1].location.as_deref(),
        Some("prompt:a / prompt:b / prompt:c")
    );
    assert!(
        fs[1].message.starts_with(
            "Prompts \"a\", \"b\" and \"c\" have near-identical descriptions (3 pair(s)"
        ),
        "{}",
        fs[1].message
    );
    assert!(fs[1]
        .message
        .contains("(required: \"a\" 0, \"b\" 1, \"c\" 2)"));
    // Identical descriptions with the same required count never diverge.
    let same: Vec<Value> = (0..50)
        .map(|i| {
            prompt(
                &format!("p{i}"),
                "User wants to containerize an application",
                0,
                i % 3,
            )
        })
        .collect();
    let fs = check_surface(&Ok(vec![]), &with_prompts(same), &opts);
    assert_eq!(fs.len(), 1);
    assert_eq!(
        fs[0].message,
        "No description collisions among 0 tool(s) and 50 prompt(s) (threshold 0.8)"
    );
}

#[test]
fn too_many_prompts_skip_like_too_many_tools() {
    let opts = CollisionConfig {
        max_tools: 3,
        ..CollisionConfig::default()
    };
    let prompts: Vec<Value> = (0..4)
        .map(|i| prompt(&format!("p{i}"), "x", 0, 0))
        .collect();
    let fs = check_surface(&Ok(vec![]), &with_prompts(prompts), &opts);
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].status, Status::Skip);
    assert!(fs[0]
        .message
        .starts_with("Collision lint skipped: 4 prompts exceeds max_tools (3)"));
}

// ---------------------------------------------------------------------------------------
// Cross-server collisions (#15)

fn fleet(members: &[(&str, Vec<Value>)], cfg: &CollisionConfig) -> Vec<Finding> {
    let m: Vec<(&str, &[Value])> = members.iter().map(|(n, t)| (*n, t.as_slice())).collect();
    check_fleet(&m, cfg)
}

fn named(name: &str) -> Value {
    json!({"name": name, "description": format!("Does {name}."), "inputSchema": {"type": "object"}})
}

#[test]
fn cross_server_name_names_the_servers() {
    let members = [
        ("docs", vec![named("search"), named("read_page")]),
        ("api", vec![named("search"), named("post")]),
        ("web", vec![named("fetch")]),
    ];
    let fs = fleet(&members, &CollisionConfig::default());
    assert_eq!(fs.len(), 1, "{fs:#?}");
    let f = &fs[0];
    assert_eq!(f.id, rules::CROSS_SERVER_NAME.id);
    assert_eq!((f.status, f.severity), (Status::Warn, Severity::Warning));
    // Servers sorted by name, whatever the member order.
    assert_eq!(f.location.as_deref(), Some("api:search, docs:search"));
    assert!(
        f.message.contains("\"search\" is exposed by 2 servers")
            && f.message.contains("\"api\", \"docs\""),
        "{}",
        f.message
    );
    assert_eq!(
        f.actual,
        Some(json!({"name": "search", "servers": ["api", "docs"]}))
    );
    let mut reversed = members.to_vec();
    reversed.reverse();
    assert_eq!(fleet(&reversed, &CollisionConfig::default()), fs);
    // checks.collision.fail makes it fail; enabled: false turns it off.
    let failing = CollisionConfig {
        fail: true,
        ..CollisionConfig::default()
    };
    let f = &fleet(&members, &failing)[0];
    assert_eq!((f.status, f.severity), (Status::Fail, Severity::Error));
    let off = CollisionConfig {
        enabled: false,
        ..CollisionConfig::default()
    };
    assert!(fleet(&members, &off).is_empty());
}

#[test]
fn one_name_on_one_server_is_no_cross_server_name() {
    // Listed twice by the same server: schema/unique-names reports it, not the fleet.
    let members = [
        ("docs", vec![named("search"), named("search")]),
        ("api", vec![named("post")]),
    ];
    assert!(fleet(&members, &CollisionConfig::default()).is_empty());
    assert!(fleet(&[], &CollisionConfig::default()).is_empty());
}

#[test]
fn description_collisions_across_servers_only() {
    let a = tool(
        "find_orders",
        "Find orders matching the given filter.",
        flat(),
    );
    let b = tool(
        "search_orders",
        "Find orders matching the given filter!",
        nested(),
    );
    // Across two servers: one finding, tools named server:tool.
    let fs = fleet(
        &[("shop", vec![a.clone()]), ("crm", vec![b.clone()])],
        &CollisionConfig::default(),
    );
    assert_eq!(fs.len(), 1, "{fs:#?}");
    assert_eq!(fs[0].id, COLLISION);
    assert_eq!(fs[0].status, Status::Warn);
    assert_eq!(
        fs[0].location.as_deref(),
        Some("crm:search_orders / shop:find_orders")
    );
    assert!(fs[0]
        .message
        .contains("\"crm:search_orders\" and \"shop:find_orders\""));
    // The same pair on one server is that server's own lint's, not the fleet's.
    assert!(fleet(
        &[("shop", vec![a, b]), ("crm", vec![])],
        &CollisionConfig::default()
    )
    .is_empty());
}

#[test]
fn fleet_pairs_skip_same_group_and_equal_brute_force() {
    for seed in 0..4 {
        let profiles = random_profiles(seed, 120);
        let classes: Vec<u32> = (0..profiles.len() as u32).collect();
        let groups: Vec<u32> = (0..profiles.len() as u32).map(|i| i % 3).collect();
        let pairing = Pairing {
            groups: Some(&groups),
            budget: usize::MAX,
        };
        for t in [0.3, 0.6, 0.8, 1.0] {
            let fast = indexed_pairs(&profiles, &classes, &pairing, t);
            let slow = brute_pairs(&profiles, &classes, &pairing, t);
            assert_eq!(fast, slow, "seed {seed} threshold {t}");
            assert!(fast.iter().all(|&(i, j, _)| groups[i] != groups[j]));
            // Without groups, the same pairs plus the same-group ones.
            let all = indexed_pairs(&profiles, &classes, &Pairing::default(), t);
            let cross: Vec<_> = all
                .into_iter()
                .filter(|&(i, j, _)| groups[i] != groups[j])
                .collect();
            assert_eq!(fast, cross);
        }
    }
}

#[test]
fn hostile_fleets_do_not_panic_and_stay_bounded() {
    let huge = "x".repeat(1 << 20);
    let odd = vec![
        json!(null),
        json!(7),
        json!("search"),
        json!({"name": 3, "description": "Find orders."}),
        json!({"description": "Find orders matching the given filter."}),
        json!({"name": "big", "description": huge, "inputSchema": "nope"}),
        json!({"name": "search", "description": {"a": 1}}),
    ];
    let fs = fleet(
        &[("a", odd.clone()), ("b", odd.clone())],
        &CollisionConfig::default(),
    );
    let names: Vec<&str> = fs.iter().filter_map(|f| f.location.as_deref()).collect();
    assert!(
        names.contains(&"a:big, b:big") && names.contains(&"a:search, b:search"),
        "{names:?}"
    );
    // 200,000 tools: 400 servers of 500 (max_tools) sharing their names. Names are
    // indexed; the description comparison is skipped past 20 × max_tools described tools
    // (one summary skip says so).
    let many: Vec<Value> = (0..500)
        .map(|i| json!({"name": format!("t{i}"), "description": "Find orders matching the filter.", "inputSchema": {"type": "object", "required": [format!("p{}", i % 7)]}}))
        .collect();
    let servers: Vec<(String, Vec<Value>)> = (0..400)
        .map(|i| (format!("s{i:03}"), many.clone()))
        .collect();
    let m: Vec<(&str, &[Value])> = servers
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_slice()))
        .collect();
    let fs = check_fleet(&m, &CollisionConfig::default());
    let names: Vec<&Finding> = fs
        .iter()
        .filter(|f| f.id == rules::CROSS_SERVER_NAME.id)
        .collect();
    assert_eq!(names.len(), 500);
    assert!(
        names[0].message.contains("exposed by 400 servers")
            && names[0].message.contains("390 more")
    );
    let skips: Vec<&Finding> = fs.iter().filter(|f| f.id == SUMMARY).collect();
    assert_eq!(skips.len(), 1);
    assert_eq!(skips[0].status, Status::Skip);
    assert!(
        skips[0].message.contains("more than 10000 described tools"),
        "{}",
        skips[0].message
    );
    // A server over max_tools is left out of the comparison (its own lint is skipped too).
    let big: Vec<Value> = (0..501).map(|i| named(&format!("b{i}"))).collect();
    let fs = fleet(
        &[("big", big), ("small", vec![named("x")])],
        &CollisionConfig::default(),
    );
    assert_eq!(fs.len(), 1);
    assert!(
        fs[0].message.contains("left out 1 server(s)") && fs[0].message.contains(": big."),
        "{}",
        fs[0].message
    );
    // Identical descriptions with divergent schemas across servers: the pair budget stops
    // the comparison (k²/2 pairs otherwise).
    let same: Vec<Value> = (0..300)
        .map(|i| {
            tool(
                &format!("t{i}"),
                "Find orders matching the given filter.",
                schema_n(i % 50),
            )
        })
        .collect();
    let fs = fleet(
        &[("a", same.clone()), ("b", same)],
        &CollisionConfig::default(),
    );
    assert!(
        fs.iter()
            .any(|f| f.id == SUMMARY && f.message.contains("stopped after")),
        "{:?}",
        fs.iter().map(|f| &f.message).collect::<Vec<_>>()
    );
}

/// The runner lints a long listing from its text (#12's memory bound): the same findings,
/// with and without prompts, boilerplate discount and failed listings included.
#[test]
fn a_listing_linted_from_text_gives_the_same_findings() {
    let shared = "Use the action parameter to specify the operation.";
    let listings: Vec<Listing> = vec![
        Ok(vec![
            tool(
                "find_orders",
                "Find the orders that match the filter.",
                flat(),
            ),
            tool(
                "find_order",
                "Find the orders that match the filter!",
                nested(),
            ),
            tool(
                "find_orders_2",
                "Find the orders that match the filter",
                schema_n(0),
            ),
            tool("a", &format!("Read the a data. {shared}"), flat()),
            tool("b", &format!("Read the b data. {shared}"), flat()),
            tool("c", &format!("Read the c data. {shared}"), flat()),
            json!({"name": "blank", "description": "  "}),
            json!(null),
        ]),
        Ok(vec![]),
        Err("timed out".into()),
    ];
    let prompts = OtherSurface {
        prompts: Some(Ok(review_prompts().to_vec())),
        ..OtherSurface::default()
    };
    // Collisions among the tools and among the prompts, so the comparison has some to lose.
    let parsed = check_surface(&listings[0], &prompts, &CollisionConfig::default());
    assert!(
        parsed.iter().filter(|f| f.status == Status::Warn).count() >= 3,
        "{parsed:#?}"
    );
    for listing in listings {
        let text: TextListing = listing.clone().map(|ts| {
            ts.iter()
                .map(|t| serde_json::value::to_raw_value(t).unwrap())
                .collect()
        });
        for other in [OtherSurface::default(), prompts.clone()] {
            for opts in [
                CollisionConfig::default(),
                CollisionConfig {
                    max_tools: 2,
                    ..Default::default()
                },
            ] {
                assert_eq!(
                    check_surface_text(&text, &other, &opts),
                    check_surface(&listing, &other, &opts),
                    "{listing:?}"
                );
            }
        }
    }
}

/// Ableton Live's generated getters and setters (benign 31): descriptions that open on
/// opposite verbs tell their tools apart; the same wording with one verb still collides.
#[test]
fn opposite_verbs_do_not_collide() {
    let o = CollisionConfig::default();
    let idx = json!({"type": "object", "properties": {"track_index": {"type": "integer"}}, "required": ["track_index"]});
    let set = json!({"type": "object", "properties": {"track_index": {"type": "integer"}, "color": {"type": "integer"}}, "required": ["track_index", "color"]});
    for (a, b) in [
        ("Get the clip color.", "Set the clip color."),
        ("Gets the volume of a track.", "Sets the volume of a track."),
        ("Set the name of a track.", "Get the volume of a track."),
        (
            "Enable monitoring of the track.",
            "Disables monitoring of the track.",
        ),
        (
            "Opens the track's fold state.",
            "Closes the track's fold state.",
        ),
    ] {
        let fs = run(
            vec![tool("a", a, idx.clone()), tool("b", b, set.clone())],
            &o,
        );
        assert!(collisions(&fs).is_empty(), "{a:?} / {b:?}: {fs:?}");
    }
    for (a, b) in [
        ("Get the clip color.", "Get the clip colors."),
        ("Set the clip color.", "Sets the clip color."),
        ("Get the clip color.", "Reset the clip color."),
        (
            "The getter: get the clip color.",
            "The getter: set the clip color.",
        ),
        // A review, session 38: both tools do both, or "Set" is a noun.
        (
            "Add or remove labels on an issue.",
            "Remove or add labels on an issue.",
        ),
        (
            "Get or set the clip color of a track.",
            "Set or get the clip color of a track.",
        ),
        (
            "Stop the running container and start it again with the same configuration.",
            "Start the running container again and stop the old one, with the same configuration.",
        ),
        (
            "Upload local changes and download remote changes for the synced folder.",
            "Download remote changes and upload local changes for the synced folder.",
        ),
        (
            "Set of records matching the query, with their fields and ids.",
            "Get records matching the query, with their fields and ids.",
        ),
    ] {
        let fs = run(
            vec![tool("a", a, idx.clone()), tool("b", b, set.clone())],
            &o,
        );
        assert_eq!(collisions(&fs).len(), 1, "{a:?} / {b:?}: {fs:?}");
    }
}

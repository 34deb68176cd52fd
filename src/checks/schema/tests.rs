use super::*;
use serde_json::json;

const OLD: &str = "2025-06-18";
const NEW: &str = "2025-11-25";

fn tool(name: &str) -> Value {
    json!({
        "name": name,
        "description": "Does a thing",
        "inputSchema": {
            "type": "object",
            "properties": {"q": {"type": "string"}, "n": {"type": ["integer", "null"]}},
            "required": ["q"]
        }
    })
}

fn run(tools: Vec<Value>, v: &str) -> Vec<Finding> {
    check(&Ok(tools), v)
}

fn only<'a>(fs: &'a [Finding], id: &str) -> Vec<&'a Finding> {
    fs.iter().filter(|f| f.id == id).collect()
}

fn one<'a>(fs: &'a [Finding], id: &str) -> &'a Finding {
    let v = only(fs, id);
    assert_eq!(v.len(), 1, "{id} in {fs:#?}");
    v[0]
}

fn assert_is(f: &Finding, status: Status, severity: Severity, needle: &str) {
    assert_eq!(f.status, status, "{f:?}");
    assert_eq!(f.severity, severity, "{f:?}");
    assert!(
        f.message.contains(needle),
        "{:?} lacks {needle:?}",
        f.message
    );
}

fn input_schema_finding(schema: Value) -> Finding {
    let mut t = tool("t");
    t["inputSchema"] = schema;
    one(&run(vec![t], NEW), ID_INPUT_SCHEMA).clone()
}

// Edge case 13.
#[test]
fn compliant_tools_pass_with_summary_first() {
    let mut t2 = tool("b");
    t2["annotations"] = json!({"title": 5, "readOnlyHint": true, "openWorldHint": false});
    let fs = run(vec![tool("a"), t2], OLD);
    let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            ID_SUMMARY,
            ID_NAME,
            ID_DESCRIPTION,
            ID_INPUT_SCHEMA,
            ID_NAME,
            ID_DESCRIPTION,
            ID_INPUT_SCHEMA,
            ID_ANNOTATIONS
        ]
    );
    assert!(fs
        .iter()
        .all(|f| f.status == Status::Pass && f.severity == Severity::Info));
    assert_eq!(fs[0].message, "All 2 tools have valid schemas");
    assert_eq!(fs[0].location, None);
    assert_eq!(fs[1].message, "Tool \"a\" has valid name");
    assert_eq!(fs[2].message, "Tool \"a\" has description");
    assert_eq!(fs[3].message, "Tool \"a\" has valid inputSchema");
    assert_eq!(fs[7].message, "Tool \"b\" has valid annotations");
    assert_eq!(fs[7].location.as_deref(), Some("b"));
}

// Edge case 19.
#[test]
fn zero_tools_give_only_the_summary() {
    let fs = run(vec![], OLD);
    assert_eq!(fs.len(), 1);
    assert_is(
        &fs[0],
        Status::Pass,
        Severity::Info,
        "All 0 tools have valid schemas",
    );
}

#[test]
fn listing_failure_is_a_single_result() {
    let fs = check(&Err("MCP error -32603: boom".into()), OLD);
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].id, ID_LIST_TOOLS);
    assert_is(
        &fs[0],
        Status::Fail,
        Severity::Error,
        "Failed to list tools: MCP error -32603: boom",
    );
    assert_eq!(fs[0].actual, Some(json!("MCP error -32603: boom")));
}

// Edge case 18.
#[test]
fn duplicate_names_fail_before_per_tool_results() {
    let fs = run(
        vec![
            tool("valid_tool"),
            tool("x"),
            tool("valid_tool"),
            tool("x"),
            tool("x"),
        ],
        OLD,
    );
    assert_eq!(fs[0].id, ID_UNIQUE);
    assert_eq!(fs[1].id, ID_UNIQUE);
    assert_is(
        &fs[0],
        Status::Fail,
        Severity::Error,
        "Duplicate tool name: \"valid_tool\" appears 2 times",
    );
    assert_eq!(fs[0].expected, Some(json!("Unique tool names")));
    assert_eq!(fs[0].actual, Some(json!("\"valid_tool\" appears 2 times")));
    assert_eq!(fs[0].location.as_deref(), Some("valid_tool"));
    assert_eq!(fs[1].message, "Duplicate tool name: \"x\" appears 3 times");
    // Every entry is still checked individually; no summary.
    assert_eq!(only(&fs, ID_NAME).len(), 5);
    assert!(only(&fs, ID_SUMMARY).is_empty());
    assert!(only(&run(vec![tool("a"), tool("b")], OLD), ID_UNIQUE).is_empty());
}

// Edge case 16.
#[test]
fn invalid_name_characters_fail() {
    for name in ["invalid name with spaces", "invalid@name!", "a/b", "naïve"] {
        for v in [OLD, NEW] {
            let fs = run(vec![tool(name)], v);
            let f = one(&fs, ID_NAME);
            assert_is(f, Status::Fail, Severity::Error, "invalid characters");
            assert!(f.message.starts_with(&format!("Tool name \"{name}\"")));
            assert_eq!(f.actual, Some(json!(name)));
            assert_eq!(f.location.as_deref(), Some(name));
            assert!(only(&fs, ID_SUMMARY).is_empty());
        }
    }
}

// DECISIONS #40: dots and the 128-character limit from 2025-11-25 on.
#[test]
fn tool_name_pattern_follows_protocol_version() {
    let f = run(vec![tool("files.read")], OLD);
    let f = one(&f, ID_NAME);
    assert_is(f, Status::Fail, Severity::Error, "^[a-zA-Z0-9_-]+$");
    assert_eq!(f.expected, Some(json!("Name matching ^[a-zA-Z0-9_-]+$")));

    for v in [NEW, "2026-07-28"] {
        let fs = run(vec![tool("files.read")], v);
        assert_is(
            one(&fs, ID_NAME),
            Status::Pass,
            Severity::Info,
            "has valid name",
        );
    }

    let long = "a".repeat(129);
    let fs = run(vec![tool(&long)], NEW);
    let f = one(&fs, ID_NAME);
    assert_is(f, Status::Fail, Severity::Error, "too long: 129 characters");
    assert!(f
        .message
        .contains("^[A-Za-z0-9_.-]{1,128}$ for protocol 2025-11-25"));
    assert_eq!(
        f.expected,
        Some(json!("Name matching ^[A-Za-z0-9_.-]{1,128}$"))
    );
    let fs = run(vec![tool(&"a".repeat(128))], NEW);
    assert_eq!(one(&fs, ID_NAME).status, Status::Pass);
    // No length limit before 2025-11-25.
    let fs = run(vec![tool(&long)], OLD);
    assert_eq!(one(&fs, ID_NAME).status, Status::Pass);

    let fs = run(vec![tool("a b")], NEW);
    assert!(one(&fs, ID_NAME)
        .message
        .contains("(must match ^[A-Za-z0-9_.-]{1,128}$ for protocol 2025-11-25)"));
}

#[test]
fn version_comparison() {
    assert!(version_at_least("2025-11-25", NEW));
    assert!(version_at_least("2026-07-28", NEW));
    assert!(!version_at_least("2025-06-18", NEW));
    assert!(!version_at_least("unknown", NEW));
    assert!(!version_at_least("", NEW));
    assert!(!version_at_least("1.0.0", NEW));
}

#[test]
fn missing_blank_and_non_string_names_fail() {
    let cases = [
        (
            json!({"description": "d", "inputSchema": {"type": "object"}}),
            None,
            "",
        ),
        (
            json!({"name": " \t\u{A0}", "description": "d", "inputSchema": {"type": "object"}}),
            Some(json!(" \t\u{A0}")),
            "",
        ),
        (
            json!({"name": 12, "description": "d", "inputSchema": {"type": "object"}}),
            Some(json!(12)),
            " (name is a number, not a string)",
        ),
        (
            json!("just a string"),
            None,
            " (the tool entry is a string, not an object)",
        ),
    ];
    for (t, actual, why) in cases {
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_NAME);
        assert_eq!(f.message, format!("Tool has empty or missing name{why}"));
        assert_eq!(f.status, Status::Fail);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            f.expected,
            Some(json!("Non-empty tool name matching ^[a-zA-Z0-9_-]+$"))
        );
        assert_eq!(f.actual, actual);
        assert_eq!(f.location, None);
    }
}

#[test]
fn non_object_tools_never_panic_and_use_index_labels() {
    let fs = run(vec![tool("ok"), json!(42), json!(null), json!([1, 2])], OLD);
    let names = only(&fs, ID_NAME);
    assert_eq!(names.len(), 4);
    let desc = only(&fs, ID_DESCRIPTION);
    assert_eq!(desc[1].message, "Tool \"tools[1]\" has no description");
    assert_eq!(desc[1].location.as_deref(), Some("tools[1]"));
    let schemas = only(&fs, ID_INPUT_SCHEMA);
    assert_eq!(schemas[3].status, Status::Warn);
    assert_eq!(schemas[3].message, "Tool \"tools[3]\" has no inputSchema");
}

// Edge case 14.
#[test]
fn empty_description_fails() {
    for d in ["", "  \u{2028}\u{FEFF} "] {
        let mut t = tool("t");
        t["description"] = json!(d);
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_DESCRIPTION);
        assert_is(f, Status::Fail, Severity::Error, "empty description");
        assert_eq!(f.message, "Tool \"t\" has empty description");
        assert_eq!(f.expected, Some(json!("Non-empty description")));
        assert_eq!(f.actual, Some(json!("\"\"")));
        assert_eq!(f.location.as_deref(), Some("t"));
    }
}

#[test]
fn u0085_and_zero_width_space_are_not_blank() {
    for d in ["\u{85}", "\u{200B}"] {
        let mut t = tool("t");
        t["description"] = json!(d);
        assert_eq!(one(&run(vec![t], OLD), ID_DESCRIPTION).status, Status::Pass);
    }
    assert!(is_blank(""));
    assert!(is_blank(
        "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}\u{3000}\u{0B}\u{0C}\r\n"
    ));
}

// Edge case 15.
#[test]
fn absent_or_null_description_fails() {
    for d in [None, Some(Value::Null)] {
        let mut t = tool("t");
        match d {
            None => {
                t.as_object_mut().unwrap().remove("description");
            }
            Some(v) => t["description"] = v,
        }
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_DESCRIPTION);
        assert_is(f, Status::Fail, Severity::Error, "no description");
        assert_eq!(f.actual, Some(json!("undefined")));
    }
}

#[test]
fn non_string_description_fails_with_js_type() {
    for (d, ty) in [
        (json!(5), "number"),
        (json!({"a": 1}), "object"),
        (json!(["x"]), "object"),
        (json!(true), "boolean"),
    ] {
        let mut t = tool("t");
        t["description"] = d;
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_DESCRIPTION);
        assert_is(
            f,
            Status::Fail,
            Severity::Error,
            "has non-string description",
        );
        assert_eq!(f.expected, Some(json!("String description")));
        assert_eq!(f.actual, Some(json!(ty)));
    }
}

// Edge case 21.
#[test]
fn missing_input_schema_warns_and_suppresses_summary() {
    let mut t = tool("t");
    t.as_object_mut().unwrap().remove("inputSchema");
    let fs = run(vec![t], OLD);
    let f = one(&fs, ID_INPUT_SCHEMA);
    assert_is(
        f,
        Status::Warn,
        Severity::Warning,
        "Tool \"t\" has no inputSchema",
    );
    assert_eq!(f.expected, Some(json!("JSON Schema object")));
    assert_eq!(f.actual, Some(json!("undefined")));
    assert!(only(&fs, ID_SUMMARY).is_empty());

    let f = input_schema_finding(Value::Null);
    assert_eq!(f.status, Status::Warn);
    assert_eq!(f.actual, Some(Value::Null));
}

#[test]
fn root_type_must_be_object() {
    for (schema, actual, extra) in [
        (json!({"type": "string"}), Some(json!("string")), ""),
        (
            json!({"type": ["object", "null"]}),
            Some(json!(["object", "null"])),
            "",
        ),
        (json!({"properties": {}}), None, ""),
        (
            json!("object"),
            None,
            " (inputSchema is a string, not an object)",
        ),
        (json!([]), None, " (inputSchema is an array, not an object)"),
    ] {
        let f = input_schema_finding(schema);
        assert_eq!(f.status, Status::Fail);
        assert_eq!(f.severity, Severity::Error);
        assert_eq!(
            f.message,
            format!("Tool \"t\" inputSchema.type must be \"object\"{extra}")
        );
        assert_eq!(f.expected, Some(json!("object")));
        assert_eq!(f.actual, actual);
    }
}

// Edge case 17.
#[test]
fn invalid_property_type_is_an_invalid_schema() {
    let f = input_schema_finding(json!({
        "type": "object",
        "properties": {"x": {"type": "invalid_type_that_does_not_exist"}}
    }));
    assert_is(&f, Status::Fail, Severity::Error, "invalid inputSchema");
    assert!(f
        .message
        .starts_with("Tool \"t\" has invalid inputSchema: "));
    assert_eq!(f.expected, Some(json!("Valid JSON Schema")));
    assert!(f.actual.as_ref().and_then(Value::as_str).is_some());
    assert_eq!(f.location.as_deref(), Some("t"));
}

// Edge case 22, decided differently (DECISIONS #6): a declared 2020-12 is valid.
#[test]
fn schema_dialects_are_honoured() {
    for uri in [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-04/schema#",
    ] {
        let f = input_schema_finding(json!({
            "$schema": uri,
            "type": "object",
            "properties": {"q": {"type": "string", "minLength": 1}},
            "required": ["q"]
        }));
        assert_eq!(f.status, Status::Pass, "{uri}: {f:?}");
    }
    for uri in ["https://example.com/my-dialect", "draft-07"] {
        let f = input_schema_finding(json!({"$schema": uri, "type": "object"}));
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "invalid inputSchema: unknown $schema",
        );
        assert!(f.message.contains(uri));
    }
}

#[test]
fn dialect_specific_rules_apply() {
    // draft-04: exclusiveMinimum is a boolean; a number is invalid there but valid later.
    let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
            "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": 0}}});
    assert_eq!(input_schema_finding(d4).status, Status::Fail);
    let d2020 = json!({"type": "object",
            "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}});
    assert_eq!(input_schema_finding(d2020).status, Status::Pass);
}

#[test]
fn meta_schema_violations_fail() {
    for schema in [
        json!({"type": "object", "required": "q"}),
        json!({"type": "object", "required": ["q", "q"]}),
        json!({"type": "object", "properties": []}),
        json!({"type": "object", "properties": {"s": {"type": "string", "minLength": -1}}}),
        json!({"type": "object", "properties": {"s": {"type": "number", "maximum": "9"}}}),
        json!({"type": "object", "$schema": 7}),
    ] {
        let f = input_schema_finding(schema.clone());
        assert_is(&f, Status::Fail, Severity::Error, "invalid inputSchema");
        assert_eq!(f.expected, Some(json!("Valid JSON Schema")), "{schema}");
    }
}

#[test]
fn refs_must_resolve_locally() {
    let local = json!({"type": "object",
            "$defs": {"s": {"type": "string"}},
            "definitions": {"n": {"type": "number"}},
            "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#/definitions/n"},
                           "c": {"$ref": "#"}}});
    assert_eq!(input_schema_finding(local).status, Status::Pass);
    for r in [
        "#/$defs/missing",
        "https://example.com/schemas/thing.json",
        "other.json#/x",
    ] {
        let f = input_schema_finding(json!({"type": "object", "properties": {"a": {"$ref": r}}}));
        assert_is(&f, Status::Fail, Severity::Error, "invalid inputSchema");
    }
}

#[test]
fn patterns_must_be_valid_regexes_and_unknown_things_are_ignored() {
    let bad = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "(["}}});
    assert_eq!(input_schema_finding(bad).status, Status::Fail);
    let good = json!({"type": "object", "x-custom": {"anything": true},
            "properties": {"s": {"type": "string", "pattern": "^\\p{L}+$", "format": "no-such-format"}}});
    assert_eq!(input_schema_finding(good).status, Status::Pass);
}

#[test]
fn deep_schemas_fail_without_overflowing() {
    let mut s = json!({"type": "string"});
    for _ in 0..200 {
        s = json!({"type": "object", "properties": {"a": s}});
    }
    let f = input_schema_finding(s);
    assert_is(
        &f,
        Status::Fail,
        Severity::Error,
        "nested deeper than 128 levels",
    );
}

#[test]
fn property_type_row_is_reported_by_the_fallback() {
    // Not reachable through the meta-schema; exercise the fallback directly.
    let tool = json!({"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {"p": {"type": ["string", "bogus"]}}}});
    let f = tool_input_schema(&tool, "t");
    assert_eq!(f.status, Status::Fail);
    // The meta-schema catches it first; both are acceptable outcomes for live data.
    assert!(f.message.contains("invalid inputSchema") || f.message.contains("has invalid type"));
    let schema = json!({"type": "object", "properties": {"p": {"type": 5}}});
    assert!(validate_schema(&schema).is_err());
}

// Edge case 20.
#[test]
fn non_boolean_hints_fail() {
    for (ann, key, ty) in [
        (json!({"readOnlyHint": "true"}), "readOnlyHint", "string"),
        (
            json!({"destructiveHint": 1, "readOnlyHint": true}),
            "destructiveHint",
            "number",
        ),
        (
            json!({"idempotentHint": null, "openWorldHint": "x"}),
            "idempotentHint",
            "object",
        ),
        (json!({"openWorldHint": []}), "openWorldHint", "object"),
    ] {
        let mut t = tool("t");
        t["annotations"] = ann;
        let fs = run(vec![t], OLD);
        let f = one(&fs, ID_ANNOTATIONS);
        assert_is(
            f,
            Status::Fail,
            Severity::Error,
            &format!("Tool \"t\" annotation \"{key}\" should be boolean"),
        );
        assert_eq!(f.expected, Some(json!("boolean")));
        assert_eq!(f.actual, Some(json!(ty)));
        assert_eq!(f.location.as_deref(), Some("t"));
        assert!(only(&fs, ID_SUMMARY).is_empty());
    }
}

#[test]
fn non_object_annotations_fail() {
    let mut t = tool("t");
    t["annotations"] = json!("readOnly");
    let fs = run(vec![t], OLD);
    let f = one(&fs, ID_ANNOTATIONS);
    assert_is(
        f,
        Status::Fail,
        Severity::Error,
        "annotations should be an object (got a string)",
    );
    assert_eq!(f.actual, Some(json!("string")));
}

#[test]
fn no_annotations_member_means_no_annotation_result() {
    assert!(only(&run(vec![tool("t")], OLD), ID_ANNOTATIONS).is_empty());
}

/// Full output for a malformed listing, to review every template at once.
#[test]
fn snapshot_malformed_listing() {
    let listing = vec![
        tool("dup"),
        tool("dup"),
        json!({"name": "files.read", "description": 3, "inputSchema": {"type": "object",
                "properties": {"p": {"type": "invalid_type_that_does_not_exist"}}},
                "annotations": {"readOnlyHint": "true"}}),
        json!({"name": "", "description": " "}),
        json!(7),
    ];
    insta::assert_json_snapshot!(check(&Ok(listing), NEW));
}

#[test]
fn x_mcp_header_rule_fails_invalid_annotations_and_is_silent_otherwise() {
    let bad = json!([{
        "name": "t", "description": "d",
        "inputSchema": {"type": "object", "properties": {
            "a": {"type": "number", "x-mcp-header": "A"}
        }}
    }]);
    let good = json!([{
        "name": "t", "description": "d",
        "inputSchema": {"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "Region"}
        }}
    }]);
    let fs = check(&Ok(bad.as_array().unwrap().clone()), "2026-07-28");
    let hit: Vec<_> = fs
        .iter()
        .filter(|f| f.id == "schema/x-mcp-header")
        .collect();
    assert_eq!(hit.len(), 1);
    assert_eq!(hit[0].status, Status::Fail);
    assert_eq!(hit[0].location.as_deref(), Some("t"));
    let fs = check(&Ok(good.as_array().unwrap().clone()), "2026-07-28");
    let hit: Vec<_> = fs
        .iter()
        .filter(|f| f.id == "schema/x-mcp-header")
        .collect();
    assert_eq!(hit.len(), 1);
    assert_eq!(hit[0].status, Status::Pass);
    assert_eq!(fs[0].id, "schema/summary");
    // Tools without the annotation get no result.
    let plain = json!([{"name": "t", "description": "d", "inputSchema": {"type": "object"}}]);
    let fs = check(&Ok(plain.as_array().unwrap().clone()), "2026-07-28");
    assert!(!fs.iter().any(|f| f.id == "schema/x-mcp-header"));
}

/// The runner judges a long listing from its text (#12's memory bound): the same findings
/// in the same order as the parsed listing gives, duplicates and broken tools included.
#[test]
fn a_listing_judged_from_text_gives_the_same_findings() {
    let listings: Vec<Listing> = vec![
        Ok(vec![tool("a"), tool("b")]),
        Ok(vec![
            tool("dup"),
            json!(7),
            json!({"name": 3, "inputSchema": {"type": "nope"}}),
            tool("dup"),
            json!({"name": "x", "annotations": {"readOnlyHint": "yes"}}),
            json!({"description": "no name", "inputSchema": {"type": "object", "properties": {"h": {"type": "string", "x-mcp-header": "bad header"}}}}),
        ]),
        Ok(vec![]),
        Err("timed out".into()),
    ];
    assert!(check(&listings[1], NEW).iter().any(|f| f.id == ID_UNIQUE));
    for listing in listings {
        let text: TextListing = listing.clone().map(|ts| {
            ts.iter()
                .map(|t| serde_json::value::to_raw_value(t).unwrap())
                .collect()
        });
        for v in [OLD, NEW] {
            assert_eq!(check_text(&text, v), check(&listing, v), "{listing:?}");
        }
    }
}

use super::*;
use serde_json::json;

fn names(s: &Snapshot) -> Vec<&str> {
    s.tools
        .iter()
        .map(|t| t["name"].as_str().unwrap_or("?"))
        .collect()
}

#[test]
fn every_form_is_told_apart_by_shape() {
    let tool = |n: &str| json!({"name": n, "inputSchema": {"type": "object"}});
    let result = json!({"tools": [tool("a"), tool("b")], "nextCursor": "x"});
    let s = parse(&result.to_string()).unwrap();
    assert_eq!((s.form, names(&s)), (Form::ToolsResult, vec!["a", "b"]));

    let resp = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool("a")]}});
    let s = parse(&resp.to_string()).unwrap();
    assert_eq!((s.form, names(&s)), (Form::Response, vec!["a"]));

    let pages = json!([
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool("a")], "nextCursor": "2"}},
        {"jsonrpc": "2.0", "id": 2, "result": {"tools": [tool("b"), tool("c")]}}
    ]);
    let s = parse(&pages.to_string()).unwrap();
    assert_eq!((s.form, names(&s)), (Form::Pages, vec!["a", "b", "c"]));

    let plain = json!([tool("z"), 7]);
    let s = parse(&plain.to_string()).unwrap();
    // Items are kept raw, as a live listing keeps them: a non-object is the schema
    // family's finding, not a parse error.
    assert_eq!((s.form, s.tools.len()), (Form::ToolArray, 2));
    assert_eq!(parse("[]").unwrap().form, Form::ToolArray);

    let snap = json!({
        "mcpward_snapshot": 1,
        "protocolVersion": "2026-07-28",
        "serverInfo": {"name": "s", "version": "2"},
        "instructions": "be nice",
        "tools": [tool("a")],
        "prompts": [{"name": "p"}],
        "resources": {"error": "boom"}
    });
    let s = parse(&snap.to_string()).unwrap();
    assert_eq!(s.form, Form::Snapshot);
    assert_eq!(
        s.hello.era,
        Era::Modern,
        "derived from the protocol version"
    );
    assert_eq!(s.hello.server_name(), "s");
    assert_eq!(s.hello.instructions, Some(json!("be nice")));
    assert_eq!(s.other.prompts, Some(Ok(vec![json!({"name": "p"})])));
    assert_eq!(s.other.resources, Some(Err("boom".into())));
    assert_eq!(s.other.resource_templates, None);
}

#[test]
fn a_lockfile_is_its_pinned_surface() {
    let text = include_str!("../../../fixtures/tables/lockfile-example.lock.json");
    let s = parse(text).unwrap();
    assert_eq!(s.form, Form::Lockfile);
    assert!(s.pinned.is_some());
    let pinned = s.pinned.as_ref().unwrap();
    assert_eq!(s.tools.len(), pinned.tools.len());
    assert_eq!(s.hello.protocol_version, pinned.protocol_version);
    let echo = s.tools.iter().find(|t| t["name"] == "echo").unwrap();
    assert!(echo["description"].is_string());
    assert!(echo["inputSchema"].is_object());

    let v1 = include_str!("../../../fixtures/lockfiles/legacy-v1.lock.json");
    let s = parse(v1).unwrap();
    assert_eq!(s.form, Form::Lockfile);
    assert!(
        !s.warnings.is_empty(),
        "the v1 migration notice is handed on"
    );
    // v1 stores only hashes: the tools have no description.
    assert!(s.tools.iter().all(|t| t.get("description").is_none()));
}

#[test]
fn malformed_input_names_the_json_path() {
    let cases = [
        (
            "{\"tools\": 3}",
            "$.tools: expected an array, found a number",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":{}}}",
            "$.result.tools: expected an array, found an object",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}",
            "$.result: expected an object, found an array",
        ),
        (
            "[{\"result\":{\"tools\":[]}},{\"result\":{\"tools\":[],\"nextCursor\":5}}]",
            "$[1].result.nextCursor: expected a string, found a number",
        ),
        (
            "[{\"result\":{\"tools\":[]}}, 4]",
            "$[1]: expected a JSON-RPC response object, found a number",
        ),
        (
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-1,\"message\":\"no\"}}",
            "$.error: a JSON-RPC error response (no), not a tools/list result",
        ),
        (
            "{\"mcpward_snapshot\": 2, \"tools\": []}",
            "$.mcpward_snapshot: snapshot format 2",
        ),
        (
            "{\"mcpward_snapshot\": 1, \"tools\": \"x\"}",
            "$.tools: expected an array",
        ),
        (
            "{\"mcpward_snapshot\": 1, \"tools\": [], \"prompts\": 1}",
            "$.prompts: expected an array, found a number",
        ),
        (
            "{\"mcpward_snapshot\": 1, \"tools\": [], \"era\": \"odd\"}",
            "$.era: expected \"legacy\" or \"modern\"",
        ),
        ("{\"name\": \"x\"}", "$: not a snapshot"),
        (
            "\"tools\"",
            "$: expected an object or an array, found a string",
        ),
        ("{\"tools\": [", "$: not JSON"),
        (
            "{\"tools\": {\"a\": {\"descriptionHash\": 5}}, \"meta\": {\"schemaVersion\": 2}}",
            "lockfile:",
        ),
    ];
    for (text, want) in cases {
        let e = parse(text).expect_err(text).to_string();
        assert!(e.starts_with(want) || e.contains(want), "{text}: {e}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse(&text)
        .unwrap_err()
        .to_string()
        .starts_with("$: not JSON"));
}

#[test]
fn the_document_reads_back_as_it_was_written() {
    let hello = ServerHello {
        era: Era::Legacy,
        protocol_version: "2025-11-25".into(),
        server_info: json!({"name": "n", "version": "1"}),
        capabilities: json!({"tools": {}, "prompts": {}}),
        instructions: Some(json!("hi")),
        supported_versions: vec![],
        discover: None,
    };
    let tools = vec![json!({"name": "a", "zeta": 1, "alpha": 2})];
    let other = OtherSurface {
        prompts: Some(Ok(vec![json!({"name": "p"})])),
        resources: None,
        resource_templates: Some(Err("failed".into())),
    };
    let target = Target {
        transport: "stdio".into(),
        identity: "srv".into(),
    };
    let doc = document(&hello, &tools, &other, &target, &AuthContext::none());
    let text = render(&doc);
    assert_eq!(
        text,
        render(&document(
            &hello,
            &tools,
            &other,
            &target,
            &AuthContext::none()
        ))
    );
    // Tool members keep the server's order.
    assert!(text.find("\"zeta\"").unwrap() < text.find("\"alpha\"").unwrap());
    let back = parse(&text).unwrap();
    assert_eq!(back.hello, hello);
    assert_eq!(back.tools, tools);
    assert_eq!(back.other, other);
    assert_eq!(back.target, Some(target));
    assert_eq!(back.auth_context, Some(AuthContext::none()));
}

#[test]
fn map_strings_reaches_keys_and_nested_strings() {
    let mut v = json!({"s3cret": ["a s3cret", {"k": "s3cret"}], "n": 1});
    map_strings(&mut v, &|s| s.replace("s3cret", "***"));
    assert_eq!(v, json!({"***": ["a ***", {"k": "***"}], "n": 1}));
}

use super::*;
use crate::model::Status;
use serde_json::json;

fn hello() -> ServerHello {
    ServerHello {
        era: Era::Legacy,
        protocol_version: "2025-11-25".into(),
        server_info: json!({"name": "demo", "version": "1.2.3"}),
        capabilities: json!({"tools": {"listChanged": true}, "logging": {}, "prompts": null}),
        instructions: None,
        supported_versions: vec![],
        discover: None,
    }
}

fn ok() -> Result<(), RpcError> {
    Ok(())
}

fn find<'a>(fs: &'a [Finding], id: &str) -> &'a Finding {
    fs.iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("no {id} in {fs:#?}"))
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

// Edge case 1.
#[test]
fn all_valid_gives_five_passes_in_order() {
    let fs = check(&hello(), Some(&ok()), None);
    let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            ID_HANDSHAKE,
            ID_PROTOCOL_VERSION,
            ID_SERVER_INFO,
            ID_CAPABILITIES,
            ID_PING
        ]
    );
    assert!(fs.iter().all(|f| f.status == Status::Pass));
    assert!(fs.iter().all(|f| f.family == "compliance"));
    let hs = &fs[0];
    assert_is(
        hs,
        Status::Pass,
        Severity::Error,
        "Protocol handshake completed successfully",
    );
    assert_eq!(
        hs.actual,
        Some(
            json!({"serverName": "demo", "serverVersion": "1.2.3", "protocolVersion": "2025-11-25"})
        )
    );
    assert_eq!(fs[1].message, "Negotiated protocol version: 2025-11-25");
    assert_eq!(fs[1].severity, Severity::Info);
    assert_eq!(fs[2].message, "Server: demo v1.2.3");
    assert_eq!(
        fs[2].actual,
        Some(json!({"name": "demo", "version": "1.2.3"}))
    );
    // null-valued capabilities are not listed; received order is kept.
    assert_eq!(
        fs[3].message,
        "Server declares capabilities: tools, logging"
    );
    assert_eq!(fs[4].message, "Server responds to ping");
    assert_eq!(fs[4].actual, None);
}

// Edge case 2.
#[test]
fn empty_server_name_fails() {
    let mut h = hello();
    h.server_info = json!({"name": "", "version": "1"});
    let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
    assert_is(&f, Status::Fail, Severity::Error, "did not provide a name");
    assert_eq!(f.expected, Some(json!("Non-empty server name")));
    assert_eq!(f.actual, Some(json!("")));
}

#[test]
fn whitespace_and_missing_and_non_string_names_fail() {
    for (info, actual) in [
        (
            json!({"name": " \u{FEFF}\u{3000}\t", "version": "1"}),
            Some(json!(" \u{FEFF}\u{3000}\t")),
        ),
        (json!({"version": "1"}), None),
        (Value::Null, None),
        (json!({"name": 7, "version": "1"}), Some(json!(7))),
    ] {
        let mut h = hello();
        h.server_info = info;
        let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
        assert_is(&f, Status::Fail, Severity::Error, "did not provide a name");
        assert_eq!(f.actual, actual);
    }
    let mut h = hello();
    h.server_info = json!({"name": 7});
    let f = find(&check(&h, None, None), ID_SERVER_INFO).clone();
    assert!(
        f.message.contains("(it is a number, not a string)"),
        "{f:?}"
    );
}

#[test]
fn zero_width_space_is_not_blank() {
    let mut h = hello();
    h.server_info = json!({"name": "\u{200B}", "version": "1"});
    let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
    assert_eq!(f.status, Status::Pass);
}

// Edge case 3.
#[test]
fn empty_server_version_warns() {
    for info in [
        json!({"name": "demo", "version": ""}),
        json!({"name": "demo"}),
    ] {
        let mut h = hello();
        h.server_info = info;
        let f = find(&check(&h, Some(&ok()), None), ID_SERVER_INFO).clone();
        assert_is(
            &f,
            Status::Warn,
            Severity::Warning,
            "did not provide a version",
        );
        assert_eq!(f.expected, Some(json!("Non-empty server version")));
    }
}

#[test]
fn modern_era_without_server_info_warns() {
    let mut h = hello();
    h.era = Era::Modern;
    h.protocol_version = "2026-07-28".into();
    h.server_info = Value::Null;
    let fs = check(&h, None, None);
    assert_is(
        find(&fs, ID_SERVER_INFO),
        Status::Warn,
        Severity::Warning,
        "did not identify itself (io.modelcontextprotocol/serverInfo missing)",
    );
    let hs = find(&fs, ID_HANDSHAKE);
    assert_is(
        hs,
        Status::Pass,
        Severity::Error,
        "Stateless discovery completed (server/discover)",
    );
    assert_eq!(hs.actual, Some(json!({"protocolVersion": "2026-07-28"})));
}

// Edge cases 4 and 5.
#[test]
fn missing_protocol_version_fails() {
    for v in ["", "unknown"] {
        let mut h = hello();
        h.protocol_version = v.into();
        let f = find(&check(&h, Some(&ok()), None), ID_PROTOCOL_VERSION).clone();
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "did not negotiate a protocol version",
        );
        assert_eq!(f.expected, Some(json!("A valid protocol version string")));
        assert_eq!(f.actual, Some(json!(v)));
    }
}

// Edge case 6.
#[test]
fn unusual_protocol_version_warns() {
    let mut h = hello();
    h.protocol_version = "contains spaces or $pecial".into();
    let f = find(&check(&h, Some(&ok()), None), ID_PROTOCOL_VERSION).clone();
    assert_is(
        &f,
        Status::Warn,
        Severity::Warning,
        "Protocol version has unusual format: contains spaces or $pecial",
    );
    assert_eq!(f.actual, Some(json!("contains spaces or $pecial")));
    let mut h = hello();
    h.protocol_version = "1.0.0".into();
    assert_eq!(
        find(&check(&h, Some(&ok()), None), ID_PROTOCOL_VERSION).status,
        Status::Pass
    );
}

// Edge case 7.
#[test]
fn missing_or_non_object_capabilities_fail() {
    for caps in [Value::Null, json!("tools"), json!(3), json!(["tools"])] {
        let mut h = hello();
        h.capabilities = caps.clone();
        let f = find(&check(&h, Some(&ok()), None), ID_CAPABILITIES).clone();
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "did not declare capabilities",
        );
        assert_eq!(f.expected, Some(json!("Capabilities object")));
        assert_eq!(f.actual, Some(caps));
    }
}

#[test]
fn empty_capabilities_say_none() {
    let mut h = hello();
    h.capabilities = json!({"x": null});
    let f = find(&check(&h, Some(&ok()), None), ID_CAPABILITIES).clone();
    assert_is(
        &f,
        Status::Pass,
        Severity::Info,
        "Server declares capabilities: none",
    );
}

// Edge case 8.
#[test]
fn ping_error_fails_with_error_text() {
    let err: Result<(), RpcError> = Err(RpcError::plain("Connection refused"));
    let f = find(&check(&hello(), Some(&err), None), ID_PING).clone();
    assert_is(
        &f,
        Status::Fail,
        Severity::Error,
        "failed to respond to ping",
    );
    assert!(f.message.contains("Connection refused"));
    assert_eq!(f.expected, Some(json!("Successful ping response")));
    assert_eq!(f.actual, Some(json!("Connection refused")));

    let err: Result<(), RpcError> = Err(RpcError::protocol(-32601, "Method not found", None));
    let f = find(&check(&hello(), Some(&err), None), ID_PING).clone();
    assert_eq!(
        f.message,
        "Server failed to respond to ping: MCP error -32601: Method not found"
    );
}

#[test]
fn local_ping_timeout_says_it_was_local() {
    let err: Result<(), RpcError> = Err(RpcError::request_timeout());
    let f = find(&check(&hello(), Some(&err), None), ID_PING).clone();
    assert_eq!(f.status, Status::Fail);
    assert!(f.message.contains("-32001"), "{}", f.message);
    assert!(f.message.contains("raised locally"), "{}", f.message);
}

#[test]
fn ping_not_sent_in_modern_era_is_skipped() {
    let mut h = hello();
    h.era = Era::Modern;
    h.protocol_version = "2026-07-28".into();
    let fs = check(&h, None, None);
    assert_eq!(fs.len(), 5);
    let f = find(&fs, ID_PING);
    assert_is(
        f,
        Status::Skip,
        Severity::Info,
        "ping is not part of protocol 2026-07-28 (ping was removed in 2026-07-28)",
    );
}

// Edge case 9.
#[test]
fn expected_version_mismatch_fails() {
    let mut h = hello();
    h.protocol_version = "2024-01-01".into();
    let fs = check(&h, Some(&ok()), Some("2025-11-25"));
    assert_eq!(fs.len(), 6);
    let f = &fs[5];
    assert_eq!(f.id, ID_EXPECTED);
    assert_is(f, Status::Fail, Severity::Error, "mismatch");
    assert_eq!(f.expected, Some(json!("2025-11-25")));
    assert_eq!(f.actual, Some(json!("2024-01-01")));
}

// Edge case 10.
#[test]
fn expected_version_match_passes() {
    let fs = check(&hello(), Some(&ok()), Some("2025-11-25"));
    assert_eq!(fs.len(), 6);
    assert_is(
        &fs[5],
        Status::Pass,
        Severity::Info,
        "Protocol version matches expected: 2025-11-25",
    );
}

// Edge case 11.
#[test]
fn no_or_empty_expected_version_gives_no_result() {
    for e in [None, Some("")] {
        let fs = check(&hello(), Some(&ok()), e);
        assert_eq!(fs.len(), 5);
        assert!(fs.iter().all(|f| f.id != ID_EXPECTED));
    }
}

/// Full output for a misbehaving legacy server, to review every template at once.
#[test]
fn snapshot_misbehaving_server() {
    let h = ServerHello {
        era: Era::Legacy,
        protocol_version: "2025-06-18".into(),
        server_info: json!({"name": "demo", "version": ""}),
        capabilities: json!({"tools": {}, "resources": null}),
        instructions: None,
        supported_versions: vec![],
        discover: None,
    };
    let ping: Result<(), RpcError> = Err(RpcError::closed());
    insta::assert_json_snapshot!(check(&h, Some(&ping), Some("2025-11-25")));
}

#[test]
fn run_level_results_exist_only_in_the_modern_era() {
    use crate::observed::Chatter;
    let mut h = hello();
    h.era = Era::Legacy;
    assert!(run_level(&h, &Chatter::default(), &[]).is_empty());
    h.era = Era::Modern;
    let fs = run_level(&h, &Chatter::default(), &[]);
    assert_eq!(fs.len(), 1);
    assert_eq!(fs[0].id, "compliance/server-messages");
    assert_eq!(fs[0].status, Status::Pass);
}

#[test]
fn jsonrpc_framing_is_silent_when_clean_and_first_in_the_run_level_results_otherwise() {
    use crate::observed::{Chatter, FramingFault};
    let mut h = hello();
    let mut c = Chatter::default();
    assert!(jsonrpc_framing(&c.framing).is_none());
    c.framing.count = 3;
    c.framing.first = Some(FramingFault {
        fault: "\"jsonrpc\" is missing or not \"2.0\"".into(),
        text: format!("{{\"id\":1,\"result\":\"{}\"}}", "x".repeat(500)),
    });
    // Every request still got a valid answer: a warning.
    let fs = run_level(&h, &c, &[]);
    assert_eq!(fs.len(), 1);
    assert_is(
        &fs[0],
        Status::Warn,
        Severity::Warning,
        "Server sent 3 invalid JSON-RPC 2.0 messages; every request still got a valid answer. First: \"jsonrpc\" is missing or not \"2.0\" — {\"id\":1,",
    );
    assert!(
        fs[0].message.chars().count() < 400,
        "cut: {}",
        fs[0].message
    );
    assert_eq!(
        fs[0].actual,
        Some(json!({"invalidMessages": 3, "failedRequests": 0}))
    );
    // A request answered only by an invalid message: a fail, before server-messages.
    c.framing.failed_requests = 1;
    h.era = Era::Modern;
    let fs = run_level(&h, &c, &[]);
    let ids: Vec<&str> = fs.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["compliance/jsonrpc-framing", "compliance/server-messages"]
    );
    assert_is(
        &fs[0],
        Status::Fail,
        Severity::Error,
        "1 request was answered only by an invalid message and failed.",
    );
}

// --- #14: capabilities-served, surface-stable, spurious-list-changed (hand-made records) ---

mod surface {
    use super::super::served::{self, Records};
    use super::super::stable::{self, Relisted, Snapshot, SnapshotTools};
    use super::*;
    use crate::observed::{OtherSurface, ProbeRecord};

    fn hello_with(era: Era, caps: Value) -> ServerHello {
        ServerHello {
            era,
            protocol_version: if era == Era::Modern {
                "2026-07-28".into()
            } else {
                "2025-11-25".into()
            },
            capabilities: caps,
            ..hello()
        }
    }

    fn not_found() -> Result<Value, RpcError> {
        Err(RpcError::protocol(-32601, "Method not found", None))
    }

    /// Records answering every planned probe with what `answer` says for its method.
    fn records(
        h: &ServerHello,
        other: &OtherSurface,
        answer: impl Fn(&str) -> Result<Value, RpcError>,
    ) -> Records {
        served::plan(h, other)
            .into_iter()
            .map(|(m, _)| (m, ProbeRecord::new(None, answer(m))))
            .collect()
    }

    fn statuses(fs: &[Finding]) -> Vec<Status> {
        fs.iter().map(|f| f.status).collect()
    }

    #[test]
    fn declared_and_served_or_undeclared_and_not_found_is_silent() {
        let h = hello_with(
            Era::Legacy,
            json!({"tools": {}, "prompts": {}, "resources": {}, "logging": {}, "completions": {}}),
        );
        let other = OtherSurface {
            prompts: Some(Ok(vec![json!({"name": "p", "arguments": [{"name": "a"}]})])),
            resources: Some(Ok(vec![])),
            resource_templates: Some(Ok(vec![])),
        };
        let plan = served::plan(&h, &other);
        // The declared lists come from the surface listing: only two probes.
        let methods: Vec<&str> = plan.iter().map(|(m, _)| *m).collect();
        assert_eq!(methods, ["logging/setLevel", "completion/complete"]);
        assert_eq!(plan[0].1.params, json!({"level": "emergency"}));
        assert_eq!(
            plan[1].1.params,
            json!({"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}})
        );
        assert!(plan[0].1.headers.is_empty(), "no modern headers in legacy");
        let r = records(&h, &other, |m| match m {
            "completion/complete" => Ok(json!({"completion": {"values": []}})),
            _ => Ok(json!({})),
        });
        let fs = served::judge(&h, &other, &r);
        assert_eq!(fs.len(), 5);
        assert!(fs.iter().all(|f| f.id == "compliance/capabilities-served"));
        assert_eq!(statuses(&fs), [Status::Pass; 5], "{fs:#?}");
        assert!(fs[2].message.contains("capability \"prompts\""));

        // Nothing declared, everything -32601: five passes too.
        let bare = hello_with(Era::Legacy, json!({"tools": {}}));
        let none = OtherSurface::default();
        assert_eq!(served::plan(&bare, &none).len(), 5);
        let fs = served::judge(&bare, &none, &records(&bare, &none, |_| not_found()));
        assert_eq!(statuses(&fs), [Status::Pass; 5], "{fs:#?}");
        assert!(fs[4].message.contains("\"completions\" is not declared"));
    }

    #[test]
    fn declared_but_failing_fails_and_undeclared_but_served_warns() {
        let h = hello_with(
            Era::Legacy,
            json!({"tools": {}, "prompts": {}, "completions": {}}),
        );
        let other = OtherSurface {
            prompts: Some(Err("MCP error -32603: Internal error".into())),
            ..OtherSurface::default()
        };
        let r = records(&h, &other, |m| match m {
            // Served although `resources` is not declared.
            "resources/list" => Ok(json!({"resources": []})),
            // Not -32601 either: a warning naming what came back.
            "resources/templates/list" => Err(RpcError::protocol(-32603, "boom", None)),
            "logging/setLevel" => not_found(),
            // Declared, but the result is not a completion.
            _ => Ok(json!({"values": []})),
        });
        let fs = served::judge(&h, &other, &r);
        assert_eq!(
            statuses(&fs),
            [
                Status::Warn,
                Status::Warn,
                Status::Fail,
                Status::Pass,
                Status::Fail
            ],
            "{fs:#?}"
        );
        assert_is(
            &fs[0],
            Status::Warn,
            Severity::Warning,
            "Capability \"resources\" is not declared, yet the server serves resources/list",
        );
        assert!(
            fs[1].message.contains("did not answer -32601"),
            "{:?}",
            fs[1]
        );
        assert_is(
            &fs[2],
            Status::Fail,
            Severity::Error,
            "Capability \"prompts\" is declared but prompts/list failed",
        );
        assert!(fs[4].message.contains("completion.values"), "{:?}", fs[4]);
    }

    #[test]
    fn completion_for_an_unknown_reference_still_counts_as_served() {
        let invalid = || Err(RpcError::protocol(-32602, "unknown ref", None));
        let declared = hello_with(Era::Legacy, json!({"completions": {}}));
        let none = OtherSurface::default();
        let plan = served::plan(&declared, &none);
        let (_, complete) = plan
            .iter()
            .find(|(m, _)| *m == "completion/complete")
            .unwrap();
        assert_eq!(complete.params["ref"]["name"], served::PROBE_PROMPT);
        let fs = served::judge(&declared, &none, &records(&declared, &none, |_| invalid()));
        assert_eq!(fs[4].status, Status::Pass, "{:?}", fs[4]);
        // ... and so does an undeclared one: served anyway.
        let bare = hello_with(Era::Legacy, json!({}));
        let fs = served::judge(&bare, &none, &records(&bare, &none, |_| invalid()));
        assert_eq!(fs[4].status, Status::Warn, "{:?}", fs[4]);
        assert!(fs[4]
            .message
            .contains("yet the server serves completion/complete"));
        // A timeout of a declared method is a failure.
        let timeout = || Err(RpcError::plain("no answer within 10 s"));
        let fs = served::judge(&declared, &none, &records(&declared, &none, |_| timeout()));
        assert_eq!(fs[4].status, Status::Fail, "{:?}", fs[4]);
    }

    #[test]
    fn templates_give_the_completion_reference_when_no_prompt_has_arguments() {
        let h = hello_with(Era::Modern, json!({"resources": {}, "completions": {}}));
        let other = OtherSurface {
            prompts: None,
            resources: Some(Ok(vec![])),
            resource_templates: Some(Ok(vec![json!({"uriTemplate": "file:///{+path}/x"})])),
        };
        let plan = served::plan(&h, &other);
        let (_, c) = plan
            .iter()
            .find(|(m, _)| *m == "completion/complete")
            .unwrap();
        assert_eq!(
            c.params["ref"],
            json!({"type": "ref/resource", "uri": "file:///{+path}/x"})
        );
        assert_eq!(c.params["argument"]["name"], "path");
        // The modern envelope and headers.
        assert_eq!(
            c.params["_meta"]["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert!(c
            .headers
            .iter()
            .any(|(k, v)| k == "Mcp-Method" && v == "completion/complete"));
    }

    #[test]
    fn modern_logging_set_level_must_be_not_found_whatever_is_declared() {
        let h = hello_with(Era::Modern, json!({"logging": {}}));
        let none = OtherSurface::default();
        let fs = served::judge(&h, &none, &records(&h, &none, |_| not_found()));
        assert_is(
            &fs[3],
            Status::Pass,
            Severity::Info,
            "removed in 2026-07-28",
        );
        let fs = served::judge(&h, &none, &records(&h, &none, |_| Ok(json!({}))));
        assert_is(
            &fs[3],
            Status::Warn,
            Severity::Warning,
            "was removed in 2026-07-28",
        );
        // Legacy: declared logging must be served.
        let l = hello_with(Era::Legacy, json!({"logging": {}}));
        let fs = served::judge(&l, &none, &records(&l, &none, |_| not_found()));
        assert_is(
            &fs[3],
            Status::Fail,
            Severity::Error,
            "\"logging\" is declared",
        );
    }

    fn snap(
        tools: Vec<Value>,
        prompts: Option<Vec<Value>>,
        instructions: Option<&str>,
    ) -> Snapshot {
        Snapshot {
            tools: Ok(tools).into(),
            other: OtherSurface {
                prompts: prompts.map(Ok),
                ..OtherSurface::default()
            },
            instructions: Some(instructions.map(|s| json!(s))),
        }
    }

    #[test]
    fn a_stable_surface_passes_in_any_order_and_member_order() {
        let a = snap(
            vec![
                json!({"name": "a", "description": "x", "inputSchema": {"type": "object", "properties": {}}}),
                json!({"name": "b"}),
            ],
            Some(vec![json!({"name": "p"})]),
            Some("hi"),
        );
        let b = snap(
            vec![
                json!({"name": "b"}),
                json!({"inputSchema": {"properties": {}, "type": "object"}, "description": "x", "name": "a"}),
            ],
            Some(vec![json!({"name": "p"})]),
            Some("hi"),
        );
        let mut same_session = b.clone();
        same_session.instructions = None;
        for era in [Era::Legacy, Era::Modern] {
            let f = stable::surface_stable(
                era,
                &a,
                &Relisted::of(&a, &same_session),
                &Ok(Relisted::of(&a, &b)),
            );
            assert_is(&f, Status::Pass, Severity::Info, "2 tools, 1 prompts");
        }
    }

    /// A listing read as text is judged exactly as the same listing parsed: the same, in
    /// another order, changed, longer, and failed.
    #[test]
    fn a_listing_compared_as_text_is_judged_as_parsed() {
        let text = |s: &Snapshot| -> crate::observed::TextListing {
            s.tools.parsed().into_owned().map(|ts| {
                ts.iter()
                    .map(|t| serde_json::value::to_raw_value(t).unwrap())
                    .collect()
            })
        };
        let first = snap(
            vec![
                json!({"name": "a", "description": "1"}),
                json!({"name": "b"}),
            ],
            Some(vec![json!({"name": "p"})]),
            Some("hi"),
        );
        let mut failed = first.clone();
        failed.tools = Err::<Vec<Value>, String>("timed out".into()).into();
        for later in [
            first.clone(),
            snap(
                vec![
                    json!({"name": "b"}),
                    json!({"name": "a", "description": "1"}),
                ],
                Some(vec![json!({"name": "p"})]),
                Some("hi"),
            ),
            snap(
                vec![json!({"name": "a", "description": "2"})],
                Some(vec![]),
                Some("hi"),
            ),
            snap(
                vec![
                    json!({"name": "a", "description": "1"}),
                    json!({"name": "b"}),
                    json!({"name": "c"}),
                ],
                None,
                None,
            ),
            failed,
        ] {
            let relist = |first: &Snapshot| {
                Relisted::of_text(
                    first,
                    text(&later),
                    later.other.clone(),
                    later.instructions.clone(),
                )
            };
            let as_text = relist(&first);
            assert_eq!(as_text, Relisted::of(&first, &later), "{later:?}");
            // The first listing held as text too (the runner's way, #12).
            let mut first_text = first.clone();
            first_text.tools = SnapshotTools::Text(text(&first));
            let both_text = relist(&first_text);
            assert_eq!(both_text, Relisted::of(&first, &later), "{later:?}");
            assert_eq!(
                stable::surface_stable(
                    Era::Modern,
                    &first_text,
                    &both_text,
                    &Ok(both_text.clone())
                ),
                stable::surface_stable(Era::Modern, &first, &as_text, &Ok(as_text.clone())),
            );
        }
    }

    #[test]
    fn a_different_surface_fails_in_the_modern_era_and_warns_before() {
        let first = snap(
            vec![json!({"name": "a", "description": "1"})],
            Some(vec![]),
            Some("hi"),
        );
        let second = snap(
            vec![
                json!({"name": "a", "description": "2"}),
                json!({"name": "new"}),
            ],
            Some(vec![json!({"name": "p"})]),
            Some("other"),
        );
        let f = stable::surface_stable(
            Era::Modern,
            &first,
            &Relisted::of(&first, &first),
            &Ok(Relisted::of(&first, &second)),
        );
        assert_is(
            &f,
            Status::Fail,
            Severity::Error,
            "tools: `a` changed, `new` added on a second connection; prompts: `p` added on a \
             second connection; instructions differ on a second connection",
        );
        assert!(f.message.contains("forbids a per-connection surface"));
        let f = stable::surface_stable(
            Era::Legacy,
            &first,
            &Relisted::of(&first, &second),
            &Ok(Relisted::of(&first, &first)),
        );
        assert_is(
            &f,
            Status::Warn,
            Severity::Warning,
            "tools: `a` changed, `new` added when listed again in the same session",
        );
        // Prompts declared on one connection only; a failed listing is not a difference.
        let undeclared = snap(
            vec![json!({"name": "a", "description": "1"})],
            None,
            Some("hi"),
        );
        let f = stable::surface_stable(
            Era::Legacy,
            &first,
            &Relisted::of(&first, &first),
            &Ok(Relisted::of(&first, &undeclared)),
        );
        assert!(
            f.message.contains("prompts: listed, then not declared"),
            "{f:?}"
        );
        let mut broken = first.clone();
        broken.tools = Err::<Vec<Value>, String>("timeout".into()).into();
        let f = stable::surface_stable(
            Era::Modern,
            &first,
            &Relisted::of(&first, &broken),
            &Ok(Relisted::of(&first, &first)),
        );
        assert_is(
            &f,
            Status::Pass,
            Severity::Info,
            "Not compared: tools not compared (timeout)",
        );
        let f = stable::surface_stable(
            Era::Modern,
            &first,
            &Relisted::of(&first, &first),
            &Err("refused".into()),
        );
        assert_is(
            &f,
            Status::Warn,
            Severity::Warning,
            "could not be compared on a second connection",
        );
    }

    #[test]
    fn spurious_list_changed_only_after_the_first_listing_and_only_when_unchanged() {
        let a = snap(
            vec![json!({"name": "a"})],
            Some(vec![json!({"name": "p"})]),
            None,
        );
        let changed = snap(
            vec![json!({"name": "b"})],
            Some(vec![json!({"name": "p"})]),
            None,
        );
        let n = |m: &str| json!({"jsonrpc": "2.0", "method": m});
        let notes = vec![
            n("notifications/tools/list_changed"),
            n("notifications/message"),
            n("notifications/tools/list_changed"),
            n("notifications/prompts/list_changed"),
        ];
        let at = [("tools", 0), ("prompts", 0), ("resources", 0)];
        let f =
            stable::spurious_list_changed(&notes, &at, &Relisted::of(&a, &a)).expect("reported");
        assert_is(
            &f,
            Status::Warn,
            Severity::Info,
            "notifications/prompts/list_changed (once), notifications/tools/list_changed (2 times)",
        );
        // The tools really changed: only prompts are spurious.
        let f = stable::spurious_list_changed(&notes, &at, &Relisted::of(&a, &changed))
            .expect("reported");
        assert_eq!(
            f.actual,
            Some(json!(["notifications/prompts/list_changed (once)"]))
        );
        // Before the first listing (server-everything's conditional tools): not spurious.
        let late = [("tools", 3), ("prompts", 4)];
        assert_eq!(
            stable::spurious_list_changed(&notes, &late, &Relisted::of(&a, &a)),
            None
        );
        // Never listed (not declared): never spurious; no notification: nothing.
        assert_eq!(
            stable::spurious_list_changed(&notes, &[], &Relisted::of(&a, &a)),
            None
        );
        assert_eq!(
            stable::spurious_list_changed(&[], &at, &Relisted::of(&a, &a)),
            None
        );
    }

    #[test]
    fn hostile_listings_never_panic() {
        let weird = Snapshot {
            tools: SnapshotTools::Parsed(Ok(vec![
                json!(null),
                json!(1),
                json!({"name": 7}),
                json!([{"name": "a"}]),
            ])),
            other: OtherSurface {
                prompts: Some(Ok(vec![json!("p"), json!("p")])),
                resources: Some(Ok(vec![json!({"uri": "x"}), json!({"uri": "x"})])),
                resource_templates: Some(Err("bad".into())),
            },
            instructions: Some(Some(json!({"not": "text"}))),
        };
        let f = stable::surface_stable(
            Era::Modern,
            &weird,
            &Relisted::of(&weird, &weird),
            &Ok(Relisted::of(&weird, &weird)),
        );
        assert_eq!(f.status, Status::Pass, "{f:?}");
    }
}

#[test]
fn surface_stable_is_skipped_when_the_first_listing_failed() {
    let f = super::stable::not_compared("timeout");
    assert_is(
        &f,
        Status::Skip,
        Severity::Info,
        "tool listing failed (timeout)",
    );
    assert_eq!(f.id, "compliance/surface-stable");
}

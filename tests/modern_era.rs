//! The 2026-07-28 era through the one client interface, against tiny fake servers: a
//! `python3 -c` script for stdio (it logs every line it reads, one `#spawn` marker per
//! process) and an in-test tokio HTTP responder (it records every request).

use mcpward::checks::compliance::modern as rules;
use mcpward::model::Status;
use mcpward::transport::http::HttpSpec;
use mcpward::transport::stdio::StdioSpec;
use mcpward::transport::{Client, ConnectOptions, Endpoint, Era, EraChoice};
use serde_json::{json, Map, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const PV: &str = "io.modelcontextprotocol/protocolVersion";
const CC: &str = "io.modelcontextprotocol/clientCapabilities";

/// Modes: legacy (discover → -32601), silent (discover never answered), exit (dies on
/// discover), modern, retry (first discover → -32022), legacy32022 (-32022 listing only
/// 2025-11-25).
const FAKE: &str = r##"
import sys, json, os
mode = sys.argv[1]
log = open(os.environ["FAKE_LOG"], "a")
log.write("#spawn\n"); log.flush()
PV = "io.modelcontextprotocol/protocolVersion"; CC = "io.modelcontextprotocol/clientCapabilities"
state = {"discovers": 0, "modern": False}
def send(o):
    sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
TOOLS = [{"name": "echo", "inputSchema": {"type": "object"}},
         {"name": "mrtr", "inputSchema": {"type": "object"}},
         {"name": "asks", "inputSchema": {"type": "object"}}]
for line in sys.stdin:
    log.write(line if line.endswith("\n") else line + "\n"); log.flush()
    try:
        msg = json.loads(line)
    except Exception:
        continue
    if "method" not in msg or "id" not in msg:
        continue
    mid = msg["id"]; m = msg["method"]; params = msg.get("params") or {}
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else None
    def ok(r): send({"jsonrpc": "2.0", "id": mid, "result": r})
    def err(c, t, d=None):
        e = {"code": c, "message": t}
        if d is not None: e["data"] = d
        send({"jsonrpc": "2.0", "id": mid, "error": e})
    modern_mode = mode in ("modern", "retry", "legacy32022")
    if m == "server/discover":
        state["discovers"] += 1
        if mode == "legacy": err(-32601, "Method not found"); continue
        if mode == "silent": continue
        if mode == "exit": sys.exit(0)
        if mode == "legacy32022": err(-32022, "Unsupported protocol version", {"supported": ["2025-11-25"], "requested": meta.get(PV)}); continue
        if mode == "retry" and state["discovers"] == 1:
            err(-32022, "Unsupported protocol version", {"supported": ["2026-07-28"], "requested": meta.get(PV)}); continue
    if modern_mode and m != "initialize":
        if meta is None or PV not in meta or CC not in meta:
            err(-32602, "params._meta is missing the required envelope key(s)"); continue
        if meta[PV] != "2026-07-28":
            err(-32022, "Unsupported protocol version", {"supported": ["2026-07-28"], "requested": meta[PV]}); continue
    if m == "server/discover":
        state["modern"] = True
        ok({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
            "instructions": "hi", "ttlMs": 0, "cacheScope": "private",
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake-modern", "version": "2.0"}}})
    elif m == "initialize":
        v = params.get("protocolVersion")
        ok({"protocolVersion": v if v in ("2025-11-25", "2025-06-18") else "2025-11-25",
            "capabilities": {"tools": {}}, "serverInfo": {"name": "fake-legacy", "version": "1.0"}})
    elif m == "tools/list":
        if state["modern"]:
            if params.get("cursor") == "p2":
                ok({"tools": TOOLS[1:], "resultType": "complete", "ttlMs": 5, "cacheScope": "private"})
            else:
                ok({"tools": TOOLS[:1], "nextCursor": "p2", "resultType": "complete", "ttlMs": 5, "cacheScope": "private"})
        else:
            ok({"tools": TOOLS})
    elif m == "tools/call":
        name = params.get("name")
        if state["modern"]:
            # A server request in the modern era: must be recorded, never answered.
            send({"jsonrpc": "2.0", "id": "srv-1", "method": "sampling/createMessage", "params": {}})
        if name == "mrtr" and params.get("requestState") != "s2":
            ok({"resultType": "input_required", "requestState": "s2" if params.get("requestState") == "s1" else "s1"})
        elif name == "asks":
            ok({"resultType": "input_required", "inputRequests": {"a": {"method": "elicitation/create", "params": {}}}})
        else:
            ok({"content": [{"type": "text", "text": "ok"}], "resultType": "complete"})
    elif m == "ping":
        if state["modern"]: err(-32601, "Method not found", "ping")
        else: ok({})
    else:
        err(-32601, "Method not found", m)
"##;

struct Fake {
    _dir: tempfile::TempDir,
    log: std::path::PathBuf,
}

impl Fake {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        std::fs::write(&log, "").unwrap();
        Fake { _dir: dir, log }
    }
    fn opts(&self, mode: &str, era: EraChoice, connect_ms: u64) -> ConnectOptions {
        let mut env: Vec<(std::ffi::OsString, std::ffi::OsString)> =
            vec![("FAKE_LOG".into(), self.log.clone().into_os_string())];
        if let Some(p) = std::env::var_os("PATH") {
            env.push(("PATH".into(), p));
        }
        ConnectOptions {
            endpoint: Endpoint::Stdio(StdioSpec {
                command: "python3".into(),
                args: vec!["-c".into(), FAKE.into(), mode.into()],
                env,
                sweep_all_descendants: false,
            }),
            connect_ms,
            call_ms: 5000,
            era,
            guard: Default::default(),
        }
    }
    /// Lines read by the fake, split per process.
    fn processes(&self) -> Vec<Vec<Value>> {
        let text = std::fs::read_to_string(&self.log).unwrap();
        let mut out: Vec<Vec<Value>> = Vec::new();
        for line in text.lines() {
            if line == "#spawn" {
                out.push(Vec::new());
            } else if let Some(last) = out.last_mut() {
                last.push(serde_json::from_str(line).unwrap_or(Value::String(line.into())));
            }
        }
        out
    }
}

fn methods(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .map(|m| m["method"].as_str().unwrap_or("<response>").to_string())
        .collect()
}

fn is_full_envelope(params: &Value) -> bool {
    let meta = &params["_meta"];
    meta[PV] == "2026-07-28"
        && meta[CC] == json!({})
        && meta["io.modelcontextprotocol/clientInfo"]["name"] == "mcpward"
}

#[tokio::test]
async fn legacy_choice_sends_initialize_first() {
    let fake = Fake::new();
    let c = Client::connect(fake.opts("modern", EraChoice::Legacy, 5000))
        .await
        .unwrap();
    assert_eq!(c.hello().era, Era::Legacy);
    assert_eq!(c.hello().discover, None);
    c.close().await;
    let p = fake.processes();
    assert_eq!(p.len(), 1);
    assert_eq!(
        p[0][0],
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpward","version":mcpward::VERSION}}})
    );
    assert_eq!(methods(&p[0]), ["initialize", "notifications/initialized"]);
}

#[tokio::test]
async fn auto_against_legacy_server_falls_back_in_place() {
    let fake = Fake::new();
    let c = Client::connect(fake.opts("legacy", EraChoice::Auto, 5000))
        .await
        .unwrap();
    let h = c.hello().clone();
    assert_eq!(h.era, Era::Legacy);
    assert_eq!(h.protocol_version, "2025-11-25");
    assert_eq!(h.server_name(), "fake-legacy");
    assert!(c.notes().is_empty());
    // Legacy traffic after the fallback: no envelope, ping answered.
    let tools = c.list_tools().await.unwrap();
    assert_eq!(tools.len(), 3);
    c.ping().await.unwrap();
    assert!(mcpward::runner::modern_records(&c).await.is_none());
    assert!(c.page_meta().is_empty());
    c.close().await;
    let p = fake.processes();
    assert_eq!(p.len(), 1, "no respawn");
    assert_eq!(p[0][0]["id"], 0);
    assert_eq!(p[0][0]["method"], "server/discover");
    assert!(is_full_envelope(&p[0][0]["params"]));
    assert_eq!(p[0][1]["method"], "initialize");
    assert_eq!(p[0][1]["id"], 1);
    assert_eq!(p[0][3]["method"], "tools/list");
    assert!(p[0][3].get("params").is_none());
}

#[tokio::test]
async fn auto_against_silent_server_respawns_once() {
    let fake = Fake::new();
    let connect_ms = 1500;
    let t0 = Instant::now();
    let c = Client::connect(fake.opts("silent", EraChoice::Auto, connect_ms))
        .await
        .unwrap();
    let took = t0.elapsed();
    // One window for the silent probe, then a fresh process that answers at once: well
    // under three windows even on a loaded machine (the respawn itself is checked below by
    // the processes the fake saw, not by the clock).
    assert!(
        took < Duration::from_millis(connect_ms * 3),
        "took {took:?}"
    );
    assert!(took >= Duration::from_millis(connect_ms), "took {took:?}");
    assert_eq!(c.hello().era, Era::Legacy);
    let notes = c.notes();
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].starts_with("mcpward: the server/discover probe failed (no answer within connect_ms (1500ms)); restarted the server"),
        "{notes:?}"
    );
    assert!(notes[0].contains("protocol_era: legacy"));
    c.close().await;
    let p = fake.processes();
    assert_eq!(p.len(), 2);
    assert_eq!(methods(&p[0]), ["server/discover"]);
    assert_eq!(methods(&p[1])[0], "initialize");
    assert_eq!(p[1][0]["id"], 0);
}

#[tokio::test]
async fn auto_against_server_that_exits_on_the_probe_respawns() {
    let fake = Fake::new();
    let c = Client::connect(fake.opts("exit", EraChoice::Auto, 5000))
        .await
        .unwrap();
    assert_eq!(c.hello().era, Era::Legacy);
    assert_eq!(c.notes().len(), 1);
    c.close().await;
    assert_eq!(fake.processes().len(), 2);
}

#[tokio::test]
async fn modern_choice_against_legacy_server_is_an_error() {
    let fake = Fake::new();
    let e = Client::connect(fake.opts("legacy", EraChoice::Modern, 5000))
        .await
        .err()
        .expect("must fail");
    assert_eq!(
        e.message,
        "protocol_era is modern, but the server did not answer server/discover as a 2026-07-28 server; it answered error -32601 \"Method not found\""
    );
    let p = fake.processes();
    assert_eq!(p.len(), 1);
    assert_eq!(methods(&p[0]), ["server/discover"]);

    let fake = Fake::new();
    let e = Client::connect(fake.opts("silent", EraChoice::Modern, 800))
        .await
        .err()
        .expect("must fail");
    assert_eq!(
        e.message,
        "Timeout: connection to server (800ms); protocol_era is modern, so there is no legacy fallback"
    );
    assert_eq!(fake.processes().len(), 1);
}

#[tokio::test]
async fn modern_server_over_stdio() {
    let fake = Fake::new();
    let c = Client::connect(fake.opts("modern", EraChoice::Auto, 5000))
        .await
        .unwrap();
    let h = c.hello().clone();
    assert_eq!(h.era, Era::Modern);
    assert_eq!(h.protocol_version, "2026-07-28");
    assert_eq!(h.server_name(), "fake-modern");
    assert_eq!(h.server_version(), "2.0");
    assert_eq!(h.capabilities, json!({"tools":{}}));
    assert_eq!(h.instructions, Some(json!("hi")));
    assert_eq!(h.supported_versions, ["2026-07-28"]);
    assert_eq!(h.discover.as_ref().unwrap()["cacheScope"], "private");

    let tools = c.list_tools().await.unwrap();
    assert_eq!(tools.len(), 3);
    assert_eq!(
        c.page_meta(),
        vec![
            json!({"resultType":"complete","ttlMs":5,"cacheScope":"private"}),
            json!({"resultType":"complete","ttlMs":5,"cacheScope":"private"})
        ]
    );
    let r = c.call_tool("echo", Map::new()).await.unwrap();
    assert_eq!(r["content"][0]["text"], "ok");
    // MRTR: retried with the exact state, new ids, until complete.
    let r = c.call_tool("mrtr", Map::new()).await.unwrap();
    assert_eq!(r["resultType"], "complete");
    let e = c.call_tool("asks", Map::new()).await.unwrap_err();
    assert_eq!(e.code, None);
    assert_eq!(
        e.message,
        "server requested client input (elicitation/create) although mcpward declared no client capabilities"
    );

    let obs = mcpward::runner::modern_records(&c).await.unwrap();
    let findings = rules::check(&h, &obs);
    assert_eq!(findings.len(), 7);
    // The last is compliance/subscriptions: skipped, listChanged is not advertised.
    assert_eq!(findings[6].status, Status::Skip);
    assert!(
        findings[..6].iter().all(|f| f.status == Status::Pass),
        "{findings:#?}"
    );
    assert_eq!(obs.input_requests.len(), 1);
    // Server requests were recorded, never answered.
    assert!(!c.chatter().server_requests.is_empty());
    c.close().await;

    let p = fake.processes();
    assert_eq!(p.len(), 1);
    let lines = &p[0];
    assert_eq!(lines[0]["method"], "server/discover");
    assert_eq!(lines[0]["id"], 0);
    assert_eq!(lines[0]["params"].as_object().unwrap().len(), 1);
    for l in lines {
        assert!(l.get("method").is_some(), "client wrote a response: {l}");
        let m = l["method"].as_str().unwrap();
        assert!(!m.starts_with("notifications/"), "{l}");
        assert_ne!(m, "initialize");
    }
    let ms = methods(lines);
    // Normal traffic (everything before the probes) carries the full envelope; ids ascend.
    for (i, l) in lines[..10].iter().enumerate() {
        assert_eq!(l["id"], i as u64, "{l}");
        assert!(is_full_envelope(&l["params"]), "{l}");
    }
    assert_eq!(
        ms[..9],
        [
            "server/discover",
            "tools/list",
            "tools/list",
            "tools/call",
            "tools/call",
            "tools/call",
            "tools/call",
            "tools/call",
            "tools/list"
        ]
    );
    assert_eq!(lines[1]["params"].as_object().unwrap().len(), 1); // page 1: {_meta}
    assert_eq!(lines[2]["params"]["cursor"], "p2");
    let states: Vec<&Value> = lines[4..7]
        .iter()
        .map(|l| &l["params"]["requestState"])
        .collect();
    assert_eq!(states, [&Value::Null, &json!("s1"), &json!("s2")]);
    assert_eq!(
        lines[6]["params"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["name", "arguments", "requestState", "_meta"]
    );
    // Then the probes: unsupported version, envelope without capabilities, ping.
    assert_eq!(ms[10..], ["server/discover", "tools/list", "ping"]);
    assert_eq!(lines[10]["params"]["_meta"][PV], "1900-01-01");
    assert!(lines[11]["params"]["_meta"].get(CC).is_none());
}

#[tokio::test]
async fn unsupported_version_is_retried_once_with_a_new_id() {
    let fake = Fake::new();
    let c = Client::connect(fake.opts("retry", EraChoice::Modern, 5000))
        .await
        .unwrap();
    assert_eq!(c.hello().era, Era::Modern);
    c.close().await;
    let p = fake.processes();
    assert_eq!(methods(&p[0]), ["server/discover", "server/discover"]);
    assert_eq!(p[0][0]["id"], 0);
    assert_eq!(p[0][1]["id"], 1);

    // -32022 naming only a legacy version: auto speaks legacy on a fresh process.
    let fake = Fake::new();
    let c = Client::connect(fake.opts("legacy32022", EraChoice::Auto, 5000))
        .await
        .unwrap();
    assert_eq!(c.hello().era, Era::Legacy);
    assert_eq!(c.hello().protocol_version, "2025-11-25");
    c.close().await;
    let p = fake.processes();
    assert_eq!(p.len(), 2);
    assert_eq!(methods(&p[1])[0], "initialize");
}

// ---------------------------------------------------------------------------------------
// HTTP
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone)]
struct Req {
    method: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Req {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

struct Resp {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

fn json_resp(status: u16, v: Value) -> Resp {
    Resp {
        status,
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: v.to_string(),
    }
}

type Handler = Arc<dyn Fn(&Req) -> Resp + Send + Sync>;

async fn serve(handler: Handler) -> (String, Arc<Mutex<Vec<Req>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let log = Arc::new(Mutex::new(Vec::new()));
    let log2 = log.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let handler = handler.clone();
            let log = log2.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                let head_end = loop {
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break i;
                    }
                    match sock.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                };
                let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
                let mut lines = head.split("\r\n");
                let method = lines
                    .next()
                    .unwrap_or("")
                    .split(' ')
                    .next()
                    .unwrap_or("")
                    .to_string();
                let headers: Vec<(String, String)> = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .collect();
                let len: usize = headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                let mut body = buf[head_end + 4..].to_vec();
                while body.len() < len {
                    match sock.read(&mut chunk).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => body.extend_from_slice(&chunk[..n]),
                    }
                }
                let req = Req {
                    method,
                    headers,
                    body: serde_json::from_slice(&body).unwrap_or(Value::Null),
                };
                log.lock().unwrap().push(req.clone());
                let resp = handler(&req);
                let mut out = format!(
                    "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                    resp.status,
                    resp.body.len()
                );
                for (k, v) in &resp.headers {
                    out.push_str(&format!("{k}: {v}\r\n"));
                }
                out.push_str("\r\n");
                out.push_str(&resp.body);
                let _ = sock.write_all(out.as_bytes()).await;
                let _ = sock.shutdown().await;
            });
        }
    });
    (url, log)
}

/// A compliant 2026-07-28 HTTP server (after §14.4/§14.5). `session_on_discover` adds an
/// `Mcp-Session-Id` to discover answers (which the client must never send back).
fn modern_http(session_on_discover: bool) -> Handler {
    Arc::new(move |req: &Req| {
        if req.method != "POST" {
            return Resp {
                status: 405,
                headers: vec![("Allow".into(), "POST".into())],
                body: String::new(),
            };
        }
        let b = &req.body;
        let id = b["id"].clone();
        let m = b["method"].as_str().unwrap_or("");
        let e = |status: u16, code: i64, msg: &str, data: Value| {
            json_resp(
                status,
                json!({"jsonrpc":"2.0","id":id,"error":{"code":code,"message":msg,"data":data}}),
            )
        };
        let meta = &b["params"]["_meta"];
        let hv = req.header("mcp-protocol-version");
        if hv.is_none() || hv != meta[PV].as_str() {
            return e(
                400,
                -32020,
                "mcp-protocol-version header does not match",
                Value::Null,
            );
        }
        if req.header("mcp-method") != Some(m) {
            return e(400, -32020, "mcp-method header does not match", Value::Null);
        }
        if m == "tools/call" {
            let name = b["params"]["name"].as_str().unwrap_or("");
            let sent = req.header("mcp-name").unwrap_or("");
            if sent != name && sent != mcpward::protocol::headers::encode_header_value(name) {
                return e(400, -32020, "mcp-name header does not match", Value::Null);
            }
        }
        if meta.get(CC).is_none() {
            return e(400, -32602, "missing envelope key", Value::Null);
        }
        if meta[PV] != "2026-07-28" {
            return e(
                400,
                -32022,
                "Unsupported protocol version",
                json!({"supported":["2026-07-28"],"requested":meta[PV]}),
            );
        }
        let ok = |r: Value| json_resp(200, json!({"jsonrpc":"2.0","id":id,"result":r}));
        match m {
            "server/discover" => {
                let mut r = ok(
                    json!({"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},
                    "ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"http-modern","version":"3"}}}),
                );
                if session_on_discover {
                    r.headers.push(("Mcp-Session-Id".into(), "sess-1".into()));
                }
                r
            }
            "tools/list" => ok(json!({"tools":[
                {"name":"wetter/ä","inputSchema":{"type":"object","properties":{
                    "region":{"type":"string","x-mcp-header":"Region"},
                    "n":{"type":"integer","x-mcp-header":"Count"}}}},
                {"name":"broken","inputSchema":{"type":"object","properties":{"x":{"type":"number","x-mcp-header":"X"}}}}
            ],"resultType":"complete","ttlMs":0,"cacheScope":"public"})),
            "tools/call" => {
                // SSE answer with a keep-alive comment and a progress notification first.
                let body = format!(
                    ": keep-alive\n\nevent: message\ndata: {}\n\ndata: {}\n\n",
                    json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}),
                    json!({"jsonrpc":"2.0","id":id,"result":{"content":[],"resultType":"complete"}})
                );
                Resp {
                    status: 200,
                    headers: vec![("Content-Type".into(), "text/event-stream".into())],
                    body,
                }
            }
            _ => e(404, -32601, "Method not found", json!(m)),
        }
    })
}

fn http_opts(url: &str, era: EraChoice) -> ConnectOptions {
    ConnectOptions {
        endpoint: Endpoint::Http(HttpSpec {
            url: url.into(),
            headers: vec![("Authorization".into(), "Bearer t".into())],
            auth: None,
        }),
        connect_ms: 5000,
        call_ms: 5000,
        era,
        guard: Default::default(),
    }
}

#[tokio::test]
async fn modern_server_over_http() {
    let (url, log) = serve(modern_http(true)).await;
    let c = Client::connect(http_opts(&url, EraChoice::Auto))
        .await
        .unwrap();
    let h = c.hello().clone();
    assert_eq!(h.era, Era::Modern);
    assert_eq!(h.server_name(), "http-modern");
    let tools = c.list_tools().await.unwrap();
    assert_eq!(tools.len(), 2);
    let mut args = Map::new();
    args.insert("region".into(), json!(" padded "));
    args.insert("n".into(), json!(7));
    let r = c.call_tool("wetter/ä", args).await.unwrap();
    assert_eq!(r["resultType"], "complete");
    let e = c.call_tool("broken", Map::new()).await.unwrap_err();
    assert_eq!(e.message, "tool \"broken\" is not called over HTTP because its inputSchema has an invalid x-mcp-header: x-mcp-header \"X\" at #/properties/x is on a property whose type is not string, integer or boolean");
    assert_eq!(c.call_blocked_reason("wetter/ä"), None);

    let obs = mcpward::runner::modern_records(&c).await.unwrap();
    let findings = rules::check(&h, &obs);
    let got: Vec<(&str, Status)> = findings.iter().map(|f| (f.id.as_str(), f.status)).collect();
    assert_eq!(
        got,
        [
            ("compliance/discover", Status::Pass),
            ("compliance/result-type", Status::Pass),
            ("compliance/cache-hints", Status::Pass),
            ("compliance/unsupported-version", Status::Pass),
            ("compliance/meta-required", Status::Pass),
            ("compliance/unknown-method", Status::Pass),
            ("compliance/header-validation", Status::Pass),
            // The discover answers carried a session id: a SHOULD deviation.
            ("compliance/stateless-http", Status::Warn),
            ("compliance/subscriptions", Status::Skip),
        ],
        "{findings:#?}"
    );
    c.close().await;

    let reqs = log.lock().unwrap().clone();
    // Normal traffic: discover, list, call (before the probes).
    let first = &reqs[0];
    assert_eq!(first.method, "POST");
    assert_eq!(first.body["id"], 0);
    assert_eq!(first.body["method"], "server/discover");
    assert!(is_full_envelope(&first.body["params"]));
    for r in &reqs[..3] {
        assert_eq!(
            r.header("mcp-protocol-version"),
            Some("2026-07-28"),
            "{r:?}"
        );
        assert_eq!(r.header("mcp-method"), r.body["method"].as_str());
        assert_eq!(r.header("authorization"), Some("Bearer t"));
        assert!(is_full_envelope(&r.body["params"]));
    }
    assert_eq!(reqs[1].body["params"].as_object().unwrap().len(), 1);
    let call = &reqs[2];
    assert_eq!(call.header("mcp-name"), Some("=?base64?d2V0dGVyL8Ok?="));
    assert_eq!(
        call.header("mcp-param-region"),
        Some("=?base64?IHBhZGRlZCA=?=")
    );
    assert_eq!(call.header("mcp-param-count"), Some("7"));
    // Nothing stateful, ever (apart from the GET/DELETE compliance probes at the end).
    for r in &reqs {
        assert!(r.header("mcp-session-id").is_none(), "{r:?}");
        assert!(r.header("last-event-id").is_none());
        if r.method == "POST" {
            assert!(r.body.get("id").is_some(), "notification POSTed: {r:?}");
        }
    }
    let verbs: Vec<&str> = reqs.iter().map(|r| r.method.as_str()).collect();
    assert_eq!(verbs.iter().filter(|v| **v != "POST").count(), 2);
    assert_eq!(&verbs[verbs.len() - 2..], ["GET", "DELETE"]);
}

#[tokio::test]
async fn http_legacy_server_falls_back_without_the_probe_session() {
    // Like TS SDK v1: a modern request gets 400 + -32000 with a null id and a session id.
    let handler: Handler = Arc::new(|req: &Req| {
        let b = &req.body;
        if b["params"].get("_meta").is_some() {
            let mut r = json_resp(
                400,
                json!({"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}),
            );
            r.headers
                .push(("Mcp-Session-Id".into(), "probe-session".into()));
            return r;
        }
        match b["method"].as_str() {
            Some("initialize") => {
                let mut r = json_resp(
                    200,
                    json!({"jsonrpc":"2.0","id":b["id"],"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"legacy-http","version":"1"}}}),
                );
                r.headers
                    .push(("Mcp-Session-Id".into(), "real-session".into()));
                r
            }
            Some(_) if req.method == "POST" && b.get("id").is_some() => {
                json_resp(200, json!({"jsonrpc":"2.0","id":b["id"],"result":{}}))
            }
            Some(_) => Resp {
                status: 202,
                headers: vec![],
                body: String::new(),
            },
            None => Resp {
                status: 405,
                headers: vec![],
                body: String::new(),
            },
        }
    });
    let (url, log) = serve(handler).await;
    let c = Client::connect(http_opts(&url, EraChoice::Auto))
        .await
        .unwrap();
    assert_eq!(c.hello().era, Era::Legacy);
    assert_eq!(c.hello().server_name(), "legacy-http");
    c.ping().await.unwrap();
    c.close().await;
    let reqs = log.lock().unwrap().clone();
    assert_eq!(reqs[0].body["method"], "server/discover");
    let init = &reqs[1];
    assert_eq!(init.body["method"], "initialize");
    assert_eq!(init.body["id"], 1);
    assert!(init.header("mcp-session-id").is_none());
    assert!(init.header("mcp-protocol-version").is_none());
    assert!(init.header("mcp-method").is_none());
    let ping = reqs.iter().find(|r| r.body["method"] == "ping").unwrap();
    assert_eq!(ping.header("mcp-session-id"), Some("real-session"));

    // The same server with protocol_era: modern is a connection error naming the answer.
    let e = Client::connect(http_opts(&url, EraChoice::Modern))
        .await
        .err()
        .expect("must fail");
    assert_eq!(
        e.message,
        "protocol_era is modern, but the server did not answer server/discover as a 2026-07-28 server; it answered HTTP 400 with error -32000 \"Bad Request: Server not initialized\""
    );
}

#[tokio::test]
async fn http_probe_outcomes_without_fallback() {
    // 401: auth error, no fallback.
    let (url, log) = serve(Arc::new(|_: &Req| json_resp(401, json!({"error":"nope"})))).await;
    let e = Client::connect(http_opts(&url, EraChoice::Auto))
        .await
        .err()
        .expect("must fail");
    assert!(
        e.message
            .starts_with("server/discover was refused with HTTP 401 (authentication)"),
        "{}",
        e.message
    );
    assert_eq!(log.lock().unwrap().len(), 1);

    // 404 + -32601: modern without discover data.
    let (url, _) = serve(Arc::new(|req: &Req| {
        json_resp(404, json!({"jsonrpc":"2.0","id":req.body["id"],"error":{"code":-32601,"message":"Method not found"}}))
    }))
    .await;
    let c = Client::connect(http_opts(&url, EraChoice::Auto))
        .await
        .unwrap();
    assert_eq!(c.hello().era, Era::Modern);
    assert_eq!(c.hello().capabilities, json!({}));
    assert_eq!(c.hello().discover, None);
    let f = rules::discover(
        c.hello(),
        &mcpward::runner::modern_records(&c).await.unwrap(),
    );
    assert_eq!(f.status, Status::Fail);
    assert_eq!(
        f.message,
        "server/discover is not implemented (HTTP 404, MCP error -32601: Method not found)"
    );
    // 400/404 JSON-RPC bodies surface as protocol errors with codes.
    let e = c.call_tool("x", Map::new()).await.unwrap_err();
    assert_eq!(e.code, Some(-32601));
    c.close().await;

    // -32020 on the probe: rejected, no fallback.
    let (url, log) = serve(Arc::new(|req: &Req| {
        json_resp(400, json!({"jsonrpc":"2.0","id":req.body["id"],"error":{"code":-32020,"message":"mcp-method header is absent"}}))
    }))
    .await;
    let e = Client::connect(http_opts(&url, EraChoice::Auto))
        .await
        .err()
        .expect("must fail");
    assert_eq!(
        e.message,
        "the server rejected mcpward's server/discover request: MCP error -32020: mcp-method header is absent"
    );
    assert_eq!(log.lock().unwrap().len(), 1, "no initialize after -32020");
}

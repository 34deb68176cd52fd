//! JSON-RPC dispatcher over arbitrary server output: each line is one message text (a
//! stdio line, an HTTP body, an SSE event's data). Two dispatchers read the same lines,
//! one with the pending requests registered raw (results handed over as text), one
//! parsed. Property (rpc.rs: "anything else takes the parsed path unchanged"): every
//! request gets the same outcome either way, and the recorded chatter is the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::bounded;
// Crate API used (re-point here after a move):
use mcpward::transport::rpc::{Answer, Dispatcher, Guard};
use mcpward::observed::RpcError;

type Rx = tokio::sync::oneshot::Receiver<Result<Answer, RpcError>>;

fn outcome(rx: &mut Rx) -> Option<Result<serde_json::Value, (Option<i64>, String)>> {
    rx.try_recv().ok().map(|r| match r {
        Ok(a) => Ok(a.into_value()),
        Err(e) => Err((e.code, e.message)),
    })
}

fn nested_too_deep(text: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(text)
        .is_err_and(|e| e.to_string().contains("recursion limit"))
}

fuzz_target!(|data: &[u8]| {
    bounded("jsonrpc dispatch", || {
        let (raw, _r1) = Dispatcher::new(Guard::default());
        let (parsed, _r2) = Dispatcher::new(Guard::default());
        let mut rxs: Vec<(Rx, Rx)> = (0..4)
            .map(|_| {
                let (a, _) = raw.register(raw.next_id(), true, false);
                let (b, _) = parsed.register(parsed.next_id(), false, false);
                (a, b)
            })
            .collect();
        for line in data.split(|&b| b == b'\n') {
            let a = raw.dispatch_text(line);
            let b = parsed.dispatch_text(line);
            if a && !b && nested_too_deep(line) {
                // Known, left to #12 §2 (deeply nested JSON): the raw path hands over a
                // result nested beyond serde_json's 128 levels, which the parsed path cannot
                // read and records as stray (the request then waits for its timeout).
                return;
            }
            assert_eq!(a, b, "one path took the message and the other did not");
            if !a {
                raw.record_stray(line);
                parsed.record_stray(line);
            }
        }
        for (id, (a, b)) in rxs.iter_mut().enumerate() {
            let (a, b) = (outcome(a), outcome(b));
            assert_eq!(a, b, "request {id}: raw and parsed outcomes differ");
        }
        let (ca, cb) = (raw.chatter(), parsed.chatter());
        assert_eq!(ca.notifications, cb.notifications);
        assert_eq!(ca.server_requests, cb.server_requests);
        assert_eq!(ca.stray, cb.stray);
        assert_eq!(ca.stray_count, cb.stray_count);
        // A closed transport fails whatever is still pending, once.
        raw.close_all();
        assert!(raw.is_closed());
    });
});

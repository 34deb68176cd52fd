//! Schema differ over two arbitrary JSON documents (split at the first NUL byte), both
//! directions and both labels. Properties: a schema never drifts from itself nor from its
//! own canonical form (the differ compares canonical forms).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::{bounded, split2};
use serde_json::Value;
// Crate API used (re-point here after a move):
use mcpward::surface::canonical::canonicalize_schema;
use mcpward::surface::drift_vocab::Direction;
use mcpward::surface::schema_walk::diff_schema;

fuzz_target!(|data: &[u8]| {
    let (a, b) = split2(data);
    let (Ok(a), Ok(b)) = (
        serde_json::from_slice::<Value>(a),
        serde_json::from_slice::<Value>(if b.is_empty() { b"null" } else { b }),
    ) else {
        return;
    };
    bounded("schema diff", || {
        for dir in [Direction::Input, Direction::Output] {
            let _ = diff_schema("t", "inputSchema", dir, &a, &b);
            let _ = diff_schema("t", "outputSchema", dir, &b, &a);
            if let Ok(ca) = canonicalize_schema(&a) {
                let d = diff_schema("t", "inputSchema", dir, &a, &ca);
                assert!(d.is_empty(), "schema drifts from its canonical form: {d:?}");
            }
        }
    });
});

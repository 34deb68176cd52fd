//! JSONPath parser and evaluator, both dialects (the original's minimal one and the full
//! one via jsonpath-rust): the first line is the path, the rest a JSON document (or, when
//! it does not parse, a fixed document with arrays, objects and scalars).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::bounded;
use serde_json::{json, Value};
use std::cell::Cell;
use std::sync::Once;
// Crate API used (re-point here after a move):
use mcpward::checks::behavioral::jsonpath::{eval, parse, Query};

thread_local! {
    static IN_LIBRARY: Cell<bool> = const { Cell::new(false) };
}

/// `eval` catches a panic inside jsonpath-rust (its documented last line of defence) and
/// answers "absent". libFuzzer's hook would abort on it first, so such a panic, raised by
/// the library's own code during `eval`, is let through to that `catch_unwind`; any other
/// panic still aborts.
fn let_library_panics_unwind() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_library = info.location().is_some_and(|l| {
                l.file().contains("jsonpath-rust") || l.file().contains("jsonpath_rust")
            });
            if IN_LIBRARY.get() && in_library {
                return;
            }
            fuzzer_hook(info);
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    let_library_panics_unwind();
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (path, doc) = text.split_once('\n').unwrap_or((text, ""));
    let doc: Value = serde_json::from_str(doc).unwrap_or_else(|_| {
        json!({"content": [{"type": "text", "text": "hi"}, {"type": "image", "n": 2}],
               "isError": false, "a": {"b": [1, [2, 3], {"c": null}]}, "": {"": 1}, "0": "zero"})
    });
    bounded("jsonpath", || {
        let Ok(q) = parse(path) else { return };
        IN_LIBRARY.set(true);
        let found = eval(&q, &doc);
        IN_LIBRARY.set(false);
        // A query that can select several nodes yields an array of them (or nothing).
        if let (
            Query::Full {
                singular: false, ..
            },
            Some(v),
        ) = (&q, &found)
        {
            assert!(v.is_array(), "non-singular query gave a non-array: {v}");
        }
    });
});

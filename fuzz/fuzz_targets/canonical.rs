//! Canonicalizer over arbitrary JSON text and arbitrary description text.
//! Properties the code claims (surface/canonical.rs):
//! - the text path (`canonical_schema_text_raw`, straight from the JSON text) and the tree
//!   path (`canonical_schema_text` of the parsed value) give the same text or the same error;
//! - the tree form (`canonicalize_schema`) is that text read back;
//! - canonicalization is idempotent (a stored canonical schema hashes the same when read);
//! - description canonicalization is idempotent.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::bounded;
use serde_json::value::RawValue;
use serde_json::Value;
// Crate API used (re-point here after a move):
use mcpward::surface::canonical::{
    canonical_schema_text, canonical_schema_text_raw, canonicalize_description, canonicalize_schema,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    bounded("canonicalize", || {
        let d = canonicalize_description(text);
        assert_eq!(
            canonicalize_description(&d),
            d,
            "description canonicalization not idempotent"
        );

        let (Ok(raw), Ok(parsed)) = (
            serde_json::from_str::<&RawValue>(text),
            serde_json::from_str::<Value>(text),
        ) else {
            return;
        };
        let from_text = canonical_schema_text_raw(raw);
        let from_tree = canonical_schema_text(&parsed);
        match (&from_text, &from_tree) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "text and tree paths disagree"),
            (Err(a), Err(b)) => assert_eq!(a, b, "text and tree paths fail differently"),
            _ => panic!("text and tree paths disagree: {from_text:?} vs {from_tree:?}"),
        }
        if let Ok(t) = from_tree {
            let tree = canonicalize_schema(&parsed).expect("tree path failed where text did not");
            assert_eq!(tree, t.to_value(), "tree form is not the text read back");
            let again = canonical_schema_text(&tree).expect("canonical form does not canonicalize");
            assert_eq!(again, t, "schema canonicalization not idempotent");
        }
    });
});

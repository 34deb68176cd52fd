//! Config loader + validator over arbitrary text: YAML parse, `${VAR}` interpolation,
//! validation and the redaction of invalid-config messages. Never a panic; the time bound
//! catches a pathological YAML or validation path.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::bounded;
// Crate API used (re-point here after a move):
use mcpward::config::{load_str, ConfigError};

/// Variables whose name has an even length are set (to a value derived from the name, long
/// enough to count as a secret), the others unset: both paths of interpolation run.
fn env(name: &str) -> Option<String> {
    (name.len() % 2 == 0).then(|| format!("secret-{name}"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    bounded("config load_str", || {
        match load_str(text, std::path::Path::new("mcpward.yaml"), &env) {
            Ok(loaded) => {
                // A loaded config must render its warnings without panicking.
                let _ = loaded.warnings.join("\n");
            }
            Err(e @ ConfigError::Invalid { .. }) => {
                let msg = e.to_string();
                // Redaction: no interpolated secret shows in an invalid-config message
                // (unless the file spells it out literally too: then it is not a secret leak).
                for w in text.split("${").skip(1) {
                    if let Some(name) = w.split('}').next() {
                        if let Some(v) = env(name).filter(|v| !text.contains(v.as_str())) {
                            assert!(!msg.contains(&v), "secret {v:?} leaked in: {msg}");
                        }
                    }
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    });
});

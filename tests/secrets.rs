//! #12 §5: credentials written literally in `server.headers` / `server.env` never reach any
//! output, and header values HTTP cannot carry are config errors at load time.

mod common;
use common::*;

const REPORTERS: &[&str] = &[
    "console", "json", "junit", "sarif", "markdown", "github", "gitlab",
];

/// A suite whose failing cases make mcpward quote what the server echoed: the canaries.
fn echo_suite(canaries: &[&str]) -> String {
    let message = canaries.join(" / ");
    format!(
        "checks:\n  compliance: false\n  schema: false\n  security: false\n  errors: false\n  collision: {{enabled: false}}\n\
         suites:\n  - tool: echo\n    cases:\n      - name: shows-output\n        args: {{ message: {message:?} }}\n        \
         expect: {{ jsonpath: {{ \"$.content[0].text\": nope }} }}\n      - name: shows-result\n        \
         args: {{ message: {message:?} }}\n        expect: {{ tool_is_error: true }}\n"
    )
}

/// Runs every reporter (verbose too) and asserts a failing run that never shows a canary.
fn assert_never_shown(w: &Workdir, canaries: &[&str]) {
    for reporter in REPORTERS {
        for verbose in [false, true] {
            let mut args = vec!["run", "--reporter", reporter];
            if verbose {
                args.push("-v");
            }
            let o = w.run(&args);
            let out = String::from_utf8_lossy(&o.stdout);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{reporter}: {out}\n{err}");
            for c in canaries {
                assert!(!out.contains(c), "{reporter} stdout shows {c}:\n{out}");
                assert!(!err.contains(c), "{reporter} stderr shows {c}:\n{err}");
            }
            // Formats that quote `actual` show where the canary was.
            let quotes_actual = ["json", "sarif", "junit"].contains(reporter);
            assert!(
                !quotes_actual || out.contains("[REDACTED]"),
                "{reporter}: the echoed canaries should show as [REDACTED]:\n{out}\n{err}"
            );
        }
    }
}

#[test]
fn literal_env_credentials_are_redacted_everywhere() {
    let w = Workdir::new();
    let tag = unique_tag("secrets-env");
    let cfg = stdio_config(&["--tools", "clean"], &tag, &echo_suite(&["canary456"]))
        .replace("  env:\n", "  env:\n    MY_API_KEY: canary456\n");
    w.write("mcpward.yaml", &cfg);
    assert_never_shown(&w, &["canary456"]);
}

#[test]
fn literal_authorization_header_is_redacted_everywhere() {
    let fx = HttpFixture::start(&["--tools", "clean", "--behavior", "require-auth=canary123"]);
    let w = Workdir::new();
    let cfg = http_config(&fx.url, &echo_suite(&["canary123", "Bearer canary123"])).replace(
        "  protocol_era: legacy\n",
        "  protocol_era: legacy\n  headers:\n    Authorization: Bearer canary123\n",
    );
    w.write("mcpward.yaml", &cfg);
    assert_never_shown(&w, &["canary123"]);
}

#[test]
fn non_ascii_header_value_is_a_config_error_naming_the_key() {
    let w = Workdir::new();
    // Nothing listens there: the error must come from loading, before any connection.
    w.write(
        "mcpward.yaml",
        &http_config("http://127.0.0.1:9/mcp", "").replace(
            "  protocol_era: legacy\n",
            "  protocol_era: legacy\n  headers:\n    X-Api-Key: \"schlüssel-canary\"\n",
        ),
    );
    let o = w.run(&["run"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("Invalid config:"), "{err}");
    assert!(
        err.contains("server.headers.X-Api-Key: header value must be ASCII"),
        "{err}"
    );
    assert!(!err.contains("canary"), "{err}");
    assert!(!err.to_lowercase().contains("connect"), "{err}");
}

#[test]
fn huge_integer_is_a_config_error_naming_the_key() {
    let w = Workdir::new();
    let tag = unique_tag("secrets-int");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean"],
            &tag,
            "timeouts:\n  call_ms: 100000000000000000000\n",
        ),
    );
    let o = w.run(&["run"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("Invalid YAML"), "{err}");
    assert!(err.contains("timeouts.call_ms: must be between"), "{err}");
}

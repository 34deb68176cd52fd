//! #12 §6 (docs/stability.md): under `protocol_era: auto` a stdio server that stays silent
//! to the `server/discover` probe costs two connect windows (the probe's, then the
//! respawned legacy handshake's); `legacy` costs one.

mod common;
use common::*;
use std::time::Duration;

const CONNECT_MS: u64 = 1000;

fn hanging(era: &str) -> (Option<i32>, String, Duration) {
    let w = Workdir::new();
    let tag = unique_tag("probe-window");
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean", "--behavior", "hang"],
            &tag,
            &format!("timeouts: {{connect_ms: {CONNECT_MS}, call_ms: 3000, run_ms: 30000}}\n"),
        )
        .replace(
            "  protocol_era: legacy\n",
            &format!("  protocol_era: {era}\n"),
        ),
    );
    let (o, took) = w.run_timed(&["run"]);
    (o.status.code(), stderr(&o), took)
}

#[test]
fn a_silent_stdio_server_costs_two_connect_windows_under_auto() {
    let window = Duration::from_millis(CONNECT_MS);
    let (code, err, auto) = hanging("auto");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("server/discover probe failed"), "{err}");
    assert!(auto >= window * 2, "took {auto:?}: {err}");
    assert!(
        auto < window * 2 + Duration::from_secs(4),
        "took {auto:?}: {err}"
    );

    let (code, err, legacy) = hanging("legacy");
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("server/discover"), "{err}");
    assert!(legacy >= window, "took {legacy:?}: {err}");
    // One window less (with slack for a loaded machine).
    assert!(
        legacy + window / 2 <= auto,
        "legacy took {legacy:?}, auto {auto:?}"
    );
}

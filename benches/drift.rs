//! `cargo bench --bench drift`: `mcpward baseline` + `mcpward diff` on generated surfaces of
//! 1,000 and 10,000 tools with nested schemas (`mcpward-fixture --tools generated:N`),
//! compared with a raw client that only does initialize + tools/list against the same
//! server, so the difference is our own time. Needs `cargo build --release`.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `MCPWARD_BENCH_BIN_DIR` (for a profiling build elsewhere), else `target/release`.
fn bin(name: &str) -> PathBuf {
    std::env::var_os("MCPWARD_BENCH_BIN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release"))
        .join(name)
}

fn raw_listing(spec: &str) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(bin("mcpward-fixture"))
        .args(["--tools", spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"raw","version":"1"}}}}}}"#).unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
    )
    .unwrap();
    writeln!(stdin, r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list"}}"#).unwrap();
    line.clear();
    out.read_line(&mut line).unwrap();
    let _: serde_json::Value = serde_json::from_str(&line).unwrap();
    drop(stdin);
    child.wait().unwrap();
    start.elapsed()
}

fn timed(args: &[&str], dir: &std::path::Path) -> Duration {
    let start = Instant::now();
    let o = Command::new(bin("mcpward"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let took = start.elapsed();
    assert!(
        matches!(o.status.code(), Some(0) | Some(1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    took
}

fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if !bin("mcpward").exists() || !bin("mcpward-fixture").exists() {
        eprintln!("drift bench needs `cargo build --release`");
        return;
    }
    let runs = 9;
    for n in [1_000usize, 10_000] {
        let dir = tempfile::tempdir().unwrap();
        let cfg = |variant: &str| {
            format!(
                "server:\n  transport: stdio\n  command: {:?}\n  args: [\"--tools\", \"generated:{n}{variant}\"]\n  protocol_era: legacy\nchecks:\n  drift:\n    baseline: ./mcpward.lock.json\n",
                bin("mcpward-fixture").display().to_string()
            )
        };
        std::fs::write(dir.path().join("v1.yaml"), cfg("")).unwrap();
        std::fs::write(dir.path().join("v2.yaml"), cfg(":v2")).unwrap();
        // Interleaved rounds, each with its own raw run: the server's time varies by
        // ±100 ms at 10,000 tools, so "ours" is taken per round (mcpward minus the raw
        // client right before it) and the median of those differences is reported.
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (mut raws, mut bases, mut diffs, mut sums) = (vec![], vec![], vec![], vec![]);
        for _ in 0..runs {
            let raw = ms(raw_listing(&format!("generated:{n}")));
            let base = ms(timed(&["baseline", "-c", "v1.yaml"], dir.path())) - raw;
            let raw2 = ms(raw_listing(&format!("generated:{n}")));
            let diff = ms(timed(&["diff", "-c", "v2.yaml", "--json"], dir.path())) - raw2;
            raws.push((raw + raw2) / 2.0);
            bases.push(base);
            diffs.push(diff);
            sums.push(base + diff);
        }
        println!(
            "{n} tools ({runs} rounds, medians): raw initialize+list {:.0} ms; ours: baseline {:.0} ms, diff {:.0} ms, baseline+diff {:.0} ms",
            median_f(raws),
            median_f(bases),
            median_f(diffs),
            median_f(sums)
        );
    }
}

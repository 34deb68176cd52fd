//! The GitHub workflows cannot run here; this checks they parse and keep their promises:
//! release targets, checksums, CI running `.ci/run`, and no `${{ }}` expression inside any
//! `run:` script (values go through `env:`).

use std::path::PathBuf;

fn load(name: &str) -> serde_norway::Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(".github/workflows")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap();
    serde_norway::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn steps(wf: &serde_norway::Value) -> Vec<(String, serde_norway::Value)> {
    let mut out = Vec::new();
    for (name, job) in wf["jobs"].as_mapping().unwrap() {
        for step in job["steps"].as_sequence().unwrap() {
            out.push((name.as_str().unwrap().to_string(), step.clone()));
        }
    }
    out
}

fn run_scripts(wf: &serde_norway::Value) -> Vec<String> {
    steps(wf)
        .into_iter()
        .filter_map(|(_, s)| s.get("run").and_then(|r| r.as_str()).map(String::from))
        .collect()
}

#[test]
fn release_builds_every_target_and_publishes_checksums() {
    let wf = load("release.yml");
    let tags = &wf["on"]["push"]["tags"];
    assert_eq!(tags[0], "v*");
    let targets: Vec<&str> = wf["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        [
            "x86_64-unknown-linux-musl",
            "aarch64-unknown-linux-musl",
            "x86_64-apple-darwin",
            "aarch64-apple-darwin",
            "x86_64-pc-windows-msvc"
        ]
    );
    // Every target blocks the release (Windows included, since it cleans up with a job).
    assert!(wf["jobs"]["build"].get("continue-on-error").is_none());
    let scripts = run_scripts(&wf).join("\n");
    // One compile per target: maturin builds the binary and the wheel around it, and the
    // archive packs that same file (checked against the wheel before anything is uploaded).
    assert!(scripts.contains("maturin build --release --locked --target"));
    assert!(scripts.contains("the wheel's binary is not"));
    assert!(!scripts.contains("cargo build --release"));
    assert!(scripts.contains("twine upload --non-interactive wheels/*.whl"));
    assert!(scripts.contains(".sha256"));
    assert!(scripts.contains("SHA256SUMS"));
    assert!(scripts.contains("gh release"));
    // Only the publishing job may write to the repository.
    assert_eq!(wf["permissions"]["contents"], "read");
    assert_eq!(wf["jobs"]["release"]["permissions"]["contents"], "write");
}

#[test]
fn ci_runs_the_test_entry_point() {
    let wf = load("ci.yml");
    let scripts = run_scripts(&wf);
    assert!(scripts.iter().any(|s| s.trim() == ".ci/run"), "{scripts:?}");
    assert!(scripts.iter().any(|s| s.contains("clippy --all-targets")));
    // Windows and macOS are built on every pull request, not first at release time.
    let oses = &wf["jobs"]["portable"]["strategy"]["matrix"]["os"];
    assert_eq!(
        *oses,
        serde_norway::from_str::<serde_norway::Value>("[macos-latest, windows-latest]").unwrap()
    );
    // The repository's own action is exercised from the checkout.
    assert!(steps(&wf)
        .iter()
        .any(|(_, s)| s.get("uses").and_then(|u| u.as_str()) == Some("./")));
}

#[test]
fn no_expression_inside_run_scripts() {
    for name in ["release.yml", "ci.yml"] {
        for script in run_scripts(&load(name)) {
            assert!(!script.contains("${{"), "{name}: {script}");
        }
    }
}

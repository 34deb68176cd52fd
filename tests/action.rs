//! The GitHub Action (reporters.md §10, cli.md §10, DECISIONS #16): `action/run.sh` run
//! with bash against a fake `mcpward` that records its argv, and the shape of `action.yml`.
//! Unix only (executable scripts run with bash).
#![cfg(unix)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fake `mcpward`: writes its argv (NUL-separated) and the token it saw, exits `FAKE_EXIT`.
const FAKE: &str = r#"#!/usr/bin/env bash
printf '%s\0' "$@" > "$FAKE_DIR/argv"
printf '%s' "${MCPWARD_GITHUB_TOKEN-<unset>}" > "$FAKE_DIR/token"
printf '%s' "${MCPWARD_PR_NUMBER-<unset>}" > "$FAKE_DIR/pr"
exit "${FAKE_EXIT:-0}"
"#;

struct Sandbox {
    dir: tempfile::TempDir,
}

struct Run {
    out: Output,
    /// `None` when the fake was never called.
    argv: Option<Vec<String>>,
    outputs: String,
    token: String,
    pr: String,
}

impl Run {
    fn code(&self) -> Option<i32> {
        self.out.status.code()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).into_owned()
    }
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        for d in ["bin", "work", "fake"] {
            std::fs::create_dir(dir.path().join(d)).unwrap();
        }
        write_exec(&dir.path().join("bin/mcpward"), FAKE);
        Sandbox { dir }
    }

    fn p(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `bash action/run.sh` in `work/` with a clean environment plus `env`.
    fn run(&self, env: &[(&str, &str)]) -> Run {
        let outputs = self.p("github_output");
        std::fs::write(&outputs, "").unwrap();
        let path = format!(
            "{}:{}",
            self.p("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new("bash");
        cmd.arg(root().join("action/run.sh"))
            .current_dir(self.p("work"))
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.dir.path())
            .env("GITHUB_OUTPUT", &outputs)
            .env("FAKE_DIR", self.p("fake"))
            .env("MCPWARD_ACTION_SKIP_INSTALL", "1");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let argv = std::fs::read(self.p("fake/argv")).ok().map(|b| {
            let s = String::from_utf8(b).unwrap();
            s.strip_suffix('\0')
                .unwrap_or(&s)
                .split('\0')
                .map(String::from)
                .collect()
        });
        let _ = std::fs::remove_file(self.p("fake/argv"));
        Run {
            out,
            argv,
            outputs: std::fs::read_to_string(&outputs).unwrap(),
            token: std::fs::read_to_string(self.p("fake/token")).unwrap_or_default(),
            pr: std::fs::read_to_string(self.p("fake/pr")).unwrap_or_default(),
        }
    }
}

fn write_exec(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn inputs<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("IN_CONFIG", "mcpward.yaml"),
        ("IN_REPORTER", "console"),
        ("IN_OUTPUT", ""),
        ("IN_VERSION", "0.1.0"),
        ("IN_LOCAL", "false"),
        ("IN_PR_COMMENT", "false"),
    ];
    for (k, val) in extra {
        v.retain(|(n, _)| n != k);
        v.push((k, val));
    }
    v
}

fn strs(v: &[&str]) -> Option<Vec<String>> {
    Some(v.iter().map(|s| s.to_string()).collect())
}

#[test]
fn defaults_run_the_config_and_report_the_exit_code() {
    let s = Sandbox::new();
    let r = s.run(&inputs(&[]));
    assert_eq!(r.code(), Some(0), "{}", r.stdout());
    assert_eq!(r.argv, strs(&["run", "--config=mcpward.yaml"]));
    assert_eq!(r.outputs, "exit-code=0\n");
    assert!(!r.stdout().contains("::error::"));
}

#[test]
fn every_option_maps_to_one_argument() {
    let s = Sandbox::new();
    let r = s.run(&inputs(&[
        ("IN_CONFIG", "ci/mcpward.yaml"),
        ("IN_REPORTER", "sarif"),
        ("IN_OUTPUT", "out/report.sarif"),
        ("IN_PR_COMMENT", "true"),
        ("MCPWARD_GITHUB_TOKEN", "ghs_tokenvalue"),
        ("MCPWARD_PR_NUMBER", "17"),
    ]));
    assert_eq!(r.code(), Some(0), "{}", r.stdout());
    assert_eq!(
        r.argv,
        strs(&[
            "run",
            "--config=ci/mcpward.yaml",
            "--reporter=sarif",
            "--pr-comment",
            "--out=out/report.sarif"
        ])
    );
    assert_eq!(r.outputs, "exit-code=0\nreport-path=out/report.sarif\n");
    assert_eq!(r.token, "ghs_tokenvalue");
    assert_eq!(r.pr, "17");
}

#[test]
fn the_token_is_withheld_unless_pr_comment_is_exactly_true() {
    for v in ["false", "TRUE", "yes", "", "true "] {
        let s = Sandbox::new();
        let r = s.run(&inputs(&[
            ("IN_PR_COMMENT", v),
            ("MCPWARD_GITHUB_TOKEN", "ghs_tokenvalue"),
        ]));
        assert_eq!(r.code(), Some(0));
        assert_eq!(r.token, "<unset>", "{v:?}");
        assert_eq!(r.argv, strs(&["run", "--config=mcpward.yaml"]), "{v:?}");
    }
}

#[test]
fn any_non_zero_exit_fails_the_step_with_that_status() {
    for (code, annotation) in [
        (1, "::error::mcpward checks failed"),
        (2, "::error::mcpward configuration or connection error"),
        (130, "::error::mcpward exited with status 130"),
        (137, "::error::mcpward exited with status 137"),
        (3, "::error::mcpward exited with status 3"),
    ] {
        let s = Sandbox::new();
        let c = code.to_string();
        let r = s.run(&inputs(&[
            ("FAKE_EXIT", c.as_str()),
            ("IN_OUTPUT", "r.json"),
        ]));
        assert_eq!(r.code(), Some(code));
        assert_eq!(
            r.outputs,
            format!("exit-code={code}\nreport-path=r.json\n"),
            "{code}"
        );
        assert!(r.stdout().contains(annotation), "{code}: {}", r.stdout());
    }
}

const HOSTILE: &[&str] = &[
    "$(touch pwned)",
    "`touch pwned`",
    "x; touch pwned",
    "x && touch pwned",
    "; rm -rf ./victim",
    "a'b\"c",
    "'; touch pwned; '",
    "\"$(touch pwned)\"",
    "${IFS}touch${IFS}pwned",
    "line1\nline2 $(touch pwned)",
    "--help",
    "-v",
    "x y  z",
    "* ?",
    "::error::forged",
];

#[test]
fn hostile_values_are_single_arguments_and_never_run() {
    for v in HOSTILE {
        let s = Sandbox::new();
        std::fs::create_dir(s.p("work/victim")).unwrap();
        let r = s.run(&inputs(&[
            ("IN_CONFIG", v),
            ("IN_REPORTER", v),
            ("IN_VERSION", v),
            ("IN_LOCAL", v),
            ("IN_PR_COMMENT", v),
        ]));
        assert_eq!(r.code(), Some(0), "{v:?}: {}", r.stdout());
        let config = format!("--config={v}");
        let reporter = format!("--reporter={v}");
        assert_eq!(
            r.argv,
            strs(&["run", config.as_str(), reporter.as_str()]),
            "{v:?}"
        );
        assert!(!s.p("work/pwned").exists(), "{v:?} executed");
        assert!(!s.p("pwned").exists(), "{v:?} executed");
        assert!(s.p("work/victim").is_dir(), "{v:?}");
        // Inputs never reach an annotation (workflow-command injection).
        assert!(!r.stdout().contains("forged"), "{v:?}");
    }
}

#[test]
fn hostile_output_values() {
    for v in HOSTILE.iter().filter(|v| !v.contains('\n')) {
        let s = Sandbox::new();
        let r = s.run(&inputs(&[("IN_OUTPUT", v)]));
        assert_eq!(r.code(), Some(0), "{v:?}");
        let out = format!("--out={v}");
        assert_eq!(
            r.argv,
            strs(&["run", "--config=mcpward.yaml", out.as_str()]),
            "{v:?}"
        );
        assert_eq!(r.outputs, format!("exit-code=0\nreport-path={v}\n"));
        assert!(!s.p("work/pwned").exists(), "{v:?} executed");
    }
    // A line break would forge extra outputs: rejected before mcpward runs.
    for v in ["r.json\nexit-code=0", "r.json\rx", "\n"] {
        let s = Sandbox::new();
        let r = s.run(&inputs(&[("IN_OUTPUT", v)]));
        assert_eq!(r.code(), Some(2), "{v:?}");
        assert_eq!(r.argv, None, "{v:?}");
        assert_eq!(r.outputs, "exit-code=2\n", "{v:?}");
        assert!(r
            .stdout()
            .contains("::error::the output input must not contain a line break"));
    }
}

#[test]
fn missing_binary_is_reported() {
    let s = Sandbox::new();
    std::fs::remove_file(s.p("bin/mcpward")).unwrap();
    let r = s.run(&inputs(&[]));
    assert_eq!(r.code(), Some(127), "{}", r.stdout());
    assert_eq!(r.outputs, "exit-code=127\n");
}

// ---------------------------------------------------------------- installation

/// A fake `curl` serving files from `releases/` by their last URL segment, logging URLs.
const FAKE_CURL: &str = r#"#!/usr/bin/env bash
out=""; url=""
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    --proto|--retry) shift 2 ;;
    -*) shift ;;
    *) url="$1"; shift ;;
  esac
done
printf '%s\n' "$url" >> "$FAKE_DIR/urls"
src="$FAKE_DIR/../releases/${url##*/}"
[ -f "$src" ] || exit 22
cp "$src" "$out"
"#;

/// Publishes a release archive for `target` holding the fake binary (as the release
/// workflow packs it: `.zip` with `mcpward.exe` for Windows, `.tar.gz` otherwise);
/// `good_sum` false writes a wrong checksum.
fn publish_release(s: &Sandbox, target: &str, good_sum: bool) {
    let rel = s.p("releases");
    let stage = s.p(&format!("stage/mcpward-{target}"));
    std::fs::create_dir_all(&rel).unwrap();
    std::fs::create_dir_all(&stage).unwrap();
    let windows = target.contains("windows");
    let exe = if windows { "mcpward.exe" } else { "mcpward" };
    write_exec(&stage.join(exe), FAKE);
    let asset = if windows {
        format!("mcpward-{target}.zip")
    } else {
        format!("mcpward-{target}.tar.gz")
    };
    let mut pack = if windows {
        let mut c = Command::new("zip");
        c.arg("-qr").arg(rel.join(&asset));
        c
    } else {
        let mut c = Command::new("tar");
        c.arg("-czf").arg(rel.join(&asset));
        c
    };
    let ok = pack
        .arg(format!("mcpward-{target}"))
        .current_dir(s.p("stage"))
        .status()
        .unwrap();
    assert!(ok.success());
    let sum = if good_sum {
        let out = Command::new("sha256sum")
            .arg(rel.join(&asset))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()[..64].to_string()
    } else {
        "0".repeat(64)
    };
    std::fs::write(
        rel.join(format!("{asset}.sha256")),
        format!("{sum}  {asset}\n"),
    )
    .unwrap();
    std::fs::remove_file(s.p("bin/mcpward")).unwrap();
    write_exec(&s.p("bin/curl"), FAKE_CURL);
}

fn install_env<'a>(s: &'a str, version: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut v = inputs(&[("IN_VERSION", version)]);
    v.extend([
        ("MCPWARD_ACTION_SKIP_INSTALL", ""),
        ("RUNNER_OS", "Linux"),
        ("RUNNER_ARCH", "X64"),
        ("RUNNER_TEMP", s),
    ]);
    v
}

#[test]
fn installs_the_pinned_release_binary_after_checking_its_checksum() {
    let s = Sandbox::new();
    publish_release(&s, "x86_64-unknown-linux-musl", true);
    let temp = s.p("runner-temp").display().to_string();
    let r = s.run(&install_env(&temp, "0.1.0"));
    assert_eq!(
        r.code(),
        Some(0),
        "{}{}",
        r.stdout(),
        String::from_utf8_lossy(&r.out.stderr)
    );
    assert_eq!(r.argv, strs(&["run", "--config=mcpward.yaml"]));
    let urls = std::fs::read_to_string(s.p("fake/urls")).unwrap();
    assert_eq!(
        urls,
        "https://github.com/mcpward/mcpward-rs/releases/download/v0.1.0/mcpward-x86_64-unknown-linux-musl.tar.gz\n\
         https://github.com/mcpward/mcpward-rs/releases/download/v0.1.0/mcpward-x86_64-unknown-linux-musl.tar.gz.sha256\n"
    );
    assert!(s
        .p("runner-temp/mcpward-action/0.1.0/bin/mcpward")
        .is_file());
    // A second run in the same job reuses the installed binary.
    std::fs::remove_file(s.p("fake/urls")).unwrap();
    let r = s.run(&install_env(&temp, "0.1.0"));
    assert_eq!(r.code(), Some(0));
    assert_eq!(r.argv, strs(&["run", "--config=mcpward.yaml"]));
    assert!(!s.p("fake/urls").exists());

    // `latest` follows the latest release.
    let r = s.run(&install_env(&temp, "latest"));
    assert_eq!(r.code(), Some(0));
    let urls = std::fs::read_to_string(s.p("fake/urls")).unwrap();
    assert!(urls.starts_with(
        "https://github.com/mcpward/mcpward-rs/releases/latest/download/mcpward-x86_64-unknown-linux-musl.tar.gz\n"
    ));
}

/// Windows runners (Git Bash): the `.zip` asset, and the binary run by its `.exe` name.
#[test]
fn installs_the_windows_release_binary_by_its_exe_name() {
    let s = Sandbox::new();
    publish_release(&s, "x86_64-pc-windows-msvc", true);
    let temp = s.p("runner-temp").display().to_string();
    let mut env = install_env(&temp, "0.1.0");
    env.retain(|(k, _)| *k != "RUNNER_OS");
    env.push(("RUNNER_OS", "Windows"));
    let r = s.run(&env);
    assert_eq!(
        r.code(),
        Some(0),
        "{}{}",
        r.stdout(),
        String::from_utf8_lossy(&r.out.stderr)
    );
    assert_eq!(r.argv, strs(&["run", "--config=mcpward.yaml"]));
    let urls = std::fs::read_to_string(s.p("fake/urls")).unwrap();
    assert_eq!(
        urls,
        "https://github.com/mcpward/mcpward-rs/releases/download/v0.1.0/mcpward-x86_64-pc-windows-msvc.zip\n\
         https://github.com/mcpward/mcpward-rs/releases/download/v0.1.0/mcpward-x86_64-pc-windows-msvc.zip.sha256\n"
    );
    let bin = s.p("runner-temp/mcpward-action/0.1.0/bin");
    assert!(bin.join("mcpward.exe").is_file());
    assert!(!bin.join("mcpward").exists());
    // A second run in the same job reuses the installed binary.
    std::fs::remove_file(s.p("fake/urls")).unwrap();
    let r = s.run(&env);
    assert_eq!(r.code(), Some(0));
    assert_eq!(r.argv, strs(&["run", "--config=mcpward.yaml"]));
    assert!(!s.p("fake/urls").exists());
}

#[test]
fn a_checksum_mismatch_never_runs_the_binary() {
    let s = Sandbox::new();
    publish_release(&s, "x86_64-unknown-linux-musl", false);
    let temp = s.p("runner-temp").display().to_string();
    let r = s.run(&install_env(&temp, "0.1.0"));
    assert_eq!(r.code(), Some(2), "{}", r.stdout());
    assert_eq!(r.argv, None);
    assert!(r.stdout().contains("checksum"), "{}", r.stdout());
    assert_eq!(r.outputs, "exit-code=2\n");
}

#[test]
fn a_malformed_version_is_rejected_before_any_download() {
    let s = Sandbox::new();
    publish_release(&s, "x86_64-unknown-linux-musl", true);
    let temp = s.p("runner-temp").display().to_string();
    for v in [
        "1.0.0; touch pwned",
        "../../evil",
        "1.0",
        "v1.0.0/../x",
        "latest\n",
    ] {
        let r = s.run(&install_env(&temp, v));
        assert_eq!(r.code(), Some(2), "{v:?}");
        assert_eq!(r.argv, None);
        assert!(!s.p("fake/urls").exists(), "{v:?}");
        assert!(!s.p("work/pwned").exists());
    }
}

// ---------------------------------------------------------------- action.yml

fn action_yml() -> serde_norway::Value {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

fn keys(v: &serde_norway::Value) -> BTreeSet<String> {
    v.as_mapping()
        .unwrap()
        .keys()
        .map(|k| k.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn action_yml_inputs_outputs_and_runs() {
    let a = action_yml();
    assert_eq!(a["runs"]["using"], "composite");
    assert_eq!(a["branding"]["icon"], "shield");
    let expected: BTreeSet<String> = [
        "config",
        "reporter",
        "output",
        "version",
        "local",
        "working-directory",
        "pr-comment",
        "github-token",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(keys(&a["inputs"]), expected);
    let outputs: BTreeSet<String> = ["exit-code", "report-path"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(keys(&a["outputs"]), outputs);
    let default = |k: &str| a["inputs"][k]["default"].as_str().unwrap().to_string();
    assert_eq!(default("version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(default("config"), "mcpward.yaml");
    assert_eq!(default("reporter"), "console");
    assert_eq!(default("working-directory"), ".");
    assert_eq!(default("pr-comment"), "false");
    assert_eq!(default("local"), "false");
    assert_eq!(default("output"), "");
    assert_eq!(default("github-token"), "${{ github.token }}");

    let step = &a["runs"]["steps"][0];
    assert_eq!(step["id"], "run");
    assert_eq!(step["shell"], "bash");
    let env = &step["env"];
    for (k, input) in [
        ("IN_CONFIG", "config"),
        ("IN_REPORTER", "reporter"),
        ("IN_OUTPUT", "output"),
        ("IN_VERSION", "version"),
        ("IN_LOCAL", "local"),
        ("IN_PR_COMMENT", "pr-comment"),
    ] {
        assert_eq!(env[k], format!("${{{{ inputs.{input} }}}}").as_str(), "{k}");
    }
    let token = env["MCPWARD_GITHUB_TOKEN"].as_str().unwrap();
    assert!(
        token.contains("inputs.pr-comment == 'true'") && token.contains("inputs.github-token"),
        "{token}"
    );
    assert_eq!(
        env["MCPWARD_PR_NUMBER"],
        "${{ github.event.pull_request.number }}"
    );
    assert_eq!(
        a["outputs"]["exit-code"]["value"],
        "${{ steps.run.outputs.exit-code }}"
    );
}

/// Shell-injection guard: no `run:` script may contain an expression; inputs go via `env:`.
#[test]
fn no_expression_inside_any_run_script() {
    let a = action_yml();
    let steps = a["runs"]["steps"].as_sequence().unwrap();
    let scripts = steps.iter().filter(|s| s.get("run").is_some()).count();
    assert!(scripts > 0, "no run step to check");
    for step in steps {
        if let Some(run) = step.get("run") {
            let run = run.as_str().unwrap();
            assert!(!run.contains("${{"), "expression in run: {run}");
            assert!(!run.contains("inputs."), "input in run: {run}");
        }
    }
    // The script itself never uses an expression either.
    let script = std::fs::read_to_string(root().join("action/run.sh")).unwrap();
    assert!(!script.contains("${{"));
}

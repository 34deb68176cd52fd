//! `explain`, completions, the man page and `version` (#18 §3): snapshots freeze what
//! users and shells see, so a renamed flag or a changed rule text shows in review.

mod common;
use common::*;

fn out(args: &[&str]) -> (Option<i32>, String, String) {
    let o = Workdir::new().run(args);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr(&o),
    )
}

#[test]
fn explain_prints_the_registry_docs() {
    let (code, text, _) = out(&["explain", "security/tool-shadowing"]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!("explain_tool_shadowing", text);
    // The flag form prints the same.
    let (code, flag, _) = out(&["--explain", "security/tool-shadowing"]);
    assert_eq!((code, flag), (Some(0), text));
}

#[test]
fn explain_of_an_unknown_id_suggests_the_nearest() {
    let (code, text, err) = out(&["explain", "securty/tool-shadowing"]);
    assert_eq!(code, Some(2));
    assert!(text.is_empty());
    assert!(
        err.contains("did you mean security/tool-shadowing"),
        "{err}"
    );
    let (code, _, err) = out(&["explain", "annotation-mismatch"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("security/annotation-mismatch"), "{err}");
}

#[test]
fn completions_and_man_page_come_from_the_clap_definitions() {
    let (code, bash, _) = out(&["completions", "bash"]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!("completions_bash", bash);
    for shell in ["zsh", "fish", "powershell"] {
        let (code, text, _) = out(&["completions", shell]);
        assert_eq!(code, Some(0), "{shell}");
        for word in ["baseline", "contracts", "explain", "check"] {
            assert!(text.contains(word), "{shell} completions lack {word}");
        }
    }
    let (code, _, _) = out(&["completions", "tcsh"]);
    assert_eq!(code, Some(2));
    let (code, man, _) = out(&["man"]);
    assert_eq!(code, Some(0));
    assert!(
        man.contains(".TH mcpward 1") && man.contains("explain"),
        "{man}"
    );
}

#[test]
fn version_for_people_and_for_scripts() {
    let (code, line, _) = out(&["--version"]);
    assert_eq!(code, Some(0));
    assert!(line.starts_with(&format!("{} (commit ", env!("CARGO_PKG_VERSION"))));
    let (code, json, _) = out(&["version", "--json"]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    assert!(!v["commit"].as_str().unwrap().is_empty());
    assert!(line.contains(v["commit"].as_str().unwrap()));
    assert_eq!(v["reportSchemaVersion"], 1);
    assert_eq!(v["lockfileSchemaVersion"], 2);
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let w = Workdir::new();
    let mut c = std::process::Command::new(mcpward());
    c.args(args)
        .current_dir(w.path())
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CI");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn quiet_prints_only_the_summary_line() {
    let f = fixture().display().to_string();
    let o = run_env(&["run", "-q", "--", &f, "--tools", "clean"], &[]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with("Summary: ") && out.contains("passed"),
        "{out}"
    );
    // A failing run: still one line, still exit 1.
    let poisoned = format!(
        "{}/fixtures/tables/poisoned.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let o = run_env(
        &[
            "run",
            "-q",
            "--check",
            "security",
            "--",
            &f,
            "--tools-file",
            &poisoned,
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("failed"), "{out}");
    // -q and -v contradict each other.
    let o = run_env(&["run", "-q", "-v", "--", &f], &[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn colour_only_on_a_terminal_unless_asked() {
    let f = fixture().display().to_string();
    let args = |c: &'static str| -> Vec<String> {
        let mut v: Vec<String> = ["run", "--check", "schema"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if !c.is_empty() {
            v.push(format!("--color={c}"));
        }
        v.extend([
            "--".to_string(),
            f.clone(),
            "--tools".into(),
            "clean".into(),
        ]);
        v
    };
    let esc = |o: &std::process::Output| o.stdout.contains(&0x1b);
    for (flag, env, want) in [
        ("", vec![], false),
        ("", vec![("CI", "true")], false),
        ("", vec![("FORCE_COLOR", "1")], true),
        ("", vec![("CLICOLOR_FORCE", "1")], true),
        ("", vec![("NO_COLOR", "1"), ("FORCE_COLOR", "1")], false),
        ("always", vec![("NO_COLOR", "1")], true),
        ("never", vec![("FORCE_COLOR", "1")], false),
    ] {
        let a = args(flag);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let o = run_env(&a, &env);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(esc(&o), want, "--color={flag} {env:?}");
    }
}

/// A long listing shows its pages on stderr as they arrive (`-v`, or a terminal).
#[test]
fn a_long_listing_reports_its_pages() {
    let w = Workdir::new();
    let tools: Vec<serde_json::Value> = (0..40)
        .map(|i| {
            serde_json::json!({
                "name": format!("tool_{i}"),
                "description": "Returns the value.",
                "inputSchema": {"type": "object"}
            })
        })
        .collect();
    let file = w.write("tools.json", &serde_json::Value::Array(tools).to_string());
    // 40 pages of 20 ms: the listing outlasts the 250 ms progress tick in any build profile.
    let fx = HttpFixture::start(&[
        "--tools-file",
        file.to_str().unwrap(),
        "--page-size",
        "1",
        "--behavior",
        "slow-pages=20",
    ]);
    let o = w.run(&[
        "run",
        "-v",
        "--url",
        &fx.url,
        "--check",
        "schema",
        "--protocol-era",
        "legacy",
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("Listing tools: page "), "{e}");
    // Quiet without -v off a terminal.
    let o = w.run(&[
        "run",
        "--url",
        &fx.url,
        "--check",
        "schema",
        "--protocol-era",
        "legacy",
    ]);
    assert!(!stderr(&o).contains("Listing tools: page"));
}

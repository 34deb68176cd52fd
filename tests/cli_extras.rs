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

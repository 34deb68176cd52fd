//! Records the git commit the binary is built from (`mcpward --version`, `version --json`).
//! `MCPWARD_GIT_COMMIT` wins (packaging from a tarball without `.git`); without either the
//! commit is `unknown`.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    println!("cargo:rerun-if-env-changed=MCPWARD_GIT_COMMIT");
    let commit = std::env::var("MCPWARD_GIT_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".into());
    // Rebuild when HEAD moves: HEAD itself and the ref it points at. Only paths that exist
    // (a missing one would rerun this script, and rebuild the crate, on every build).
    let mut watch = Vec::new();
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        watch.push(format!("{dir}/HEAD"));
    }
    if let (Some(common), Some(r)) = (
        git(&["rev-parse", "--git-common-dir"]),
        git(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        watch.push(format!("{common}/{r}"));
        watch.push(format!("{common}/packed-refs"));
    }
    for path in watch {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rustc-env=MCPWARD_GIT_COMMIT={commit}");
}

//! Building a [`RenderContext`](super::types::RenderContext) for this process: colour
//! choice (reporters.md §2) and the repository-relative artifact path (reporters.md §6.4).
//! The caller does this before rendering; reporters themselves never look at the
//! environment or the file system.

use std::path::{Component, Path, PathBuf};

use super::types::DEFAULT_ARTIFACT;

/// [`colour_choice`] without `--color`.
pub fn colour_enabled(env: impl Fn(&str) -> Option<String>, is_tty: bool) -> bool {
    colour_choice(env, is_tty, None)
}

/// #18 §3 (replacing picocolors' rules of reporters.md §2, which also coloured CI logs and
/// every Windows console): `flag` is `--color always` (`Some(true)`) or `never`
/// (`Some(false)`) and wins, as a command-line argument overrides `NO_COLOR` by that
/// convention. Otherwise `NO_COLOR` (non-empty) turns colour off, `FORCE_COLOR` or
/// `CLICOLOR_FORCE` (non-empty, not `0`) on, and else it is on only for a TTY whose `TERM`
/// is not `dumb`.
pub fn colour_choice(
    env: impl Fn(&str) -> Option<String>,
    is_tty: bool,
    flag: Option<bool>,
) -> bool {
    if let Some(f) = flag {
        return f;
    }
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    if set("NO_COLOR") {
        return false;
    }
    let forced = |k: &str| env(k).is_some_and(|v| !v.is_empty() && v != "0");
    if forced("FORCE_COLOR") || forced("CLICOLOR_FORCE") {
        return true;
    }
    is_tty && env("TERM").as_deref() != Some("dumb")
}

/// Repository-relative path of the config file (reporters.md §6.4), `/`-separated, not
/// percent-encoded. `config` is the `--config` value (relative to `cwd` unless absolute).
/// Root: `github_workspace` when non-empty, else the nearest ancestor of `cwd` (itself
/// included) holding a `.git` entry (directory or file), else `cwd`. This is the one
/// function here that touches the file system (it looks for `.git`).
pub fn artifact_path(config: &Path, cwd: &Path, github_workspace: Option<&str>) -> String {
    let root = match github_workspace.filter(|w| !w.is_empty()) {
        Some(ws) => normalise(&cwd.join(ws)),
        None => {
            let cwd = normalise(cwd);
            cwd.ancestors()
                .find(|d| d.join(".git").symlink_metadata().is_ok())
                .map(Path::to_path_buf)
                .unwrap_or(cwd)
        }
    };
    let target = normalise(&cwd.join(config));
    let segments = relative_segments(&root, &target);
    if segments.is_empty() {
        DEFAULT_ARTIFACT.to_string()
    } else {
        segments.join("/")
    }
}

/// [`artifact_path`] for this process: the current directory and `GITHUB_WORKSPACE`.
/// Falls back to [`DEFAULT_ARTIFACT`] when the current directory is unknown.
pub fn artifact_path_from_env(config: &Path) -> String {
    match std::env::current_dir() {
        Ok(cwd) => artifact_path(
            config,
            &cwd,
            std::env::var("GITHUB_WORKSPACE").ok().as_deref(),
        ),
        Err(_) => DEFAULT_ARTIFACT.to_string(),
    }
}

/// Lexical normalisation (`.` dropped, `..` pops): no symlink resolution, no I/O.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Path segments leading from `root` to `target` (`..` where `target` lies outside).
fn relative_segments(root: &Path, target: &Path) -> Vec<String> {
    let r: Vec<_> = root.components().collect();
    let t: Vec<_> = target.components().collect();
    let common = r.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut segs = vec!["..".to_string(); r.len() - common];
    segs.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    segs
}

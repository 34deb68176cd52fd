//! Reporters: render a (redacted) [`Report`] as console text, JSON, JUnit XML, SARIF,
//! Markdown, GitHub workflow annotations or a GitLab Code Quality report
//! (reporters.md §1.3–§7, cli.md §2.3/§2.4).
//!
//! Reporters read only the model plus a [`RenderContext`]; they do no I/O and never
//! special-case a check, except the description-diff rendering of
//! `drift/description_changed`. Redaction (`crate::redact`) happens before any of them runs.

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

use crate::model::Report;

pub mod console;
pub mod github;
pub mod gitlab;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod pr_comment;
pub mod sarif;
pub mod text;

#[cfg(test)]
mod test_report;
#[cfg(test)]
mod tests;

/// The port's home page (SARIF `informationUri`, Markdown footer).
pub const PROJECT_URL: &str = "https://github.com/mcpward/mcpward-rs";
/// The published rules document; SARIF `helpUri` is this plus `#<anchor>`.
pub const RULES_DOC_URL: &str = "https://github.com/mcpward/mcpward-rs/blob/main/docs/rules.md";
/// Artifact path used when no config path is known (reporters.md §6.4 step 4).
pub const DEFAULT_ARTIFACT: &str = "mcpward.yaml";

/// Everything a reporter may know besides the report itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderContext {
    /// ANSI colours (console only; machine formats never contain escapes).
    pub colour: bool,
    /// Console lists every result, not only failures and warnings.
    pub verbose: bool,
    /// Repository-relative path of the config file used, `/`-separated and not
    /// percent-encoded (see [`artifact_path`]); SARIF, GitHub and GitLab anchor findings
    /// to it.
    pub artifact_path: String,
}

impl Default for RenderContext {
    fn default() -> Self {
        RenderContext {
            colour: false,
            verbose: false,
            artifact_path: DEFAULT_ARTIFACT.to_string(),
        }
    }
}

impl RenderContext {
    pub fn new(colour: bool, verbose: bool) -> Self {
        RenderContext {
            colour,
            verbose,
            ..Default::default()
        }
    }

    pub fn with_artifact_path(mut self, path: impl Into<String>) -> Self {
        self.artifact_path = path.into();
        self
    }
}

/// One output format.
pub trait Reporter {
    /// The rendered document, without a trailing newline (the caller adds one on stdout).
    fn render(&self, report: &Report, ctx: &RenderContext) -> String;
}

/// `--reporter` values. Parsing is exact and case-sensitive; an unknown name is an error
/// (DECISIONS #2: a usage error, exit 2 — not the original's silent console fallback).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum ReporterKind {
    Console,
    Json,
    Junit,
    Sarif,
    Markdown,
    /// GitHub Actions workflow-command annotations (`::error title=…::…`).
    Github,
    /// GitLab Code Quality JSON.
    Gitlab,
}

impl ReporterKind {
    pub const ALL: [ReporterKind; 7] = [
        ReporterKind::Console,
        ReporterKind::Json,
        ReporterKind::Junit,
        ReporterKind::Sarif,
        ReporterKind::Markdown,
        ReporterKind::Github,
        ReporterKind::Gitlab,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ReporterKind::Console => "console",
            ReporterKind::Json => "json",
            ReporterKind::Junit => "junit",
            ReporterKind::Sarif => "sarif",
            ReporterKind::Markdown => "markdown",
            ReporterKind::Github => "github",
            ReporterKind::Gitlab => "gitlab",
        }
    }

    /// Whether `--out` is honoured. The console report always goes to stdout (cli.md §2.4);
    /// so do GitHub annotations, which the runner only reads from the step's log.
    pub fn writes_out_file(self) -> bool {
        !matches!(self, ReporterKind::Console | ReporterKind::Github)
    }

    /// Machine-readable: with no `--out`, stdout carries exactly the document, so progress
    /// and human lines must go to stderr (cli.md §6).
    pub fn is_machine(self) -> bool {
        self != ReporterKind::Console
    }
}

impl fmt::Display for ReporterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown reporter \"{0}\" (expected one of: console, json, junit, sarif, markdown, github, gitlab)")]
pub struct UnknownReporter(pub String);

impl FromStr for ReporterKind {
    type Err = UnknownReporter;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ReporterKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownReporter(s.to_string()))
    }
}

pub fn reporter(kind: ReporterKind) -> Box<dyn Reporter> {
    match kind {
        ReporterKind::Console => Box::new(console::ConsoleReporter),
        ReporterKind::Json => Box::new(json::JsonReporter),
        ReporterKind::Junit => Box::new(junit::JunitReporter),
        ReporterKind::Sarif => Box::new(sarif::SarifReporter),
        ReporterKind::Markdown => Box::new(markdown::MarkdownReporter),
        ReporterKind::Github => Box::new(github::GithubReporter),
        ReporterKind::Gitlab => Box::new(gitlab::GitlabReporter),
    }
}

/// Convenience: `reporter(kind).render(report, ctx)`.
pub fn render(kind: ReporterKind, report: &Report, ctx: &RenderContext) -> String {
    reporter(kind).render(report, ctx)
}

/// The stdout confirmation after writing `--out` (cli.md §2.4), uncoloured; `None` for
/// reporters that ignore `--out`. Print it dimmed with [`console::dim`].
pub fn written_line(kind: ReporterKind, path: &Path) -> Option<String> {
    let what = match kind {
        ReporterKind::Console | ReporterKind::Github => return None,
        ReporterKind::Json => "Report",
        ReporterKind::Junit => "JUnit report",
        ReporterKind::Sarif => "SARIF report",
        ReporterKind::Markdown => "Markdown report",
        ReporterKind::Gitlab => "GitLab Code Quality report",
    };
    Some(format!("{what} written to {}", path.display()))
}

/// picocolors' rules (reporters.md §2) without the command-line part; see
/// [`colour_choice`] for `--color` / `--no-color`.
pub fn colour_enabled(env: impl Fn(&str) -> Option<String>, is_tty: bool) -> bool {
    colour_choice(env, is_tty, None)
}

/// reporters.md §2. `flag`: `Some(false)` for `--no-color`, `Some(true)` for `--color`.
/// Off when `NO_COLOR` is non-empty or `--no-color`; else on when `FORCE_COLOR` is
/// non-empty, `--color`, Windows, a TTY with `TERM` ≠ `dumb`, or `CI` is non-empty.
pub fn colour_choice(
    env: impl Fn(&str) -> Option<String>,
    is_tty: bool,
    flag: Option<bool>,
) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    if set("NO_COLOR") || flag == Some(false) {
        return false;
    }
    set("FORCE_COLOR")
        || flag == Some(true)
        || cfg!(windows)
        || (is_tty && env("TERM").as_deref() != Some("dumb"))
        || set("CI")
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

/// Percent-encodes each `/`-separated segment with `encodeURIComponent` rules (unreserved:
/// `A–Z a–z 0–9 - _ . ! ~ * ' ( )`), for the SARIF artifact URI.
pub fn encode_uri_path(path: &str) -> String {
    path.split('/')
        .map(encode_uri_component)
        .collect::<Vec<_>>()
        .join("/")
}

pub fn encode_uri_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Families in order of first appearance, each with its results in report order.
pub(crate) fn group_by_family(report: &Report) -> Vec<(&str, Vec<&crate::model::Finding>)> {
    let mut groups: Vec<(&str, Vec<&crate::model::Finding>)> = Vec::new();
    for r in &report.results {
        match groups.iter_mut().find(|(f, _)| *f == r.family) {
            Some((_, v)) => v.push(r),
            None => groups.push((&r.family, vec![r])),
        }
    }
    groups
}

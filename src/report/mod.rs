//! Reporters: render a (redacted) [`Report`] (or a fleet's [`FleetReport`]) as console text, JSON, JUnit XML, SARIF,
//! Markdown, GitHub workflow annotations, a GitLab Code Quality report or a self-contained HTML page
//! (reporters.md §1.3–§7, cli.md §2.3/§2.4).
//!
//! Reporters read only the model plus a [`RenderContext`]; they do no I/O and never
//! special-case a check, except the description-diff rendering of
//! `drift/description_changed`. Redaction (`crate::redact`) happens before any of them runs;
//! posting a rendering (a PR comment) is `crate::publish`'s job.
//!
//! Rooms: `types` (the [`Reporter`] trait, [`RenderContext`]), `common` (pure helpers the
//! reporters share), `context` (building a context for this process: colour, artifact
//! path), one file per format. This file only names the formats and dispatches to them.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::model::{FleetReport, Report};

mod common;
pub mod console;
mod context;
pub mod github;
pub mod gitlab;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod sarif;
pub mod text;
mod types;

pub use common::{encode_uri_component, encode_uri_path};
pub use context::{artifact_path, artifact_path_from_env, colour_choice, colour_enabled};
pub use types::{RenderContext, Reporter, DEFAULT_ARTIFACT, PROJECT_URL, RULES_DOC_URL};

#[cfg(test)]
mod test_report;
#[cfg(test)]
mod tests;

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
    /// One self-contained HTML page: inline CSS, no script, a strict CSP.
    Html,
}

impl ReporterKind {
    pub const ALL: [ReporterKind; 8] = [
        ReporterKind::Console,
        ReporterKind::Json,
        ReporterKind::Junit,
        ReporterKind::Sarif,
        ReporterKind::Markdown,
        ReporterKind::Github,
        ReporterKind::Gitlab,
        ReporterKind::Html,
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
            ReporterKind::Html => "html",
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
#[error("unknown reporter \"{0}\" (expected one of: console, json, junit, sarif, markdown, github, gitlab, html)")]
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
        ReporterKind::Html => Box::new(html::HtmlReporter),
    }
}

/// Convenience: `reporter(kind).render(report, ctx)`.
pub fn render(kind: ReporterKind, report: &Report, ctx: &RenderContext) -> String {
    reporter(kind).render(report, ctx)
}

/// Convenience: `reporter(kind).render_fleet(fleet, ctx)`.
pub fn render_fleet(kind: ReporterKind, fleet: &FleetReport, ctx: &RenderContext) -> String {
    reporter(kind).render_fleet(fleet, ctx)
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
        ReporterKind::Html => "HTML report",
    };
    Some(format!("{what} written to {}", path.display()))
}

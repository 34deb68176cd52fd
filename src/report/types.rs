//! What every reporter shares: the [`Reporter`] trait, its [`RenderContext`], and the
//! project URLs machine formats link to.

use std::collections::BTreeMap;

use crate::model::{Finding, FleetReport, Report};

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
    /// percent-encoded (see [`artifact_path`](super::artifact_path)); SARIF, GitHub and GitLab anchor findings
    /// to it.
    pub artifact_path: String,
    /// The line of each key path of that file (`server`, `checks.drift.baseline`,
    /// `suites.<tool>`), so a finding can point at the key it is about; empty when unknown.
    pub config_lines: BTreeMap<String, usize>,
}

impl Default for RenderContext {
    fn default() -> Self {
        RenderContext {
            colour: false,
            verbose: false,
            artifact_path: DEFAULT_ARTIFACT.to_string(),
            config_lines: BTreeMap::new(),
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

    pub fn with_config_lines(mut self, lines: BTreeMap<String, usize>) -> Self {
        self.config_lines = lines;
        self
    }

    /// The line (1-based) of the config key `f` is about: for a suite result the suite of
    /// its tool, then the rule's keys in the registry (most specific first, `server` last);
    /// line 1 when the file names none of them (no config lines known).
    pub fn config_line(&self, f: &Finding) -> usize {
        let suite = match (&f.location, f.family == "behavioral") {
            (Some(tool), true) => Some(format!("suites.{tool}")),
            _ => None,
        };
        suite
            .iter()
            .map(String::as_str)
            .chain(crate::rules::config_keys(&f.id))
            .find_map(|k| self.config_lines.get(k).copied())
            .unwrap_or(1)
    }

    /// The keys [`config_line`](Self::config_line) tries for `f`, most specific first.
    fn keys_of(f: &Finding) -> Vec<String> {
        let suite = match (&f.location, f.family == "behavioral") {
            (Some(tool), true) => Some(format!("suites.{tool}")),
            _ => None,
        };
        suite
            .into_iter()
            .chain(
                crate::rules::config_keys(&f.id)
                    .into_iter()
                    .map(str::to_string),
            )
            .collect()
    }

    /// [`config_line`](Self::config_line) for a result of fleet member `server`: each key
    /// under `servers.<server>` (its own override) before the top-level one, and the
    /// member's block `servers.<server>` in place of `server`; line 1 when none is known.
    pub fn member_config_line(&self, server: &str, f: &Finding) -> usize {
        let member = format!("servers.{server}");
        Self::keys_of(f)
            .into_iter()
            .flat_map(|k| {
                if k == "server" {
                    vec![member.clone()]
                } else {
                    vec![format!("{member}.{k}"), k]
                }
            })
            .chain([member.clone()])
            .find_map(|k| self.config_lines.get(&k).copied())
            .unwrap_or(1)
    }

    /// [`config_line`](Self::config_line) for a cross-server result: the rule's keys, then
    /// the `servers:` (or `servers_from:`) block; line 1 when none is known.
    pub fn cross_config_line(&self, f: &Finding) -> usize {
        Self::keys_of(f)
            .into_iter()
            .filter(|k| k != "server")
            .chain(["servers".to_string(), "servers_from".to_string()])
            .find_map(|k| self.config_lines.get(&k).copied())
            .unwrap_or(1)
    }
}

/// One output format.
pub trait Reporter {
    /// The rendered document, without a trailing newline (the caller adds one on stdout).
    fn render(&self, report: &Report, ctx: &RenderContext) -> String;
    /// A fleet document (#15): every member, the cross-server results and the fleet
    /// summary with its exit code, in the member order given; without a trailing newline.
    fn render_fleet(&self, fleet: &FleetReport, ctx: &RenderContext) -> String;
}

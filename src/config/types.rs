//! The validated config (config.md): what `validate` builds. Each check family's options
//! are that family's own type (`checks::<family>::config`), held here as they are.

use std::collections::BTreeMap;

use crate::checks::behavioral::Suite;
use crate::checks::collision::CollisionConfig;
use crate::checks::compliance::ComplianceConfig;
use crate::checks::drift::DriftConfig;
use crate::checks::errors::ErrorsConfig;
use crate::checks::latency::LatencyConfig;
use crate::checks::security::ToxicFlow;
pub use crate::observed::Limits;
use crate::protocol::oauth::AuthSpec;
use crate::protocol::versions::EraChoice;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub server: Server,
    pub expect: Expect,
    pub checks: Checks,
    pub timeouts: Timeouts,
    /// `limits`: what a server may make mcpward hold or wait for (#12 §2).
    pub limits: Limits,
    pub suites: Vec<Suite>,
    /// Accepted findings (#16 §3): `suppress:`, then `mcpward.suppress.yaml`'s entries.
    pub suppress: Vec<crate::checks::suppress::Entry>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    pub transport: Transport,
    pub protocol_era: EraChoice,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
    },
    Http {
        /// Trimmed, not normalised (config.md §3.3); the transport parses it again.
        url: String,
        headers: BTreeMap<String, String>,
        /// `server.auth` (#17).
        auth: Option<AuthSpec>,
    },
}

impl Transport {
    /// `stdio` or `http`, as written in the config.
    pub fn kind(&self) -> &'static str {
        match self {
            Transport::Stdio { .. } => "stdio",
            Transport::Http { .. } => "http",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Expect {
    /// `None` when absent or empty.
    pub protocol_version: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Checks {
    pub compliance: ComplianceConfig,
    pub schema: bool,
    pub security: bool,
    pub errors: ErrorsConfig,
    /// `Some` = drift runs in `run` (the key was present).
    pub drift: Option<DriftConfig>,
    /// `Some` = latency runs (the key was present).
    pub latency: Option<LatencyConfig>,
    pub collision: CollisionConfig,
    /// `checks.toxic_flow` (#15): what a cross-server toxic-flow hint reports.
    pub toxic_flow: ToxicFlow,
    /// `checks.auth` (#17): the `auth` family, when `server.auth` is configured.
    pub auth: bool,
    /// `checks.http` (#17): the HTTP transport posture (`http/origin-validation`); HTTP
    /// servers only.
    pub http: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            compliance: ComplianceConfig::default(),
            schema: true,
            security: true,
            errors: ErrorsConfig::default(),
            drift: None,
            latency: None,
            collision: CollisionConfig::default(),
            toxic_flow: ToxicFlow::default(),
            auth: true,
            http: true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    pub connect_ms: u64,
    pub call_ms: u64,
    pub run_ms: u64,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect_ms: 10_000,
            call_ms: 30_000,
            run_ms: 300_000,
        }
    }
}

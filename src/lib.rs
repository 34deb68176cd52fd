//! mcpward: contract tests for MCP servers.
//!
//! Layout: `transport` talks to the server and hands what it said out as `observed` types
//! (`protocol` holds the wire rules both share), `checks` turn those into findings
//! (`model`), `report` renders findings, `publish` sends a rendering elsewhere (a PR
//! comment). Checks never print; reporters see only the model and do no I/O. See
//! docs/architecture.md.

pub mod checks;
pub mod cli;
pub mod config;
pub mod drift_run;
pub mod fleet;
pub mod fsutil;
pub mod heap;
pub mod model;
pub mod observed;
pub mod protocol;
pub mod publish;
pub mod redact;
pub mod report;
pub mod rules;
pub mod runner;
pub mod surface;
pub mod transport;

/// The one version string: `--version`, `clientInfo.version`, report `version`, lockfile meta.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit this binary was built from (`unknown` outside a checkout).
pub const COMMIT: &str = env!("MCPWARD_GIT_COMMIT");

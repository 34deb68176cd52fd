//! `checks.errors` (config.md §5; DECISIONS #29/#30), validated by the config loader.

/// `checks.errors`: a boolean or `{enabled, unknown_tool, invalid_params, probe, skip}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorsConfig {
    pub enabled: bool,
    pub unknown_tool: UnknownToolPolicy,
    pub invalid_params: InvalidParamsPolicy,
    /// Which tools the invalid-params probe may call (#16 §6).
    pub probe: ProbePolicy,
    /// Tool names or globs (`*`, `?`) the invalid-params probe never calls (config order).
    pub skip: Vec<String>,
}

impl Default for ErrorsConfig {
    fn default() -> Self {
        ErrorsConfig {
            enabled: true,
            unknown_tool: UnknownToolPolicy::default(),
            invalid_params: InvalidParamsPolicy::default(),
            probe: ProbePolicy::default(),
            skip: Vec::new(),
        }
    }
}

/// `checks.errors.probe` (#16 §6): which tools get a `tools/call` with `{}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProbePolicy {
    /// Every tool with required parameters (the original's behaviour; the default for a
    /// config without the key).
    #[default]
    All,
    /// Only tools whose annotations say read-only and not destructive (the side-effect gate
    /// output sampling and latency use); the others are reported as `skip`.
    Safe,
}

impl ProbePolicy {
    pub const ALL: [ProbePolicy; 2] = [ProbePolicy::All, ProbePolicy::Safe];

    pub fn as_str(self) -> &'static str {
        match self {
            ProbePolicy::All => "all",
            ProbePolicy::Safe => "safe",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// Which layer `errors/unknown-tool` accepts (DECISIONS #30).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownToolPolicy {
    /// Only a JSON-RPC error passes (the original's rule).
    #[default]
    ProtocolError,
    /// A JSON-RPC error or a tool result with `isError: true` passes (ready for SEP-2145).
    Either,
}

impl UnknownToolPolicy {
    pub const ALL: [UnknownToolPolicy; 2] =
        [UnknownToolPolicy::ProtocolError, UnknownToolPolicy::Either];

    pub fn as_str(self) -> &'static str {
        match self {
            UnknownToolPolicy::ProtocolError => "protocol_error",
            UnknownToolPolicy::Either => "either",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// What `errors/invalid-params` makes of a call that succeeds without its required
/// arguments (DECISIONS #29 as corrected by #12 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InvalidParamsPolicy {
    /// A `warn`, as in the original: a pipeline that passed with it still passes.
    #[default]
    Warn,
    /// A `fail`.
    Strict,
}

impl InvalidParamsPolicy {
    pub const ALL: [InvalidParamsPolicy; 2] =
        [InvalidParamsPolicy::Warn, InvalidParamsPolicy::Strict];

    pub fn as_str(self) -> &'static str {
        match self {
            InvalidParamsPolicy::Warn => "warn",
            InvalidParamsPolicy::Strict => "strict",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

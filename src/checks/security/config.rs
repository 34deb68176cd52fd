//! What the security family reads of the config for the cross-server findings (#15).

/// `checks.toxic_flow`: what a toxic-flow hint reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToxicFlow {
    /// Not reported.
    Off,
    /// A `pass` at `info` (the default: a hint that never warns nor fails).
    #[default]
    Info,
    /// A `warn` at `warning`.
    Warn,
    /// A `fail` at `error`.
    Fail,
}

impl ToxicFlow {
    /// The config spellings, in order.
    pub const NAMES: &'static [&'static str] = &["off", "info", "warn", "fail"];

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "off" => ToxicFlow::Off,
            "info" => ToxicFlow::Info,
            "warn" => ToxicFlow::Warn,
            "fail" => ToxicFlow::Fail,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ToxicFlow::Off => "off",
            ToxicFlow::Info => "info",
            ToxicFlow::Warn => "warn",
            ToxicFlow::Fail => "fail",
        }
    }
}

/// The cross-server security scan's options: `shadowing` is `checks.security` (the family's
/// switch), `toxic_flow` is `checks.toxic_flow` (reported only when `checks.security` is on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetConfig {
    pub shadowing: bool,
    pub toxic_flow: ToxicFlow,
}

impl Default for FleetConfig {
    fn default() -> Self {
        FleetConfig {
            shadowing: true,
            toxic_flow: ToxicFlow::default(),
        }
    }
}

impl FleetConfig {
    /// From the top-level `checks.security` and `checks.toxic_flow`.
    pub fn new(security: bool, toxic_flow: ToxicFlow) -> Self {
        FleetConfig {
            shadowing: security,
            toxic_flow: if security { toxic_flow } else { ToxicFlow::Off },
        }
    }
}

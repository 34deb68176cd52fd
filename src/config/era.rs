//! `server.protocol_era` (config.md §3).

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProtocolEra {
    #[default]
    Auto,
    Modern,
    Legacy,
}

impl ProtocolEra {
    pub const ALL: [ProtocolEra; 3] = [ProtocolEra::Auto, ProtocolEra::Modern, ProtocolEra::Legacy];

    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolEra::Auto => "auto",
            ProtocolEra::Modern => "modern",
            ProtocolEra::Legacy => "legacy",
        }
    }

    /// Exact spelling only (also used for the `--protocol-era` flag).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == s)
    }
}

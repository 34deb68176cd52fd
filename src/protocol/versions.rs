//! Protocol revisions mcpward speaks, how they compare, and the era a user may choose
//! (`server.protocol_era`, `--protocol-era`) with the one rule that turns `auto` into an era
//! before connecting (DECISIONS #33).

/// Protocol versions of the stateful era we accept, newest first. The first is offered.
pub const LEGACY_VERSIONS: &[&str] = &[
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
    "2024-11-05",
    "2024-10-07",
];

/// Modern versions mcpward implements, newest first. The first is sent in the envelope.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// True when `v` is a date-shaped protocol version (`YYYY-MM-DD…`) not older than `min`.
/// Revisions are dates, so string order is release order; anything that is not date-shaped
/// (only reachable with injected data) counts as older, i.e. gets the original behaviour.
pub fn version_at_least(v: &str, min: &str) -> bool {
    let b = v.as_bytes();
    let date_shaped = b.len() >= 10
        && b[..10].iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        });
    date_shaped && v >= min
}

/// The era to connect in: config `server.protocol_era`, overridden by `--protocol-era`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
// No doc comments on the variants: clap would print them in `--help`.
pub enum EraChoice {
    #[default]
    Auto,
    Modern,
    Legacy,
    Both,
}

impl EraChoice {
    pub const ALL: [EraChoice; 4] = [
        EraChoice::Auto,
        EraChoice::Modern,
        EraChoice::Legacy,
        EraChoice::Both,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EraChoice::Auto => "auto",
            EraChoice::Modern => "modern",
            EraChoice::Legacy => "legacy",
            EraChoice::Both => "both",
        }
    }

    /// Exact spelling only (the config validator; clap parses the flag itself).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == s)
    }
}

/// The lanes a run tests: `both` is a modern lane then a legacy lane (#15); any other
/// choice is one lane of itself.
pub fn lanes(choice: EraChoice) -> Vec<EraChoice> {
    match choice {
        EraChoice::Both => vec![EraChoice::Modern, EraChoice::Legacy],
        c => vec![c],
    }
}

/// DECISIONS #33: `auto` means `legacy` when the config expects a legacy version.
pub fn effective_era(choice: EraChoice, expected_protocol_version: Option<&str>) -> EraChoice {
    match (choice, expected_protocol_version) {
        (EraChoice::Auto, Some(v)) if LEGACY_VERSIONS.contains(&v) => EraChoice::Legacy,
        (c, _) => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn era_rule_and_spellings() {
        assert_eq!(
            effective_era(EraChoice::Auto, Some("2025-06-18")),
            EraChoice::Legacy
        );
        assert_eq!(
            effective_era(EraChoice::Auto, Some("2026-07-28")),
            EraChoice::Auto
        );
        assert_eq!(effective_era(EraChoice::Auto, None), EraChoice::Auto);
        assert_eq!(
            effective_era(EraChoice::Modern, Some("2025-06-18")),
            EraChoice::Modern
        );
        for e in EraChoice::ALL {
            assert_eq!(EraChoice::parse(e.as_str()), Some(e));
            let clap_name = clap::ValueEnum::to_possible_value(&e).unwrap();
            assert_eq!(clap_name.get_name(), e.as_str());
        }
        assert_eq!(EraChoice::parse("Auto"), None);
        assert_eq!(EraChoice::default(), EraChoice::Auto);
    }
}

//! One accepted finding (`suppress:` entries and `mcpward.suppress.yaml`, #16 §3), as the
//! config loader validates it.

/// An entry: which results it accepts and why. Built only by the config loader, which
/// guarantees a non-empty `reason` and a real `YYYY-MM-DD` `expires`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// A registered rule id, exact.
    pub rule: String,
    /// The result's `location`, exact or a glob (`*` any run of characters, `/` and `.`
    /// included; `?` one character). A result without a location is matched by `*`.
    pub location: String,
    pub reason: String,
    /// The last day (UTC) the entry suppresses.
    pub expires: Option<String>,
    /// A fleet member's name: the entry applies to that server only.
    pub server: Option<String>,
    /// Where it is written, for messages: `suppress[0]` or `mcpward.suppress.yaml[2]`.
    pub origin: String,
}

/// `YYYY-MM-DD` naming a real day (leap years included).
pub fn valid_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10
        || b[4] != b'-'
        || b[7] != b'-'
        || !b
            .iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
    {
        return false;
    }
    let num = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(0);
    let (y, m, d) = (num(0..4), num(5..7), num(8..10));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

pub use crate::checks::common::glob_match;

//! The lockfile's `latency` member (#16 §4): each sampled tool's p50/p95 and sample count as
//! `baseline` measured them, so `run`/`diff` can compare against the server's own past
//! instead of a hand-tuned budget. Written only when `checks.latency` is on (every other
//! lockfile stays byte-identical); names in JavaScript key order, milliseconds rounded to
//! 0.1 ms so a re-baseline diffs cleanly. Pure.

use super::json::{js_key_order, path_segment, type_name};
use super::other::MemberError;
use serde_json::{json, Map, Value};

/// The root member's name.
pub const MEMBER: &str = "latency";

/// One tool's pinned figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Pinned {
    pub p50_ms: f64,
    pub p95_ms: f64,
    /// Completed calls the percentiles were computed over (warmup calls excluded).
    pub samples: u64,
}

/// By tool name, in file order (JavaScript key order when built by [`pinned`]).
pub type PinnedLatency = Vec<(String, Pinned)>;

/// Milliseconds as stored: one decimal place.
pub fn round_ms(x: f64) -> f64 {
    if x.is_finite() {
        (x * 10.0).round() / 10.0
    } else {
        0.0
    }
}

/// The member from measured tools (`(name, p50, p95, samples)`), names in JavaScript key
/// order, figures rounded; a name measured twice keeps its first figures.
pub fn pinned<'a, I: IntoIterator<Item = (&'a str, f64, f64, u64)>>(measured: I) -> PinnedLatency {
    let mut by_name: std::collections::HashMap<&str, Pinned> = std::collections::HashMap::new();
    let mut names = Vec::new();
    for (name, p50, p95, samples) in measured {
        if by_name.contains_key(name) {
            continue;
        }
        names.push(name);
        by_name.insert(
            name,
            Pinned {
                p50_ms: round_ms(p50),
                p95_ms: round_ms(p95),
                samples,
            },
        );
    }
    // Sorted, then as JSON.stringify orders keys (integer-like names first).
    names.sort_unstable();
    js_key_order(names)
        .into_iter()
        .map(|n| (n.to_string(), by_name[n].clone()))
        .collect()
}

pub fn to_value(pinned: &PinnedLatency) -> Value {
    Value::Object(
        pinned
            .iter()
            .map(|(name, p)| {
                (
                    name.clone(),
                    json!({"p50Ms": p.p50_ms, "p95Ms": p.p95_ms, "samples": p.samples}),
                )
            })
            .collect(),
    )
}

fn invalid(path: String, reason: impl Into<String>) -> MemberError {
    MemberError {
        path,
        reason: reason.into(),
    }
}

/// The member as read back (`$.latency`); `None` when the file has none.
pub fn parse(root: &Map<String, Value>) -> Result<Option<PinnedLatency>, MemberError> {
    let Some(v) = root.get(MEMBER) else {
        return Ok(None);
    };
    let base = format!("$.{MEMBER}");
    let Value::Object(tools) = v else {
        return Err(invalid(
            base,
            format!("expected an object, found {}", type_name(v)),
        ));
    };
    let mut out = Vec::with_capacity(tools.len());
    for (name, entry) in tools {
        let path = format!("{base}{}", path_segment(name));
        let Value::Object(m) = entry else {
            return Err(invalid(
                path,
                format!("expected an object, found {}", type_name(entry)),
            ));
        };
        let ms = |key: &str| -> Result<f64, MemberError> {
            match m.get(key) {
                Some(Value::Number(n)) => match n.as_f64() {
                    Some(x) if x.is_finite() && x >= 0.0 => Ok(x),
                    _ => Err(invalid(
                        format!("{path}.{key}"),
                        "expected a non-negative number",
                    )),
                },
                None => Err(invalid(format!("{path}.{key}"), "missing")),
                Some(other) => Err(invalid(
                    format!("{path}.{key}"),
                    format!("expected a number, found {}", type_name(other)),
                )),
            }
        };
        let samples = match m.get("samples") {
            Some(v) => v.as_u64().ok_or_else(|| {
                invalid(
                    format!("{path}.samples"),
                    format!("expected a non-negative integer, found {}", type_name(v)),
                )
            })?,
            None => return Err(invalid(format!("{path}.samples"), "missing")),
        };
        out.push((
            name.clone(),
            Pinned {
                p50_ms: ms("p50Ms")?,
                p95_ms: ms("p95Ms")?,
                samples,
            },
        ));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sorted_figures_rounded_first_wins() {
        let p = pinned([
            ("b", 1.04, 2.06, 5),
            ("a", 0.123, 9.99, 3),
            ("10", 1.0, 1.0, 1),
            ("b", 7.0, 7.0, 7),
        ]);
        let names: Vec<&str> = p.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["10", "a", "b"]);
        assert_eq!(
            p[2].1,
            Pinned {
                p50_ms: 1.0,
                p95_ms: 2.1,
                samples: 5
            }
        );
        assert_eq!(p[1].1.p50_ms, 0.1);
        assert_eq!(round_ms(f64::NAN), 0.0);
    }

    #[test]
    fn round_trips_and_rejects_bad_members() {
        let p = pinned([("read", 1.5, 3.25, 4)]);
        let mut root = Map::new();
        root.insert(MEMBER.into(), to_value(&p));
        assert_eq!(parse(&root).unwrap(), Some(p));
        assert_eq!(parse(&Map::new()).unwrap(), None);
        let bad = |v: Value| {
            let mut root = Map::new();
            root.insert(MEMBER.into(), v);
            let e = parse(&root).unwrap_err();
            format!("{}: {}", e.path, e.reason)
        };
        assert_eq!(bad(json!([])), "$.latency: expected an object, found array");
        assert_eq!(
            bad(json!({"t": {"p50Ms": 1, "samples": 2}})),
            "$.latency.t.p95Ms: missing"
        );
        assert_eq!(
            bad(json!({"t": {"p50Ms": "1", "p95Ms": 1, "samples": 2}})),
            "$.latency.t.p50Ms: expected a number, found string"
        );
        assert_eq!(
            bad(json!({"t": {"p50Ms": -1, "p95Ms": 1, "samples": 2}})),
            "$.latency.t.p50Ms: expected a non-negative number"
        );
        assert_eq!(
            bad(json!({"a b": {"p50Ms": 1, "p95Ms": 1, "samples": 1.5}})),
            "$.latency[\"a b\"].samples: expected a non-negative integer, found number"
        );
    }
}

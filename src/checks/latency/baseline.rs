//! Latency against the baseline (#16 §4): what `baseline` pins ([`pin`]) and how `run` /
//! `diff` judge fresh samples against it ([`compare`]). Pure.

use super::config::RegressionConfig;
use super::rules;
use super::stats::percentile;
use crate::model::Finding;
use crate::surface::json::js_number;
use crate::surface::latency::{pinned, round_ms, Pinned, PinnedLatency};
use serde_json::json;

/// Sampled calls per tool, as the runner takes them (`sample_of` per call).
pub type Samples = [(String, Vec<Result<f64, String>>)];

/// A tool's completed samples: (p50, p95, count); `None` when no call completed.
fn figures(calls: &[Result<f64, String>]) -> Option<(f64, f64, u64)> {
    let mut ok: Vec<f64> = calls
        .iter()
        .filter_map(|c| c.as_ref().ok().copied())
        .filter(|x| x.is_finite())
        .collect();
    if ok.is_empty() {
        return None;
    }
    ok.sort_by(f64::total_cmp);
    Some((
        percentile(&ok, 50.0),
        percentile(&ok, 95.0),
        ok.len() as u64,
    ))
}

/// The lockfile member for what `baseline` sampled: every tool with a completed call.
pub fn pin(samples: &Samples) -> PinnedLatency {
    let measured: Vec<(&str, f64, f64, u64)> = samples
        .iter()
        .filter_map(|(name, calls)| figures(calls).map(|(a, b, n)| (name.as_str(), a, b, n)))
        .collect();
    pinned(measured)
}

fn ms(x: f64) -> String {
    format!("{}ms", js_number(round_ms(x)))
}

/// Whether `now` is a regression over `base`: more than `ratio` times **and** more than
/// `min_ms` above it.
pub fn regressed(base_p95: f64, now_p95: f64, cfg: &RegressionConfig) -> bool {
    now_p95 > base_p95 * cfg.ratio && now_p95 - base_p95 > cfg.min_ms
}

/// `latency/regression`: one result per tool measured now that the baseline pins (pass or
/// fail, sampling order), a `skip` for a tool measured now that it does not pin, then a
/// `skip` for each pinned tool not measured now (baseline order).
pub fn compare(
    baseline: &PinnedLatency,
    samples: &Samples,
    cfg: &RegressionConfig,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let pinned_of = |name: &str| -> Option<&Pinned> {
        baseline.iter().find(|(n, _)| n == name).map(|(_, p)| p)
    };
    let limit = format!(
        "p95 at most {}× and {}ms above the baseline's",
        js_number(cfg.ratio),
        js_number(cfg.min_ms)
    );
    for (name, calls) in samples {
        let Some((_, p95, n)) = figures(calls) else {
            continue;
        };
        if !seen.insert(name.as_str()) {
            continue;
        }
        let Some(base) = pinned_of(name) else {
            out.push(
                rules::REGRESSION
                    .skip(format!(
                        "Tool \"{name}\" has no latency in the baseline (p95 {} over {n} call(s) now); run `mcpward baseline` to pin it",
                        ms(p95)
                    ))
                    .location(name.clone()),
            );
            continue;
        };
        let figures = format!(
            "p95 {} over {n} call(s), baseline p95 {} over {} call(s)",
            ms(p95),
            ms(base.p95_ms),
            base.samples
        );
        let actual = json!({
            "p95": round_ms(p95),
            "samples": n,
            "baselineP95": base.p95_ms,
            "baselineSamples": base.samples,
        });
        let f = if regressed(base.p95_ms, p95, cfg) {
            rules::REGRESSION.fail(format!(
                "Tool \"{name}\" latency regressed: {figures} (more than {}× and {}ms slower)",
                js_number(cfg.ratio),
                js_number(cfg.min_ms)
            ))
        } else {
            rules::REGRESSION.pass(format!("Tool \"{name}\" latency: {figures}"))
        };
        out.push(
            f.expected(limit.clone())
                .actual(actual)
                .location(name.clone()),
        );
    }
    for (name, base) in baseline {
        if seen.contains(name.as_str()) {
            continue;
        }
        out.push(
            rules::REGRESSION
                .skip(format!(
                    "Tool \"{name}\" is in the latency baseline (p95 {} over {} call(s)) but was not measured now",
                    ms(base.p95_ms),
                    base.samples
                ))
                .location(name.clone()),
        );
    }
    out
}

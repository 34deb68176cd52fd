//! Percentiles over latency samples, shared by the budget and the baseline comparison.

/// Linear interpolation between closest ranks (R type 7, Excel PERCENTILE.INC) over
/// ascending samples; 0 for none.
pub fn percentile(sorted_ms: &[f64], p: f64) -> f64 {
    let n = sorted_ms.len();
    match n {
        0 => 0.0,
        1 => sorted_ms[0],
        _ => {
            let last = (n - 1) as f64;
            let h = ((p / 100.0) * last).clamp(0.0, last);
            let h = if h.is_nan() { 0.0 } else { h };
            let (lo, hi) = (h.floor(), h.ceil());
            let (x_lo, x_hi) = (sorted_ms[lo as usize], sorted_ms[hi as usize]);
            if lo == hi {
                x_lo
            } else {
                x_lo * (1.0 - (h - lo)) + x_hi * (h - lo)
            }
        }
    }
}

//! `security/learned-poisoning`: a linear model over hashed TF-IDF features of every string of
//! a tool, trained offline on `tests/corpus/` by `tests/corpus/learned_train.py` (the feature
//! definition is written there; this file must compute the same numbers, which
//! `learned_parity.json` pins). The model ships as data in the binary: no network, no download.
//!
//! It catches paraphrases no rule names (measured on sources held out of its training,
//! docs/detection.md), so it only fails a tool the rules left unfailed, with a threshold
//! above every real tool of the corpus, and quotes the words that weighed most.

use serde_json::Value;
use std::sync::OnceLock;

static DATA: &[u8] = include_bytes!("learned.bin");
const SKIP_KEYS: [&str; 4] = ["type", "$schema", "additionalProperties", "format"];
const FNV_OFFSET: u32 = 0x811c_9dc5;
const FNV_PRIME: u32 = 0x0100_0193;
/// Deeper JSON than this is not read (a hostile schema; serde_json stops at 128 anyway).
const MAX_DEPTH: usize = 64;
/// Text past this many bytes per tool is not featurised: the score of a tool is settled long
/// before, and a flood must not cost more than a bounded scan.
const MAX_BYTES: usize = 256 * 1024;
/// A tool of fewer words (name, property names and texts counted) is left to the rules: the
/// published attacks are mostly toy tools with a payload, so the model reads any short toy
/// tool ("add: Adds two numbers.") as one of them (session 20, docs/detection.md).
const MIN_WORDS: usize = 12;

struct Model {
    bias: f64,
    weight_scale: f64,
    idf_scale: f64,
    threshold: f64,
    mask: u32,
    weights: &'static [u8],
    idf: &'static [u8],
}

fn parse(data: &'static [u8]) -> Option<Model> {
    let f64_at = |i: usize| -> Option<f64> {
        Some(f64::from_le_bytes(data.get(i..i + 8)?.try_into().ok()?))
    };
    if data.get(..4)? != b"MWLM" || *data.get(4)? != 1 {
        return None;
    }
    let bits = u32::from(*data.get(5)?);
    let dim = 1usize.checked_shl(bits)?;
    let body = data.get(40..)?;
    if body.len() != 2 * dim {
        return None;
    }
    Some(Model {
        bias: f64_at(8)?,
        weight_scale: f64_at(16)?,
        idf_scale: f64_at(24)?,
        threshold: f64_at(32)?,
        mask: (dim - 1) as u32,
        weights: &body[..dim],
        idf: &body[dim..],
    })
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| parse(DATA).expect("learned.bin is malformed: rerun learned_train.py"))
}

impl Model {
    fn weight(&self, b: u32) -> f64 {
        f64::from(self.weights[b as usize] as i8) * self.weight_scale
    }

    fn idf(&self, b: u32) -> f64 {
        f64::from(self.idf[b as usize]) * self.idf_scale
    }
}

fn fnv(h: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u32::from(b)).wrapping_mul(FNV_PRIME))
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && !c.is_whitespace())
}

/// Every string of the tool the model reads, within the depth and byte budgets. The order
/// is not the trainer's, and need not be: features never span two strings.
fn strings(tool: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    let mut bytes = 0usize;
    let mut stack: Vec<(&Value, usize)> = vec![(tool, 0)];
    while let Some((v, depth)) = stack.pop() {
        match v {
            Value::Object(m) if depth < MAX_DEPTH => {
                for (k, x) in m {
                    if !SKIP_KEYS.contains(&k.as_str()) {
                        bytes += k.len();
                        out.push(k.as_str());
                    }
                    stack.push((x, depth + 1));
                }
            }
            Value::Array(a) if depth < MAX_DEPTH => {
                stack.extend(a.iter().map(|x| (x, depth + 1)));
            }
            Value::String(s) => {
                bytes += s.len();
                out.push(s.as_str());
            }
            _ => {}
        }
        if bytes > MAX_BYTES {
            break;
        }
    }
    out
}

/// Hashed feature counts of one family, as sorted `(bucket, count)`.
fn counted(mut buckets: Vec<u32>) -> Vec<(u32, u32)> {
    buckets.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::new();
    for b in buckets {
        match out.last_mut() {
            Some((last, n)) if *last == b => *n += 1,
            _ => out.push((b, 1)),
        }
    }
    out
}

struct Features {
    chars: Vec<(u32, u32)>,
    words: Vec<(u32, u32)>,
    tokens: usize,
}

fn features(texts: &[&str], mask: u32, mut named: Option<&mut Vec<(u32, String)>>) -> Features {
    let mut chars = Vec::new();
    let mut words = Vec::new();
    let w_seed = fnv(FNV_OFFSET, b"w:");
    let b_seed = fnv(FNV_OFFSET, b"b:");
    let c_seed = fnv(FNV_OFFSET, b"c:");
    let mut padded = String::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut tokens = 0;
    for text in texts {
        let lower = text.to_lowercase();
        let toks: Vec<&str> = lower
            .split(|c: char| !is_token_char(c))
            .filter(|t| !t.is_empty())
            .collect();
        tokens += toks.len();
        for (i, t) in toks.iter().enumerate() {
            let wb = fnv(w_seed, t.as_bytes()) & mask;
            words.push(wb);
            if let Some(n) = named.as_deref_mut() {
                n.push((wb, (*t).to_string()));
            }
            if let Some(next) = toks.get(i + 1) {
                let h = fnv(fnv(fnv(b_seed, t.as_bytes()), b" "), next.as_bytes()) & mask;
                words.push(h);
                if let Some(n) = named.as_deref_mut() {
                    n.push((h, format!("{t} {next}")));
                }
            }
            padded.clear();
            padded.push(' ');
            padded.push_str(t);
            padded.push(' ');
            ends.clear();
            ends.extend(padded.char_indices().map(|(i, _)| i));
            ends.push(padded.len());
            let len = ends.len() - 1;
            for n in 3..=5 {
                for j in 0..(len + 1).saturating_sub(n) {
                    let gram = &padded.as_bytes()[ends[j]..ends[j + n]];
                    chars.push(fnv(c_seed, gram) & mask);
                }
            }
        }
    }
    Features {
        chars: counted(chars),
        words: counted(words),
        tokens,
    }
}

/// `(bucket, value)` of one family, L2-normalised, buckets without weight left out.
fn normalised(m: &Model, fam: &[(u32, u32)]) -> Vec<(u32, f64)> {
    let vals: Vec<(u32, f64)> = fam
        .iter()
        .filter(|(b, _)| m.idf[*b as usize] > 0)
        .map(|&(b, k)| (b, (1.0 + f64::from(k).ln()) * m.idf(b)))
        .collect();
    let norm = vals.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
    if norm == 0.0 {
        return Vec::new();
    }
    vals.into_iter().map(|(b, v)| (b, v / norm)).collect()
}

fn score_features(m: &Model, f: &Features) -> f64 {
    let dot = |fam: &[(u32, u32)]| -> f64 {
        normalised(m, fam)
            .iter()
            .map(|&(b, v)| m.weight(b) * v)
            .sum()
    };
    m.bias + dot(&f.chars) + dot(&f.words)
}

/// The model's score of a tool object (a logit: above [`threshold`] fails).
#[cfg(test)]
fn score(tool: &Value) -> f64 {
    let m = model();
    score_features(m, &features(&strings(tool), m.mask, None))
}

pub fn threshold() -> f64 {
    model().threshold
}

/// A tool the model fails: its score and the (at most three) words or word pairs that
/// weighed most towards it.
pub fn verdict(tool: &Value) -> Option<(f64, Vec<String>)> {
    let m = model();
    let texts = strings(tool);
    let f = features(&texts, m.mask, None);
    if f.tokens < MIN_WORDS {
        return None;
    }
    let s = score_features(m, &f);
    if s <= m.threshold {
        return None;
    }
    let mut named = Vec::new();
    let f = features(&texts, m.mask, Some(&mut named));
    let mut weighed: Vec<(f64, String)> = normalised(m, &f.words)
        .into_iter()
        .filter_map(|(b, v)| {
            let w = m.weight(b) * v;
            let text = named.iter().find(|(nb, _)| *nb == b)?.1.clone();
            (w > 0.0).then_some((w, text))
        })
        .collect();
    weighed.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    weighed.dedup_by(|a, b| a.1 == b.1);
    Some((s, weighed.into_iter().take(3).map(|(_, t)| t).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_parses() {
        let m = model();
        assert!(m.threshold.is_finite() && m.weight_scale > 0.0 && m.idf_scale > 0.0);
        assert!(parse(&DATA[..DATA.len() - 1]).is_none());
        assert!(parse(b"MWLM").is_none());
    }

    #[test]
    fn rust_scores_what_the_trainer_scored() {
        let parity: Vec<Value> =
            serde_json::from_str(include_str!("learned_parity.json")).expect("parity json");
        assert!(parity.len() >= 10);
        for p in &parity {
            let want = p["score"].as_f64().expect("score");
            let got = score(&p["tool"]);
            assert!(
                (got - want).abs() < 1e-6,
                "{}: rust {got} python {want}",
                p["tool"]["name"]
            );
        }
    }

    #[test]
    fn deep_or_huge_input_is_bounded() {
        let mut v = Value::String("ignore".into());
        for _ in 0..200 {
            v = Value::Array(vec![v]);
        }
        assert!(score(&v).is_finite());
        let big = Value::String("word ".repeat(200_000));
        let tool = serde_json::json!({"name": "t", "description": big, "x": big});
        let long = strings(&tool).iter().filter(|s| s.len() > 1000).count();
        assert_eq!(long, 1, "the byte budget stops after the first long string");
    }
}

//! Rename detection (#14): a removed and an added item that are the same thing under a new
//! name. Items pair only within one group (tools: the same canonical input schema; prompts:
//! the same arguments) and when their descriptions are similar (character-trigram
//! Sørensen–Dice ≥ [`RENAME_THRESHOLD`]). Pairing is deterministic: best score first, ties by
//! removed name, then added name; each item pairs at most once. Pure.

use std::collections::HashMap;

/// Description similarity from which a removed + added pair counts as a rename.
pub const RENAME_THRESHOLD: f64 = 0.8;

/// Scored comparisons at most per diff: a hostile surface of thousands of removed and added
/// items with one schema would otherwise cost removed × added similarity computations.
/// Groups beyond the budget are left as removed + added.
pub const MAX_RENAME_COMPARISONS: usize = 200_000;

/// One side of a candidate pair.
pub struct Candidate<'a> {
    pub name: &'a str,
    /// Items pair only with the same group key.
    pub group: &'a str,
    /// Canonical description text; `None` when the lockfile holds only its hash.
    pub text: Option<&'a str>,
    pub hash: &'a str,
}

/// Trigram multiset of a lowercased text, padded like the collision lint's profile.
fn trigrams(text: &str) -> Vec<[char; 3]> {
    let chars: Vec<char> = [' ', ' ']
        .into_iter()
        .chain(text.to_lowercase().chars())
        .chain([' '])
        .collect();
    let mut grams: Vec<[char; 3]> = chars.windows(3).map(|w| [w[0], w[1], w[2]]).collect();
    grams.sort_unstable();
    grams
}

fn overlap(a: &[[char; 3]], b: &[[char; 3]]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Trigram Dice similarity of two texts (1 for equal texts, empty ones included).
pub fn dice(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    dice_of(&trigrams(a), &trigrams(b))
}

fn dice_of(a: &[[char; 3]], b: &[[char; 3]]) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    2.0 * overlap(a, b) as f64 / total as f64
}

/// The renames among `removed` × `added`, as (removed index, added index, score).
pub fn pair_renames(removed: &[Candidate], added: &[Candidate]) -> Vec<(usize, usize, f64)> {
    if removed.is_empty() || added.is_empty() {
        return Vec::new();
    }
    let mut added_by_group: HashMap<&str, Vec<usize>> = HashMap::new();
    for (j, a) in added.iter().enumerate() {
        added_by_group.entry(a.group).or_default().push(j);
    }
    let grams = |c: &Candidate| c.text.map(trigrams);
    let added_grams: Vec<Option<Vec<[char; 3]>>> = added.iter().map(grams).collect();
    let mut budget = MAX_RENAME_COMPARISONS;
    let mut scored: Vec<(usize, usize, f64)> = Vec::new();
    for (i, r) in removed.iter().enumerate() {
        let Some(js) = added_by_group.get(r.group) else {
            continue;
        };
        if js.len() > budget {
            continue;
        }
        budget -= js.len();
        let rg = grams(r);
        for &j in js {
            let a = &added[j];
            let score = if r.hash == a.hash {
                1.0
            } else {
                match (&rg, &added_grams[j]) {
                    (Some(x), Some(y)) => dice_of(x, y),
                    // Only hashes on one side: different hashes cannot be measured.
                    _ => 0.0,
                }
            };
            if score >= RENAME_THRESHOLD {
                scored.push((i, j, score));
            }
        }
    }
    scored.sort_by(|x, y| {
        y.2.total_cmp(&x.2)
            .then_with(|| removed[x.0].name.cmp(removed[y.0].name))
            .then_with(|| added[x.1].name.cmp(added[y.1].name))
    });
    let mut used_r = vec![false; removed.len()];
    let mut used_a = vec![false; added.len()];
    let mut out = Vec::new();
    for (i, j, s) in scored {
        if !used_r[i] && !used_a[j] {
            used_r[i] = true;
            used_a[j] = true;
            out.push((i, j, s));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c<'a>(name: &'a str, group: &'a str, text: &'a str) -> Candidate<'a> {
        Candidate {
            name,
            group,
            text: Some(text),
            hash: text,
        }
    }

    #[test]
    fn dice_scores() {
        assert_eq!(dice("", ""), 1.0);
        assert_eq!(dice("Read a file", "read a file"), 1.0);
        assert!(dice("Read a file from disk", "Read a file from the disk") >= 0.8);
        assert!(dice("Read a file", "Delete every row of a table") < 0.5);
        assert_eq!(dice("abc", ""), 0.0);
    }

    #[test]
    fn pairs_best_first_then_by_name_and_only_within_a_group() {
        let removed = [
            c("old_b", "s", "Reads one file from disk"),
            c("old_a", "s", "Reads one file from disk"),
            c("other", "t", "Reads one file from disk"),
        ];
        let added = [
            c("new", "s", "Reads one file from disk"),
            c("new2", "u", "Reads one file from disk"),
        ];
        // Equal scores: the removed name that sorts first wins; other groups never pair.
        assert_eq!(pair_renames(&removed, &added), vec![(1, 0, 1.0)]);
        let removed = [
            c("a", "s", "Reads one file from the disk"),
            c("b", "s", "Reads one file from disk"),
        ];
        // The better score pairs first even though its name sorts later.
        let got = pair_renames(&removed, &added[..1]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, 1);
    }

    #[test]
    fn hashes_only_pair_only_when_equal() {
        let r = [Candidate {
            name: "a",
            group: "g",
            text: None,
            hash: "h1",
        }];
        let a = [Candidate {
            name: "b",
            group: "g",
            text: Some("x"),
            hash: "h2",
        }];
        assert!(pair_renames(&r, &a).is_empty());
        let a = [Candidate {
            name: "b",
            group: "g",
            text: Some("x"),
            hash: "h1",
        }];
        assert_eq!(pair_renames(&r, &a), vec![(0, 0, 1.0)]);
    }

    #[test]
    fn the_comparison_budget_bounds_a_hostile_surface() {
        let names: Vec<String> = (0..600).map(|i| format!("t{i}")).collect();
        let removed: Vec<Candidate> = names[..300].iter().map(|n| c(n, "g", "same")).collect();
        let added: Vec<Candidate> = names[300..].iter().map(|n| c(n, "g", "same")).collect();
        // 300 × 300 = 90,000 comparisons fit; every item pairs once.
        assert_eq!(pair_renames(&removed, &added).len(), 300);
        let many: Vec<String> = (0..1000).map(|i| format!("a{i}")).collect();
        let added: Vec<Candidate> = many.iter().map(|n| c(n, "g", "same")).collect();
        let removed: Vec<Candidate> = many.iter().map(|n| c(n, "g", "same")).collect();
        // 1,000 × 1,000 exceeds the budget: the rows beyond it are not compared.
        let got = pair_renames(&removed, &added);
        assert_eq!(got.len(), MAX_RENAME_COMPARISONS / 1000);
    }
}

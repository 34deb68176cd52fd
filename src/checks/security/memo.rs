//! Results of texts already scanned in this scan, so a text repeated across a listing
//! (86 % of a real listing's strings are repeats: shared parameter descriptions, enum
//! values) or within one tool (a payload copied into every field) is scanned once.
//! A repeat scanned again also grew the lazy-DFA caches past `engine::GROWN` each time
//! when the text was long and novel, so they were freed and built again (a 1.5 KB
//! payload in eight fields of one tool took 40 ms instead of 9: the fuzz run of
//! session 27's CI).
//!
//! Keys are 128-bit hashes under keys drawn at random per scan: a listing cannot craft
//! two texts that collide (which would let an attack take a clean text's result), and
//! the memo holds no copy of the texts (#12's memory bound).
use super::{signals, walk};
use crate::rules::types::Rule;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};

/// Byte span in a text.
pub type Span = (usize, usize);
/// One hit: its rule, its label and its evidence.
pub type Hit = (&'static Rule, &'static str, Vec<Span>);

/// At most this many results are kept; past it texts are scanned as before.
const MAX_ENTRIES: usize = 1 << 16;

struct Memo {
    open: usize,
    keys: (RandomState, RandomState),
    shapes: HashMap<u128, Vec<Hit>>,
    phrases: HashMap<u128, Vec<Span>>,
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// While one is open on this thread, results are kept; the last one closed frees them.
pub struct Scope(std::marker::PhantomData<*const ()>);

pub fn scope() -> Scope {
    MEMO.with_borrow_mut(|m| {
        m.get_or_insert_with(|| Memo {
            open: 0,
            keys: (RandomState::new(), RandomState::new()),
            shapes: HashMap::new(),
            phrases: HashMap::new(),
        })
        .open += 1
    });
    Scope(std::marker::PhantomData)
}

impl Drop for Scope {
    fn drop(&mut self) {
        MEMO.with_borrow_mut(|m| {
            if let Some(memo) = m {
                memo.open -= 1;
                if memo.open == 0 {
                    *m = None;
                }
            }
        });
    }
}

fn key(keys: &(RandomState, RandomState), parts: impl Hash + Copy) -> u128 {
    let half = |k: &RandomState| k.hash_one(parts);
    (u128::from(half(&keys.0)) << 64) | u128::from(half(&keys.1))
}

/// Whether the tool's name `own` can bear on the hits of `text`: the signals read it
/// only to drop an order about the tool itself (`other_tool`, `implicit`, an example
/// call `own(…)`) or a mode its name names (`own_mode`), and each of those needs the
/// name or one of its words in the text.
fn bears(text: &str, own: &str) -> bool {
    if own.is_empty() {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    lower.contains(&own.to_ascii_lowercase())
        || walk::identifier_parts(own)
            .iter()
            .any(|p| lower.contains(p.as_str()))
}

fn kept<V: Clone>(pick: impl Fn(&Memo) -> &HashMap<u128, V>, k: u128) -> Option<V> {
    MEMO.with_borrow(|m| m.as_ref().and_then(|m| pick(m).get(&k).cloned()))
}

fn keep<V>(pick: impl Fn(&mut Memo) -> &mut HashMap<u128, V>, k: u128, v: V) {
    MEMO.with_borrow_mut(|m| {
        if let Some(map) = m.as_mut().map(pick).filter(|map| map.len() < MAX_ENTRIES) {
            map.insert(k, v);
        }
    });
}

/// This scan's hash keys, while a scope is open.
fn keys() -> Option<(RandomState, RandomState)> {
    MEMO.with_borrow(|m| m.as_ref().map(|m| m.keys.clone()))
}

/// `scan`'s hits on `text` for a tool named `own` (`scan` takes the name), from the
/// memo when kept. A text where the name cannot bear is kept under no name, for every
/// tool. And the name only ever drops a candidate (an order about the tool itself is no
/// order about another), so a text without hits under no name has none under any name:
/// clean texts, nearly all of them, are scanned once for every tool.
pub fn shapes(
    text: &str,
    own: &str,
    field: signals::Field,
    scan: impl FnOnce(&str) -> Vec<Hit>,
) -> Vec<Hit> {
    let Some(keys) = keys() else {
        return scan(own);
    };
    let free_key = key(&keys, (text, "", field as u8));
    let free = kept(|m| &m.shapes, free_key);
    if free.as_ref().is_some_and(Vec::is_empty) {
        return Vec::new();
    }
    let (name, k, known) = if bears(text, own) {
        let k = key(&keys, (text, own, field as u8));
        (own, k, kept(|m| &m.shapes, k))
    } else {
        ("", free_key, free)
    };
    known.unwrap_or_else(|| {
        let hits = scan(name);
        keep(|m| &mut m.shapes, k, hits.clone());
        hits
    })
}

/// The original's phrases in `text`, from the memo when kept.
pub fn phrases(text: &str, scan: impl FnOnce() -> Vec<Span>) -> Vec<Span> {
    let Some(keys) = keys() else {
        return scan();
    };
    let k = key(&keys, text);
    kept(|m| &m.phrases, k).unwrap_or_else(|| {
        let spans = scan();
        keep(|m| &mut m.phrases, k, spans.clone());
        spans
    })
}

//! How the security patterns are run: the same match positions as Unicode-mode,
//! case-insensitive `regex::Regex`, at a fraction of the memory.
//!
//! A Unicode case-insensitive regex with Unicode `\w`, `\b` and bounded gaps such as
//! `(?:[^.\n]|\.\S){0,160}` compiles to hundreds of KiB of automata; the ~40 security
//! patterns cost several MiB that way. The same patterns compiled without Unicode (byte
//! classes, ASCII case folding) are a fraction of that. They give the same answers on a
//! *shadow* of the text with one byte per character:
//!
//! * ASCII characters are kept;
//! * Unicode whitespace (the ECMAScript `\s` set, [`super::patterns::WS`]) becomes a space,
//!   except U+FEFF, which is `\s` for the patterns yet also `\S` (it is not Unicode
//!   White_Space), so it gets a byte of its own that both classes include;
//! * the curly quotes the patterns name become one byte each ([`QUOTES`]);
//! * every other character becomes [`OTHER`], a byte no pattern names.
//!
//! That is exact for characters that are not word characters. A non-ASCII letter is
//! [`OTHER`] too, as ECMAScript without the `u` flag (the original's regexes) reads it: not
//! a word character for `\b`, no case folding of U+212A to `k` or U+017F to `s`. Until #13
//! such texts went to the Unicode regexes; now every text is matched on its shadow, since
//! the family matches on normalized text (NFKC already folds those letters) and the
//! Unicode forms of the ~80 patterns cost tens of MiB on real listings. Spans found on the
//! shadow are mapped back to byte offsets of the text.
//!
//! Each regex is compiled the first time a text needs it; the Unicode forms only in tests,
//! which check the two agree wherever the shadow is exact.
//!
//! The patterns live in process-wide tables, but what they compile to (automata and their
//! lazy-DFA caches, 4.6 MB on a real listing) only lives while a [`Scope`] is open: the
//! family opens one per scan, so a run does not carry it through the families after
//! security (#12's memory bound). [`pin`] keeps it for the process (fuzz targets).

use regex::bytes::{RegexSet as BytesSet, RegexSetBuilder};
use regex::{Regex, RegexSet};
use regex_automata::util::iter::Searcher;
use regex_automata::Input;
use std::borrow::Cow;
use std::cell::Cell;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

/// The shadow form of a pattern: the meta regex without the bounded backtracker and the
/// one-pass DFA, whose caches (up to 256 KiB each, per pattern) the ~80 patterns do not need.
type ShadowRegex = regex_automata::meta::Regex;

/// Byte span `[start, end)` in the original text.
pub type Span = (usize, usize);

/// Shadow byte of a character that no pattern names and that is neither a word character
/// nor whitespace.
pub const OTHER: u8 = 0x80;
/// Shadow byte of U+FEFF: in `\s` (ECMAScript) and in `\S` (not Unicode White_Space).
pub const FEFF: u8 = 0x86;
/// The curly quotes the patterns name, each with its shadow byte.
pub const QUOTES: [(char, u8); 4] = [
    ('\u{2018}', 0x81),
    ('\u{2019}', 0x82),
    ('\u{201C}', 0x83),
    ('\u{201D}', 0x84),
];
/// Lazy-DFA cache per regex (the regex crate's default is 2 MiB). 64 KiB saved little
/// memory and made a hostile 9 KB tool (fuzz round 3) 13 times slower as caches thrashed;
/// at 1 MiB real listings take the same memory and that tool 3.4 ms.
const DFA_CACHE: usize = 1024 * 1024;
/// A search that grows one lazy-DFA cache by more than this frees that cache when it ends.
/// [`trim`] runs between tools, so one long text (draw.io's 34 KB description of its XML
/// format) grew the caches by 2.4 MiB before it, the gate's alone by 1.1 MiB, and broke
/// #12's 15 MiB bound; freed after each automaton's search, they hold only one automaton's
/// growth at a time. Short texts grow a warm cache by a few KiB, so they never pay for it.
const GROWN: usize = 64 * 1024;

/// Frees the cache in `held` when the search that began at `before` bytes grew it past
/// [`GROWN`].
fn settle<C>(held: &mut Option<C>, before: usize, usage: impl Fn(&C) -> usize) {
    if held.as_ref().is_some_and(|c| usage(c) > before + GROWN) {
        *held = None;
    }
}

/// Lazy-DFA caches per automaton: one per thread that scans (a large surface's tools are
/// scanned on both cores, `super::scan_tools`). With one cache, two threads would wait on
/// each other for every pattern they both run, the gate first.
pub const SLOTS: usize = 2;

thread_local! {
    static SLOT: Cell<usize> = const { Cell::new(0) };
}

/// The cache slot of this thread.
fn slot() -> usize {
    SLOT.with(Cell::get)
}

/// Runs `f` with this thread's searches on cache slot `i` (`i < SLOTS`).
pub fn in_slot<R>(i: usize, f: impl FnOnce() -> R) -> R {
    /// Puts the thread's slot back, also when `f` panics.
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            SLOT.set(self.0);
        }
    }
    assert!(i < SLOTS, "cache slot {i} of {SLOTS}");
    let _restore = Restore(SLOT.replace(i));
    f()
}

/// One empty cache slot per thread that may scan.
fn empty_slots<C>() -> [Mutex<Option<C>>; SLOTS] {
    std::array::from_fn(|_| Mutex::new(None))
}

/// `\s` in the shadow patterns.
const SHADOW_WS: &str = r"[\t\n\x0B\x0C\r \x86]";

/// A compiled form whose lazy-DFA caches [`trim`] can give back.
trait Held: Send + Sync {
    /// Heap bytes its caches in `slot` have grown by since they were made (an empty cache of
    /// a large automaton already holds tens of KiB: that is not counted).
    fn cache_bytes(&self, slot: usize) -> usize;
    /// Replaces its caches in `slot` with empty ones (the old ones are freed).
    fn fresh_caches(&self, slot: usize);
}

/// Every compiled form made since the last [`Scope`] closed: the only strong references
/// besides the ones a scan holds for a moment, so closing the last scope frees them.
struct Kept {
    scopes: usize,
    pinned: bool,
    live: Vec<Arc<dyn Held>>,
}

static KEPT: Mutex<Kept> = Mutex::new(Kept {
    scopes: 0,
    pinned: false,
    live: Vec::new(),
});

fn kept() -> MutexGuard<'static, Kept> {
    KEPT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// While one is open, what the patterns compile to is kept; when the last one closes it is
/// freed (what a scan compiles outside any scope is freed then too).
pub struct Scope(());

/// Opens a [`Scope`]: the family holds one for the whole of a scan.
pub fn scope() -> Scope {
    kept().scopes += 1;
    Scope(())
}

impl Drop for Scope {
    fn drop(&mut self) {
        let freed = {
            let mut k = kept();
            k.scopes -= 1;
            if k.scopes == 0 && !k.pinned {
                std::mem::take(&mut k.live)
            } else {
                Vec::new()
            }
        };
        // Dropped outside the lock: freeing megabytes of automata takes a while.
        drop(freed);
    }
}

/// Keeps every compiled form for the rest of the process (callers that scan many small
/// inputs and must not pay for compiling each time, such as the fuzz targets).
pub fn pin() {
    kept().pinned = true;
}

/// Lazy-DFA caches over this many bytes in all are emptied by [`trim`]. A cache only grows
/// (new states, never fewer), so over a listing of hundreds of tools the ~90 automata's
/// caches reach 3–4 MiB, a fifth of a run's peak RSS (#12's bound). Emptied between tools,
/// never during one text, so a hostile text still gets the full per-cache room
/// ([`DFA_CACHE`]) and does not thrash. The states one ordinary tool needs already come to
/// ~1 MiB (ms-365's Graph tools: 1.4 MiB after ten of them), so at 256 KiB every tool emptied
/// the caches and built them again: 10,000 tools took 3.5 s instead of 0.2 s (#13's bench).
/// At 768 KiB the bench's tools rarely empty them (0.2 s) and ms-365's long Graph tools
/// every third tool (70 times in 188: its scan 0.40 s instead of 0.82 s), for 0.1–0.2 MiB
/// more peak RSS. Real listings' long varied texts still reached 768 KiB within a few tools:
/// the benign corpus (32,822 tools) spent 70 % of its scan rebuilding states, 30.4 s; at
/// 2 MiB 15.9 s, for 1.3–1.8 MiB more peak RSS on the largest listings (session 28); figures
/// in docs/benchmarks.md.
pub const TRIM_AT: usize = 2 * 1024 * 1024;

/// Empties every cache of this thread's slot when they hold more than `limit` bytes in
/// all: called between the texts of a scan, it bounds what the caches keep to about `limit`
/// plus one text's growth per scanning thread. Another thread's caches are its own business:
/// emptied under it, they would be built again mid-listing.
pub fn trim(limit: usize) {
    let k = kept();
    if trim_slot(&k.live, slot(), limit) {
        // Rare (once per `limit` of growth) and cheap next to the states that filled the
        // caches: without it the freed caches stay resident beside the ones regrown.
        crate::heap::release_freed();
    }
}

/// Empties the caches of `slot` in `live` when they hold more than `limit` bytes in all;
/// says whether it did.
fn trim_slot(live: &[Arc<dyn Held>], slot: usize, limit: usize) -> bool {
    let over = live.iter().map(|h| h.cache_bytes(slot)).sum::<usize>() > limit;
    if over {
        for h in live {
            h.fresh_caches(slot);
        }
    }
    over
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A shadow regex with a cache of its own (the meta regex's internal pool cannot be
/// emptied), so [`trim`] can free it.
struct Shadow {
    re: ShadowRegex,
    /// One per [`SLOTS`]; `None` after [`trim`] until a text needs it again: most patterns
    /// run on few texts (the gate lets them through), and an empty cache of a large
    /// automaton already holds tens of KiB, ~0.5 MiB for all of them.
    caches: [Mutex<Option<regex_automata::meta::Cache>>; SLOTS],
    /// What an empty cache holds.
    empty: usize,
}

impl Shadow {
    /// This thread's cache.
    fn cache(&self) -> &Mutex<Option<regex_automata::meta::Cache>> {
        &self.caches[slot()]
    }
}

impl Held for Shadow {
    fn cache_bytes(&self, slot: usize) -> usize {
        lock(&self.caches[slot])
            .as_ref()
            .map_or(0, |c| c.memory_usage().saturating_sub(self.empty))
    }
    fn fresh_caches(&self, slot: usize) {
        drop(lock(&self.caches[slot]).take());
    }
}

/// The regex crate's own forms keep their caches in a pool out of reach; they are small
/// (the sets) or only built in tests (the Unicode forms).
macro_rules! held_without_caches {
    ($($t:ty),*) => {$(
        impl Held for $t {
            fn cache_bytes(&self, _: usize) -> usize {
                0
            }
            fn fresh_caches(&self, _: usize) {}
        }
    )*};
}
held_without_caches!(Regex, RegexSet, BytesSet);

impl Held for Option<Vec<GateGroup>> {
    fn cache_bytes(&self, slot: usize) -> usize {
        self.iter()
            .flatten()
            .filter_map(|g| {
                let c = lock(&g.caches[slot]);
                c.as_ref().map(|c| c.memory_usage().saturating_sub(g.empty))
            })
            .sum()
    }
    fn fresh_caches(&self, slot: usize) {
        for g in self.iter().flatten() {
            drop(lock(&g.caches[slot]).take());
        }
    }
}

/// A compiled form, made on first need and shared until the last [`Scope`] closes. The
/// slot holds it weakly: [`KEPT`] owns it.
struct Compiled<T> {
    slot: Mutex<Weak<T>>,
}

impl<T: Held + 'static> Compiled<T> {
    const fn new() -> Self {
        Compiled {
            slot: Mutex::new(Weak::new()),
        }
    }

    fn get_or_init(&self, build: impl FnOnce() -> T) -> Arc<T> {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = slot.upgrade() {
            return c;
        }
        // Built under the slot's lock: another thread waits rather than building it twice.
        let c = Arc::new(build());
        *slot = Arc::downgrade(&c);
        kept().live.push(c.clone());
        c
    }
}

/// Unicode White_Space outside ASCII that is also ECMAScript `\s` (all but U+0085).
fn is_unicode_space(c: char) -> bool {
    matches!(
        c,
        '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// A text prepared for matching: its shadow (always, since #13; `None` only for the tests'
/// Unicode-regex reference).
pub struct Hay<'t> {
    text: &'t str,
    shadow: Option<Cow<'t, [u8]>>,
    /// Byte offset in `text` of every shadow byte, plus `text.len()`; none when the text is
    /// ASCII (the shadow is the text).
    offsets: Option<Vec<usize>>,
}

impl<'t> Hay<'t> {
    pub fn new(text: &'t str) -> Self {
        if text.is_ascii() {
            return Hay {
                text,
                shadow: Some(Cow::Borrowed(text.as_bytes())),
                offsets: None,
            };
        }
        let mut shadow = Vec::with_capacity(text.len());
        let mut offsets = Vec::with_capacity(text.len() + 1);
        for (i, c) in text.char_indices() {
            let b = if c.is_ascii() {
                c as u8
            } else if c == '\u{FEFF}' {
                FEFF
            } else if is_unicode_space(c) {
                b' '
            } else if let Some(&(_, b)) = QUOTES.iter().find(|(q, _)| *q == c) {
                b
            } else {
                OTHER
            };
            shadow.push(b);
            offsets.push(i);
        }
        offsets.push(text.len());
        Hay {
            text,
            shadow: Some(Cow::Owned(shadow)),
            offsets: Some(offsets),
        }
    }

    /// The same text matched only by the Unicode regexes (to check the shadow against them).
    #[cfg(test)]
    pub fn unicode_only(text: &'t str) -> Self {
        Hay {
            text,
            shadow: None,
            offsets: None,
        }
    }

    #[cfg(test)]
    pub fn has_shadow(&self) -> bool {
        self.shadow.is_some()
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    fn orig(&self, i: usize) -> usize {
        self.offsets.as_ref().map_or(i, |o| o[i])
    }

    fn span(&self, s: usize, e: usize) -> Span {
        (self.orig(s), self.orig(e))
    }
}

/// Rewrites a pattern for the shadow: `\s` and the curly quotes as in the module doc.
/// Everything else keeps its meaning under ASCII rules.
fn shadow_pattern(p: &str) -> String {
    let mut out = p.replace(r"\s", SHADOW_WS);
    for (q, b) in QUOTES {
        out = out.replace(q, &format!(r"\x{b:02X}"));
    }
    out
}

/// The shadow form of `src`, with a cache in this thread's slot.
fn build_shadow(src: &str) -> Shadow {
    use regex_automata::util::syntax;
    let re = ShadowRegex::builder()
        .configure(
            ShadowRegex::config()
                .hybrid_cache_capacity(DFA_CACHE)
                .utf8_empty(false)
                .backtrack(false)
                .onepass(false),
        )
        .syntax(
            syntax::Config::new()
                .unicode(false)
                .utf8(false)
                .case_insensitive(true),
        )
        .build(src)
        .expect("static pattern");
    let cache = re.create_cache();
    let empty = cache.memory_usage();
    let caches = empty_slots();
    *lock(&caches[slot()]) = Some(cache);
    Shadow { re, caches, empty }
}

/// One case-insensitive pattern, compiled lazily in each of its two forms.
pub struct Pattern {
    /// The pattern for the Unicode regex, without the `(?i)` flag.
    unicode_src: String,
    shadow_src: String,
    unicode: Compiled<Regex>,
    shadow: Compiled<Shadow>,
}

impl Pattern {
    /// `unicode_src` is the exact pattern of the reference regex (case-insensitive); the
    /// shadow form is derived from `pattern`, the same pattern before its `\s` and `\b` were
    /// spelled for Unicode mode.
    pub fn new(pattern: &str, unicode_src: String) -> Self {
        Pattern {
            unicode_src,
            shadow_src: shadow_pattern(pattern),
            unicode: Compiled::new(),
            shadow: Compiled::new(),
        }
    }

    fn unicode(&self) -> Arc<Regex> {
        self.unicode.get_or_init(|| {
            regex::RegexBuilder::new(&format!("(?i){}", self.unicode_src))
                .dfa_size_limit(DFA_CACHE)
                .build()
                .expect("static pattern")
        })
    }

    fn shadow(&self) -> Arc<Shadow> {
        self.shadow.get_or_init(|| build_shadow(&self.shadow_src))
    }

    /// Compiles the regex now (the fuzz targets' per-input time bound must not pay for it).
    pub fn warm(&self) {
        self.shadow();
    }

    /// Every non-overlapping match, leftmost first.
    pub fn spans(&self, hay: &Hay) -> Vec<Span> {
        match &hay.shadow {
            Some(s) => {
                let c = self.shadow();
                let mut held = lock(c.cache());
                let cache = held.get_or_insert_with(|| c.re.create_cache());
                let before = cache.memory_usage();
                let mut it = Searcher::new(Input::new(s.as_ref()));
                let mut out = Vec::new();
                while let Some(m) = it.advance(|i| Ok(c.re.search_with(cache, i))) {
                    out.push(hay.span(m.start(), m.end()));
                }
                settle(&mut held, before, regex_automata::meta::Cache::memory_usage);
                out
            }
            None => self
                .unicode()
                .find_iter(hay.text)
                .map(|m| (m.start(), m.end()))
                .collect(),
        }
    }

    /// The first of at most `limit` matches, leftmost first, for which `f` gives a value;
    /// walked lazily, so a text with millions of matches costs no memory for them.
    pub fn first_where<T>(
        &self,
        hay: &Hay,
        limit: usize,
        mut f: impl FnMut(Span) -> Option<T>,
    ) -> Option<T> {
        match &hay.shadow {
            Some(s) => {
                let c = self.shadow();
                let before = lock(c.cache())
                    .as_ref()
                    .map_or(c.empty, |c| c.memory_usage());
                let mut it = Searcher::new(Input::new(s.as_ref()));
                let mut found = None;
                for _ in 0..limit {
                    // The cache is released before `f` runs: `f` may match this pattern too.
                    let m = {
                        let mut held = lock(c.cache());
                        let cache = held.get_or_insert_with(|| c.re.create_cache());
                        it.advance(|i| Ok(c.re.search_with(cache, i)))
                    };
                    let Some(m) = m else { break };
                    found = f(hay.span(m.start(), m.end()));
                    if found.is_some() {
                        break;
                    }
                }
                settle(
                    &mut lock(c.cache()),
                    before,
                    regex_automata::meta::Cache::memory_usage,
                );
                found
            }
            None => self
                .unicode()
                .find_iter(hay.text)
                .take(limit)
                .find_map(|m| f((m.start(), m.end()))),
        }
    }

    /// The leftmost match.
    pub fn find(&self, hay: &Hay) -> Option<Span> {
        match &hay.shadow {
            Some(s) => {
                let c = self.shadow();
                let mut held = lock(c.cache());
                let cache = held.get_or_insert_with(|| c.re.create_cache());
                let before = cache.memory_usage();
                let m = c.re.search_with(cache, &Input::new(s.as_ref()));
                settle(&mut held, before, regex_automata::meta::Cache::memory_usage);
                m.map(|m| hay.span(m.start(), m.end()))
            }
            None => self.unicode().find(hay.text).map(|m| (m.start(), m.end())),
        }
    }

    /// Every match with the span of the first of `names` that took part in it.
    pub fn captures(&self, hay: &Hay, names: &[&str]) -> Vec<(Span, Option<Span>)> {
        match &hay.shadow {
            Some(s) => {
                let c = self.shadow();
                let mut held = lock(c.cache());
                let cache = held.get_or_insert_with(|| c.re.create_cache());
                let before = cache.memory_usage();
                let mut caps = c.re.create_captures();
                let mut it = Searcher::new(Input::new(s.as_ref()));
                let mut out = Vec::new();
                while let Some(m) = it.advance(|i| {
                    c.re.search_captures_with(cache, i, &mut caps);
                    Ok(caps.get_match())
                }) {
                    let g = names.iter().find_map(|n| caps.get_group_by_name(n));
                    out.push((
                        hay.span(m.start(), m.end()),
                        g.map(|g| hay.span(g.start, g.end)),
                    ));
                }
                settle(&mut held, before, regex_automata::meta::Cache::memory_usage);
                out
            }
            None => self
                .unicode()
                .captures_iter(hay.text)
                .filter_map(|c| {
                    let m = c.get(0)?;
                    let g = names.iter().find_map(|n| c.name(n));
                    Some(((m.start(), m.end()), g.map(|g| (g.start(), g.end()))))
                })
                .collect(),
        }
    }
}

/// A set of case-insensitive patterns, compiled lazily in each of its two forms.
pub struct PatternSet {
    unicode_src: Vec<String>,
    shadow_src: Vec<String>,
    unicode: Compiled<RegexSet>,
    shadow: Compiled<BytesSet>,
}

impl PatternSet {
    /// `(pattern, unicode_src)` pairs as for [`Pattern::new`].
    pub fn new(patterns: impl IntoIterator<Item = (String, String)>) -> Self {
        let (shadow_src, unicode_src) = patterns
            .into_iter()
            .map(|(p, u)| (shadow_pattern(&p), u))
            .unzip();
        PatternSet {
            unicode_src,
            shadow_src,
            unicode: Compiled::new(),
            shadow: Compiled::new(),
        }
    }

    fn shadow(&self) -> Arc<BytesSet> {
        self.shadow.get_or_init(|| {
            RegexSetBuilder::new(&self.shadow_src)
                .dfa_size_limit(DFA_CACHE)
                .unicode(false)
                .case_insensitive(true)
                .build()
                .expect("static set")
        })
    }

    fn unicode(&self) -> Arc<RegexSet> {
        self.unicode.get_or_init(|| {
            regex::RegexSetBuilder::new(self.unicode_src.iter().map(|p| format!("(?i){p}")))
                .dfa_size_limit(DFA_CACHE)
                .build()
                .expect("static set")
        })
    }

    /// Compiles the set now (see [`Pattern::warm`]).
    pub fn warm(&self) {
        self.shadow();
    }

    /// Indexes of the patterns that match somewhere, ascending.
    pub fn matches(&self, hay: &Hay) -> Vec<usize> {
        match &hay.shadow {
            Some(s) => self.shadow().matches(s).into_iter().collect(),
            None => self.unicode().matches(hay.text).into_iter().collect(),
        }
    }

    pub fn is_match(&self, hay: &Hay) -> bool {
        match &hay.shadow {
            Some(s) => self.shadow().is_match(s),
            None => self.unicode().is_match(hay.text),
        }
    }
}

/// A prefilter over many patterns: false only when none of them matches. Forward lazy DFAs
/// over the shadow, without captures: the meta `RegexSet` of the same ~30 patterns also
/// built a reverse NFA and PikeVM state for match positions a gate never asks for, and held
/// 7.7 MiB of a 19 MiB run (#12's memory bound).
pub struct Gate {
    shadow_src: Vec<String>,
    groups: Compiled<Option<Vec<GateGroup>>>,
}

/// Patterns per automaton of the gate: one automaton over all ~30 peaked at 2.8 MB of heap
/// while it was built (half of a whole run's peak on a real server); built a few at a time,
/// the same automata peak far lower for a few more passes over each (short) text.
const GATE_GROUP: usize = 7;

/// One lazy DFA of the gate and the index of its first pattern.
struct GateGroup {
    dfa: regex_automata::hybrid::dfa::DFA,
    /// One per [`SLOTS`]; `None` after [`trim`] until the next text (see [`Shadow`]).
    caches: [Mutex<Option<regex_automata::hybrid::dfa::Cache>>; SLOTS],
    /// What an empty cache holds.
    empty: usize,
    first: usize,
}

impl Gate {
    /// `(pattern, unicode_src)` pairs as for [`Pattern::new`]; only the shadow form is used.
    /// At most 64 patterns (the answer is a bit set).
    pub fn new(patterns: impl IntoIterator<Item = (String, String)>) -> Self {
        let shadow_src: Vec<String> = patterns
            .into_iter()
            .map(|(p, _)| shadow_pattern(&p))
            .collect();
        assert!(shadow_src.len() <= 64, "a gate holds at most 64 patterns");
        Gate {
            shadow_src,
            groups: Compiled::new(),
        }
    }

    fn groups(&self) -> Arc<Option<Vec<GateGroup>>> {
        self.groups.get_or_init(|| {
            self.shadow_src
                .chunks(GATE_GROUP)
                .enumerate()
                .map(|(g, chunk)| build_gate_group(chunk, g * GATE_GROUP))
                .collect()
        })
    }

    /// Compiles the gate now (see [`Pattern::warm`]).
    pub fn warm(&self) {
        self.groups();
    }

    /// Which patterns may match `hay`: a pattern left out surely does not. Texts without a
    /// shadow (the tests' Unicode-only reference) and a DFA that could not answer let every
    /// pattern through.
    pub fn which(&self, hay: &Hay) -> GateHits {
        let groups = self.groups();
        let (Some(s), Some(groups)) = (&hay.shadow, groups.as_deref()) else {
            return GateHits(None);
        };
        let input = regex_automata::Input::new(s.as_ref());
        let mut bits = 0u64;
        for g in groups {
            let mut held = lock(&g.caches[slot()]);
            let cache = held.get_or_insert_with(|| g.dfa.create_cache());
            let before = cache.memory_usage();
            let mut hits = regex_automata::PatternSet::new(g.dfa.pattern_len());
            let answered = g
                .dfa
                .try_which_overlapping_matches(cache, &input, &mut hits)
                .is_ok();
            settle(
                &mut held,
                before,
                regex_automata::hybrid::dfa::Cache::memory_usage,
            );
            if !answered {
                return GateHits(None);
            }
            for id in hits.iter() {
                bits |= 1 << (g.first + id.as_usize());
            }
        }
        GateHits(Some(bits))
    }
}

/// One automaton of the gate over `patterns` (the gate's patterns from index `first`).
fn build_gate_group(patterns: &[String], first: usize) -> Option<GateGroup> {
    use regex_automata::{hybrid::dfa::DFA, nfa::thompson, MatchKind};
    let mut parser = regex_syntax::ParserBuilder::new();
    parser.unicode(false).utf8(false).case_insensitive(true);
    let hirs = patterns
        .iter()
        .map(|p| parser.build().parse(p).ok().map(|h| unbounded(&h)))
        .collect::<Option<Vec<_>>>()?;
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .utf8(false)
                .which_captures(thompson::WhichCaptures::None),
        )
        .build_many_from_hir(&hirs)
        .ok()?;
    drop(hirs);
    let dfa = DFA::builder()
        .configure(
            DFA::config()
                .cache_capacity(DFA_CACHE)
                .match_kind(MatchKind::All),
        )
        .build_from_nfa(nfa)
        .ok()?;
    let cache = dfa.create_cache();
    let empty = cache.memory_usage();
    let caches = empty_slots();
    *lock(&caches[slot()]) = Some(cache);
    Some(GateGroup {
        dfa,
        caches,
        empty,
        first,
    })
}

/// The answer of [`Gate::which`]: bit `i` set when pattern `i` may match; `None`: any may.
pub struct GateHits(Option<u64>);

impl GateHits {
    /// Pattern `i` of the gate may match.
    pub fn on(&self, i: usize) -> bool {
        self.0.is_none_or(|b| b & (1 << i) != 0)
    }

    /// Some pattern may match.
    pub fn any(&self) -> bool {
        self.0.is_none_or(|b| b != 0)
    }
}

/// The pattern with every counted repetition opened up (`x{0,160}` → `x*`, `x{2,8}` → `x+`):
/// it matches a superset of the texts, so it is still a sound prefilter, and its automaton
/// is a few states where the counted form unrolls each gap into one state per count.
fn unbounded(h: &regex_syntax::hir::Hir) -> regex_syntax::hir::Hir {
    use regex_syntax::hir::{Hir, HirKind, Repetition};
    match h.kind() {
        HirKind::Repetition(r) => {
            let sub = Box::new(unbounded(&r.sub));
            let counted = r.max.is_none_or(|m| m > 1);
            Hir::repetition(Repetition {
                min: if counted { r.min.min(1) } else { r.min },
                max: if counted { None } else { r.max },
                greedy: r.greedy,
                sub,
            })
        }
        HirKind::Concat(hs) => Hir::concat(hs.iter().map(unbounded).collect()),
        HirKind::Alternation(hs) => Hir::alternation(hs.iter().map(unbounded).collect()),
        // The gate never reports groups.
        HirKind::Capture(c) => unbounded(&c.sub),
        _ => h.clone(),
    }
}

/// True when the shadow gives exactly the Unicode regex's answers on `text`: no non-ASCII
/// word character (nor U+0085). Elsewhere the shadow reads such characters as ECMAScript
/// without the `u` flag does (not word characters, no case folding beyond ASCII).
#[cfg(test)]
fn shadow_exact(text: &str) -> bool {
    !text
        .chars()
        .any(|c| !c.is_ascii() && (c == '\u{85}' || regex_syntax::is_word_character(c)))
}

/// Test helper: asserts that the shadow and the Unicode regex agree on `text` (spans and
/// every named group), whenever the shadow is exact for it.
#[cfg(test)]
pub fn assert_agree(p: &Pattern, names: &[&str], text: &str) {
    let hay = Hay::new(text);
    if !hay.has_shadow() || !shadow_exact(text) {
        return;
    }
    let uni = Hay::unicode_only(text);
    assert_eq!(
        p.spans(&hay),
        p.spans(&uni),
        "{} on {text:?}",
        p.unicode_src
    );
    assert_eq!(p.find(&hay), p.find(&uni), "{} on {text:?}", p.unicode_src);
    if !names.is_empty() {
        assert_eq!(
            p.captures(&hay, names),
            p.captures(&uni, names),
            "{} on {text:?}",
            p.unicode_src
        );
    }
}

#[cfg(test)]
pub fn assert_set_agrees(p: &PatternSet, text: &str) {
    let hay = Hay::new(text);
    if hay.has_shadow() && shadow_exact(text) {
        assert_eq!(
            p.matches(&hay),
            p.matches(&Hay::unicode_only(text)),
            "{text:?}"
        );
    }
}

/// Test corpus: every line of the security corpora and the given texts, each also with
/// non-ASCII characters the shadow handles (dashes, curly quotes, Unicode spaces, U+FEFF,
/// emoji, invisible and bidi characters) put in at pseudo-random places or in place of
/// spaces and quotes.
#[cfg(test)]
pub fn variants(extra: &[&str]) -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/security/");
    let mut base: Vec<String> = ["poisoned.txt", "benign.txt"]
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(format!("{dir}{f}"))
                .unwrap_or_default()
                .lines()
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect();
    base.extend(extra.iter().map(|s| s.to_string()));
    let inserts = [
        "\u{2014}",
        "\u{2019}",
        "\u{2018}",
        "\u{201C}",
        "\u{201D}",
        "\u{A0}",
        "\u{3000}",
        "\u{FEFF}",
        "\u{1F600}",
        "\u{200B}",
        "\u{202E}",
        "\u{E0041}",
        "\u{2026}",
        "\u{2028}",
        "\u{B7}",
    ];
    let mut seed = 0x2545_F491_u64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut out = Vec::new();
    for t in &base {
        out.push(t.clone());
        for round in 0..6 {
            let chars: Vec<char> = t.chars().collect();
            let mut v = String::new();
            for c in chars {
                let ins = inserts[next(inserts.len())];
                match (round, c) {
                    (0, ' ') => v.push_str(["\u{A0}", "\u{2003}", "\u{FEFF}", "\u{3000}"][next(4)]),
                    (1, '\'') => v.push_str(["\u{2019}", "\u{2018}"][next(2)]),
                    (1, '"' | '`') => v.push_str(["\u{201C}", "\u{201D}"][next(2)]),
                    (2..=5, _) if next(12 - round) == 0 => {
                        v.push_str(ins);
                        v.push(c);
                    }
                    _ => v.push(c),
                }
            }
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gate lets through every pattern that matches (its patterns opened up are a
    /// superset), across group boundaries, and only those that may.
    #[test]
    fn gate_answers_a_superset_of_the_exact_matches() {
        let patterns: Vec<String> = (0..(GATE_GROUP * 2 + 3))
            .map(|i| format!(r"\bword{i}\b(?:[^.\n]){{0,12}}\bend{i}\b"))
            .collect();
        let gate = Gate::new(patterns.iter().map(|p| (p.clone(), p.clone())));
        let exact: Vec<Pattern> = patterns
            .iter()
            .map(|p| Pattern::new(p, p.clone()))
            .collect();
        let texts = [
            "word3 then end3. word16 x end16".to_string(),
            "WORD0 END0 and word9 and then much later, past the gap of twelve, end9".to_string(),
            "nothing to see".to_string(),
        ];
        for t in &texts {
            let hay = Hay::new(t);
            let hits = gate.which(&hay);
            for (i, p) in exact.iter().enumerate() {
                if p.find(&hay).is_some() {
                    assert!(hits.on(i), "pattern {i} matches {t:?} but the gate says no");
                }
            }
        }
        let hits = gate.which(&Hay::new(&texts[0]));
        assert!(hits.on(3) && hits.on(16) && !hits.on(0) && !hits.on(9));
        // Opened up: the gate may say yes where the counted gap says no (word9 … end9).
        assert!(gate.which(&Hay::new(&texts[1])).on(9));
        assert!(!gate.which(&Hay::new(&texts[2])).any());
    }

    /// A long text of varied words with the patterns' verbs, gaps and targets scattered in
    /// it: the lazy DFAs of gap patterns meet many states on it.
    fn long_varied_text() -> String {
        const WORDS: [&str; 24] = [
            "send", "the", "shape", "to", "a", "cell", "post", "into", "edge", "when", "style",
            "write", "vertex", "parent", "with", "x", "y", "width", "height", "value", "in",
            "mxGraph", "<", ">",
        ];
        let mut seed: u32 = 12345;
        let mut out = String::new();
        while out.len() < 40_000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            out.push_str(WORDS[(seed >> 16) as usize % WORDS.len()]);
            out.push(if seed % 11 == 0 { '\n' } else { ' ' });
        }
        out
    }

    /// Past its limit a slot's caches are emptied, and only that slot's: the other thread
    /// of a parallel scan keeps its states (#12's bound per thread, #13's speed).
    #[test]
    fn trim_empties_one_slots_caches_past_its_limit() {
        // Built outside the registry of compiled forms, so no other test's trim reaches it.
        let pat = r"\b(?:send|post|write)\w*(?:[^.\n]|\.\S){0,160}\b(?:to|into|in)\b(?:[^.\n]){0,80}\bcell\b";
        let c = Arc::new(in_slot(0, || build_shadow(&shadow_pattern(pat))));
        let search = |slot: usize, text: &str| {
            let mut held = lock(&c.caches[slot]);
            let cache = held.get_or_insert_with(|| c.re.create_cache());
            c.re.search_with(cache, &Input::new(text)).is_some()
        };
        assert!(search(0, "send the shape to a cell"));
        assert!(search(1, "post the edge into a cell"));
        let live: Vec<Arc<dyn Held>> = vec![c.clone()];
        let used = c.cache_bytes(1);
        assert!(used > 0, "the search grew slot 1's cache");
        assert!(
            !trim_slot(&live, 1, used),
            "at the limit nothing is emptied"
        );
        assert!(lock(&c.caches[1]).is_some());
        assert!(trim_slot(&live, 1, used - 1));
        assert!(
            lock(&c.caches[1]).is_none(),
            "past it, slot 1's caches are emptied"
        );
        assert!(lock(&c.caches[0]).is_some(), "slot 0's are not");
        // Emptied, the slot still searches: a fresh cache is made on need.
        assert!(search(1, "write it in a cell"));
        assert!(lock(&c.caches[1]).is_some());
        // `in_slot` puts the thread's slot back, also after a panic.
        let _ = std::panic::catch_unwind(|| in_slot(1, || panic!("inside slot 1")));
        assert_eq!(slot(), 0);
    }

    /// A long text frees the caches it grew (draw.io's 34 KB description broke #12's bound);
    /// short texts keep them warm, so ordinary listings do not rebuild states per text.
    #[test]
    fn a_search_that_grows_a_cache_far_frees_it() {
        let pat = r"\b(?:send|post|write)\w*(?:[^.\n]|\.\S){0,160}\b(?:to|into|in)\b(?:[^.\n]){0,80}\bcell\b";
        let long = long_varied_text();
        let p = Pattern::new(pat, pat.to_string());
        assert!(!p.spans(&Hay::new("send the shape to a cell")).is_empty());
        let c = p.shadow();
        assert!(lock(c.cache()).is_some(), "a short text keeps its cache");
        assert!(!p.spans(&Hay::new(&long)).is_empty());
        assert!(lock(c.cache()).is_none(), "the long text's growth was kept");
        assert!(p.find(&Hay::new(&long)).is_some());
        assert!(lock(c.cache()).is_none());
        assert!(p
            .first_where(&Hay::new(&long), 1000, |_| None::<()>)
            .is_none());
        assert!(lock(c.cache()).is_none());

        // Gaps in the gate are opened up, so its automata grow on the mix of several.
        let gate_pats: Vec<String> = [
            ("send", "cell"),
            ("post", "edge"),
            ("write", "style"),
            ("when", "value"),
            ("parent", "width"),
            ("vertex", "height"),
            ("into", "mxGraph"),
        ]
        .iter()
        .map(|(a, b)| format!(r"\b{a}\b(?:[^.\n]){{0,160}}\b{b}\b"))
        .collect();
        let gate = Gate::new(gate_pats.iter().map(|p| (p.clone(), p.clone())));
        assert!(gate.which(&Hay::new("send the shape to a cell")).on(0));
        let groups = gate.groups();
        let group = &groups.as_deref().expect("gate builds")[0];
        assert!(
            lock(&group.caches[0]).is_some(),
            "a short text keeps its cache"
        );
        assert!(gate.which(&Hay::new(&long)).on(0));
        assert!(
            lock(&group.caches[0]).is_none(),
            "the long text's growth was kept"
        );
    }

    #[test]
    fn shadow_maps_characters_and_offsets() {
        let t = "a\u{2014}b\u{3000}c\u{FEFF}d\u{2019}e";
        let h = Hay::new(t);
        assert_eq!(
            h.shadow.as_deref(),
            Some(&[b'a', OTHER, b'b', b' ', b'c', FEFF, b'd', 0x82, b'e'][..])
        );
        assert_eq!(h.span(1, 2), (1, 4));
        assert_eq!(h.span(8, 9), (t.len() - 1, t.len()));
        // Every text has a shadow (#13): non-ASCII letters read as ECMAScript without the
        // `u` flag reads them (not word characters, no folding of U+212A or U+017F).
        for word in [
            "caf\u{E9}",
            "\u{212A}ey",
            "\u{17F}end",
            "a\u{200D}b",
            "x\u{85}y",
        ] {
            assert!(Hay::new(word).shadow.is_some(), "{word:?}");
            assert!(!shadow_exact(word) || word == "a\u{200D}b", "{word:?}");
        }
        assert!(matches!(Hay::new("plain").shadow, Some(Cow::Borrowed(_))));
    }
}

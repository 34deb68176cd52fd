//! Lockfile reader (v1 migration and v2, tree path and the v2 text fast path) over
//! arbitrary text. Property: a lockfile that reads renders to text that reads back and
//! renders to the same text again (a baseline survives a write and a read). Compared as
//! text, not as structs: numbers are JavaScript numbers in a lockfile, so `0e61` read as a
//! float is written `0` and read back as an integer, the same number (seeds/lockfile/float-zero.json).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcpward_fuzz::bounded;
// Crate API used (re-point here after a move):
use mcpward::surface::lockfile::parse;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    bounded("lockfile parse", || {
        let Ok(loaded) = parse(text) else {
            return;
        };
        let rendered = loaded.lockfile.render();
        let again = match parse(&rendered) {
            Ok(l) => l,
            Err(e) => panic!("rendered lockfile does not read back: {e}\n{rendered}"),
        };
        assert_eq!(again.lockfile.render(), rendered, "render is not stable");
    });
});

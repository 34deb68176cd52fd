//! Lockfile reader (v1 migration and v2, tree path and the v2 text fast path) over
//! arbitrary text. Property: a lockfile that reads renders to text that reads back to the
//! same lockfile, and renders the same again (a baseline survives a write and a read).
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
        assert_eq!(
            again.lockfile, loaded.lockfile,
            "round trip changed the lockfile"
        );
        assert_eq!(again.lockfile.render(), rendered, "render is not stable");
    });
});

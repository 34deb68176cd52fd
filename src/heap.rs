//! Hands freed heap pages back to the system. glibc keeps what was freed resident for
//! reuse, so pages freed by one phase of a run would otherwise count beside what the next
//! phase pages in (#12's peak RSS bound). Elsewhere (musl, macOS, Windows) it does nothing.

/// Returns the heap's free pages to the system.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks glibc's own arenas; no Rust object is touched.
    unsafe {
        nix::libc::malloc_trim(0);
    }
}

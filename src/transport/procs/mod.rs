//! Ending a stdio server's whole process tree (DECISIONS #8), one interface per OS so the
//! wire (stdio.rs) has none of its own:
//!
//! - [`prepare`] the command before spawn,
//! - [`ServerTree::attach`] right after spawn,
//! - [`ServerTree::end`] once the server's stdin is closed: wait up to the grace period,
//!   then end everything that is left.
//!
//! Unix (unix.rs): process group, plus on Linux a subreaper and a /proc walk; TERM, then
//! KILL. Windows (windows.rs): a Job Object that kills its members when terminated or
//! closed. docs/decisions.md ("Process-tree cleanup per OS") has the details.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{adopt_orphans, end_strays, kill_unended, prepare, ServerTree};

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::{prepare, ServerTree};

/// A Job Object kills its members when its last handle closes, which an abort does too.
#[cfg(windows)]
pub fn kill_unended() {}

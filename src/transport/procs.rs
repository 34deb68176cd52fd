//! Process-tree cleanup for stdio servers (DECISIONS #8): the server runs in its own
//! process group, mcpward is a child subreaper so orphaned descendants are re-parented to
//! it, and close walks /proc to signal every descendant, including ones that left the
//! group or session.

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use std::collections::{BTreeMap, BTreeSet};

/// Become a subreaper so grandchildren that escape (setsid, double fork) stay findable.
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        let _ = nix::sys::prctl::set_child_subreaper(true);
    }
}

/// (pid, ppid, pgid) of every process, read from /proc. Empty where /proc is unavailable.
fn process_table() -> Vec<(i32, i32, i32)> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The command name may contain spaces and parentheses: fields start after the last ')'.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() < 3 || fields[0] == "Z" {
            continue;
        }
        if let (Ok(ppid), Ok(pgid)) = (fields[1].parse(), fields[2].parse()) {
            out.push((pid, ppid, pgid));
        }
    }
    out
}

/// Every live descendant of any root, plus every member of the given process group.
pub fn tree_of(roots: &[i32], pgid: Option<i32>) -> BTreeSet<i32> {
    let table = process_table();
    let mut children: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    for &(pid, ppid, _) in &table {
        children.entry(ppid).or_default().push(pid);
    }
    let me = std::process::id() as i32;
    let mut found = BTreeSet::new();
    let mut stack: Vec<i32> = roots.to_vec();
    while let Some(p) = stack.pop() {
        for &c in children.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
            if c != me && found.insert(c) {
                stack.push(c);
            }
        }
    }
    if let Some(g) = pgid {
        for &(pid, _, pg) in &table {
            if pg == g && pid != me {
                found.insert(pid);
            }
        }
    }
    found
}

pub fn signal_all(pids: &BTreeSet<i32>, pgid: Option<i32>, sig: Signal) {
    if let Some(g) = pgid {
        let _ = killpg(Pid::from_raw(g), sig);
    }
    for &p in pids {
        let _ = kill(Pid::from_raw(p), sig);
    }
}

/// Reap re-parented zombies so they do not accumulate while mcpward runs.
pub fn reap_orphans() {
    use nix::sys::wait::{waitpid, WaitPidFlag};
    for _ in 0..256 {
        match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
            Ok(nix::sys::wait::WaitStatus::StillAlive) | Err(_) => break,
            Ok(_) => continue,
        }
    }
}

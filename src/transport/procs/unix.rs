//! Unix: the server runs in its own process group; on Linux mcpward is also a child
//! subreaper so orphaned descendants are re-parented to it, and close walks /proc to
//! signal every descendant, including ones that left the group or session. Elsewhere
//! (macOS, no /proc) the process group is what can be reached, and it gets the same
//! TERM-then-KILL sequence.

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
#[cfg(target_os = "linux")]
use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;
use tokio::process::{Child, Command};

/// Before spawn: the server leads a new process group (and, for the CLI, mcpward becomes
/// a subreaper first, so grandchildren that escape stay findable).
pub fn prepare(cmd: &mut Command, sweep_all: bool) {
    if sweep_all {
        become_subreaper();
    }
    cmd.process_group(0);
}

/// The server's process tree, as far as it can be found.
pub struct ServerTree {
    /// The server's pid, which is also its process group id.
    pid: Option<i32>,
    /// Signal every descendant of mcpward on close (the CLI owns no other children).
    sweep_all: bool,
    /// `end` ran; otherwise dropping the tree (an interrupt while connecting, a panic)
    /// kills what it can find at once.
    ended: std::sync::atomic::AtomicBool,
}

/// Trees attached and not yet ended or dropped, as (process group, sweep_all): what
/// [`kill_unended`] must reach when a panic ends mcpward. The release build aborts on a
/// panic (Cargo.toml), so no destructor runs then.
static UNENDED: Mutex<Vec<(i32, bool)>> = Mutex::new(Vec::new());

fn forget(pgid: Option<i32>) {
    if let (Some(g), Ok(mut live)) = (pgid, UNENDED.lock()) {
        live.retain(|&(p, _)| p != g);
    }
}

/// Kills every server tree not yet ended, at once (no grace period): the panic hook's
/// cleanup. Never blocks: a panic raised while the list was held skips it.
pub fn kill_unended() {
    if let Ok(live) = UNENDED.try_lock() {
        kill_now(&live);
    }
}

fn kill_now(trees: &[(i32, bool)]) {
    for &(g, sweep_all) in trees {
        let roots = if sweep_all {
            vec![std::process::id() as i32]
        } else {
            vec![g]
        };
        kill_until_gone(&roots, Some(g));
    }
}

impl ServerTree {
    /// Right after spawn.
    pub fn attach(child: &Child, sweep_all: bool) -> ServerTree {
        let pid = child.id().map(|p| p as i32);
        if let (Some(g), Ok(mut live)) = (pid, UNENDED.lock()) {
            live.push((g, sweep_all));
        }
        ServerTree {
            pid,
            sweep_all,
            ended: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// After the server's stdin was closed (transport.md §8.3, extended to the whole tree,
    /// DECISIONS #8): wait, SIGTERM everything, wait, SIGKILL everything, reap, sweep.
    pub async fn end(&self, child: &mut Child, grace: Duration) {
        self.ended.store(true, std::sync::atomic::Ordering::SeqCst);
        forget(self.pid);
        let pgid = self.pid;
        let roots = self.roots();
        // Remember the tree while the server is alive: once it exits, its children are
        // re-parented and only the subreaper walk (sweep_all) can still find them.
        let mut known = tree_of(&roots, pgid);
        let exited = tokio::time::timeout(grace, child.wait()).await.is_ok();
        known.extend(tree_of(&roots, pgid));
        if !exited {
            signal_all(&known, pgid, Signal::SIGTERM);
            if tokio::time::timeout(grace, child.wait()).await.is_err() {
                signal_all(&known, pgid, Signal::SIGKILL);
                let _ = child.kill().await;
            }
        }
        let _ = child.wait().await;
        self.sweep(&roots, pgid, known, grace).await;
    }

    fn roots(&self) -> Vec<i32> {
        if self.sweep_all {
            vec![std::process::id() as i32]
        } else {
            self.pid.into_iter().collect()
        }
    }

    /// Descendants that outlive the server (escaped into their own session, ignoring
    /// SIGTERM) get the same TERM-then-KILL treatment.
    async fn sweep(&self, roots: &[i32], pgid: Option<i32>, known: BTreeSet<i32>, grace: Duration) {
        let alive = |set: &BTreeSet<i32>| {
            let mut now = tree_of(roots, pgid);
            now.extend(set.iter().copied().filter(|p| is_alive(*p)));
            now
        };
        let rest = alive(&known);
        if rest.is_empty() {
            return;
        }
        signal_all(&rest, pgid, Signal::SIGTERM);
        let deadline = tokio::time::Instant::now() + grace;
        while tokio::time::Instant::now() < deadline {
            if self.sweep_all {
                reap_orphans();
            }
            if alive(&rest).is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        for _ in 0..5 {
            let left = alive(&rest);
            if left.is_empty() {
                break;
            }
            signal_all(&left, pgid, Signal::SIGKILL);
            tokio::time::sleep(Duration::from_millis(20)).await;
            if self.sweep_all {
                reap_orphans();
            }
        }
    }
}

impl Drop for ServerTree {
    /// The tree was never ended (mcpward was interrupted while connecting, or a panic
    /// unwound): no grace period is left, so everything found is killed. `kill_on_drop`
    /// alone would reach only the server process, not its group or escaped descendants.
    fn drop(&mut self) {
        forget(self.pid);
        if self.pid.is_none() || self.ended.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        kill_until_gone(&self.roots(), self.pid);
    }
}

/// SIGKILLs the tree, then looks again: a child forked after the first look that left the
/// group (setsid) before the group was signalled is found on the second, re-parented to
/// mcpward once its parent is dead. Bounded: a tree that keeps forking gets five rounds.
fn kill_until_gone(roots: &[i32], pgid: Option<i32>) {
    for round in 0..5 {
        let found = tree_of(roots, pgid);
        if found.is_empty() && round > 0 {
            return;
        }
        signal_all(&found, pgid, Signal::SIGKILL);
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A fleet (#15): escaped grandchildren of any member are re-parented to mcpward, so
/// [`end_strays`] can still find them once every member has closed.
pub fn adopt_orphans() {
    become_subreaper();
}

/// A fleet's last step: every descendant still alive (a member's escaped grandchild) gets
/// TERM, then KILL after `grace`. Members end only their own trees, since ending every
/// descendant would end the other members' servers.
pub async fn end_strays(grace: Duration) {
    let tree = ServerTree {
        pid: None,
        sweep_all: true,
        ended: std::sync::atomic::AtomicBool::new(true),
    };
    let roots = tree.roots();
    tree.sweep(&roots, None, BTreeSet::new(), grace).await;
}

/// Become a subreaper so grandchildren that escape (setsid, double fork) stay findable.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        let _ = nix::sys::prctl::set_child_subreaper(true);
    }
}

/// (pid, ppid, pgid) of every process, read from /proc.
#[cfg(target_os = "linux")]
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
#[cfg(target_os = "linux")]
fn tree_of(roots: &[i32], pgid: Option<i32>) -> BTreeSet<i32> {
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

/// Without /proc, descendants cannot be listed; the process group is what can be reached.
/// While the group has any member its id stands for it (a live group's id is never handed
/// out as a new pid), and [`signal_all`] signals the whole group through `killpg`.
#[cfg(not(target_os = "linux"))]
fn tree_of(_roots: &[i32], pgid: Option<i32>) -> BTreeSet<i32> {
    pgid.filter(|&g| killpg(Pid::from_raw(g), None).is_ok())
        .into_iter()
        .collect()
}

fn signal_all(pids: &BTreeSet<i32>, pgid: Option<i32>, sig: Signal) {
    if let Some(g) = pgid {
        let _ = killpg(Pid::from_raw(g), sig);
    }
    for &p in pids {
        let _ = kill(Pid::from_raw(p), sig);
    }
}

#[cfg(target_os = "linux")]
fn is_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rfind(')')
            .map(|i| !stat[i + 1..].trim_start().starts_with('Z'))
            .unwrap_or(false),
        Err(_) => false,
    }
}

#[cfg(not(target_os = "linux"))]
fn is_alive(pid: i32) -> bool {
    kill(Pid::from_raw(pid), None).is_ok()
}

/// Reap re-parented zombies so they do not accumulate while mcpward runs. Only a
/// subreaper (Linux) adopts orphans; elsewhere there is nothing of ours to reap here.
fn reap_orphans() {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
        for _ in 0..256 {
            match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) | Err(_) => break,
                Ok(_) => continue,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_tree_not_ended_is_killed_whole_by_the_panic_cleanup() {
        let mut cmd = Command::new("sh");
        // A grandchild in the group, then the server itself: both must go.
        cmd.args(["-c", "sleep 30 & exec sleep 30"]);
        prepare(&mut cmd, false);
        let mut child = cmd.spawn().expect("spawn sh");
        let tree = ServerTree::attach(&child, false);
        let g = tree.pid.expect("pid");
        let entry = *UNENDED
            .lock()
            .unwrap()
            .iter()
            .find(|e| e.0 == g)
            .expect("an attached tree is registered");
        tokio::time::sleep(Duration::from_millis(100)).await;
        let before = tree_of(&[g], Some(g));
        assert!(before.len() >= 2, "server and grandchild: {before:?}");
        // Only this test's tree: others of the test binary run beside it.
        kill_now(&[entry]);
        // Killed, the server is a zombie until reaped, which `is_alive` counts as gone.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while before.iter().any(|&p| is_alive(p)) && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let left: Vec<i32> = before.iter().copied().filter(|&p| is_alive(p)).collect();
        drop(tree); // kills whatever is left, so a failure leaves nothing behind
        let _ = child.wait().await;
        assert!(left.is_empty(), "left alive: {left:?}");
        assert!(!UNENDED.lock().unwrap().iter().any(|e| e.0 == g));
    }
}

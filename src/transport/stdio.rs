//! stdio wire: the server as a child process speaking line-delimited JSON-RPC.

use super::procs;
use super::rpc::Dispatcher;
use crate::observed::RpcError;
use serde_json::Value;
use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How much of the server's stderr we show when something goes wrong (the last bytes).
const STDERR_KEEP: usize = 16 * 1024;
/// Kept beyond `STDERR_KEEP` so a secret that began before the shown part is still whole
/// when the tail is redacted (then the partial line is dropped; see `Redactor::redact_tail`).
const STDERR_MARGIN: usize = 4 * 1024;
/// Grace periods of the shutdown sequence (transport.md §8.3).
const GRACE: Duration = Duration::from_secs(2);

pub struct StdioSpec {
    pub command: String,
    pub args: Vec<String>,
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    /// Signal every descendant of this process on close (the CLI owns no other children).
    /// Unix only: on Windows the server's job holds its whole tree anyway.
    pub sweep_all_descendants: bool,
}

pub struct StdioWire {
    out: mpsc::UnboundedSender<Vec<u8>>,
    child: tokio::sync::Mutex<Option<Child>>,
    stdin_closer: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    /// The server's process tree, ended as a whole on close (DECISIONS #8).
    tree: procs::ServerTree,
    stderr: Arc<Mutex<Tail>>,
    redactor: Arc<crate::redact::Redactor>,
    /// Something mcpward wrote reached the server's stdin pipe.
    wrote: Arc<AtomicBool>,
    /// A second handle on that pipe, to ask whether the server read what was written.
    /// Dropped first on shutdown: while it is open the server never sees stdin EOF.
    #[cfg(unix)]
    stdin_probe: Mutex<Option<std::os::fd::OwnedFd>>,
}

/// The bounded end of the server's stderr, and whether anything before it was dropped.
#[derive(Default)]
struct Tail {
    bytes: VecDeque<u8>,
    cut: bool,
}

impl StdioWire {
    pub fn spawn(spec: &StdioSpec, dispatcher: Arc<Dispatcher>) -> Result<Self, String> {
        let mut cmd = Command::new(&spec.command);
        cmd.args(&spec.args)
            .env_clear()
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        procs::prepare(&mut cmd, spec.sweep_all_descendants);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start server command \"{}\": {e}", spec.command))?;
        let tree = procs::ServerTree::attach(&child, spec.sweep_all_descendants);
        let stdin = child.stdin.take().ok_or("server stdin unavailable")?;
        let stdout = child.stdout.take().ok_or("server stdout unavailable")?;
        let stderr_pipe = child.stderr.take();

        let stderr = Arc::new(Mutex::new(Tail::default()));
        let redactor = dispatcher.guard.redactor.clone();
        if let Some(pipe) = stderr_pipe {
            tokio::spawn(keep_tail(pipe, stderr.clone()));
        }

        #[cfg(unix)]
        let stdin_probe = {
            use std::os::fd::AsFd;
            // Duplicated close-on-exec, so no later child inherits it.
            Mutex::new(stdin.as_fd().try_clone_to_owned().ok())
        };
        let wrote = Arc::new(AtomicBool::new(false));
        let (out_tx, out_rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let (close_tx, close_rx) = tokio::sync::oneshot::channel();
        tokio::spawn(writer(stdin, out_rx, close_rx, wrote.clone()));

        tokio::spawn(reader(stdout, dispatcher));

        Ok(StdioWire {
            out: out_tx,
            child: tokio::sync::Mutex::new(Some(child)),
            stdin_closer: Mutex::new(Some(close_tx)),
            tree,
            stderr,
            wrote,
            #[cfg(unix)]
            stdin_probe,
            redactor,
        })
    }

    /// When the server has exited (waiting up to `within` for it) without reading a byte
    /// of what mcpward wrote, its exit status: it ended at start-up on its own, not because
    /// of a request (a server that dies on the era probe reads the probe first). `None`
    /// when it still runs, read something, or this cannot be told (Windows, after a write).
    pub async fn exited_unread(&self, within: Duration) -> Option<String> {
        let status = self.exit_status(within).await?;
        let unread = !self.wrote.load(Ordering::SeqCst) || self.pipe_still_holds_data();
        unread.then_some(status)
    }

    /// The exit status once the server has exited, waiting up to `within`.
    pub async fn exit_status(&self, within: Duration) -> Option<String> {
        let mut guard = self.child.lock().await;
        let child = guard.as_mut()?;
        let status = tokio::time::timeout(within, child.wait())
            .await
            .ok()?
            .ok()?;
        Some(status.to_string())
    }

    #[cfg(unix)]
    fn pipe_still_holds_data(&self) -> bool {
        use std::os::fd::AsRawFd;
        let guard = self.stdin_probe.lock().unwrap_or_else(|e| e.into_inner());
        let Some(fd) = guard.as_ref() else {
            return false;
        };
        let mut n: nix::libc::c_int = 0;
        // SAFETY: FIONREAD writes one c_int through the pointer, which points at `n`; the
        // descriptor is owned by `self` and open for the duration of the call.
        let rc = unsafe { nix::libc::ioctl(fd.as_raw_fd(), nix::libc::FIONREAD, &mut n) };
        rc == 0 && n > 0
    }

    #[cfg(not(unix))]
    fn pipe_still_holds_data(&self) -> bool {
        false
    }

    pub fn send(&self, msg: &Value) -> Result<(), RpcError> {
        let mut line = serde_json::to_vec(msg).map_err(|e| RpcError::plain(e.to_string()))?;
        line.push(b'\n');
        self.out.send(line).map_err(|_| RpcError::not_connected())
    }

    /// The last lines the server wrote to stderr, redacted before they were cut.
    pub fn stderr_tail(&self) -> String {
        let buf = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = buf.bytes.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes);
        let redacted = self.redactor.redact_tail(&text, buf.cut);
        // Show at most STDERR_KEEP bytes: cut the redacted text at a line start if one is
        // near, else at a character boundary.
        if redacted.len() <= STDERR_KEEP {
            return redacted;
        }
        let mut start = redacted.len() - STDERR_KEEP;
        while !redacted.is_char_boundary(start) {
            start += 1;
        }
        let rest = &redacted[start..];
        match rest.find('\n') {
            Some(i) => format!("…{}", &rest[i + 1..]),
            None => format!("…{rest}"),
        }
    }

    /// Shutdown per transport.md §8.3, extended to the whole process tree (DECISIONS #8):
    /// end stdin, wait, then end what is left of the tree (Unix: SIGTERM, wait, SIGKILL,
    /// reap; Windows: terminate the job). See `procs`.
    pub async fn close(&self) {
        self.shutdown(GRACE).await
    }

    /// Shutdown of a server that already failed us (no handshake): short graces, so a
    /// hung server costs at most `connect_ms` plus well under a second.
    pub async fn abort(&self) {
        self.shutdown(Duration::from_millis(300)).await
    }

    async fn shutdown(&self, grace: Duration) {
        #[cfg(unix)]
        drop(
            self.stdin_probe
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take(),
        );
        if let Some(tx) = self
            .stdin_closer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            let _ = tx.send(());
        }
        let mut guard = self.child.lock().await;
        let Some(mut child) = guard.take() else {
            return;
        };
        self.tree.end(&mut child, grace).await;
    }
}

async fn writer(
    mut stdin: ChildStdin,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
    mut close: tokio::sync::oneshot::Receiver<()>,
    wrote: Arc<AtomicBool>,
) {
    loop {
        tokio::select! {
            _ = &mut close => {
                // Flush what was queued before the close (e.g. notifications/initialized
                // right after a handshake); select! alone may pick close first and drop it.
                while let Ok(bytes) = rx.try_recv() {
                    if stdin.write_all(&bytes).await.is_err() {
                        break;
                    }
                }
                let _ = stdin.flush().await;
                break;
            }
            msg = rx.recv() => match msg {
                Some(bytes) => {
                    if stdin.write_all(&bytes).await.is_err() || stdin.flush().await.is_err() {
                        break;
                    }
                    wrote.store(true, Ordering::SeqCst);
                }
                None => break,
            },
        }
    }
    let _ = stdin.shutdown().await;
}

/// Room a line buffer keeps between lines: a typical message fits; longer ones allocate anew.
const LINE_KEPT: usize = 64 * 1024;

/// Frames the server's stdout into lines and dispatches them; closes `d` at EOF.
/// Public for the fuzz target (fuzz/fuzz_targets/stdio_framer.rs).
pub async fn reader(stdout: impl AsyncRead + Unpin, d: Arc<Dispatcher>) {
    // Lines longer than the cap are discarded unread: a flooding server cannot make us
    // buffer without bound (#12 §2).
    let max_line = d.guard.limits.message_bytes;
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    let mut line: Vec<u8> = Vec::new();
    let mut oversized = false;
    while let Ok(buf) = r.fill_buf().await {
        if buf.is_empty() {
            if !line.is_empty() {
                handle_line(&d, &line);
            }
            break;
        }
        let (take, complete) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        let chunk = &buf[..take];
        let done = take + usize::from(complete);
        if !oversized {
            if line.len() + chunk.len() > max_line {
                oversized = true;
                line = Vec::new();
                // Said at once, not at the newline: a line may never end.
                d.oversized("a stdio line");
            } else {
                line.extend_from_slice(chunk);
            }
        }
        r.consume(done);
        if complete {
            if oversized {
                oversized = false;
            } else {
                handle_line(&d, &line);
            }
            line.clear();
            // The reader lives for the whole run: a page of a long listing (hundreds of KiB)
            // must not keep its room beside every later phase's heap (#12's RSS bound).
            if line.capacity() > LINE_KEPT {
                line = Vec::new();
            }
        }
    }
    d.close_all();
}

fn handle_line(d: &Dispatcher, line: &[u8]) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return;
    }
    if !d.dispatch_text(line) {
        d.record_stray(line);
    }
}

async fn keep_tail(mut pipe: impl AsyncRead + Unpin, buf: Arc<Mutex<Tail>>) {
    let mut chunk = vec![0u8; 8192];
    while let Ok(n) = pipe.read(&mut chunk).await {
        if n == 0 {
            break;
        }
        let mut b = buf.lock().unwrap_or_else(|e| e.into_inner());
        b.bytes.extend(&chunk[..n]);
        let excess = b.bytes.len().saturating_sub(STDERR_KEEP + STDERR_MARGIN);
        if excess > 0 {
            b.bytes.drain(..excess);
            b.cut = true;
        }
    }
}

//! Testing servers: one server's lanes (one per protocol era), and a fleet of servers in
//! parallel (#15). The CLI decides what to print; this room connects, runs the families
//! through the runner, writes baselines, and hands back reports. It never prints to stdout.
//!
//! A fleet runs on the CLI's one async runtime: members are I/O-bound (their servers are
//! other processes), so `--jobs` members at a time interleave on one thread, and a slow
//! member never holds up the others' order, which is config order whatever finishes first.

use crate::checks;
use crate::config::{self, Loaded, Member, Transport};
use crate::drift_run::{self, Captured};
use crate::model::{Finding, FleetMember, MemberStatus, Report, ServerSummary, Shard};
use crate::observed::{Era, ServerHello};
use crate::protocol::versions::{effective_era, lanes, EraChoice};
use crate::redact::Redactor;
use crate::runner::{self, RunContext};
use crate::surface::lockfile::{self, BaselineState, Lockfile};
use crate::transport::http::HttpSpec;
use crate::transport::stdio::StdioSpec;
use crate::transport::{Client, ConnectOptions, Endpoint};
use serde_json::Value;
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Run { update_golden: bool },
    Diff,
    Baseline,
}

/// The era to connect in: `--protocol-era`, else `server.protocol_era`.
pub fn era_choice(cli: Option<EraChoice>, cfg: &config::Config) -> EraChoice {
    let chosen = cli.unwrap_or(cfg.server.protocol_era);
    // DECISIONS #33: expecting a legacy version means the legacy handshake.
    effective_era(chosen, cfg.expect.protocol_version.as_deref())
}

/// How to connect to the loaded server. `sweep_all`: on close, end every descendant of
/// mcpward (one server per process); a fleet ends only each member's own tree and sweeps
/// the rest once at the end ([`end_strays`]).
pub fn connect_options(loaded: &Loaded, era: EraChoice, sweep_all: bool) -> ConnectOptions {
    let cfg = &loaded.config;
    let endpoint = match &cfg.server.transport {
        Transport::Stdio { command, args, env } => Endpoint::Stdio(StdioSpec {
            command: command.clone(),
            args: args.clone(),
            env: config::server_env_for_spawn(env),
            sweep_all_descendants: sweep_all,
        }),
        Transport::Http { url, headers, auth } => Endpoint::Http(HttpSpec {
            url: url.clone(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            auth: auth.clone(),
        }),
    };
    ConnectOptions {
        endpoint,
        connect_ms: cfg.timeouts.connect_ms,
        call_ms: cfg.timeouts.call_ms,
        era,
        guard: crate::transport::rpc::Guard {
            limits: cfg.limits,
            redactor: std::sync::Arc::new(redactor_of(loaded)),
        },
    }
}

pub fn redactor_of(loaded: &Loaded) -> Redactor {
    let mut redactor = Redactor::new();
    for s in &loaded.secrets {
        redactor.register(s);
    }
    redactor
}

/// The server as shown in human headers: the stdio command line or the URL, redacted.
pub fn server_display(loaded: &Loaded, redactor: &Redactor) -> String {
    match &loaded.config.server.transport {
        Transport::Stdio { command, args, .. } => {
            let mut s = command.clone();
            for a in args {
                s.push(' ');
                s.push_str(a);
            }
            redactor.redact_str(&s)
        }
        Transport::Http { url, .. } => redactor.redact_str(url),
    }
}

/// Why a server was not (fully) tested. `Fatal` reads `Error: …` on the CLI, `Verbatim`
/// is printed as it is.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    Fatal(String),
    Verbatim(String),
    Interrupted,
}

impl Stop {
    /// One line for a fleet member's reason.
    /// A fleet member's reason: the whole message (a crashed server's stderr tail is what
    /// tells the user what to do), without the CLI's `Error: ` prefix.
    pub fn reason(&self) -> String {
        match self {
            Stop::Fatal(m) | Stop::Verbatim(m) => {
                m.strip_prefix("Error: ").unwrap_or(m).trim().to_string()
            }
            Stop::Interrupted => "interrupted".into(),
        }
    }
}

/// A connection failure in the CLI's words: `run` as the original did, `diff` and
/// `baseline` as any other error; the server's last stderr lines follow.
pub fn connect_failure(
    e: &crate::transport::ConnectError,
    mode: Mode,
    redactor: &Redactor,
) -> Stop {
    let msg = redactor.redact_str(&e.message);
    let mut text = match mode {
        Mode::Run { .. } => format!("Failed to connect: {msg}"),
        _ => format!("Error: {msg}"),
    };
    let tail = e.server_stderr.trim();
    if !tail.is_empty() {
        text.push_str(&format!(
            "\nServer stderr (last lines):\n{}",
            redactor.redact_str(tail)
        ));
    }
    Stop::Verbatim(text)
}

/// `work` bounded by `timeouts.run_ms` and by an interrupt, whichever comes first: the
/// deadline wins, so nothing that settles during teardown is reported.
pub async fn within<T>(
    run_ms: u64,
    interrupt: &Interrupt,
    work: impl std::future::Future<Output = T>,
) -> Result<T, Stop> {
    tokio::select! {
        r = tokio::time::timeout(Duration::from_millis(run_ms), work) => {
            r.map_err(|_| deadline_stop(run_ms))
        }
        _ = interrupt() => Err(Stop::Interrupted),
    }
}

pub fn deadline_stop(run_ms: u64) -> Stop {
    Stop::Verbatim(format!(
        "Run exceeded timeouts.run_ms ({run_ms}ms) — results are incomplete"
    ))
}

/// Resolves when the user interrupts (SIGINT/SIGTERM); each wait gets a fresh future.
pub type Interrupt = dyn Fn() -> futures_util::future::LocalBoxFuture<'static, ()> + Sync;

/// Lines a run reports on stderr (`warn`) and, with `--verbose`, its progress.
pub struct Sink<'a> {
    pub warn: &'a dyn Fn(&str),
    pub progress: &'a dyn Fn(&str),
}

/// How a `run` of one server goes: golden files, process cleanup, redaction, where lines go.
#[derive(Clone, Copy)]
pub struct LaneOptions<'a> {
    pub update_golden: bool,
    /// End every descendant of mcpward on close (a single-server run).
    pub sweep_all: bool,
    pub redactor: &'a Redactor,
    pub sink: &'a Sink<'a>,
    pub interrupt: &'a Interrupt,
    /// The lockfile latency compares with when `checks.drift` names none (a fleet member's
    /// own `./mcpward.lock.<name>.json`); `None`: the drift config's.
    pub baseline: Option<&'a str>,
    /// Hand the listed tools back in [`Lane::tools`] (a fleet's cross-server findings read
    /// them); a single server's run does not, so its listing is never parsed again at the end.
    pub keep_tools: bool,
}

/// What one lane produced.
pub struct Lane {
    pub hello: ServerHello,
    pub findings: Vec<Finding>,
    /// The listed tools when they could be read (cross-server findings read them).
    pub tools: Option<Vec<Value>>,
}

/// `run` over one server in one era: connect, run every enabled family, close.
pub async fn run_lane(
    loaded: &Loaded,
    era: EraChoice,
    how: &LaneOptions<'_>,
) -> Result<Lane, (Stop, Option<crate::transport::ConnectError>)> {
    let LaneOptions {
        update_golden,
        sweep_all,
        redactor,
        sink,
        interrupt,
        baseline,
        keep_tools,
    } = *how;
    (sink.progress)("Connecting to server...");
    let client = tokio::select! {
        c = Client::connect(connect_options(loaded, era, sweep_all)) => c,
        _ = interrupt() => return Err((Stop::Interrupted, None)),
    };
    let client = match client {
        Ok(c) => c,
        Err(e) => {
            let stop = connect_failure(&e, Mode::Run { update_golden }, redactor);
            return Err((stop, Some(e)));
        }
    };
    for note in client.notes() {
        (sink.warn)(&redactor.redact_str(&note));
    }
    let run_ms = loaded.config.timeouts.run_ms;
    // A second connection (compliance/surface-stable) speaks the era the first one settled on.
    let era_used = settled(&client);
    let reconnect = || connect_options(loaded, era_used, sweep_all);
    let ctx = RunContext {
        config: &loaded.config,
        loaded,
        redactor,
        warn: sink.warn,
        config_dir: &loaded.dir,
        update_golden,
        progress: sink.progress,
        reconnect: Some(&reconnect),
        baseline,
    };
    let work = runner::run_families_keeping_tools(&client, &ctx, keep_tools);
    let (findings, tools) = match within(run_ms, interrupt, work).await {
        Ok(o) => o,
        Err(stop) => {
            if stop == Stop::Interrupted {
                (sink.progress)("Interrupted, cleaning up...");
            }
            client.close().await;
            return Err((stop, None));
        }
    };
    // Requests refused for want of a token tested nothing: the server was not fully tested.
    if let Some(e) = client.auth_failure() {
        client.close().await;
        let msg = redactor.redact_str(&e);
        return Err((
            Stop::Fatal(format!(
                "{msg}; the run was no longer authorized, so not every check ran"
            )),
            None,
        ));
    }
    let hello = client.hello().clone();
    client.close().await;
    Ok(Lane {
        hello,
        findings,
        tools,
    })
}

fn settled(client: &Client) -> EraChoice {
    match client.hello().era {
        Era::Legacy => EraChoice::Legacy,
        Era::Modern => EraChoice::Modern,
    }
}

/// A `run` of one server: one lane, or with `protocol_era: both` a modern and a legacy
/// lane, every finding marked with its era. A lane whose era the server does not speak is
/// one `skip`; when neither lane connects, the server was not tested.
pub async fn run_server(
    loaded: &Loaded,
    era: EraChoice,
    how: &LaneOptions<'_>,
) -> Result<Lane, Stop> {
    let wanted = lanes(era);
    if wanted.len() == 1 {
        return run_lane(loaded, era, how).await.map_err(|(s, _)| s);
    }
    let redactor = how.redactor;
    let mut done: Vec<(EraChoice, Result<Lane, Stop>)> = Vec::new();
    for lane in wanted {
        let r = run_lane(loaded, lane, how).await;
        match r {
            Err((Stop::Interrupted, _)) => return Err(Stop::Interrupted),
            // A lane that ran past its deadline leaves the server not fully tested.
            Err((stop, None)) => return Err(stop),
            // The connection's own words, without the CLI's `Failed to connect:` wording.
            Err((_, Some(e))) => {
                // The lane forced its era; the handshake's "protocol_era is …" wording
                // would name a setting the user did not write.
                let msg = redactor.redact_str(&e.message);
                let msg = msg
                    .strip_prefix(&format!("protocol_era is {}, but ", lane.as_str()))
                    .map(str::to_string)
                    .unwrap_or(msg);
                done.push((lane, Err(Stop::Fatal(msg))))
            }
            Ok(l) => done.push((lane, Ok(l))),
        }
    }
    if !done.iter().any(|(_, r)| r.is_ok()) {
        // Neither era connects: the server was not tested; the modern lane's failure says why.
        let (_, r) = done.swap_remove(0);
        let why = r.err().map(|s| s.reason()).unwrap_or_default();
        return Err(Stop::Verbatim(format!("Failed to connect: {why}")));
    }
    let mut findings = Vec::new();
    let mut hello = None;
    let mut tools = None;
    for (lane, r) in done {
        let name = lane.as_str();
        match r {
            Ok(l) => {
                findings.extend(l.findings.into_iter().map(|mut f| {
                    f.era = Some(name.to_string());
                    f
                }));
                if hello.is_none() {
                    hello = Some(l.hello);
                    tools = l.tools;
                }
            }
            Err(stop) => {
                let mut f = checks::compliance::era_lane_skipped(name, &stop.reason());
                f.era = Some(name.to_string());
                findings.push(f);
            }
        }
    }
    Ok(Lane {
        hello: hello.expect("one lane connected"),
        findings,
        tools,
    })
}

/// The report of a server's findings, redacted.
pub fn report_of(hello: &ServerHello, results: Vec<Finding>, redactor: &Redactor) -> Report {
    let mut report = Report::new(
        ServerSummary {
            name: hello.server_name(),
            version: hello.server_version(),
            protocol_version: hello.protocol_version.clone(),
        },
        results,
        crate::model::timestamp_now(),
    );
    redactor.redact_report(&mut report);
    report
}

/// The lockfile `baseline` pins, or why it must not be written: a cut listing is not the
/// server's contract (#12 §2), nor is a cut prompt or resource list (#14).
pub async fn capture_baseline(
    client: &Client,
    loaded: &Loaded,
    dcfg: &checks::drift::DriftConfig,
    redactor: &Redactor,
) -> Captured {
    let not_written = |why: String| {
        format!("{why}; the baseline was not written (raise limits.tools to pin the whole surface)")
    };
    let listing = client
        .list_tools_text()
        .await
        .and_then(|l| match client.listing_cut() {
            Some(why) => Err(not_written(why)),
            None => Ok(l),
        });
    let mut captured =
        drift_run::capture_surface(client, &listing, None, loaded, dcfg, redactor).await;
    if captured.lockfile.is_ok() {
        if let Some(why) = client.list_cut(&["prompts", "resources", "resourceTemplates"]) {
            captured.lockfile = Err(not_written(why));
        }
    }
    // #16 §4: with checks.latency on, the sampled p50/p95 go in the lockfile too.
    if let Ok(lockfile) = &mut captured.lockfile {
        lockfile.latency = runner::pin_latency(client, &loaded.config, &listing).await;
    }
    captured
}

/// What `baseline` prints once the lockfile is written (cli.md §5.3).
pub fn baseline_summary(
    hello: &ServerHello,
    lockfile: &Lockfile,
    notes: &[crate::surface::shape::SamplingNote],
    path: &str,
    redactor: &Redactor,
) -> String {
    let mut lines = vec![
        format!(
            "✓ Connected to {} v{}",
            redactor.redact_str(&hello.server_name()),
            redactor.redact_str(&hello.server_version())
        ),
        format!("✓ Captured {} tool(s)", lockfile.tools.len()),
    ];
    // `checks.drift.surface` beyond tools (#14); the counts carry no server text.
    lines.extend(
        lockfile
            .other
            .summary()
            .map(|s| format!("✓ Also pinned: {s}")),
    );
    if let Some(l) = &lockfile.latency {
        lines.push(format!("✓ Pinned latency of {} tool(s)", l.len()));
    }
    lines.push(format!("✓ Baseline saved to {path}"));
    for note in notes {
        lines.push(format!(
            "  output sampling: {} ({}): {}",
            redactor.redact_str(&note.tool),
            note.status.as_str(),
            redactor.redact_str(&note.reason)
        ));
    }
    lines.push(String::new());
    lines.push("Tools captured:".into());
    let mut tools: Vec<(&String, Vec<&str>)> = lockfile
        .tools
        .iter()
        .map(|(name, entry)| {
            let hint = |k: &str| {
                entry
                    .annotations
                    .as_ref()
                    .and_then(|a| a.get(k))
                    .and_then(Value::as_bool)
                    == Some(true)
            };
            let mut tags = Vec::new();
            if hint("readOnlyHint") {
                tags.push("readOnly");
            }
            if hint("destructiveHint") {
                tags.push("destructive");
            }
            (name, tags)
        })
        .collect();
    tools.sort_by(|a, b| a.0.cmp(b.0));
    for (name, tags) in tools {
        let name = redactor.redact_str(name);
        if tags.is_empty() {
            lines.push(format!("  • {name}"));
        } else {
            lines.push(format!("  • {name} [{}]", tags.join(", ")));
        }
    }
    lines.push(String::new());
    lines.push("Baseline captured successfully.".into());
    lines.push("Run \"mcpward diff\" to check for drift against this baseline.".into());
    lines.join("\n")
}

/// `checks.drift.baseline: ./locks/{server}.json` wants `./locks/`: made when missing.
pub fn create_parent(path: &str) -> Result<(), Stop> {
    match std::path::Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .map_err(|e| {
                Stop::Fatal(format!(
                    "cannot create {} for baseline {path}: {e}",
                    dir.display()
                ))
            }),
        _ => Ok(()),
    }
}

pub fn missing_baseline(path: &str) -> Stop {
    Stop::Fatal(format!(
        "baseline not found at {path}; run `mcpward baseline` first"
    ))
}

/// `diff` exits 2 without comparing when the baseline is missing or newer than supported
/// (DECISIONS #19); any other state is compared (an invalid file is a finding).
pub fn baseline_refused(state: &BaselineState) -> Option<Stop> {
    match state {
        BaselineState::Missing { path } => Some(missing_baseline(path)),
        BaselineState::Invalid(e) if e.is_too_new() => Some(Stop::Fatal(e.to_string())),
        _ => None,
    }
}

// ------------------------------------------------------------------ the fleet

/// Which members a run tests: `--server` names (in config order; an unknown name is a
/// usage error with a suggestion), then the `--shard` slice. Returns the whole selected
/// order (what `merge` rebuilds) and the members of this shard.
pub fn select<'m>(
    members: &'m [Member],
    names: &[String],
    shard: Option<Shard>,
) -> Result<(Vec<String>, Vec<&'m Member>), String> {
    for n in names {
        if !members.iter().any(|m| &m.name == n) {
            let known: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
            // A client entry's name as the client spells it (`My Server`) is known by its
            // cleaned-up name (`My-Server`).
            let cleaned = config::member_name(n);
            let hint = known
                .iter()
                .find(|k| **k == cleaned)
                .copied()
                .or_else(|| config::closest(n, &known))
                .map(|s| format!(" (did you mean \"{s}\"?)"))
                .unwrap_or_default();
            return Err(format!(
                "--server {n:?}: no such server in the config{hint}; servers: {}",
                known.join(", ")
            ));
        }
    }
    let chosen: Vec<&Member> = members
        .iter()
        .filter(|m| names.is_empty() || names.contains(&m.name))
        .collect();
    let order: Vec<String> = chosen.iter().map(|m| m.name.clone()).collect();
    let Some(shard) = shard else {
        return Ok((order, chosen));
    };
    let slice = shard_names(&order, shard);
    Ok((
        order,
        chosen
            .into_iter()
            .filter(|m| slice.contains(&m.name))
            .collect(),
    ))
}

/// The names of shard `I/N`: the fleet sorted by name, dealt round-robin, so the N slices
/// partition it exactly, differ in size by at most one, and a server's slice depends only
/// on the names, never on config order.
pub fn shard_names(order: &[String], shard: Shard) -> Vec<String> {
    let mut sorted: Vec<&String> = order.iter().collect();
    sorted.sort();
    sorted
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (*i as u32) % shard.count == shard.index - 1)
        .map(|(_, n)| n.clone())
        .collect()
}

/// `--shard I/N`, 1 ≤ I ≤ N.
pub fn parse_shard(s: &str) -> Result<Shard, String> {
    let bad = || format!("--shard {s:?}: expected I/N with 1 <= I <= N (e.g. 2/4)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let index: u32 = i.trim().parse().map_err(|_| bad())?;
    let count: u32 = n.trim().parse().map_err(|_| bad())?;
    if index == 0 || count == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

/// What a fleet run needs from the command line.
pub struct FleetOptions {
    pub mode: Mode,
    pub era_override: Option<EraChoice>,
    pub jobs: usize,
    /// Progress lines of every member on stderr, prefixed with its name.
    pub verbose: bool,
}

/// One member's outcome, before it becomes a [`FleetMember`].
pub struct MemberOut {
    pub name: String,
    pub report: Option<Report>,
    /// Why it was not fully tested.
    pub reason: Option<String>,
    pub tools: Vec<Value>,
    /// `baseline`: the summary lines of what was written.
    pub baseline: Option<String>,
    pub interrupted: bool,
}

/// Every member, `jobs` at a time, in config order whatever the completion order.
pub async fn run_members(
    members: &[&Member],
    opts: &FleetOptions,
    warn: &(dyn Fn(&str, &str) + Sync),
    interrupt: &Interrupt,
) -> Vec<MemberOut> {
    use futures_util::stream::{self, StreamExt};
    #[cfg(unix)]
    crate::transport::procs::adopt_orphans();
    let jobs = opts.jobs.max(1);
    // One compilation of the security patterns for every member, not one each.
    let _compiled = crate::checks::security::keep_compiled();
    let mut outs: Vec<(usize, MemberOut)> = stream::iter(members.iter().enumerate())
        .map(|(i, m)| async move { (i, test_member(m, opts, warn, interrupt).await) })
        .buffer_unordered(jobs)
        .collect()
        .await;
    outs.sort_by_key(|(i, _)| *i);
    #[cfg(unix)]
    crate::transport::procs::end_strays(Duration::from_millis(500)).await;
    outs.into_iter().map(|(_, o)| o).collect()
}

async fn test_member(
    member: &Member,
    opts: &FleetOptions,
    warn: &(dyn Fn(&str, &str) + Sync),
    interrupt: &Interrupt,
) -> MemberOut {
    let loaded = &member.loaded;
    let redactor = redactor_of(loaded);
    let name = member.name.as_str();
    let say = |line: &str| warn(name, line);
    let progress = |line: &str| {
        if opts.verbose {
            warn(name, line);
        }
    };
    let sink = Sink {
        warn: &say,
        progress: &progress,
    };
    let mut out = MemberOut {
        name: member.name.clone(),
        report: None,
        reason: None,
        tools: Vec::new(),
        baseline: None,
        interrupted: false,
    };
    let stop = match opts.mode {
        Mode::Run { update_golden } => {
            let era = era_choice(opts.era_override, &loaded.config);
            let own = member.baseline();
            let how = LaneOptions {
                update_golden,
                sweep_all: false,
                redactor: &redactor,
                sink: &sink,
                interrupt,
                baseline: Some(&own),
                keep_tools: true,
            };
            match run_server(loaded, era, &how).await {
                Ok(lane) => {
                    out.tools = lane
                        .tools
                        .unwrap_or_default()
                        .iter()
                        .map(|t| {
                            let mut t = t.clone();
                            redactor.redact_value(&mut t);
                            t
                        })
                        .collect();
                    out.report = Some(report_of(&lane.hello, lane.findings, &redactor));
                    None
                }
                Err(s) => Some(s),
            }
        }
        Mode::Diff => match diff_member(member, opts, &redactor, &sink, interrupt).await {
            Ok((report, invalid)) => {
                if invalid {
                    out.reason =
                        Some("the baseline could not be read, so drift was not tested".into());
                }
                out.report = Some(report);
                None
            }
            Err(s) => Some(s),
        },
        Mode::Baseline => match baseline_member(member, opts, &redactor, interrupt).await {
            Ok(lines) => {
                out.baseline = Some(lines);
                None
            }
            Err(s) => Some(s),
        },
    };
    if let Some(stop) = stop {
        out.interrupted = stop == Stop::Interrupted;
        out.reason = Some(redactor.redact_str(&stop.reason()));
    }
    out
}

async fn connect_for(
    loaded: &Loaded,
    opts: &FleetOptions,
    redactor: &Redactor,
    interrupt: &Interrupt,
) -> Result<Client, Stop> {
    // `both` is a `run` notion: `diff` and `baseline` pin the surface, which is one.
    let era = match era_choice(opts.era_override, &loaded.config) {
        EraChoice::Both => EraChoice::Auto,
        e => e,
    };
    let client = tokio::select! {
        c = Client::connect(connect_options(loaded, era, false)) => c,
        _ = interrupt() => return Err(Stop::Interrupted),
    };
    client.map_err(|e| connect_failure(&e, opts.mode, redactor))
}

/// The member's drift config with its own lockfile (the fleet default when drift is off).
fn member_drift(member: &Member) -> checks::drift::DriftConfig {
    let mut dcfg = drift_run::drift_config(&member.loaded);
    dcfg.baseline = member.baseline();
    dcfg
}

async fn diff_member(
    member: &Member,
    opts: &FleetOptions,
    redactor: &Redactor,
    sink: &Sink<'_>,
    interrupt: &Interrupt,
) -> Result<(Report, bool), Stop> {
    let loaded = &member.loaded;
    let dcfg = member_drift(member);
    let path = std::path::PathBuf::from(&dcfg.baseline);
    let state = lockfile::load(&path);
    if let Some(refused) = baseline_refused(&state) {
        return Err(refused);
    }
    let invalid = matches!(state, BaselineState::Invalid(_));
    let client = connect_for(loaded, opts, redactor, interrupt).await?;
    let run_ms = loaded.config.timeouts.run_ms;
    let ctx = RunContext {
        config: &loaded.config,
        loaded,
        redactor,
        warn: sink.warn,
        config_dir: &loaded.dir,
        update_golden: false,
        progress: sink.progress,
        reconnect: None,
        baseline: Some(&dcfg.baseline),
    };
    let work = async {
        let listing = client.list_tools_text().await;
        let pinned = runner::pinned_latency(&state);
        let mut findings = runner::drift(&client, &ctx, &dcfg, &listing, None, Some(state)).await;
        findings
            .extend(runner::latency_against(&client, ctx.config, &listing, pinned.as_ref()).await);
        findings
    };
    let outcome = within(run_ms, interrupt, work).await;
    let hello = client.hello().clone();
    client.close().await;
    outcome.map(|findings| (report_of(&hello, findings, redactor), invalid))
}

async fn baseline_member(
    member: &Member,
    opts: &FleetOptions,
    redactor: &Redactor,
    interrupt: &Interrupt,
) -> Result<String, Stop> {
    let loaded = &member.loaded;
    let dcfg = member_drift(member);
    let client = connect_for(loaded, opts, redactor, interrupt).await?;
    let run_ms = loaded.config.timeouts.run_ms;
    let captured = within(
        run_ms,
        interrupt,
        capture_baseline(&client, loaded, &dcfg, redactor),
    )
    .await;
    let hello = client.hello().clone();
    client.close().await;
    let captured = captured?;
    let lockfile = captured
        .lockfile
        .map_err(|e| Stop::Fatal(redactor.redact_str(&e)))?;
    create_parent(&dcfg.baseline)?;
    lockfile::write(std::path::Path::new(&dcfg.baseline), &lockfile)
        .map_err(|e| Stop::Fatal(format!("cannot write baseline {}: {e}", dcfg.baseline)))?;
    Ok(baseline_summary(
        &hello,
        &lockfile,
        &captured.notes,
        &dcfg.baseline,
        redactor,
    ))
}

/// A member as the fleet document shows it.
pub fn fleet_member(out: MemberOut) -> FleetMember {
    let status = match (&out.reason, &out.report) {
        (Some(_), _) | (None, None) => MemberStatus::Incomplete,
        (None, Some(r)) if r.exit_code() == 0 => MemberStatus::Passed,
        (None, Some(_)) => MemberStatus::Failed,
    };
    FleetMember {
        name: out.name,
        status,
        reason: out.reason,
        report: out.report,
        tools: out.tools,
    }
}

/// The cross-server findings of a fleet's members (collision and security families'
/// fleet checks), under the top-level checks.
pub fn cross_server(members: &[FleetMember], checks_cfg: &config::Checks) -> Vec<Finding> {
    let lists: Vec<(&str, &[Value])> = members
        .iter()
        .filter(|m| m.report.is_some())
        .map(|m| (m.name.as_str(), m.tools.as_slice()))
        .collect();
    // Family order, as within each server: security before collision.
    let security = checks::security::FleetConfig::new(checks_cfg.security, checks_cfg.toxic_flow);
    let mut out = checks::security::check_fleet(&lists, &security);
    if checks_cfg.collision.enabled {
        out.extend(checks::collision::check_fleet(
            &lists,
            &checks_cfg.collision,
        ));
    }
    out
}

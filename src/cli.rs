//! Command-line surface (cli.md). Every command returns `Result<Exit, Error>`; [`main`] is
//! the one place that prints an [`Error`] and turns the outcome into the exit code: 0 passed,
//! 1 a check failed, 2 nothing (or not everything) was tested, 130 interrupted.

use crate::config::{self, Fleet, Loaded, LoadedAny};
use crate::fleet::{self, Mode, Stop};
use crate::model::{FleetReport, Report};
use crate::protocol::versions::EraChoice;
use crate::publish::github::{self as pr_comment, PrContext};
use crate::redact::Redactor;
use crate::report::{self, RenderContext, ReporterKind};
use crate::runner::{self, RunContext};
use crate::transport::{Client, ConnectOptions};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "mcpward",
    about = "Contract tests for MCP servers: drift, compliance, tool poisoning, error contract",
    disable_version_flag = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// Config file, relative to the working directory
    #[arg(short = 'c', long, global = true, default_value = "mcpward.yaml")]
    pub config: PathBuf,
    /// Report format
    #[arg(short = 'r', long, global = true, value_enum, default_value_t = ReporterKind::Console)]
    pub reporter: ReporterKind,
    /// Write the (non-console) report to this file instead of stdout
    #[arg(short = 'o', long, global = true)]
    pub out: Option<PathBuf>,
    /// Shorthand for --reporter json (wins over --reporter)
    #[arg(long, global = true)]
    pub json: bool,
    /// Progress lines on stderr, and list passing results
    #[arg(short = 'v', long, global = true)]
    pub verbose: bool,
    /// Force a protocol era instead of server.protocol_era
    #[arg(long = "protocol-era", global = true, value_enum)]
    pub protocol_era: Option<EraChoice>,
    /// Post or update the report as a pull-request comment (GitHub Actions)
    #[arg(long = "pr-comment", global = true)]
    pub pr_comment: bool,
    /// Test only this server of a fleet config (repeatable)
    #[arg(long = "server", global = true, value_name = "NAME")]
    pub server: Vec<String>,
    /// Servers of a fleet tested at once [default: the number of CPUs]
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,
    /// Test only the I-th of N slices of the fleet (servers sorted by name, dealt round-robin)
    #[arg(long, global = true, value_name = "I/N")]
    pub shard: Option<String>,
    /// Print the version
    #[arg(short = 'V', long = "version")]
    pub version: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Scaffold a starter mcpward.yaml in the current directory
    Init,
    /// Capture the server's current contract surface into the lockfile
    Baseline,
    /// Show drift of the server's contract against the baseline lockfile
    Diff,
    /// Run all configured checks against the server
    Run {
        /// Write/refresh golden files of behavioral suites instead of failing on them
        #[arg(long)]
        update_golden: bool,
    },
    /// Combine the JSON fleet reports of shards (--shard) into one report of the whole fleet
    Merge {
        /// Fleet reports written by `run --json` on shards of one fleet
        #[arg(required = true, value_name = "REPORT")]
        reports: Vec<PathBuf>,
    },
}

/// How a command ended: the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: everything configured was tested and nothing failed.
    Pass,
    /// 1: a check failed.
    Fail,
    /// 2: nothing, or not everything, was tested (usage, config, connection, deadline,
    /// baseline); every [`Error`] but a help display and an interrupt ends this way.
    Incomplete,
    /// 130: SIGINT or SIGTERM.
    Interrupted,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Fail => 1,
            Exit::Incomplete => 2,
            Exit::Interrupted => 130,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> Self {
        ExitCode::from(e.code())
    }
}

/// Why a command ended without its normal outcome. [`main`] prints it on stderr (the
/// wording of each message is part of the CLI contract) and exits with [`Error::exit`].
#[derive(Debug)]
pub enum Error {
    /// clap's own message; help and `--version`-like displays exit 0, usage errors 2
    /// (DECISIONS #2).
    Usage(clap::Error),
    /// Printed as `Error: <message>`.
    Fatal(String),
    /// Printed as it is: messages with a wording of their own (`Failed to connect: …`,
    /// `Run exceeded timeouts.run_ms …`), possibly several lines.
    Verbatim(String),
    /// Nothing more to print: the interrupt was acknowledged while cleaning up.
    Interrupted,
}

impl Error {
    pub fn exit(&self) -> Exit {
        use clap::error::ErrorKind;
        match self {
            Error::Usage(e)
                if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) =>
            {
                Exit::Pass
            }
            Error::Interrupted => Exit::Interrupted,
            _ => Exit::Incomplete,
        }
    }

    fn print(&self) {
        match self {
            Error::Usage(e) => {
                let _ = e.print();
            }
            Error::Fatal(m) => err_line(&format!("Error: {m}")),
            Error::Verbatim(m) => err_line(m),
            Error::Interrupted => {}
        }
    }
}

impl From<clap::Error> for Error {
    fn from(e: clap::Error) -> Self {
        Error::Usage(e)
    }
}

pub fn main() -> ExitCode {
    match try_main() {
        Ok(exit) => exit.into(),
        Err(e) => {
            e.print();
            e.exit().into()
        }
    }
}

fn try_main() -> Result<Exit, Error> {
    let cli = Cli::try_parse()?;
    if cli.version {
        out_line(crate::VERSION);
        return Ok(Exit::Pass);
    }
    let Some(command) = cli.command.as_ref() else {
        return Err(Error::Verbatim(
            "error: a command is required (init, run, baseline, diff, merge); see `mcpward --help`"
                .into(),
        ));
    };
    match command {
        Command::Init => init(),
        Command::Run { update_golden } => with_runtime(run(
            &cli,
            Mode::Run {
                update_golden: *update_golden,
            },
        )),
        Command::Baseline => with_runtime(run(&cli, Mode::Baseline)),
        Command::Diff => with_runtime(run(&cli, Mode::Diff)),
        Command::Merge { reports } => with_runtime(merge(&cli, reports)),
    }
}

fn with_runtime(
    fut: impl std::future::Future<Output = Result<Exit, Error>>,
) -> Result<Exit, Error> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Fatal(format!("cannot start the async runtime: {e}")))?
        .block_on(fut)
}

/// stdout write that treats a closed pipe (`mcpward run | head`) as success.
/// A line on stderr. A closed stderr (`mcpward run -v … 2>&1 | true`) is not an error:
/// the run goes on silently (`eprintln!` would panic).
fn err_line(s: &str) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(e, "{s}");
}

fn out_line(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{s}");
    let _ = o.flush();
}

fn init() -> Result<Exit, Error> {
    let path = Path::new("mcpward.yaml");
    if path.exists() {
        out_line("Config file already exists: mcpward.yaml");
        return Ok(Exit::Pass);
    }
    // Atomic and no-clobber: never a half-written template, never over a file that
    // appeared between the check and the write.
    crate::fsutil::write_new_atomic(path, config::init_template().as_bytes())
        .map_err(|e| Error::Fatal(format!("cannot write mcpward.yaml: {e}")))?;
    out_line("Created mcpward.yaml\n\nNext steps:\n  1. Edit mcpward.yaml to configure your server\n  2. Run mcpward run to validate the server\n  3. Run mcpward baseline to create a lockfile");
    Ok(Exit::Pass)
}

/// `--json` wins over `--reporter` (cli.md §2.3).
fn reporter_kind(cli: &Cli) -> ReporterKind {
    if cli.json {
        ReporterKind::Json
    } else {
        cli.reporter
    }
}

fn load_config(cli: &Cli) -> Result<LoadedAny, Error> {
    let loaded = config::load_any(&cli.config).map_err(|e| Error::Fatal(e.to_string()))?;
    let warnings = match &loaded {
        LoadedAny::Single(l) => &l.warnings,
        LoadedAny::Fleet(f) => &f.warnings,
    };
    for w in warnings {
        err_line(&format!("Warning: {w}"));
    }
    Ok(loaded)
}

pub use crate::fleet::era_choice;

/// How to connect to a single-server config's server (one server per process: on close,
/// every descendant of mcpward is ended).
pub fn connect_options(loaded: &Loaded, era: EraChoice) -> ConnectOptions {
    fleet::connect_options(loaded, era, true)
}

/// Waits for SIGINT or SIGTERM.
#[cfg(unix)]
async fn interrupted() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

/// Waits for Ctrl-C (Windows: the console's Ctrl-C event; it reaches the server too).
#[cfg(not(unix))]
async fn interrupted() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

fn interrupt() -> futures_util::future::LocalBoxFuture<'static, ()> {
    Box::pin(interrupted())
}

impl From<Stop> for Error {
    fn from(s: Stop) -> Self {
        match s {
            Stop::Fatal(m) => Error::Fatal(m),
            Stop::Verbatim(m) => Error::Verbatim(m),
            Stop::Interrupted => Error::Interrupted,
        }
    }
}

/// What the work after connecting produced.
enum Outcome {
    Findings(Vec<crate::model::Finding>),
    Captured(Box<crate::drift_run::Captured>),
}

async fn run(cli: &Cli, mode: Mode) -> Result<Exit, Error> {
    let kind = reporter_kind(cli);
    let loaded = match load_config(cli)? {
        LoadedAny::Single(l) => l,
        LoadedAny::Fleet(f) => return run_fleet(cli, kind, mode, f).await,
    };
    if !cli.server.is_empty() || cli.shard.is_some() {
        let flag = if cli.server.is_empty() {
            "--shard"
        } else {
            "--server"
        };
        return Err(Error::Fatal(format!(
            "{flag} selects servers of a fleet, but {} names one `server:`; use `servers:` or `servers_from:` to test several",
            cli.config.display()
        )));
    }
    match mode {
        Mode::Run { update_golden } => run_single(cli, kind, &loaded, update_golden).await,
        Mode::Diff | Mode::Baseline => drift_single(cli, kind, mode, &loaded).await,
    }
}

/// `run` against the one server of the config: one lane, or one per era with `both`.
async fn run_single(
    cli: &Cli,
    kind: ReporterKind,
    loaded: &Loaded,
    update_golden: bool,
) -> Result<Exit, Error> {
    let mut redactor = fleet::redactor_of(loaded);
    let pr = pr_comment_context(cli, &mut redactor);
    let verbose = cli.verbose;
    let progress = move |line: &str| {
        if verbose {
            err_line(line);
        }
    };
    let warn = |line: &str| err_line(line);
    let sink = fleet::Sink {
        warn: &warn,
        progress: &progress,
    };
    let era = era_choice(cli.protocol_era, &loaded.config);
    let how = fleet::LaneOptions {
        update_golden,
        sweep_all: true,
        redactor: &redactor,
        sink: &sink,
        interrupt: &interrupt,
    };
    let lane = fleet::run_server(loaded, era, &how).await?;
    let report = fleet::report_of(&lane.hello, lane.findings, &redactor);
    finish_single(&report, kind, cli, loaded, pr.as_ref(), &redactor, false).await
}

/// `diff` and `baseline` against the one server of the config.
async fn drift_single(
    cli: &Cli,
    kind: ReporterKind,
    mode: Mode,
    loaded: &Loaded,
) -> Result<Exit, Error> {
    let mut redactor = fleet::redactor_of(loaded);
    let dcfg = crate::drift_run::drift_config(loaded);
    let mut baseline_invalid = false;
    let mut preloaded = None;
    // `diff` reads the baseline while the server starts and lists its tools (a 10,000-tool
    // lockfile is a noticeable read); its verdict is taken before the connection's.
    let mut baseline_loader = None;
    if mode == Mode::Diff {
        use crate::surface::lockfile;
        let path = std::path::PathBuf::from(&dcfg.baseline);
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(fleet::missing_baseline(&path.display().to_string()).into());
            }
            _ => baseline_loader = Some(std::thread::spawn(move || lockfile::load(&path))),
        }
        if kind == ReporterKind::Console {
            out_line(&format!(
                "Checking for drift...\nServer: {}\nBaseline: {}\n",
                fleet::server_display(loaded, &redactor),
                dcfg.baseline
            ));
        }
    } else {
        out_line(&format!(
            "Capturing baseline...\nServer: {}\nOutput: {}\n",
            fleet::server_display(loaded, &redactor),
            dcfg.baseline
        ));
    }
    // --pr-comment applies to run and diff (reporters.md §8).
    let pr = if mode == Mode::Baseline {
        None
    } else {
        pr_comment_context(cli, &mut redactor)
    };
    let verbose = cli.verbose;
    let progress = move |line: &str| {
        if verbose {
            err_line(line);
        }
    };
    let warn = |line: &str| err_line(line);
    progress("Connecting to server...");
    // `both` is a `run` notion: the surface `diff` and `baseline` pin is one.
    let era = match era_choice(cli.protocol_era, &loaded.config) {
        EraChoice::Both => EraChoice::Auto,
        e => e,
    };
    let client = tokio::select! {
        c = Client::connect(connect_options(loaded, era)) => c,
        _ = interrupted() => return Err(Error::Interrupted),
    };
    if let Some(loader) = baseline_loader {
        let state = loader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        if let Some(refused) = fleet::baseline_refused(&state) {
            if let Ok(c) = &client {
                c.close().await;
            }
            return Err(refused.into());
        }
        baseline_invalid = matches!(state, crate::surface::lockfile::BaselineState::Invalid(_));
        preloaded = Some(state);
    }
    let client = client.map_err(|e| Error::from(fleet::connect_failure(&e, mode, &redactor)))?;
    for note in client.notes() {
        err_line(&redactor.redact_str(&note));
    }
    let run_ms = loaded.config.timeouts.run_ms;
    let ctx = RunContext {
        config: &loaded.config,
        loaded,
        redactor: &redactor,
        warn: &warn,
        config_dir: &loaded.dir,
        update_golden: false,
        progress: &progress,
        reconnect: None,
    };
    let work = async {
        match mode {
            // Only the surface is needed: tools stay text until captured one at a time.
            Mode::Diff => {
                let listing = client.list_tools_text().await;
                let pinned = preloaded.as_ref().and_then(runner::pinned_latency);
                let mut findings =
                    runner::drift(&client, &ctx, &dcfg, &listing, None, preloaded).await;
                findings.extend(
                    runner::latency_against(&client, ctx.config, &listing, pinned.as_ref()).await,
                );
                Outcome::Findings(findings)
            }
            _ => Outcome::Captured(Box::new(
                fleet::capture_baseline(&client, loaded, &dcfg, &redactor).await,
            )),
        }
    };
    let outcome = match fleet::within(run_ms, &interrupt, work).await {
        Ok(o) => o,
        Err(stop) => {
            if verbose && stop == Stop::Interrupted {
                err_line("Interrupted, cleaning up...");
            }
            client.close().await;
            return Err(stop.into());
        }
    };
    let hello = client.hello().clone();
    let results = match outcome {
        Outcome::Findings(r) => {
            client.close().await;
            r
        }
        Outcome::Captured(captured) => {
            let crate::drift_run::Captured { lockfile, notes } = *captured;
            let lockfile = match lockfile {
                Ok(l) => l,
                Err(e) => {
                    client.close().await;
                    return Err(Error::Fatal(redactor.redact_str(&e)));
                }
            };
            if let Err(e) = fleet::create_parent(&dcfg.baseline) {
                client.close().await;
                return Err(e.into());
            }
            // The lockfile is rendered and written while the server shuts down.
            let path = dcfg.baseline.clone();
            let writer = std::thread::spawn(move || {
                let written =
                    crate::surface::lockfile::write(std::path::Path::new(&path), &lockfile);
                (lockfile, written)
            });
            client.close().await;
            let (lockfile, written) = writer
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            written.map_err(|e| {
                Error::Fatal(format!("cannot write baseline {}: {e}", dcfg.baseline))
            })?;
            out_line(&fleet::baseline_summary(
                &hello,
                &lockfile,
                &notes,
                &dcfg.baseline,
                &redactor,
            ));
            return Ok(Exit::Pass);
        }
    };
    let report = fleet::report_of(&hello, results, &redactor);
    // DECISIONS #20: an unreadable baseline means drift was not tested.
    finish_single(
        &report,
        kind,
        cli,
        loaded,
        pr.as_ref(),
        &redactor,
        baseline_invalid,
    )
    .await
}

/// Emit a single server's report, post the PR comment (even when the report could not be
/// written), and say how the command ends.
async fn finish_single(
    report: &Report,
    kind: ReporterKind,
    cli: &Cli,
    loaded: &Loaded,
    pr: Option<&PrContext>,
    redactor: &Redactor,
    incomplete: bool,
) -> Result<Exit, Error> {
    let outcome = emit(report, kind, cli, loaded).map(|()| {
        if incomplete {
            Exit::Incomplete
        } else if report.exit_code() == 0 {
            Exit::Pass
        } else {
            Exit::Fail
        }
    });
    if let Some(ctx) = pr {
        post_pr_comment(ctx, report, redactor).await;
    }
    outcome
}

/// `run`, `diff` or `baseline` over the servers of a fleet config (#15).
async fn run_fleet(
    cli: &Cli,
    kind: ReporterKind,
    mode: Mode,
    fleet_cfg: Fleet,
) -> Result<Exit, Error> {
    let shard = cli
        .shard
        .as_deref()
        .map(fleet::parse_shard)
        .transpose()
        .map_err(Error::Fatal)?;
    let (order, chosen) =
        fleet::select(&fleet_cfg.members, &cli.server, shard).map_err(Error::Fatal)?;
    let mut redactor = Redactor::new();
    for s in &fleet_cfg.secrets {
        redactor.register(s);
    }
    let pr = if mode == Mode::Baseline {
        None
    } else {
        pr_comment_context(cli, &mut redactor)
    };
    let jobs = cli.jobs.map(|j| j as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if mode == Mode::Baseline || kind == ReporterKind::Console {
        let what = match mode {
            Mode::Run { .. } => "Testing",
            Mode::Diff => "Checking for drift on",
            Mode::Baseline => "Capturing baselines of",
        };
        let of = match shard {
            Some(s) if chosen.is_empty() => format!(
                " (shard {}/{}: the {} server(s) of the fleet fill fewer shards)",
                s.index,
                s.count,
                order.len()
            ),
            Some(s) => format!(" (shard {}/{} of {})", s.index, s.count, order.len()),
            None => String::new(),
        };
        // The console report opens with its own blank line; baseline sections do not.
        let gap = if mode == Mode::Baseline { "\n" } else { "" };
        out_line(&format!(
            "{what} {} server(s){of}, {jobs} at a time...{gap}",
            chosen.len()
        ));
    }
    let warn = |name: &str, line: &str| err_line(&format!("[{name}] {line}"));
    let opts = fleet::FleetOptions {
        mode,
        era_override: cli.protocol_era,
        jobs,
        verbose: cli.verbose,
    };
    let outs = fleet::run_members(&chosen, &opts, &warn, &interrupt).await;
    if outs.iter().any(|o| o.interrupted) {
        return Err(Error::Interrupted);
    }
    if mode == Mode::Baseline {
        let mut incomplete = 0;
        let mut lines = Vec::new();
        for o in &outs {
            lines.push(format!("── {} ──", o.name));
            match (&o.baseline, &o.reason) {
                (Some(summary), _) => lines.push(summary.clone()),
                (None, reason) => {
                    incomplete += 1;
                    lines.push(format!(
                        "✗ No baseline written: {}",
                        reason.as_deref().unwrap_or("not tested")
                    ));
                }
            }
            lines.push(String::new());
        }
        lines.push(format!(
            "{} of {} baseline(s) written.",
            outs.len() - incomplete,
            outs.len()
        ));
        out_line(&redactor.redact_str(&lines.join("\n")));
        return Ok(if incomplete > 0 {
            Exit::Incomplete
        } else {
            Exit::Pass
        });
    }
    let members: Vec<_> = outs.into_iter().map(fleet::fleet_member).collect();
    let mut cross = if matches!(mode, Mode::Run { .. }) {
        fleet::cross_server(&members, &fleet_cfg.checks)
    } else {
        Vec::new()
    };
    for f in &mut cross {
        f.message = redactor.redact_str(&f.message);
        if let Some(l) = &f.location {
            f.location = Some(redactor.redact_str(l));
        }
    }
    let mut report = FleetReport::new(order, shard, members, cross, crate::model::timestamp_now());
    redactor.redact_fleet(&mut report);
    let exit = match report.summary.exit_code {
        0 => Exit::Pass,
        1 => Exit::Fail,
        _ => Exit::Incomplete,
    };
    let outcome = emit_fleet(&report, kind, cli, &fleet_cfg.path).map(|()| exit);
    if let Some(ctx) = &pr {
        post_fleet_comment(ctx, &report, &redactor).await;
    }
    outcome
}

/// Render and route a fleet document like [`emit`] does a report.
fn emit_fleet(
    report: &FleetReport,
    kind: ReporterKind,
    cli: &Cli,
    config_path: &Path,
) -> Result<(), Error> {
    let colour = report::colour_enabled(|k| std::env::var(k).ok(), is_tty());
    // SARIF regions point at each member's block (`servers.<name>…`) of the file.
    let key_lines = std::fs::read_to_string(config_path)
        .map(|t| config::lines::key_lines(&t))
        .unwrap_or_default();
    let ctx = RenderContext::new(colour, cli.verbose)
        .with_artifact_path(report::artifact_path_from_env(config_path))
        .with_config_lines(key_lines);
    let text = report::render_fleet(kind, report, &ctx);
    write_rendered(&text, kind, cli, colour)
}

async fn post_fleet_comment(ctx: &PrContext, report: &FleetReport, redactor: &Redactor) {
    let body = report::render_fleet(ReporterKind::Markdown, report, &RenderContext::default());
    publish_comment(ctx, &body, redactor).await;
}

/// The largest fleet report `merge` reads (a fleet of thousands of servers stays far below).
const MAX_FLEET_REPORT: u64 = 1 << 30;

/// `mcpward merge A.json B.json …`: the shards' fleet documents as the one document a run of
/// the whole fleet writes, rendered by any reporter. The cross-server findings are computed
/// again over every server, with the config's top-level checks (the defaults when there is
/// no config file).
async fn merge(cli: &Cli, files: &[PathBuf]) -> Result<Exit, Error> {
    use std::io::Read;
    let kind = reporter_kind(cli);
    let given = [
        (!cli.server.is_empty(), "--server"),
        (cli.shard.is_some(), "--shard"),
        (cli.jobs.is_some(), "--jobs"),
        (cli.protocol_era.is_some(), "--protocol-era"),
    ];
    if let Some((_, flag)) = given.iter().find(|(on, _)| *on) {
        return Err(Error::Fatal(format!(
            "{flag} applies to the runs that write the shards; merge combines their reports as they are"
        )));
    }
    let mut reports = Vec::with_capacity(files.len());
    for f in files {
        let mut text = String::new();
        std::fs::File::open(f)
            .and_then(|file| file.take(MAX_FLEET_REPORT + 1).read_to_string(&mut text))
            .map_err(|e| Error::Fatal(format!("cannot read {}: {e}", f.display())))?;
        if text.len() as u64 > MAX_FLEET_REPORT {
            return Err(Error::Fatal(format!(
                "{} is larger than {MAX_FLEET_REPORT} bytes; not a fleet report",
                f.display()
            )));
        }
        let report = FleetReport::from_json(&text)
            .map_err(|e| Error::Fatal(format!("{}: {e}", f.display())))?;
        reports.push(report);
    }
    let checks = match config::load_any(&cli.config) {
        Ok(LoadedAny::Fleet(f)) => f.checks,
        Ok(LoadedAny::Single(l)) => l.config.checks,
        Err(config::ConfigError::NotFound { .. }) => config::Checks::default(),
        Err(e) => {
            return Err(Error::Fatal(format!(
                "{e}\n(merge reads the config's checks to compute the cross-server findings; pass the shards' config with -c)"
            )))
        }
    };
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut redactor = Redactor::new();
    let pr = pr_comment_context(cli, &mut redactor);
    let cross = |members: &[crate::model::FleetMember]| fleet::cross_server(members, &checks);
    let merged =
        crate::model::merge(reports, &cross).map_err(|e| Error::Fatal(e.describe(&names)))?;
    let exit = match merged.exit_code() {
        0 => Exit::Pass,
        1 => Exit::Fail,
        _ => Exit::Incomplete,
    };
    let outcome = emit_fleet(&merged, kind, cli, &cli.config).map(|()| exit);
    if let Some(ctx) = &pr {
        post_fleet_comment(ctx, &merged, &redactor).await;
    }
    outcome
}

/// Render and route the report (cli.md §2.4): machine formats to `--out` or stdout,
/// console always to stdout.
pub fn emit(report: &Report, kind: ReporterKind, cli: &Cli, loaded: &Loaded) -> Result<(), Error> {
    let colour = report::colour_enabled(|k| std::env::var(k).ok(), is_tty());
    let ctx = RenderContext::new(colour, cli.verbose)
        .with_artifact_path(report::artifact_path_from_env(&loaded.path))
        .with_config_lines(loaded.key_lines.clone());
    let text = report::render(kind, report, &ctx);
    write_rendered(&text, kind, cli, colour)
}

/// Machine formats to `--out` (atomically) or stdout, console always to stdout.
fn write_rendered(text: &str, kind: ReporterKind, cli: &Cli, colour: bool) -> Result<(), Error> {
    match &cli.out {
        Some(path) if kind.writes_out_file() => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .map_err(|e| Error::Fatal(format!("cannot write {}: {e}", path.display())))?;
            if let Some(line) = report::written_line(kind, path) {
                out_line(&report::console::dim(&line, colour));
            }
        }
        _ => out_line(text),
    }
    Ok(())
}

fn is_tty() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
}

fn stderr_colour() -> bool {
    use std::io::IsTerminal;
    report::colour_enabled(|k| std::env::var(k).ok(), std::io::stderr().is_terminal())
}

/// `--pr-comment` setup (cli.md §8), before connecting: the token is registered for
/// redaction first, then the PR context is detected; outside a PR the skip reason goes to
/// stderr and the run continues without a comment.
pub fn pr_comment_context(cli: &Cli, redactor: &mut Redactor) -> Option<PrContext> {
    if !cli.pr_comment {
        return None;
    }
    let env = |k: &str| std::env::var(k).ok();
    if let Some(token) = pr_comment::token(env) {
        redactor.register(&token);
    }
    match pr_comment::detect(env) {
        Ok(ctx) => Some(ctx),
        Err(reason) => {
            let line = pr_comment::skipped_line(&redactor.redact_str(&reason));
            err_line(&report::console::dim(&line, stderr_colour()));
            None
        }
    }
}

/// Posts the Markdown rendering of the (redacted) report; only a stderr line comes out of
/// it, whatever happens: the exit code and stdout never change.
pub async fn post_pr_comment(ctx: &PrContext, report: &Report, redactor: &Redactor) {
    let body = report::render(ReporterKind::Markdown, report, &RenderContext::default());
    publish_comment(ctx, &body, redactor).await;
}

async fn publish_comment(ctx: &PrContext, body: &str, redactor: &Redactor) {
    let colour = stderr_colour();
    match pr_comment::publish(ctx, body).await {
        Ok(outcome) => err_line(&report::console::dim(&outcome.message(), colour)),
        Err(e) => {
            let line = pr_comment::warning_line(&redactor.redact_str(&e));
            err_line(&report::console::yellow(&line, colour));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_the_documented_ones() {
        let codes = [Exit::Pass, Exit::Fail, Exit::Incomplete, Exit::Interrupted].map(Exit::code);
        assert_eq!(codes, [0, 1, 2, 130]);
        assert_eq!(Error::Fatal("x".into()).exit(), Exit::Incomplete);
        assert_eq!(Error::Verbatim("x".into()).exit(), Exit::Incomplete);
        assert_eq!(Error::Interrupted.exit(), Exit::Interrupted);
        let help = Cli::try_parse_from(["mcpward", "--help"]).unwrap_err();
        assert_eq!(Error::from(help).exit(), Exit::Pass);
        let bad = Cli::try_parse_from(["mcpward", "run", "--reporter", "xml"]).unwrap_err();
        assert_eq!(Error::from(bad).exit(), Exit::Incomplete);
    }

    #[test]
    fn reporter_spellings_and_json_shorthand() {
        for k in ReporterKind::ALL {
            let cli = Cli::try_parse_from(["mcpward", "run", "-r", k.name()]).unwrap();
            assert_eq!(reporter_kind(&cli), k);
        }
        let cli = Cli::try_parse_from(["mcpward", "run", "--json", "-r", "sarif"]).unwrap();
        assert_eq!(reporter_kind(&cli), ReporterKind::Json);
        assert!(Cli::try_parse_from(["mcpward", "run", "-r", "JSON"]).is_err());
    }
}

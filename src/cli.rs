//! Command-line surface (cli.md). Every command returns `Result<Exit, Error>`; [`main`] is
//! the one place that prints an [`Error`] and turns the outcome into the exit code: 0 passed,
//! 1 a check failed, 2 nothing (or not everything) was tested, 130 interrupted.

use crate::config::{self, Loaded, Transport};
use crate::model::{Report, ServerSummary};
use crate::protocol::versions::{effective_era, EraChoice};
use crate::publish::github::{self as pr_comment, PrContext};
use crate::redact::Redactor;
use crate::report::{self, RenderContext, ReporterKind};
use crate::runner::{self, RunContext};
use crate::transport::http::HttpSpec;
use crate::transport::stdio::StdioSpec;
use crate::transport::{Client, ConnectOptions, Endpoint};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

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
            "error: a command is required (init, run, baseline, diff); see `mcpward --help`".into(),
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

fn load_config(cli: &Cli) -> Result<Loaded, Error> {
    let loaded = config::load(&cli.config).map_err(|e| Error::Fatal(e.to_string()))?;
    for w in &loaded.warnings {
        err_line(&format!("Warning: {w}"));
    }
    Ok(loaded)
}

pub fn era_choice(cli: Option<EraChoice>, cfg: &config::Config) -> EraChoice {
    let chosen = cli.unwrap_or(cfg.server.protocol_era);
    // DECISIONS #33: expecting a legacy version means the legacy handshake.
    effective_era(chosen, cfg.expect.protocol_version.as_deref())
}

pub fn connect_options(loaded: &Loaded, era: EraChoice) -> ConnectOptions {
    let cfg = &loaded.config;
    let endpoint = match &cfg.server.transport {
        Transport::Stdio { command, args, env } => Endpoint::Stdio(StdioSpec {
            command: command.clone(),
            args: args.clone(),
            env: config::server_env_for_spawn(env),
            sweep_all_descendants: true,
        }),
        Transport::Http { url, headers } => Endpoint::Http(HttpSpec {
            url: url.clone(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        }),
    };
    let mut redactor = crate::redact::Redactor::new();
    for s in &loaded.secrets {
        redactor.register(s);
    }
    ConnectOptions {
        endpoint,
        connect_ms: cfg.timeouts.connect_ms,
        call_ms: cfg.timeouts.call_ms,
        era,
        guard: crate::transport::rpc::Guard {
            limits: cfg.limits,
            redactor: std::sync::Arc::new(redactor),
        },
    }
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

/// `diff` exits 2 without comparing when the baseline is missing or newer than supported
/// (DECISIONS #19); any other state is compared (an invalid file is a finding).
fn baseline_refused(state: &crate::surface::lockfile::BaselineState) -> Option<Error> {
    use crate::surface::lockfile::BaselineState;
    match state {
        BaselineState::Missing { path } => Some(missing_baseline(path)),
        BaselineState::Invalid(e) if e.is_too_new() => Some(Error::Fatal(e.to_string())),
        _ => None,
    }
}

fn missing_baseline(path: &str) -> Error {
    Error::Fatal(format!(
        "baseline not found at {path}; run `mcpward baseline` first"
    ))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Run { update_golden: bool },
    Diff,
    Baseline,
}

/// What the work after connecting produced.
enum Outcome {
    Findings(Vec<crate::model::Finding>),
    Captured(Box<crate::drift_run::Captured>),
}

/// The server as shown in human headers: the stdio command line or the URL, redacted.
fn server_display(loaded: &Loaded, redactor: &Redactor) -> String {
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

async fn run(cli: &Cli, mode: Mode) -> Result<Exit, Error> {
    let kind = reporter_kind(cli);
    let loaded = load_config(cli)?;
    let mut redactor = Redactor::new();
    for s in &loaded.secrets {
        redactor.register(s);
    }
    let dcfg = crate::drift_run::drift_config(&loaded);
    let mut baseline_invalid = false;
    let mut preloaded = None;
    // `diff` reads the baseline while the server starts and lists its tools (a 10,000-tool
    // lockfile is a noticeable read); its verdict is taken before the connection's.
    let mut baseline_loader = None;
    match mode {
        Mode::Diff => {
            use crate::surface::lockfile;
            let path = std::path::PathBuf::from(&dcfg.baseline);
            match std::fs::metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Err(missing_baseline(&path.display().to_string()));
                }
                _ => baseline_loader = Some(std::thread::spawn(move || lockfile::load(&path))),
            }
            if kind == ReporterKind::Console {
                out_line(&format!(
                    "Checking for drift...\nServer: {}\nBaseline: {}\n",
                    server_display(&loaded, &redactor),
                    dcfg.baseline
                ));
            }
        }
        Mode::Baseline => out_line(&format!(
            "Capturing baseline...\nServer: {}\nOutput: {}\n",
            server_display(&loaded, &redactor),
            dcfg.baseline
        )),
        Mode::Run { .. } => {}
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
    let era = era_choice(cli.protocol_era, &loaded.config);
    let client = tokio::select! {
        c = Client::connect(connect_options(&loaded, era)) => c,
        _ = interrupted() => return Err(Error::Interrupted),
    };
    if let Some(loader) = baseline_loader {
        let state = loader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        if let Some(refused) = baseline_refused(&state) {
            if let Ok(c) = &client {
                c.close().await;
            }
            return Err(refused);
        }
        baseline_invalid = matches!(state, crate::surface::lockfile::BaselineState::Invalid(_));
        preloaded = Some(state);
    }
    let client = client.map_err(|e| {
        let msg = redactor.redact_str(&e.message);
        // `run` words it as the original did; `diff` and `baseline` as any other error.
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
        Error::Verbatim(text)
    })?;
    for note in client.notes() {
        err_line(&redactor.redact_str(&note));
    }
    let run_ms = loaded.config.timeouts.run_ms;
    let update_golden = matches!(
        mode,
        Mode::Run {
            update_golden: true
        }
    );
    // A second connection (compliance/surface-stable) speaks the era the first one settled on.
    let era_used = match client.hello().era {
        crate::observed::Era::Legacy => EraChoice::Legacy,
        crate::observed::Era::Modern => EraChoice::Modern,
    };
    let reconnect = || connect_options(&loaded, era_used);
    let ctx = RunContext {
        config: &loaded.config,
        loaded: &loaded,
        redactor: &redactor,
        warn: &warn,
        config_dir: &loaded.dir,
        update_golden,
        progress: &progress,
        reconnect: Some(&reconnect),
    };
    let work = async {
        match mode {
            Mode::Run { .. } => Outcome::Findings(runner::run_families(&client, &ctx).await),
            // Only the surface is needed: tools stay text until captured one at a time.
            Mode::Diff => {
                let listing = client.list_tools_text().await;
                Outcome::Findings(
                    runner::drift(&client, &ctx, &dcfg, &listing, None, preloaded).await,
                )
            }
            Mode::Baseline => {
                // A cut listing is not the server's contract: never pinned (#12 §2).
                let listing = client.list_tools_text().await.and_then(|l| {
                    match client.listing_cut() {
                        Some(why) => Err(format!(
                            "{why}; the baseline was not written (raise limits.tools to pin the whole surface)"
                        )),
                        None => Ok(l),
                    }
                });
                let mut captured = crate::drift_run::capture_surface(
                    &client, &listing, None, &loaded, &dcfg, &redactor,
                )
                .await;
                // Nor is a cut prompt or resource list (#14).
                if captured.lockfile.is_ok() {
                    if let Some(why) =
                        client.list_cut(&["prompts", "resources", "resourceTemplates"])
                    {
                        captured.lockfile = Err(format!(
                            "{why}; the baseline was not written (raise limits.tools to pin the whole surface)"
                        ));
                    }
                }
                Outcome::Captured(Box::new(captured))
            }
        }
    };
    let outcome = tokio::select! {
        r = tokio::time::timeout(Duration::from_millis(run_ms), work) => Some(r),
        _ = interrupted() => None,
    };
    let outcome = match outcome {
        Some(Ok(o)) => o,
        Some(Err(_)) => {
            // The deadline wins: nothing that settles during teardown is reported.
            client.close().await;
            return Err(Error::Verbatim(format!(
                "Run exceeded timeouts.run_ms ({run_ms}ms) — results are incomplete"
            )));
        }
        None => {
            if verbose {
                err_line("Interrupted, cleaning up...");
            }
            client.close().await;
            return Err(Error::Interrupted);
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
            finish_baseline(&hello, &lockfile, &notes, &dcfg.baseline, &redactor);
            return Ok(Exit::Pass);
        }
    };
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
    let outcome = emit(&report, kind, cli, &loaded).map(|()| {
        if baseline_invalid {
            // DECISIONS #20: an unreadable baseline means drift was not tested.
            Exit::Incomplete
        } else if report.exit_code() == 0 {
            Exit::Pass
        } else {
            Exit::Fail
        }
    });
    // The comment is posted even when the report could not be written.
    if let Some(ctx) = &pr {
        post_pr_comment(ctx, &report, &redactor).await;
    }
    outcome
}

/// Write the captured lockfile atomically and print what was captured (cli.md §5.3).
/// The summary of a written baseline.
fn finish_baseline(
    hello: &crate::observed::ServerHello,
    lockfile: &crate::surface::lockfile::Lockfile,
    notes: &[crate::surface::shape::SamplingNote],
    path: &str,
    redactor: &Redactor,
) {
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
                    .and_then(serde_json::Value::as_bool)
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
    out_line(&lines.join("\n"));
}

/// Render and route the report (cli.md §2.4): machine formats to `--out` or stdout,
/// console always to stdout.
pub fn emit(report: &Report, kind: ReporterKind, cli: &Cli, loaded: &Loaded) -> Result<(), Error> {
    let colour = report::colour_enabled(|k| std::env::var(k).ok(), is_tty());
    let ctx = RenderContext::new(colour, cli.verbose)
        .with_artifact_path(report::artifact_path_from_env(&loaded.path))
        .with_config_lines(loaded.key_lines.clone());
    let text = report::render(kind, report, &ctx);
    match &cli.out {
        Some(path) if kind.writes_out_file() => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .map_err(|e| Error::Fatal(format!("cannot write {}: {e}", path.display())))?;
            if let Some(line) = report::written_line(kind, path) {
                out_line(&report::console::dim(&line, colour));
            }
        }
        _ => out_line(&text),
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
    let colour = stderr_colour();
    match pr_comment::publish(ctx, &body).await {
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

//! Command-line surface (cli.md). `main` returns the exit code: 0 passed, 1 a check
//! failed, 2 nothing (or not everything) was tested, 130 interrupted.

use crate::config::{self, Loaded, Transport};
use crate::model::{Report, ServerSummary};
use crate::protocol::versions::{effective_era, EraChoice};
use crate::redact::Redactor;
use crate::report::pr_comment::{self, PrContext};
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
    /// Report format: console, json, junit, sarif, markdown, github, gitlab
    #[arg(short = 'r', long, global = true, default_value = "console")]
    pub reporter: String,
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

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => 0,
                _ => 2, // DECISIONS #2: usage errors exit 2
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    if cli.version {
        out_line(crate::VERSION);
        return ExitCode::SUCCESS;
    }
    let Some(command) = cli.command.as_ref() else {
        eprintln!("error: a command is required (init, run, baseline, diff); see `mcpward --help`");
        return ExitCode::from(2);
    };
    let code = match command {
        Command::Init => init(),
        Command::Run { update_golden } => with_runtime(run(
            &cli,
            Mode::Run {
                update_golden: *update_golden,
            },
        )),
        Command::Baseline => with_runtime(run(&cli, Mode::Baseline)),
        Command::Diff => with_runtime(run(&cli, Mode::Diff)),
    };
    ExitCode::from(code)
}

fn with_runtime(fut: impl std::future::Future<Output = u8>) -> u8 {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt.block_on(fut),
        Err(e) => {
            eprintln!("Error: cannot start the async runtime: {e}");
            2
        }
    }
}

/// stdout write that treats a closed pipe (`mcpward run | head`) as success.
fn out_line(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "{s}");
    let _ = o.flush();
}

fn init() -> u8 {
    let path = Path::new("mcpward.yaml");
    if path.exists() {
        out_line("Config file already exists: mcpward.yaml");
        return 0;
    }
    // Atomic and no-clobber: never a half-written template, never over a file that
    // appeared between the check and the write.
    let written = crate::fsutil::write_new_atomic(path, config::init_template().as_bytes());
    match written {
        Ok(()) => {
            out_line("Created mcpward.yaml\n\nNext steps:\n  1. Edit mcpward.yaml to configure your server\n  2. Run mcpward run to validate the server\n  3. Run mcpward baseline to create a lockfile");
            0
        }
        Err(e) => {
            eprintln!("Error: cannot write mcpward.yaml: {e}");
            2
        }
    }
}

fn reporter_kind(cli: &Cli) -> Result<ReporterKind, String> {
    if cli.json {
        return Ok(ReporterKind::Json);
    }
    cli.reporter
        .parse::<ReporterKind>()
        .map_err(|e| e.to_string())
}

fn load_config(cli: &Cli) -> Result<Loaded, u8> {
    match config::load(&cli.config) {
        Ok(l) => {
            for w in &l.warnings {
                eprintln!("Warning: {w}");
            }
            Ok(l)
        }
        Err(e) => {
            eprintln!("Error: {e}");
            Err(2)
        }
    }
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
fn baseline_refused(state: &crate::surface::lockfile::BaselineState) -> Option<u8> {
    use crate::surface::lockfile::BaselineState;
    match state {
        BaselineState::Missing { path } => {
            eprintln!("Error: baseline not found at {path}; run `mcpward baseline` first");
            Some(2)
        }
        BaselineState::Invalid(e) if e.is_too_new() => {
            eprintln!("Error: {e}");
            Some(2)
        }
        _ => None,
    }
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

async fn run(cli: &Cli, mode: Mode) -> u8 {
    let kind = match reporter_kind(cli) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let loaded = match load_config(cli) {
        Ok(l) => l,
        Err(code) => return code,
    };
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
            use crate::surface::lockfile::{self, BaselineState};
            let path = std::path::PathBuf::from(&dcfg.baseline);
            match std::fs::metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let missing = BaselineState::Missing {
                        path: path.display().to_string(),
                    };
                    return baseline_refused(&missing).unwrap_or(2);
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
            eprintln!("{line}");
        }
    };
    let warn = |line: &str| eprintln!("{line}");
    progress("Connecting to server...");
    let era = era_choice(cli.protocol_era, &loaded.config);
    let client = tokio::select! {
        c = Client::connect(connect_options(&loaded, era)) => c,
        _ = interrupted() => return 130,
    };
    if let Some(loader) = baseline_loader {
        let state = loader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        if let Some(code) = baseline_refused(&state) {
            if let Ok(c) = &client {
                c.close().await;
            }
            return code;
        }
        baseline_invalid = matches!(state, crate::surface::lockfile::BaselineState::Invalid(_));
        preloaded = Some(state);
    }
    let client = match client {
        Ok(c) => c,
        Err(e) => {
            let msg = redactor.redact_str(&e.message);
            match mode {
                Mode::Run { .. } => eprintln!("Failed to connect: {msg}"),
                _ => eprintln!("Error: {msg}"),
            }
            let tail = e.server_stderr.trim();
            if !tail.is_empty() {
                eprintln!("Server stderr (last lines):\n{}", redactor.redact_str(tail));
            }
            return 2;
        }
    };
    for note in client.notes() {
        eprintln!("{}", redactor.redact_str(&note));
    }
    let run_ms = loaded.config.timeouts.run_ms;
    let update_golden = matches!(
        mode,
        Mode::Run {
            update_golden: true
        }
    );
    let ctx = RunContext {
        config: &loaded.config,
        loaded: &loaded,
        redactor: &redactor,
        warn: &warn,
        config_dir: &loaded.dir,
        update_golden,
        progress: &progress,
    };
    let work = async {
        match mode {
            Mode::Run { .. } => Outcome::Findings(runner::run_families(&client, &ctx).await),
            // Only the surface is needed: tools stay text until captured one at a time.
            Mode::Diff => {
                let listing = client.list_tools_text().await;
                Outcome::Findings(runner::drift(&client, &ctx, &dcfg, &listing, preloaded).await)
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
                Outcome::Captured(Box::new(
                    crate::drift_run::capture_surface(&client, &listing, &loaded, &dcfg, &redactor)
                        .await,
                ))
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
            eprintln!("Run exceeded timeouts.run_ms ({run_ms}ms) — results are incomplete");
            client.close().await;
            return 2;
        }
        None => {
            if verbose {
                eprintln!("Interrupted, cleaning up...");
            }
            client.close().await;
            return 130;
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
                    eprintln!("Error: {}", redactor.redact_str(&e));
                    return 2;
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
            if let Err(e) = written {
                eprintln!("Error: cannot write baseline {}: {e}", dcfg.baseline);
                return 2;
            }
            return finish_baseline(&hello, &lockfile, &notes, &dcfg.baseline, &redactor);
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
    let code = match emit(&report, kind, cli, &loaded) {
        // DECISIONS #20: an unreadable baseline means drift was not tested.
        Ok(()) if baseline_invalid => 2,
        Ok(()) => report.exit_code(),
        Err(e) => {
            eprintln!("Error: {e}");
            2
        }
    };
    if let Some(ctx) = &pr {
        post_pr_comment(ctx, &report, &redactor).await;
    }
    code
}

/// Write the captured lockfile atomically and print what was captured (cli.md §5.3).
/// The summary of a written baseline.
fn finish_baseline(
    hello: &crate::observed::ServerHello,
    lockfile: &crate::surface::lockfile::Lockfile,
    notes: &[crate::surface::shape::SamplingNote],
    path: &str,
    redactor: &Redactor,
) -> u8 {
    let mut lines = vec![
        format!(
            "✓ Connected to {} v{}",
            redactor.redact_str(&hello.server_name()),
            redactor.redact_str(&hello.server_version())
        ),
        format!("✓ Captured {} tool(s)", lockfile.tools.len()),
        format!("✓ Baseline saved to {path}"),
    ];
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
    0
}

/// Render and route the report (cli.md §2.4): machine formats to `--out` or stdout,
/// console always to stdout.
pub fn emit(report: &Report, kind: ReporterKind, cli: &Cli, loaded: &Loaded) -> Result<(), String> {
    let colour = report::colour_enabled(|k| std::env::var(k).ok(), is_tty());
    let ctx = RenderContext::new(colour, cli.verbose)
        .with_artifact_path(report::artifact_path_from_env(&loaded.path));
    let text = report::render(kind, report, &ctx);
    match &cli.out {
        Some(path) if kind.writes_out_file() => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
            eprintln!("{}", report::console::dim(&line, stderr_colour()));
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
        Ok(outcome) => eprintln!("{}", report::console::dim(&outcome.message(), colour)),
        Err(e) => {
            let line = pr_comment::warning_line(&redactor.redact_str(&e));
            eprintln!("{}", report::console::yellow(&line, colour));
        }
    }
}

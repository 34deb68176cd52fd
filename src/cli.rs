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

mod contracts;
mod extras;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub mod suppress;

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
    /// Print only the summary line (the report file, if any, is still written whole)
    #[arg(short = 'q', long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Colour: auto (a terminal only; NO_COLOR, FORCE_COLOR and CLICOLOR_FORCE honoured), always, never
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    pub color: ColorWhen,
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
    /// A suppression that matched nothing fails the run (config/suppression-stale)
    #[arg(long, global = true)]
    pub strict: bool,
    /// Print the version and the git commit
    #[arg(short = 'V', long = "version")]
    pub version: bool,
    /// Print a rule's docs (same as `mcpward explain RULE`)
    #[arg(long, value_name = "RULE")]
    pub explain: Option<String>,
    /// Whether `--config` was typed (the endpoint shorthand reads a config only then).
    #[arg(skip)]
    pub config_given: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `--color`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// `--color` for the whole process (set once in [`try_main`]; stderr lines read it too).
static COLOR: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();

fn colour_flag() -> Option<bool> {
    COLOR.get().copied().flatten()
}

/// Colour for a stream that is (`tty`) or is not a terminal.
fn colour_for(tty: bool) -> bool {
    report::colour_choice(|k| std::env::var(k).ok(), tty, colour_flag())
}

/// Progress lines on stderr: asked for (`-v`), or stderr is a terminal (never a CI log)
/// and `--quiet` is not given.
fn progress_on(cli: &Cli) -> bool {
    use std::io::IsTerminal;
    cli.verbose || (!cli.quiet && std::io::stderr().is_terminal())
}

/// The server named on the command line instead of in the config (#16 §1).
#[derive(clap::Args, Debug, Default, Clone)]
pub struct ServerFlags {
    /// Test the Streamable HTTP server at this URL (no config file needed)
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// An HTTP header for the server, 'Name: value' (repeatable; the value is a secret)
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// An environment variable for the stdio server, NAME=value (repeatable; a secret)
    #[arg(long = "env", value_name = "NAME=VALUE")]
    pub env: Vec<String>,
    /// Run only these check families (compliance, schema, security, errors, drift, latency, collision, auth, http)
    #[arg(long = "check", value_name = "FAMILY", value_delimiter = ',')]
    pub check: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Scaffold a starter mcpward.yaml in the current directory (for this server, when one is given)
    Init {
        #[command(flatten)]
        server: ServerFlags,
        /// The server: `-- <command…>`, npx:<package>, stdio:<command> or an http(s) URL
        #[arg(
            value_name = "ENDPOINT",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        endpoint: Vec<String>,
    },
    /// Capture the server's current contract surface into the lockfile
    Baseline {
        #[command(flatten)]
        server: ServerFlags,
        #[command(flatten)]
        offline: FromFile,
        /// Store the contract as .mcpward/contracts/NAME.lock.json (checked later with `diff NAME`)
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// Notes kept with a named contract
        #[arg(long, value_name = "TEXT", requires = "name")]
        notes: Option<String>,
        /// The server: `-- <command…>`, npx:<package> [args], stdio:<command> [args] or an http(s) URL
        #[arg(
            value_name = "ENDPOINT",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        endpoint: Vec<String>,
    },
    /// Show drift of the server's contract against the baseline lockfile (or a named contract)
    Diff {
        #[command(flatten)]
        server: ServerFlags,
        #[command(flatten)]
        offline: FromFile,
        /// A contract stored by `baseline --name NAME`
        #[arg(value_name = "NAME")]
        name: Option<String>,
        /// Reach the named contract's server here instead of where it was captured
        #[arg(long, value_name = "ENDPOINT", requires = "name")]
        endpoint: Option<String>,
        /// The server's command, after `--`
        #[arg(value_name = "COMMAND", last = true)]
        command: Vec<String>,
    },
    /// Run all configured checks against the server
    Run {
        /// Write/refresh golden files of behavioral suites instead of failing on them
        #[arg(long)]
        update_golden: bool,
        #[command(flatten)]
        server: ServerFlags,
        #[command(flatten)]
        offline: FromFile,
        /// The server: `-- <command…>`, npx:<package> [args], stdio:<command> [args] or an http(s) URL
        #[arg(
            value_name = "ENDPOINT",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        endpoint: Vec<String>,
    },
    /// Write everything the server exposes (every page of every list, the handshake) as one
    /// JSON snapshot to --out FILE (default stdout), for `--from` runs without the server
    Snapshot {
        #[command(flatten)]
        server: ServerFlags,
        /// The server: `-- <command…>`, npx:<package> [args], stdio:<command> [args] or an http(s) URL
        #[arg(
            value_name = "ENDPOINT",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        endpoint: Vec<String>,
    },
    /// Combine the JSON fleet reports of shards (--shard) into one report of the whole fleet
    Merge {
        /// Fleet reports written by `run --json` on shards of one fleet
        #[arg(required = true, value_name = "REPORT")]
        reports: Vec<PathBuf>,
    },
    /// List, show or delete pinned contracts (named contracts and the config's lockfiles)
    Contracts {
        #[command(subcommand)]
        action: contracts::ContractsAction,
    },
    /// Print a rule's docs: what it means, why it matters, how to fix it
    Explain {
        /// A rule id such as security/tool-shadowing
        rule: String,
    },
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff)
    Man,
    /// Print the version and the git commit (--json for scripts)
    Version,
    /// Accept a finding: append an entry to mcpward.suppress.yaml next to the config
    Suppress {
        /// Rule id of the finding (docs/rules.md)
        rule: String,
        /// The finding's location, exact or a glob (* and ?)
        location: String,
        /// Why the finding is accepted (required)
        #[arg(long, required = true)]
        reason: String,
        /// Last day the entry suppresses (YYYY-MM-DD); --server NAME limits it to one
        /// server of a fleet
        #[arg(long, value_name = "YYYY-MM-DD")]
        expires: Option<String>,
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
    // The release build aborts on a panic (Cargo.toml: no unwinding code, #12's memory
    // bound), so no destructor ends the server: the hook does, after the usual message.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        crate::transport::procs::kill_unended();
    }));
    match try_main() {
        Ok(exit) => exit.into(),
        Err(e) => {
            e.print();
            e.exit().into()
        }
    }
}

fn try_main() -> Result<Exit, Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = Cli::command().try_get_matches()?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    cli.config_given =
        matches.value_source("config") == Some(clap::parser::ValueSource::CommandLine);
    let _ = COLOR.set(match cli.color {
        ColorWhen::Auto => None,
        ColorWhen::Always => Some(true),
        ColorWhen::Never => Some(false),
    });
    suppress::check_today().map_err(Error::Fatal)?;
    if cli.version {
        out_line(&extras::version_line());
        return Ok(Exit::Pass);
    }
    if let Some(rule) = &cli.explain {
        return printed(extras::explain(rule));
    }
    let Some(command) = cli.command.as_ref() else {
        return Err(Error::Verbatim(
            "error: a command is required (init, run, baseline, diff, snapshot, merge, suppress, contracts, explain); see `mcpward --help`"
                .into(),
        ));
    };
    match command {
        Command::Init { server, endpoint } => init(&cli, server, endpoint),
        Command::Run {
            offline: FromFile { from: Some(file) },
            update_golden,
            server,
            endpoint,
        } => {
            no_server_with_from(server, endpoint, None)?;
            with_runtime(offline_run(&cli, *update_golden, file))
        }
        Command::Baseline {
            offline: FromFile { from: Some(file) },
            server,
            endpoint,
            name,
            ..
        } => {
            no_server_with_from(server, endpoint, name.as_deref())?;
            with_runtime(offline_drift(&cli, Mode::Baseline, file))
        }
        Command::Diff {
            offline: FromFile { from: Some(file) },
            server,
            command,
            name,
            ..
        } => {
            no_server_with_from(server, command, name.as_deref())?;
            with_runtime(offline_drift(&cli, Mode::Diff, file))
        }
        Command::Snapshot { server, endpoint } => {
            let inv = invocation(server, endpoint)?;
            with_runtime(snapshot_command(&cli, &inv))
        }
        Command::Run {
            update_golden,
            server,
            endpoint,
            ..
        } => {
            let inv = invocation(server, endpoint)?;
            let mode = Mode::Run {
                update_golden: *update_golden,
            };
            with_runtime(run(&cli, mode, inv))
        }
        Command::Baseline {
            server,
            name,
            notes,
            endpoint,
            ..
        } => {
            let mut inv = invocation(server, endpoint)?;
            if let Some(name) = name {
                inv.contract = Some(
                    contracts::for_baseline(name, notes.as_deref(), inv.overrides.target.as_ref())
                        .map_err(Error::Fatal)?,
                );
            }
            with_runtime(run(&cli, Mode::Baseline, inv))
        }
        Command::Diff {
            server,
            name,
            endpoint,
            command,
            ..
        } => {
            let inv = match name {
                Some(name) if !command.is_empty() => {
                    return Err(Error::Fatal(format!(
                        "diff {name} checks a named contract; to reach it elsewhere use --endpoint \"{}\", not `--`",
                        command.join(" ")
                    )))
                }
                Some(name) => {
                    if server.url.is_some() {
                        return Err(Error::Fatal(format!(
                            "diff {name} reaches the contract's own server; use --endpoint to point it elsewhere, not --url"
                        )));
                    }
                    let (target, named) =
                        contracts::for_diff(name, endpoint.as_deref()).map_err(Error::Fatal)?;
                    let mut inv = invocation(server, &[])?;
                    inv.overrides.target = Some(target);
                    inv.contract = Some(named);
                    inv
                }
                None => invocation(server, command)?,
            };
            with_runtime(run(&cli, Mode::Diff, inv))
        }
        Command::Merge { reports } => with_runtime(merge(&cli, reports)),
        Command::Contracts { action } => printed(contracts::run(
            action,
            &contracts::Where {
                config: &cli.config,
                config_given: cli.config_given,
                json: cli.json,
            },
        )),
        Command::Explain { rule } => printed(extras::explain(rule)),
        Command::Completions { shell } => printed(Ok(extras::completions(Cli::command(), *shell))),
        Command::Man => printed(extras::man(Cli::command())),
        Command::Version => printed(Ok(extras::version(cli.json))),
        Command::Suppress {
            rule,
            location,
            reason,
            expires,
        } => {
            if cli.server.len() > 1 {
                return Err(Error::Fatal(
                    "suppress: --server names the one fleet member the entry applies to".into(),
                ));
            }
            let server = cli.server.first().map(String::as_str);
            let entry = suppress::NewEntry {
                rule,
                location,
                reason,
                expires: expires.as_deref(),
                server,
            };
            let done = suppress::command(&cli.config, &entry).map_err(Error::Fatal)?;
            out_line(&done);
            Ok(Exit::Pass)
        }
    }
}

/// `--from FILE` stands in for the server: naming a server (or a named contract) as well is
/// a usage error. `--check`, `--header` and `--env` say nothing about a file either.
fn no_server_with_from(
    flags: &ServerFlags,
    words: &[String],
    name: Option<&str>,
) -> Result<(), Error> {
    let given = if flags.url.is_some() {
        Some("--url")
    } else if !words.is_empty() {
        Some("a server command")
    } else if name.is_some() {
        Some("a contract name")
    } else if !flags.headers.is_empty() || !flags.env.is_empty() || !flags.check.is_empty() {
        Some("--header/--env/--check")
    } else {
        None
    };
    match given {
        Some(what) => Err(Error::Fatal(format!(
            "--from FILE replaces the server; drop {what} (the config file chooses the checks)"
        ))),
        None => Ok(()),
    }
}

/// A command whose whole output is one text: printed on stdout, or its error (exit 2).
fn printed(r: Result<String, String>) -> Result<Exit, Error> {
    let text = r.map_err(Error::Fatal)?;
    out_line(&text);
    Ok(Exit::Pass)
}

/// What the command line says beyond the config file: the server and families (#16 §1),
/// and the named contract of `baseline --name` / `diff NAME` (#16 §5).
#[derive(Debug, Default)]
pub struct Invocation {
    pub overrides: config::endpoint::Overrides,
    pub contract: Option<contracts::Named>,
}

/// Reads the server flags and endpoint words; every mistake is a usage error (exit 2).
fn invocation(flags: &ServerFlags, words: &[String]) -> Result<Invocation, Error> {
    use config::endpoint;
    let usage = |m: String| Error::Fatal(m);
    let target = match (&flags.url, words.is_empty()) {
        (Some(_), false) => {
            return Err(usage(format!(
                "give the server once: --url or {:?}, not both",
                words[0]
            )))
        }
        (Some(url), true) => Some(
            endpoint::parse_target(std::slice::from_ref(url))
                .ok()
                .filter(|t| matches!(t, endpoint::EndpointTarget::Http { .. }))
                .ok_or_else(|| {
                    usage(format!(
                        "--url needs an http:// or https:// URL, got {url:?}"
                    ))
                })?,
        ),
        (None, false) => Some(endpoint::parse_target(words).map_err(usage)?),
        (None, true) => None,
    };
    let headers = flags
        .headers
        .iter()
        .map(|h| endpoint::parse_header(h).map_err(|e| usage(format!("--header: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let env = flags
        .env
        .iter()
        .map(|h| endpoint::parse_env(h).map_err(|e| usage(format!("--env: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let checks = if flags.check.is_empty() {
        None
    } else {
        Some(endpoint::parse_checks(&flags.check).map_err(|e| usage(format!("--check: {e}")))?)
    };
    Ok(Invocation {
        overrides: endpoint::Overrides {
            target,
            headers,
            env,
            checks,
        },
        contract: None,
    })
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

fn init(cli: &Cli, flags: &ServerFlags, words: &[String]) -> Result<Exit, Error> {
    let inv = invocation(flags, words)?;
    let path: &Path = if cli.config_given {
        &cli.config
    } else {
        Path::new("mcpward.yaml")
    };
    let ov = &inv.overrides;
    if path.exists() {
        // The original's plain `init` leaves an existing file alone and exits 0; asked to
        // write one for a given server, not writing it is a failure a script must see.
        if ov.target.is_some() {
            return Err(Error::Fatal(format!(
                "{} already exists; remove it, or write the new config elsewhere with -c FILE",
                path.display()
            )));
        }
        out_line(&format!("Config file already exists: {}", path.display()));
        return Ok(Exit::Pass);
    }
    match &ov.target {
        Some(config::endpoint::EndpointTarget::Stdio { .. }) if !ov.headers.is_empty() => {
            return Err(Error::Fatal(
                "--header needs an HTTP server (--url); a stdio server takes --env".into(),
            ))
        }
        Some(config::endpoint::EndpointTarget::Http { .. }) if !ov.env.is_empty() => {
            return Err(Error::Fatal(
                "--env needs a stdio server (a command); an HTTP server takes --header".into(),
            ))
        }
        _ => {}
    }
    let (text, vars) = match &ov.target {
        None if ov.is_empty() => (config::init_template(), Vec::new()),
        None => {
            return Err(Error::Fatal(
                "init writes a config for one server: give it as `-- <command…>`, npx:<package>, stdio:<command> or --url".into(),
            ))
        }
        Some(t) => config::init_template_for(t, &ov.headers, &ov.env, ov.checks.as_deref()),
    };
    // Atomic and no-clobber: never a half-written template, never over a file that
    // appeared between the check and the write.
    crate::fsutil::write_new_atomic(path, text.as_bytes())
        .map_err(|e| Error::Fatal(format!("cannot write {}: {e}", path.display())))?;
    if ov.target.is_none() {
        out_line("Created mcpward.yaml\n\nNext steps:\n  1. Edit mcpward.yaml to configure your server\n  2. Run mcpward run to validate the server\n  3. Run mcpward baseline to create a lockfile");
    } else {
        let mut lines = vec![
            format!("Created {} for this server", path.display()),
            String::new(),
        ];
        if !vars.is_empty() {
            lines.push(
                "The values of --header/--env are secrets and were not written; set these variables before running:".into(),
            );
            lines.extend(vars.iter().map(|v| format!("  {v}")));
            lines.push(String::new());
        }
        lines.push("Next steps:".into());
        lines.push(
            "  1. Run mcpward baseline to pin the server's contract (commit the lockfile)".into(),
        );
        lines.push(
            "  2. Run mcpward run in CI: it fails when the contract drifts or a check fails".into(),
        );
        out_line(&lines.join("\n"));
    }
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

/// The config: the file, with the command line's server flags merged in; with a server on
/// the command line the file is read only when `--config` names it.
fn load_config(cli: &Cli, ov: &config::endpoint::Overrides) -> Result<LoadedAny, Error> {
    let path = (ov.target.is_none() || cli.config_given).then_some(cli.config.as_path());
    let loaded = config::load_with(path, ov).map_err(|e| Error::Fatal(e.to_string()))?;
    suppress::check_rules(&loaded).map_err(Error::Fatal)?;
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

async fn run(cli: &Cli, mode: Mode, inv: Invocation) -> Result<Exit, Error> {
    let kind = reporter_kind(cli);
    let mut loaded = match load_config(cli, &inv.overrides)? {
        LoadedAny::Single(l) => l,
        LoadedAny::Fleet(_) if inv.contract.is_some() => {
            return Err(Error::Fatal(format!(
                "a named contract pins one server, but {} names a fleet",
                cli.config.display()
            )))
        }
        LoadedAny::Fleet(f) => return run_fleet(cli, kind, mode, f).await,
    };
    let stamp = inv.contract.as_ref().and_then(|c| c.meta.clone());
    if let Some(named) = &inv.contract {
        contracts::apply(named, &mut loaded, cli.config_given);
    }
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
        Mode::Diff | Mode::Baseline => drift_single(cli, kind, mode, &loaded, stamp).await,
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
    let verbose = progress_on(cli);
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
        baseline: None,
        keep_tools: false,
    };
    let lane = fleet::run_server(loaded, era, &how).await?;
    let findings = suppress::apply_single(lane.findings, &loaded.config.suppress, cli.strict);
    let report = fleet::report_of(&lane.hello, findings, &redactor);
    if kind == ReporterKind::Console
        && report
            .results
            .iter()
            .any(|f| f.id == crate::checks::drift::rules::BASELINE_MISSING.id)
    {
        err_line("No baseline yet: run `mcpward baseline` to pin the server's contract (drift was not checked).");
    }
    finish_single(&report, kind, cli, loaded, pr.as_ref(), &redactor, false).await
}

/// `diff` and `baseline` against the one server of the config.
async fn drift_single(
    cli: &Cli,
    kind: ReporterKind,
    mode: Mode,
    loaded: &Loaded,
    contract: Option<crate::surface::lockfile::ContractMeta>,
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
        if kind == ReporterKind::Console && !cli.quiet {
            out_line(&format!(
                "Checking for drift...\nServer: {}\nBaseline: {}\n",
                fleet::server_display(loaded, &redactor),
                dcfg.baseline
            ));
        }
    } else if !cli.quiet {
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
    let verbose = progress_on(cli);
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
        baseline: None,
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
                Ok(mut l) => {
                    // The endpoint is recorded as typed; a secret in it is still masked.
                    l.meta.contract = contract.map(|c| crate::surface::lockfile::ContractMeta {
                        endpoint: redactor.redact_str(&c.endpoint),
                        notes: c.notes.as_deref().map(|n| redactor.redact_str(n)),
                        ..c
                    });
                    l
                }
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
            if cli.quiet {
                out_line(&format!(
                    "Baseline saved to {} ({} tool(s))",
                    dcfg.baseline,
                    lockfile.tools.len()
                ));
            } else {
                let mut text =
                    fleet::baseline_summary(&hello, &lockfile, &notes, &dcfg.baseline, &redactor);
                if let Some(c) = &lockfile.meta.contract {
                    text = text.replace(
                        "Run \"mcpward diff\" to check",
                        &format!("Run \"mcpward diff {}\" to check", c.name),
                    );
                }
                out_line(&text);
            }
            return Ok(Exit::Pass);
        }
    };
    let results = suppress::apply_single(results, &loaded.config.suppress, cli.strict);
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
    if !cli.quiet && (mode == Mode::Baseline || kind == ReporterKind::Console) {
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
        verbose: progress_on(cli),
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
    let mut members: Vec<_> = outs.into_iter().map(fleet::fleet_member).collect();
    let mut cross = if matches!(mode, Mode::Run { .. }) {
        fleet::cross_server(&members, &fleet_cfg.checks)
    } else {
        Vec::new()
    };
    let whole = cli.server.is_empty() && cli.shard.is_none();
    suppress::apply_fleet(
        &mut members,
        &mut cross,
        &fleet_cfg.suppress,
        cli.strict,
        whole,
    );
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
    let colour = colour_for(is_tty());
    // SARIF regions point at each member's block (`servers.<name>…`) of the file.
    let key_lines = std::fs::read_to_string(config_path)
        .map(|t| config::lines::key_lines(&t))
        .unwrap_or_default();
    let ctx = RenderContext::new(colour, cli.verbose)
        .with_artifact_path(report::artifact_path_from_env(config_path))
        .with_config_lines(key_lines);
    let text = report::render_fleet(kind, report, &ctx);
    let quiet = cli
        .quiet
        .then(|| report::console::fleet_summary_line(report, colour));
    write_rendered(&text, kind, cli, colour, quiet)
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
    let carried = suppress::fleet_verdicts(&reports);
    let cross = |members: &[crate::model::FleetMember]| {
        let mut out = fleet::cross_server(members, &checks);
        out.extend(carried.iter().cloned());
        out
    };
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
    let colour = colour_for(is_tty());
    let ctx = RenderContext::new(colour, cli.verbose)
        .with_artifact_path(report::artifact_path_from_env(&loaded.path))
        .with_config_lines(loaded.key_lines.clone());
    let text = report::render(kind, report, &ctx);
    let quiet = cli
        .quiet
        .then(|| report::console::summary_line(report, colour));
    write_rendered(&text, kind, cli, colour, quiet)
}

/// Machine formats to `--out` (atomically) or stdout, console always to stdout. `quiet`
/// (`--quiet`): the summary line printed instead of the console rendering or the
/// `… written to` line; a machine format on stdout is still printed whole (it is the output).
fn write_rendered(
    text: &str,
    kind: ReporterKind,
    cli: &Cli,
    colour: bool,
    quiet: Option<String>,
) -> Result<(), Error> {
    match &cli.out {
        Some(path) if kind.writes_out_file() => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .map_err(|e| Error::Fatal(format!("cannot write {}: {e}", path.display())))?;
            match quiet {
                Some(line) => out_line(&line),
                None => {
                    if let Some(line) = report::written_line(kind, path) {
                        out_line(&report::console::dim(&line, colour));
                    }
                }
            }
        }
        _ => match quiet {
            Some(line) if kind == ReporterKind::Console => out_line(&line),
            _ => out_line(text),
        },
    }
    Ok(())
}

fn is_tty() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
}

fn stderr_colour() -> bool {
    use std::io::IsTerminal;
    colour_for(std::io::stderr().is_terminal())
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

// ------------------------------------------------------------------ offline snapshots
// #16 §2: `run`/`baseline`/`diff --from FILE` (a file stands in for the server) and
// `mcpward snapshot` (write that file from a live server). The work is the runner's
// (`runner::run_offline`, `runner::drift_offline`) and drift_run's (`capture_offline`,
// `snapshot_document`); these functions read flags and files and say how the command ends.

/// `--from FILE` of `run`, `baseline` and `diff`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct FromFile {
    /// Read the server's surface from FILE instead of connecting: a `mcpward snapshot` file,
    /// a saved tools/list result or JSON-RPC response(s), an array of tools, or a lockfile
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
}

/// The config a `--from` command uses: the config file's (one server; a fleet's member
/// named by the one `--server`), or [`config::offline_defaults`] when there is no config
/// file. Also the lockfile a fleet member's drift uses.
fn offline_config(cli: &Cli) -> Result<(Loaded, Option<String>), Error> {
    let loaded = config::load_for_snapshot(&cli.config);
    if let Ok(any) = &loaded {
        suppress::check_rules(any).map_err(Error::Fatal)?;
    }
    match loaded {
        Err(config::ConfigError::NotFound { .. }) => {
            if let Some(flag) = fleet_flag(cli) {
                return Err(Error::Fatal(format!(
                    "{flag} selects servers of a fleet, but there is no config file {}",
                    cli.config.display()
                )));
            }
            Ok((config::offline_defaults(&cli.config), None))
        }
        Err(e) => Err(Error::Fatal(e.to_string())),
        Ok(any) => chosen(cli, any),
    }
}

fn fleet_flag(cli: &Cli) -> Option<&'static str> {
    if !cli.server.is_empty() {
        Some("--server")
    } else if cli.shard.is_some() {
        Some("--shard")
    } else {
        None
    }
}

/// One server of a loaded config: the single server, or the fleet member `--server` names
/// (a snapshot is one server's surface, so exactly one).
fn chosen(cli: &Cli, any: LoadedAny) -> Result<(Loaded, Option<String>), Error> {
    let warnings = match &any {
        LoadedAny::Single(l) => &l.warnings,
        LoadedAny::Fleet(f) => &f.warnings,
    };
    for w in warnings {
        err_line(&format!("Warning: {w}"));
    }
    match any {
        LoadedAny::Single(l) => match fleet_flag(cli) {
            Some(flag) => Err(Error::Fatal(format!(
                "{flag} selects servers of a fleet, but {} names one `server:`; use `servers:` or `servers_from:` to test several",
                cli.config.display()
            ))),
            None => Ok((l, None)),
        },
        LoadedAny::Fleet(f) => {
            if cli.shard.is_some() || cli.server.len() != 1 {
                return Err(Error::Fatal(format!(
                    "{} names several servers; a snapshot is one server's: pass --server NAME (once) to choose whose config to use",
                    cli.config.display()
                )));
            }
            let (_, members) = fleet::select(&f.members, &cli.server, None).map_err(Error::Fatal)?;
            let m = members[0];
            Ok((m.loaded.clone(), Some(m.baseline())))
        }
    }
}

/// The snapshot file read and parsed; a problem is exit 2 naming the file and JSON path.
fn read_snapshot(file: &Path) -> Result<crate::surface::snapshot::Snapshot, Error> {
    let snap = crate::surface::snapshot::load(file)
        .map_err(|e| Error::Fatal(format!("{}: {e}", file.display())))?;
    for w in &snap.warnings {
        err_line(w);
    }
    Ok(snap)
}

/// The handshake a report names: the snapshot's, named `snapshot:<file name>` when the
/// file records no server name (a bare tools/list result).
fn report_hello(
    snap: &crate::surface::snapshot::Snapshot,
    label: &str,
) -> crate::observed::ServerHello {
    let mut hello = snap.hello.clone();
    if hello.server_name().is_empty() {
        let mut info = hello.server_info.as_object().cloned().unwrap_or_default();
        info.insert("name".into(), format!("snapshot:{label}").into());
        hello.server_info = serde_json::Value::Object(info);
    }
    hello
}

/// The file's name as the lockfile target and messages show it.
fn label_of(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| file.display().to_string())
}

fn sinks(verbose: bool) -> (impl Fn(&str), impl Fn(&str)) {
    let progress = move |line: &str| {
        if verbose {
            err_line(line);
        }
    };
    (progress, |line: &str| err_line(line))
}

/// `run --from FILE`.
async fn offline_run(cli: &Cli, update_golden: bool, file: &Path) -> Result<Exit, Error> {
    if update_golden {
        return Err(Error::Fatal(
            "--update-golden records answers of live calls; it cannot be used with --from".into(),
        ));
    }
    let kind = reporter_kind(cli);
    let (loaded, _) = offline_config(cli)?;
    let snap = read_snapshot(file)?;
    let mut redactor = fleet::redactor_of(&loaded);
    let pr = pr_comment_context(cli, &mut redactor);
    let (progress, warn) = sinks(progress_on(cli));
    let label = label_of(file);
    let ctx = RunContext {
        config: &loaded.config,
        loaded: &loaded,
        redactor: &redactor,
        warn: &warn,
        config_dir: &loaded.dir,
        update_golden: false,
        progress: &progress,
        reconnect: None,
        baseline: None,
    };
    let off = runner::Offline {
        snapshot: &snap,
        label: &label,
    };
    let findings = runner::run_offline(&off, &ctx);
    let findings = suppress::apply_member(
        findings,
        &loaded.config.suppress,
        cli.strict,
        cli.server.first().map(String::as_str),
    );
    let report = fleet::report_of(&report_hello(&snap, &label), findings, &redactor);
    finish_single(&report, kind, cli, &loaded, pr.as_ref(), &redactor, false).await
}

/// `diff --from FILE` and `baseline --from FILE`.
async fn offline_drift(cli: &Cli, mode: Mode, file: &Path) -> Result<Exit, Error> {
    use crate::surface::lockfile::{self, BaselineState};
    let kind = reporter_kind(cli);
    let (loaded, member_baseline) = offline_config(cli)?;
    let mut dcfg = crate::drift_run::drift_config(&loaded);
    if let Some(b) = member_baseline {
        dcfg.baseline = b;
    }
    let mut redactor = fleet::redactor_of(&loaded);
    let label = label_of(file);
    let (progress, warn) = sinks(progress_on(cli));
    if mode == Mode::Baseline {
        let snap = read_snapshot(file)?;
        if !cli.quiet {
            out_line(&format!(
                "Capturing baseline...\nSnapshot: {}\nOutput: {}\n",
                redactor.redact_str(&file.display().to_string()),
                dcfg.baseline
            ));
        }
        let captured = crate::drift_run::capture_offline(&snap, &dcfg, &label);
        let lockfile = captured
            .lockfile
            .map_err(|e| Error::Fatal(redactor.redact_str(&e)))?;
        fleet::create_parent(&dcfg.baseline)?;
        lockfile::write(Path::new(&dcfg.baseline), &lockfile)
            .map_err(|e| Error::Fatal(format!("cannot write baseline {}: {e}", dcfg.baseline)))?;
        let summary = fleet::baseline_summary(
            &snap.hello,
            &lockfile,
            &captured.notes,
            &dcfg.baseline,
            &redactor,
        );
        // The summary's first line says whom it connected to; here nothing was.
        let rest = summary.split_once('\n').map_or("", |(_, r)| r);
        let mut lines = vec![format!(
            "✓ Read {} ({})",
            redactor.redact_str(&label),
            snap.form.as_str()
        )];
        if dcfg.output.as_ref().is_some_and(|o| o.enabled) {
            lines.push(
                "  output sampling: skipped: it calls tools on a live server; no shapes pinned"
                    .into(),
            );
        }
        lines.push(rest.to_string());
        if cli.quiet {
            out_line(&format!(
                "Baseline saved to {} ({} tool(s))",
                dcfg.baseline,
                lockfile.tools.len()
            ));
        } else {
            out_line(&lines.join("\n"));
        }
        return Ok(Exit::Pass);
    }
    // diff: a missing or too-new baseline is exit 2 before anything is compared.
    let state = match std::fs::metadata(&dcfg.baseline) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(fleet::missing_baseline(&dcfg.baseline).into());
        }
        _ => lockfile::load(Path::new(&dcfg.baseline)),
    };
    if let Some(refused) = fleet::baseline_refused(&state) {
        return Err(refused.into());
    }
    let snap = read_snapshot(file)?;
    if kind == ReporterKind::Console && !cli.quiet {
        out_line(&format!(
            "Checking for drift...\nSnapshot: {}\nBaseline: {}\n",
            redactor.redact_str(&file.display().to_string()),
            dcfg.baseline
        ));
    }
    let pr = pr_comment_context(cli, &mut redactor);
    let baseline_invalid = matches!(state, BaselineState::Invalid(_));
    let ctx = RunContext {
        config: &loaded.config,
        loaded: &loaded,
        redactor: &redactor,
        warn: &warn,
        config_dir: &loaded.dir,
        update_golden: false,
        progress: &progress,
        reconnect: None,
        baseline: None,
    };
    let off = runner::Offline {
        snapshot: &snap,
        label: &label,
    };
    let findings = runner::drift_offline(&off, &ctx, &dcfg, Some(state));
    let findings = suppress::apply_member(
        findings,
        &loaded.config.suppress,
        cli.strict,
        cli.server.first().map(String::as_str),
    );
    let report = fleet::report_of(&report_hello(&snap, &label), findings, &redactor);
    // DECISIONS #20: an unreadable baseline means drift was not tested.
    finish_single(
        &report,
        kind,
        cli,
        &loaded,
        pr.as_ref(),
        &redactor,
        baseline_invalid,
    )
    .await
}

/// `mcpward snapshot [--out FILE]`: the live server's whole surface as a snapshot file
/// (atomically written), or on stdout.
async fn snapshot_command(cli: &Cli, inv: &Invocation) -> Result<Exit, Error> {
    let any = load_config(cli, &inv.overrides)?;
    let (loaded, _) = chosen(cli, any)?;
    let redactor = fleet::redactor_of(&loaded);
    let (progress, _) = sinks(progress_on(cli));
    progress("Connecting to server...");
    // A snapshot is one surface: `both` connects as `auto` (as `baseline` does).
    let era = match era_choice(cli.protocol_era, &loaded.config) {
        EraChoice::Both => EraChoice::Auto,
        e => e,
    };
    let client = tokio::select! {
        c = Client::connect(connect_options(&loaded, era)) => c,
        _ = interrupted() => return Err(Error::Interrupted),
    };
    let client =
        client.map_err(|e| Error::from(fleet::connect_failure(&e, Mode::Baseline, &redactor)))?;
    for note in client.notes() {
        err_line(&redactor.redact_str(&note));
    }
    progress("Listing the surface...");
    let work = crate::drift_run::snapshot_document(&client, &loaded, &redactor);
    let doc = fleet::within(loaded.config.timeouts.run_ms, &interrupt, work).await;
    client.close().await;
    let doc = doc?.map_err(|e| Error::Fatal(redactor.redact_str(&e)))?;
    let text = crate::surface::snapshot::render(&doc);
    match &cli.out {
        Some(path) => {
            crate::fsutil::write_atomic(path, text.as_bytes())
                .map_err(|e| Error::Fatal(format!("cannot write {}: {e}", path.display())))?;
            let tools = doc["tools"].as_array().map_or(0, Vec::len);
            out_line(&format!(
                "✓ Snapshot of {} tool(s) written to {}",
                tools,
                path.display()
            ));
        }
        None => {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            let _ = o.write_all(text.as_bytes());
            let _ = o.flush();
        }
    }
    Ok(Exit::Pass)
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

//! Offline snapshots on the command line (#16 §2): `run`/`baseline`/`diff --from FILE`
//! (a file stands in for the server) and `mcpward snapshot` (write that file from a live
//! server). The work is the runner's (`runner::run_offline`, `runner::drift_offline`) and
//! drift_run's (`capture_offline`, `snapshot_document`); this file reads flags and files and
//! says how the command ends, like the rest of the CLI.

use super::{
    connect_options, era_choice, err_line, finish_single, interrupt, interrupted, out_line,
    pr_comment_context, reporter_kind, Cli, Error, Exit,
};
use crate::config::{self, Loaded, LoadedAny};
use crate::fleet::{self, Mode};
use crate::protocol::versions::EraChoice;
use crate::runner::{self, Offline, RunContext};
use crate::surface::snapshot::{self, Snapshot};
use crate::transport::Client;
use std::path::{Path, PathBuf};

/// `--from FILE` of `run`, `baseline` and `diff`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct From {
    /// Read the server's surface from FILE instead of connecting: a `mcpward snapshot` file,
    /// a saved tools/list result or JSON-RPC response(s), an array of tools, or a lockfile
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
}

/// The config a `--from` command uses: the config file's (one server; a fleet's member
/// named by the one `--server`), or [`config::offline_defaults`] when there is no config
/// file. Also the lockfile a fleet member's drift uses.
fn offline_config(cli: &Cli) -> Result<(Loaded, Option<String>), Error> {
    match config::load_any(&cli.config) {
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
fn read_snapshot(file: &Path) -> Result<Snapshot, Error> {
    let snap =
        snapshot::load(file).map_err(|e| Error::Fatal(format!("{}: {e}", file.display())))?;
    for w in &snap.warnings {
        err_line(w);
    }
    Ok(snap)
}

/// The handshake a report names: the snapshot's, named `snapshot:<file name>` when the
/// file records no server name (a bare tools/list result).
fn report_hello(snap: &Snapshot, label: &str) -> crate::observed::ServerHello {
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
pub async fn run(cli: &Cli, update_golden: bool, file: &Path) -> Result<Exit, Error> {
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
    let (progress, warn) = sinks(cli.verbose);
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
    };
    let off = Offline {
        snapshot: &snap,
        label: &label,
    };
    let findings = runner::run_offline(&off, &ctx);
    let report = fleet::report_of(&report_hello(&snap, &label), findings, &redactor);
    finish_single(&report, kind, cli, &loaded, pr.as_ref(), &redactor, false).await
}

/// `diff --from FILE` and `baseline --from FILE`.
pub async fn drift(cli: &Cli, mode: Mode, file: &Path) -> Result<Exit, Error> {
    use crate::surface::lockfile::{self, BaselineState};
    let kind = reporter_kind(cli);
    let (loaded, member_baseline) = offline_config(cli)?;
    let mut dcfg = crate::drift_run::drift_config(&loaded);
    if let Some(b) = member_baseline {
        dcfg.baseline = b;
    }
    let mut redactor = fleet::redactor_of(&loaded);
    let label = label_of(file);
    let (progress, warn) = sinks(cli.verbose);
    if mode == Mode::Baseline {
        let snap = read_snapshot(file)?;
        out_line(&format!(
            "Capturing baseline...\nSnapshot: {}\nOutput: {}\n",
            redactor.redact_str(&file.display().to_string()),
            dcfg.baseline
        ));
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
        out_line(&lines.join("\n"));
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
    if kind == crate::report::ReporterKind::Console {
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
    };
    let off = Offline {
        snapshot: &snap,
        label: &label,
    };
    let findings = runner::drift_offline(&off, &ctx, &dcfg, Some(state));
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
pub async fn snapshot(cli: &Cli) -> Result<Exit, Error> {
    let any = config::load_any(&cli.config).map_err(|e| Error::Fatal(e.to_string()))?;
    let (loaded, _) = chosen(cli, any)?;
    let redactor = fleet::redactor_of(&loaded);
    let (progress, _) = sinks(cli.verbose);
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
    let text = snapshot::render(&doc);
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

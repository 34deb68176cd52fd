//! Drift orchestration shared by `run`, `diff` and `baseline`: capture the live surface
//! (including opt-in output sampling, which calls tools). Talks to the server only through
//! the client interface.

use crate::checks::drift::{self, DriftConfig};
use crate::checks::tool_args::ToolArgs;
use crate::config::{self, Loaded};
use crate::observed::OtherSurface;
use crate::redact::Redactor;
use crate::surface::capture::{self, CaptureOptions, ToolObject};
use crate::surface::lockfile::{AuthContext, Lockfile, Target};

use crate::surface::shape::{self, SamplingNote};
use crate::surface::snapshot::Snapshot;
use crate::transport::Client;
use serde_json::Value;

/// The drift config of a command: `checks.drift`, or all defaults (cli.md §5.3/§5.4).
pub fn drift_config(loaded: &Loaded) -> DriftConfig {
    loaded.config.checks.drift.clone().unwrap_or_default()
}

/// What identifies the caller of a `server.auth` config across runs.
fn auth_identity(a: &crate::protocol::oauth::AuthSpec) -> String {
    use crate::protocol::oauth::AuthSpec;
    match a {
        AuthSpec::Bearer { token } => token.clone(),
        AuthSpec::Grant(g) => format!("oauth:{}", g.client_id),
    }
}

/// Where the lockfile target says the server is, with secrets already removed.
fn target(loaded: &Loaded, redactor: &Redactor) -> (Target, AuthContext) {
    match &loaded.config.server.transport {
        config::Transport::Stdio { command, args, env } => {
            let t = Target::stdio(command, args);
            let t = Target {
                identity: redactor.redact_str(&t.identity),
                ..t
            };
            let pairs: Vec<(String, String)> =
                env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            let auth = AuthContext::from_env(&pairs, &t.identity);
            (t, auth)
        }
        config::Transport::Http { url, headers, auth } => {
            let t = Target::http(url);
            let t = Target {
                identity: redactor.redact_str(&t.identity),
                ..t
            };
            let mut pairs: Vec<(String, String)> = headers
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            // `server.auth` sends `Authorization` (#17): fingerprinted by what stays the
            // same across runs (the client, not the token it is issued), so a baseline made
            // with one client warns when compared with another's.
            if let Some(a) = auth {
                pairs.insert(0, ("Authorization".into(), auth_identity(a)));
            }
            let auth = AuthContext::from_headers(&pairs, &t.identity);
            (t, auth)
        }
    }
}

/// What a capture produced: the surface (or why it failed) and the sampling notes.
pub struct Captured {
    pub lockfile: Result<Lockfile, String>,
    pub notes: Vec<SamplingNote>,
}

/// Capture the current surface from an already obtained listing. Output sampling (opt-in)
/// calls only the tools the side-effect policy allows.
pub async fn capture_surface<T: ToolObject>(
    client: &Client,
    listing: &Result<Vec<T>, String>,
    other: Option<&OtherSurface>,
    loaded: &Loaded,
    cfg: &DriftConfig,
    redactor: &Redactor,
) -> Captured {
    let tools = match listing {
        Ok(t) => t,
        Err(e) => {
            return Captured {
                lockfile: Err(format!("Failed to list tools: {e}")),
                notes: Vec::new(),
            }
        }
    };
    let mut notes = Vec::new();
    let mut shapes = Vec::new();
    if let Some(out) = cfg.output.as_ref().filter(|o| o.enabled) {
        // Opt-in sampling reads the whole listing as values; the default path never does.
        let values: Vec<Value> = tools.iter().map(|t| t.tool_value().into_owned()).collect();
        let (calls, refused) = drift::output_sampling_plan(&values, out);
        notes.extend(refused);
        for ToolArgs { name, args } in calls {
            let mut outcomes = Vec::new();
            for _ in 0..out.shape_samples.max(1) {
                outcomes.push(client.call_tool(&name, args.clone()).await);
            }
            let (shape, note) = shape::sample_tool(&name, &outcomes);
            if let Some(s) = shape {
                shapes.push((name.clone(), s));
            }
            notes.extend(note);
        }
    }
    let (target, auth_context) = target(loaded, redactor);
    let mut opts = capture_options(cfg, target, auth_context);
    opts.output_shapes = shapes;
    if cfg.surface.needs_lists() {
        // `run` hands over what the other families already listed; `baseline`/`diff` ask.
        opts.other = match other {
            Some(o) => o.clone(),
            None => client.list_other_surface().await,
        };
    }
    Captured {
        lockfile: capture::capture(client.hello(), tools, &opts),
        notes,
    }
}

fn capture_options(cfg: &DriftConfig, target: Target, auth_context: AuthContext) -> CaptureOptions {
    let mut opts = CaptureOptions::new(crate::model::timestamp_now());
    opts.full_text = cfg.full_text;
    opts.target = target;
    opts.auth_context = auth_context;
    // The rest of the surface is asked for only when `checks.drift.surface` pins it (#14).
    opts.surface = cfg.surface;
    opts
}

/// The surface of an offline snapshot (#16 §2), captured with no server to ask: a lockfile
/// source is its pinned surface as it is; any other form is captured like a live listing,
/// its target the snapshot's recorded server or `snapshot:<file name>` (`label`). Output
/// sampling needs calls: the caller reports it skipped.
pub fn capture_offline(snap: &Snapshot, cfg: &DriftConfig, label: &str) -> Captured {
    if let Some(pinned) = &snap.pinned {
        return Captured {
            lockfile: Ok((**pinned).clone()),
            notes: Vec::new(),
        };
    }
    let target = snap.target.clone().unwrap_or_else(|| offline_target(label));
    let auth = snap.auth_context.clone().unwrap_or_else(AuthContext::none);
    let mut opts = capture_options(cfg, target, auth);
    if cfg.surface.needs_lists() {
        opts.other = snap.other.clone();
    }
    Captured {
        lockfile: capture::capture(&snap.hello, &snap.tools, &opts),
        notes: Vec::new(),
    }
}

/// The lockfile target of a file that records no server: `snapshot:<file name>`.
pub fn offline_target(label: &str) -> Target {
    Target {
        transport: "snapshot".into(),
        identity: format!("snapshot:{label}"),
    }
}

/// `mcpward snapshot` (#16 §2): the whole surface `client` exposes as the snapshot
/// document — every page of every list, the handshake — with the config's secrets
/// redacted from every string. Refused when a limit cut a list (the file would not be the
/// server's surface).
pub async fn snapshot_document(
    client: &Client,
    loaded: &Loaded,
    redactor: &Redactor,
) -> Result<Value, String> {
    let not_written = |why: String| {
        format!(
            "{why}; the snapshot was not written (raise limits.tools to capture the whole surface)"
        )
    };
    let tools = client
        .list_tools()
        .await
        .map_err(|e| format!("Failed to list tools: {e}"))?;
    if let Some(why) = client.listing_cut() {
        return Err(not_written(why));
    }
    let other = client.list_other_surface().await;
    if let Some(why) = client.list_cut(&["prompts", "resources", "resourceTemplates"]) {
        return Err(not_written(why));
    }
    let (target, auth) = target(loaded, redactor);
    let mut doc =
        crate::surface::snapshot::document(client.hello(), &tools, &other, &target, &auth);
    crate::surface::snapshot::map_strings(&mut doc, &|s| redactor.redact_str(s));
    Ok(doc)
}

//! The check runner: asks the server through the one client interface, hands what it
//! said to each enabled family in order, and collects the findings. The only place that
//! talks to the server on behalf of checks.

use crate::checks;
use crate::config::Config;
use crate::model::Finding;
use crate::observed::{Era, Listing, OtherSurface, TextListing};
use crate::transport::{Client, ConnectOptions};
use serde_json::Map;
use std::path::Path;

/// Progress lines for `--verbose` (the CLI decides where they go).
pub type Progress<'a> = &'a dyn Fn(&str);

pub struct RunContext<'a> {
    pub config: &'a Config,
    pub loaded: &'a crate::config::Loaded,
    pub redactor: &'a crate::redact::Redactor,
    /// Warnings for stderr (lockfile migration notices and the like).
    pub warn: Progress<'a>,
    /// Directory of the config file: golden paths are relative to it.
    pub config_dir: &'a Path,
    pub update_golden: bool,
    pub progress: Progress<'a>,
    /// How to connect once more (`compliance/surface-stable`); `None`: no second connection.
    pub reconnect: Option<&'a dyn Fn() -> ConnectOptions>,
    /// The lockfile latency compares with when it is not the drift config's (a fleet
    /// member's own); `None`: `checks.drift.baseline` or its default.
    pub baseline: Option<&'a str>,
}

/// The tool listing and the rest of the surface (#14) are fetched once per run, when a
/// family first needs them, and shared by every family that does.
struct Tools<'c> {
    client: &'c Client,
    progress: &'c dyn Fn(&str),
    listing: Option<Listing>,
    /// The listing held as JSON text instead of `listing` (parsed again on the next
    /// [`Tools::get`]; never fetched again).
    held: Option<TextListing>,
    other: Option<OtherSurface>,
    /// Notifications received when each was listed (`compliance/spurious-list-changed`).
    listed_at: Vec<(&'static str, usize)>,
}

impl<'c> Tools<'c> {
    async fn get(&mut self) -> &Listing {
        self.fetch().await;
        if let Some(text) = self.held.take() {
            self.listing = Some(listing_from_text(text));
        }
        self.listing.as_ref().expect("listing was just fetched")
    }

    /// Lists the tools unless they were listed (parsed or held as text).
    async fn fetch(&mut self) {
        if self.listing.is_none() && self.held.is_none() {
            // A long listing shows its pages as they arrive (#18 §3).
            // Kept as each tool's text, as the server sent it: parsed whole only for a
            // family that needs the tree ([`Tools::get`]), never for security and collision
            // (#12's memory bound: a 3.4 MB listing parsed is about 7 MB of tree).
            let list = self.client.list_tools_text();
            tokio::pin!(list);
            let mut shown = 1;
            let listing = loop {
                tokio::select! {
                    l = &mut list => break l,
                    _ = tokio::time::sleep(std::time::Duration::from_millis(250)) => {
                        let n = self.client.pages_listed();
                        if n > shown {
                            (self.progress)(&format!("Listing tools: page {n}"));
                            shown = n;
                        }
                    }
                }
            };
            self.held = Some(listing);
            self.mark(&["tools"]);
        }
    }

    /// Prompts, resources and resource templates, listed once.
    async fn other(&mut self) -> &OtherSurface {
        if self.other.is_none() {
            self.other = Some(self.client.list_other_surface().await);
            self.mark(&["prompts", "resources"]);
        }
        self.other.as_ref().expect("surface was just fetched")
    }

    fn mark(&mut self, lists: &[&'static str]) {
        let n = self.client.notification_count();
        self.listed_at.extend(lists.iter().map(|l| (*l, n)));
    }

    /// The listing as JSON text, listed first if need be, the parsed tools freed (#12:
    /// security's automata and a long listing's parsed form are the run's two largest heaps;
    /// the text is a fifth of the parsed form). Give it back with [`Tools::hold`].
    async fn text(&mut self) -> TextListing {
        self.fetch().await;
        if let Some(text) = self.held.take() {
            return text;
        }
        let listing = self.listing.take().expect("listing was just fetched");
        let text = listing_as_text(listing);
        crate::heap::release_freed();
        text
    }

    /// Keeps `text` as the listing until a family needs it parsed ([`Tools::get`]).
    fn hold(&mut self, text: TextListing) {
        self.held = Some(text);
    }

    /// The first listing back from a comparison, as it was held.
    fn put_back(&mut self, tools: checks::compliance::stable::SnapshotTools) {
        use checks::compliance::stable::SnapshotTools;
        match tools {
            SnapshotTools::Parsed(l) => self.listing = Some(l),
            SnapshotTools::Text(t) => self.held = Some(t),
        }
    }

    /// The tool listing and the rest of the surface together.
    async fn all(&mut self) -> (&Listing, &OtherSurface) {
        self.get().await;
        self.other().await;
        (
            self.listing.as_ref().expect("listing was just fetched"),
            self.other.as_ref().expect("surface was just fetched"),
        )
    }
}

pub async fn run_families(client: &Client, ctx: &RunContext<'_>) -> Vec<Finding> {
    run_families_keeping_tools(client, ctx, false).await.0
}

/// [`run_families`], also handing back the listed tools when a family listed them and
/// `keep_tools` asks for them (a fleet's cross-server findings read every member's tools).
pub async fn run_families_keeping_tools(
    client: &Client,
    ctx: &RunContext<'_>,
    keep_tools: bool,
) -> (Vec<Finding>, Option<Vec<serde_json::Value>>) {
    let cfg = ctx.config;
    let hello = client.hello();
    let version = hello.protocol_version.clone();
    let mut tools = Tools {
        client,
        progress: ctx.progress,
        listing: None,
        held: None,
        other: None,
        listed_at: Vec::new(),
    };
    let mut out = Vec::new();

    if cfg.checks.compliance.enabled {
        (ctx.progress)("Running compliance checks...");
        // ping was removed in the 2026-07-28 revision; the compliance family skips it.
        let ping = match hello.era {
            Era::Legacy => Some(client.ping().await),
            Era::Modern => None,
        };
        let modern = modern_records(client).await;
        if let Some(n) = modern.as_ref().and_then(|m| m.notifications_at_listing) {
            tools.listed_at.push(("tools", n));
        }
        out.extend(checks::compliance::judge(
            hello,
            ping.as_ref(),
            modern.as_ref(),
            cfg.expect.protocol_version.as_deref(),
        ));
        out.extend(capabilities_served(client, &mut tools).await);
    }
    if cfg.checks.auth {
        if let Some(obs) = client.auth_posture().await {
            (ctx.progress)("Running auth checks...");
            out.extend(checks::auth::check(&obs));
        }
    }
    // Schema is judged after the other families, its findings still in this place (#12's
    // memory bound): the schema validator's code (megabytes of pages) would otherwise be
    // resident under security's automata and collision's index, the run's largest heaps.
    // The listing is still fetched now, so the server sees the same requests in the same
    // order.
    let schema_at = if cfg.checks.schema {
        tools.fetch().await;
        Some(out.len())
    } else {
        None
    };
    if let Some(dcfg) = &cfg.checks.drift {
        (ctx.progress)("Running drift checks...");
        let (listing, other) = if dcfg.surface.needs_lists() {
            let (l, o) = tools.all().await;
            (l, Some(o))
        } else {
            (tools.get().await, None)
        };
        out.extend(drift(client, ctx, dcfg, listing, other, None).await);
    }
    if cfg.checks.security {
        let text = tools.text().await;
        let other = tools.other().await;
        (ctx.progress)("Running security checks...");
        let instructions = hello.instructions.as_ref();
        out.extend(checks::security::check_surface_text(
            &text,
            other,
            instructions,
        ));
        // The automata security built are freed by now; hand their pages back so that what
        // later families page in (the listing parsed again among them) does not stack on them.
        crate::heap::release_freed();
        tools.hold(text);
    }
    if cfg.checks.collision.enabled {
        // From the text: the listing is parsed a tool at a time.
        let text = tools.text().await;
        let other = tools.other().await;
        (ctx.progress)("Running collision lint...");
        let opts = &ctx.config.checks.collision;
        out.extend(checks::collision::check_surface_text(&text, other, opts));
        tools.hold(text);
        crate::heap::release_freed();
    }
    if !cfg.suites.is_empty() {
        (ctx.progress)("Running behavioral test suites...");
        let listing = tools.get().await;
        out.extend(behavioral(client, ctx, listing).await);
    }
    if cfg.checks.errors.enabled {
        (ctx.progress)("Running error contract checks...");
        // Planned from the text, a tool at a time; the probes read the plan, not the listing.
        let text = tools.text().await;
        let planned =
            checks::errors::plan_for_text(&text, hello.era, client.is_http(), &cfg.checks.errors);
        tools.hold(text);
        match planned {
            Err(finding) => out.push(finding),
            Ok(plan) => {
                let mut recorded = Vec::with_capacity(plan.calls.len());
                let total = plan.calls.len();
                for (i, probe) in plan.calls.iter().enumerate() {
                    (ctx.progress)(&format!("Error contract: call {}/{total}", i + 1));
                    let outcome = client.call_tool(&probe.tool, Map::new()).await;
                    recorded.push((probe.clone(), outcome));
                }
                out.extend(checks::errors::judge_plan(
                    &plan,
                    &recorded,
                    &version,
                    &cfg.checks.errors,
                ));
            }
        }
    }
    if let Some(lat) = &cfg.checks.latency {
        (ctx.progress)("Running latency checks...");
        let plan = checks::latency::plan(tools.get().await, lat);
        // #16 §4: with a baseline that pins latency, warm up, then compare as well.
        let lockfile = match ctx.baseline {
            Some(b) => b.to_string(),
            None => crate::drift_run::drift_config(ctx.loaded).baseline,
        };
        let pinned = pinned_latency(&crate::surface::lockfile::load(Path::new(&lockfile)));
        let warmup = pinned.as_ref().map_or(0, |_| lat.regression.warmup);
        let samples = sample_latency(client, &plan, lat.samples, warmup, ctx.progress).await;
        out.extend(checks::latency::judge(&plan, &samples, lat));
        if let Some(p) = &pinned {
            out.extend(checks::latency::compare(p, &samples, &lat.regression));
        }
    }
    // Run-level, last (DECISIONS #36): what the server sent during the whole run. The
    // surface is listed again before schema is judged, so the listing read a second time
    // is not held beside the validator's code pages (#12's bound); schema's findings are
    // still put back at their place.
    let rechecked = if cfg.checks.compliance.enabled {
        let found = surface_recheck(client, ctx, &mut tools).await;
        crate::heap::release_freed();
        found
    } else {
        Vec::new()
    };
    if let Some(at) = schema_at {
        // The last family to read the listing judges it one tool at a time from its text,
        // so a long listing is not held parsed beside the validators (#12's bound).
        let text = tools.text().await;
        (ctx.progress)("Running schema checks...");
        let found = checks::schema::check_text(&text, &version);
        tools.hold(text);
        out.splice(at..at, found);
        crate::heap::release_freed();
    }
    if cfg.checks.compliance.enabled {
        out.extend(rechecked);
        let mut chatter = client.chatter();
        // Redacted before the check cuts it, so a secret is never shown in part.
        if let Some(first) = chatter.framing.first.as_mut() {
            first.text = ctx.redactor.redact_str(&first.text);
        }
        out.extend(checks::compliance::run_level(
            hello,
            &chatter,
            &client.input_requests(),
        ));
    }
    // After everything (#17): the probe talks to the server beside the session, so nothing
    // it causes there can change what another family observed.
    if cfg.checks.http && client.is_http() {
        (ctx.progress)("Running HTTP posture checks...");
        if let Some(probe) = client.origin_probe().await {
            out.extend(checks::http::judge(&probe));
        }
    }
    // Parsed back only for a fleet, whichever family left the listing as text.
    let kept = if keep_tools {
        if let Some(text) = tools.held.take() {
            tools.listing = Some(listing_from_text(text));
        }
        tools.listing.and_then(Result::ok)
    } else {
        None
    };
    (out, kept)
}

/// Execute the modern compliance probe plan (`checks::compliance::plan`) through the
/// client's raw request and hand back the records; `None` when the family plans none
/// (the legacy era).
pub async fn modern_records(client: &Client) -> Option<checks::compliance::plan::ModernRecords> {
    use checks::compliance::plan::{self, ModernRecords, Step};
    let hello = client.hello();
    let wire = plan::Wire {
        http: client.is_http(),
    };
    let steps = plan::plan(hello, wire)?;
    let mut records = ModernRecords::new(hello, wire, client.discover_answer());
    for step in steps {
        match step {
            Step::List => {
                let listing = client.list_tools().await;
                records.listed(client.page_meta(), listing.err());
                records.notifications_at_listing = Some(client.notification_count());
            }
            Step::Send(probe, request) => records.probed(probe, client.raw_request(&request).await),
            Step::Verb(verb, headers) => records.verb(verb, client.raw_verb(verb, &headers).await),
            Step::SessionIds => records.session_ids = client.session_ids(),
        }
    }
    records.input_requests = client.input_requests();
    Some(records)
}

/// `compliance/capabilities-served`: the surface listing, then a probe for every other
/// optional method (`checks::compliance::served`).
async fn capabilities_served(client: &Client, tools: &mut Tools<'_>) -> Vec<Finding> {
    use checks::compliance::served;
    let hello = client.hello();
    let other = tools.other().await;
    let mut records = Vec::new();
    for (method, request) in served::plan(hello, other) {
        records.push((method, client.raw_request(&request).await));
    }
    served::judge(hello, other, &records)
}

/// Everything listed on `client` (`instructions`: what its handshake said, when asked),
/// compared with `first` as it is read (`Relisted::of_text`), never kept.
async fn relist(
    client: &Client,
    first: &checks::compliance::stable::Snapshot,
    instructions: Option<Option<serde_json::Value>>,
) -> checks::compliance::stable::Relisted {
    let tools = client.list_tools_text().await;
    let other = client.list_other_surface().await;
    checks::compliance::stable::Relisted::of_text(first, tools, other, instructions)
}

/// `compliance/surface-stable` (unless `checks.compliance.stability: false`) and
/// `compliance/spurious-list-changed`: the surface listed once more in this session and,
/// for stability, on a second connection that is closed before this returns.
async fn surface_recheck(
    client: &Client,
    ctx: &RunContext<'_>,
    tools: &mut Tools<'_>,
) -> Vec<Finding> {
    use checks::compliance::stable::{self, Snapshot, SnapshotTools};
    let stability = ctx.config.checks.compliance.stability;
    let list_changed = client.chatter().notifications.iter().any(|n| {
        n.get("method")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|m| m.ends_with("/list_changed"))
    });
    if !stability && !list_changed {
        return Vec::new();
    }
    (ctx.progress)("Listing the surface again...");
    let hello = client.hello();
    // Last use of the shared listings (the run-level results read no listing): taken, not
    // copied, so a 10,000-tool surface is held once less.
    // Held as text while the surface is listed twice more (#12's memory bound).
    let first_tools = SnapshotTools::Text(tools.text().await);
    tools.other().await;
    let first = Snapshot {
        tools: first_tools,
        other: tools.other.take().unwrap_or_default(),
        instructions: Some(hello.instructions.clone()),
    };
    // A server that could not list its tools once is not asked twice more (nor started again).
    if let Some(e) = first.tools.error() {
        let out = stability
            .then(|| stable::not_compared(e))
            .into_iter()
            .collect();
        // Back to the run: schema is judged after this and must not list again.
        tools.put_back(first.tools);
        tools.other = Some(first.other);
        return out;
    }
    // Each later listing is compared with the first as it is read, never kept.
    let again = relist(client, &first, None).await;
    let mut out = Vec::new();
    if stability {
        let second = match ctx.reconnect {
            None => Err("no way to connect again".to_string()),
            Some(options) => match Client::connect(options()).await {
                Ok(c) => {
                    let second = relist(&c, &first, Some(c.hello().instructions.clone())).await;
                    c.close().await;
                    Ok(second)
                }
                Err(e) => Err(ctx.redactor.redact_str(&e.message)),
            },
        };
        out.push(stable::surface_stable(hello.era, &first, &again, &second));
    }
    // Read after listing again: a notification may come with that listing.
    out.extend(stable::spurious_list_changed(
        &client.chatter().notifications,
        &tools.listed_at,
        &again,
    ));
    // Back to the run: schema and a fleet's cross-server findings read the listed tools.
    tools.put_back(first.tools);
    tools.other = Some(first.other);
    out
}

async fn behavioral(client: &Client, ctx: &RunContext<'_>, listing: &Listing) -> Vec<Finding> {
    use checks::behavioral::{self as b, GoldenState};
    let steps = match b::plan(listing, &ctx.config.suites) {
        Ok(steps) => steps,
        Err(f) => return vec![*f],
    };
    let mut results = Vec::new();
    let total = steps
        .iter()
        .filter(|s| matches!(s, b::Step::Call { .. }))
        .count();
    let mut done = 0;
    for step in steps {
        match step {
            b::Step::Report(f) => results.push(*f),
            b::Step::Call { tool, case, listed } => {
                done += 1;
                (ctx.progress)(&format!("Suites: call {done}/{total}"));
                let outcome = client.call_tool(tool, case.args.clone()).await;
                let golden_file = case
                    .expect
                    .as_ref()
                    .and_then(|e| e.golden.as_deref())
                    .map(|g| b::golden_path(Some(ctx.config_dir), g));
                let state = match &golden_file {
                    Some(path) if !ctx.update_golden => match std::fs::read_to_string(path) {
                        Ok(text) => GoldenState::Present(text),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => GoldenState::Missing,
                        Err(e) => GoldenState::Unreadable(e.to_string()),
                    },
                    _ => GoldenState::NotRead,
                };
                let mut verdict = b::judge_case(
                    tool,
                    case,
                    Some(listed),
                    &outcome,
                    &state,
                    ctx.update_golden,
                );
                if let (Some(text), Some(path)) = (verdict.golden_write.take(), golden_file) {
                    let written = path
                        .parent()
                        .map_or(Ok(()), std::fs::create_dir_all)
                        .and_then(|_| crate::fsutil::write_atomic(&path, text.as_bytes()));
                    if let Err(e) = written {
                        verdict.findings.pop();
                        verdict
                            .findings
                            .push(b::golden_write_failed(tool, case, &e.to_string()));
                    }
                }
                results.extend(verdict.findings);
            }
        }
    }
    b::finish(results)
}

/// The drift family: the baseline as found (missing/invalid are findings here), compared
/// with a fresh capture.
pub async fn drift<T: crate::surface::capture::ToolObject>(
    client: &Client,
    ctx: &RunContext<'_>,
    dcfg: &checks::drift::DriftConfig,
    listing: &Result<Vec<T>, String>,
    other: Option<&OtherSurface>,
    preloaded: Option<crate::surface::lockfile::BaselineState>,
) -> Vec<Finding> {
    let base = match drift_baseline(ctx, dcfg, preloaded) {
        Ok(b) => b,
        Err(f) => return f,
    };
    let captured =
        crate::drift_run::capture_surface(client, listing, other, ctx.loaded, dcfg, ctx.redactor)
            .await;
    judge_drift(&base, captured, dcfg)
}

/// The baseline `drift` compares with, its warnings printed; the finding instead when
/// there is nothing to compare with (then nothing is captured, and no tool is called).
fn drift_baseline(
    ctx: &RunContext<'_>,
    dcfg: &checks::drift::DriftConfig,
    preloaded: Option<crate::surface::lockfile::BaselineState>,
) -> Result<crate::surface::lockfile::BaselineState, Vec<Finding>> {
    use crate::surface::lockfile::{self, BaselineState};
    // `diff` has already read the baseline to decide exit 2 before connecting.
    let base = preloaded.unwrap_or_else(|| lockfile::load(Path::new(&dcfg.baseline)));
    match &base {
        BaselineState::Loaded(l) => {
            for w in &l.warnings {
                (ctx.warn)(w);
            }
        }
        BaselineState::Missing { path } => return Err(vec![checks::drift::baseline_missing(path)]),
        BaselineState::Invalid(e) => return Err(vec![checks::drift::baseline_invalid(e)]),
    }
    Ok(base)
}

/// The drift results: `drift/baseline-stale` first (#16 §5), then the comparison.
fn judge_drift(
    base: &crate::surface::lockfile::BaselineState,
    captured: crate::drift_run::Captured,
    dcfg: &checks::drift::DriftConfig,
) -> Vec<Finding> {
    let mut out = Vec::new();
    if let crate::surface::lockfile::BaselineState::Loaded(l) = base {
        out.extend(checks::drift::baseline_stale(
            &l.lockfile,
            crate::model::today(),
            dcfg.max_age_days,
        ));
    }
    out.extend(match captured.lockfile {
        Ok(current) => checks::drift::check_with_sampling(base, &current, &captured.notes, dcfg),
        Err(e) => vec![checks::drift::capture_failed(&e)],
    });
    out
}

fn schema(ctx: &RunContext<'_>, listing: &Listing, version: &str) -> Vec<Finding> {
    (ctx.progress)("Running schema checks...");
    checks::schema::check(listing, version)
}

/// Each tool is freed as soon as it is written, so the listing is never held twice whole.
fn listing_as_text(listing: Listing) -> TextListing {
    listing.map(|tools| {
        tools
            .into_iter()
            .map(|t| {
                // Writing a parsed value cannot fail (its keys are strings, its numbers
                // finite); `null` only keeps that impossible case from panicking.
                serde_json::value::to_raw_value(&t).unwrap_or_else(|_| {
                    serde_json::value::RawValue::from_string("null".into()).expect("null is JSON")
                })
            })
            .collect()
    })
}

/// Serializing a parsed value and parsing it again gives the same value
/// (`a_listing_held_as_text_comes_back_the_same`), so later families see the same listing.
fn listing_from_text(text: TextListing) -> Listing {
    use crate::surface::json::{compact, raw_to_value};
    // Each tool's text is freed as soon as it is parsed.
    text.map(|tools| {
        tools
            .into_iter()
            .map(|t| compact(raw_to_value(&t)))
            .collect()
    })
}

fn security(
    ctx: &RunContext<'_>,
    listing: &Listing,
    other: &OtherSurface,
    hello: &crate::observed::ServerHello,
) -> Vec<Finding> {
    (ctx.progress)("Running security checks...");
    checks::security::check_surface(listing, other, hello.instructions.as_ref())
}

fn collision(ctx: &RunContext<'_>, listing: &Listing, other: &OtherSurface) -> Vec<Finding> {
    (ctx.progress)("Running collision lint...");
    checks::collision::check_surface(listing, other, &ctx.config.checks.collision)
}

// ------------------------------------------------------------------ offline (#16 §2)

/// What `--from FILE` stands in for the server with, and how findings name it.
pub struct Offline<'a> {
    pub snapshot: &'a crate::surface::snapshot::Snapshot,
    /// The file name: the lockfile target of a file that records no server, and the
    /// reason the live-only families give.
    pub label: &'a str,
}

/// `run --from FILE`: every enabled family in the live order, on the snapshot's surface.
/// Families that need a live server (compliance, behavioral suites, error contract,
/// latency, drift output sampling) are one `skip` each, only when enabled.
pub fn run_offline(off: &Offline<'_>, ctx: &RunContext<'_>) -> Vec<Finding> {
    let cfg = ctx.config;
    let snap = off.snapshot;
    let source = format!("--from {}", off.label);
    let listing: Listing = Ok(snap.tools.clone());
    let mut out = Vec::new();
    if cfg.checks.compliance.enabled {
        out.push(checks::compliance::offline(&source));
    }
    if cfg.checks.schema {
        out.extend(schema(ctx, &listing, &snap.hello.protocol_version));
    }
    if let Some(dcfg) = &cfg.checks.drift {
        (ctx.progress)("Running drift checks...");
        out.extend(drift_offline(off, ctx, dcfg, None));
    }
    if cfg.checks.security {
        out.extend(security(ctx, &listing, &snap.other, &snap.hello));
    }
    if cfg.checks.collision.enabled {
        out.extend(collision(ctx, &listing, &snap.other));
    }
    if !cfg.suites.is_empty() {
        out.push(checks::behavioral::offline(&source));
    }
    if cfg.checks.errors.enabled {
        out.push(checks::errors::offline(&source));
    }
    if cfg.checks.latency.is_some() {
        out.push(checks::latency::offline(&source));
    }
    out
}

/// The drift family on a snapshot (`run --from`, `diff --from`): the baseline against the
/// snapshot's surface; output sampling, when on, is one skip.
pub fn drift_offline(
    off: &Offline<'_>,
    ctx: &RunContext<'_>,
    dcfg: &checks::drift::DriftConfig,
    preloaded: Option<crate::surface::lockfile::BaselineState>,
) -> Vec<Finding> {
    let base = match drift_baseline(ctx, dcfg, preloaded) {
        Ok(b) => b,
        Err(f) => return f,
    };
    let captured = crate::drift_run::capture_offline(off.snapshot, dcfg, off.label);
    let mut out = Vec::new();
    if dcfg.output.as_ref().is_some_and(|o| o.enabled) {
        out.push(checks::drift::offline(&format!("--from {}", off.label)));
    }
    out.extend(judge_drift(&base, captured, dcfg));
    out
}

/// The latency sampling loop (`run`, `diff` and `baseline`): each planned tool is called
/// `warmup` times (discarded), then `samples` times, sequentially, each call timed.
pub async fn sample_latency(
    client: &Client,
    plan: &checks::latency::LatencyPlan,
    samples: u32,
    warmup: u32,
    progress: &dyn Fn(&str),
) -> Vec<(String, Vec<Result<f64, String>>)> {
    let mut out = Vec::new();
    if plan.stop.is_some() {
        return out;
    }
    let total = plan.calls.len();
    for (i, (tool, args)) in plan.calls.iter().enumerate() {
        progress(&format!("Latency: tool {}/{total}", i + 1));
        for _ in 0..warmup {
            // Warmup calls are made and discarded, whatever they answer.
            let _ = client.call_tool(tool, args.clone()).await;
        }
        let mut taken = Vec::with_capacity(samples as usize);
        for _ in 0..samples {
            let start = std::time::Instant::now();
            let outcome = client.call_tool(tool, args.clone()).await;
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            taken.push(checks::latency::sample_of(&outcome, ms));
        }
        out.push((tool.clone(), taken));
    }
    out
}

/// The baseline's `latency` member, when it loaded and has one.
pub fn pinned_latency(
    base: &crate::surface::lockfile::BaselineState,
) -> Option<crate::surface::latency::PinnedLatency> {
    match base {
        crate::surface::lockfile::BaselineState::Loaded(l) => l.lockfile.latency.clone(),
        _ => None,
    }
}

/// A listing of tool texts as values (the latency plan reads whole tools).
fn tool_values<T: crate::surface::capture::ToolObject>(
    listing: &Result<Vec<T>, String>,
) -> crate::observed::Listing {
    listing
        .as_ref()
        .map(|ts| ts.iter().map(|t| t.tool_value().into_owned()).collect())
        .map_err(Clone::clone)
}

/// What `baseline` pins with `checks.latency` on: the planned tools sampled after warmup;
/// `None` when latency is off.
pub async fn pin_latency<T: crate::surface::capture::ToolObject>(
    client: &Client,
    config: &Config,
    listing: &Result<Vec<T>, String>,
) -> Option<crate::surface::latency::PinnedLatency> {
    let lat = config.checks.latency.as_ref()?;
    let plan = checks::latency::plan(&tool_values(listing), lat);
    let samples = sample_latency(client, &plan, lat.samples, lat.regression.warmup, &|_| {}).await;
    Some(checks::latency::pin(&samples))
}

/// `diff` with `checks.latency` on and a baseline that pins latency: the planned tools
/// sampled after warmup and compared (`latency/regression` only: `diff` judges change, the
/// absolute budgets are `run`'s). Nothing, and no call, otherwise.
pub async fn latency_against<T: crate::surface::capture::ToolObject>(
    client: &Client,
    config: &Config,
    listing: &Result<Vec<T>, String>,
    pinned: Option<&crate::surface::latency::PinnedLatency>,
) -> Vec<Finding> {
    let (Some(lat), Some(pinned)) = (config.checks.latency.as_ref(), pinned) else {
        return Vec::new();
    };
    let plan = checks::latency::plan(&tool_values(listing), lat);
    // A listing that failed is drift's finding; here every pinned tool is "not measured now".
    let samples = sample_latency(client, &plan, lat.samples, lat.regression.warmup, &|_| {}).await;
    checks::latency::compare(pinned, &samples, &lat.regression)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_held_as_text_comes_back_the_same() {
        let text = r#"[{"name":"t","zeta":1,"10":2,"2":3,"alpha":{"b":[1.5,-0.0,1e300,18446744073709551615,-9223372036854775808,0.1]},
            "description":"\u0000 \ud83d\ude00 é \"q\" \n","inputSchema":{"type":"object","properties":{}}},
            {"name":"u","annotations":null,"x":[true,false,[],{}],"n":12345678901234567890123}]"#;
        let listing: Listing = Ok(serde_json::from_str(text).unwrap());
        let held = listing_as_text(listing.clone());
        let back = listing_from_text(held);
        assert_eq!(back, listing);
        // Key order too (what the lockfile and the reports are written in).
        let keys = |l: &Listing| -> Vec<Vec<String>> {
            l.as_ref()
                .unwrap()
                .iter()
                .map(|t| t.as_object().unwrap().keys().cloned().collect())
                .collect()
        };
        assert_eq!(keys(&back), keys(&listing));
        let failed: Listing = Err("boom".into());
        assert_eq!(listing_from_text(listing_as_text(failed.clone())), failed);
    }
}

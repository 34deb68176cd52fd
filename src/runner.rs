//! The check runner: asks the server through the one client interface, hands what it
//! said to each enabled family in order, and collects the findings. The only place that
//! talks to the server on behalf of checks.

use crate::checks;
use crate::config::{Config, UnknownToolPolicy};
use crate::model::Finding;
use crate::transport::{Client, Era, Listing};
use serde_json::Map;

/// Progress lines for `--verbose` (the CLI decides where they go).
pub type Progress<'a> = &'a dyn Fn(&str);

pub struct RunContext<'a> {
    pub config: &'a Config,
    pub progress: Progress<'a>,
}

/// The tool listing is fetched once per run and shared by every family that needs it.
struct Tools<'c> {
    client: &'c Client,
    listing: Option<Listing>,
}

impl<'c> Tools<'c> {
    async fn get(&mut self) -> &Listing {
        if self.listing.is_none() {
            self.listing = Some(self.client.list_tools().await);
        }
        self.listing.as_ref().expect("listing was just fetched")
    }
}

pub async fn run_families(client: &Client, ctx: &RunContext<'_>) -> Vec<Finding> {
    let cfg = ctx.config;
    let hello = client.hello();
    let version = hello.protocol_version.clone();
    let mut tools = Tools { client, listing: None };
    let mut out = Vec::new();

    if cfg.checks.compliance {
        (ctx.progress)("Running compliance checks...");
        // ping was removed in the 2026-07-28 revision; the compliance family skips it.
        let ping = match hello.era {
            Era::Legacy => Some(client.ping().await),
            Era::Modern => None,
        };
        out.extend(checks::compliance::check(
            hello,
            ping.as_ref(),
            cfg.expect.protocol_version.as_deref(),
        ));
    }
    if cfg.checks.schema {
        (ctx.progress)("Running schema checks...");
        out.extend(checks::schema::check(tools.get().await, &version));
    }
    if cfg.checks.errors.enabled {
        (ctx.progress)("Running error contract checks...");
        let policy = match cfg.checks.errors.unknown_tool {
            UnknownToolPolicy::ProtocolError => checks::errors::UnknownToolPolicy::ProtocolError,
            UnknownToolPolicy::Either => checks::errors::UnknownToolPolicy::Either,
        };
        match checks::errors::plan(tools.get().await) {
            Err(finding) => out.push(finding),
            Ok(probes) => {
                let mut recorded = Vec::with_capacity(probes.len());
                for probe in probes {
                    let outcome = client.call_tool(&probe.tool, Map::new()).await;
                    recorded.push((probe, outcome));
                }
                out.extend(checks::errors::judge(&recorded, &version, policy));
            }
        }
    }
    out
}

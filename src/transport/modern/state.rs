//! What a 2026-07-28 connection remembers between requests: the version in use, how the
//! connect-time discover was answered, each tool's `inputSchema` (for `Mcp-Param-*`), the
//! metadata of each `tools/list` page and the input requests servers sent.

use super::classify::page_problem;
use crate::observed::DiscoverAnswer;
use crate::surface::json::raw_to_value;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Bound on the input requests kept for `compliance/server-messages`.
const MAX_INPUT_REQUESTS: usize = 50;

pub struct ModernState {
    pub version: String,
    pub discover: DiscoverAnswer,
    /// inputSchema of each tool of the last successful listing (for `Mcp-Param-*`), kept as
    /// its JSON text: the run holds the listing parsed already, and a parsed copy of every
    /// schema was ~1 MiB more on a 262-tool listing (#12's 15 MiB bound).
    tools: Mutex<BTreeMap<String, Box<RawValue>>>,
    listings: Mutex<Vec<Vec<Value>>>,
    input_requests: Mutex<Vec<Value>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The cache/result metadata of one result, for the compliance judgement: the keys
/// present on the result, as received.
pub fn result_meta(r: &Map<String, Value>) -> Value {
    let mut m = Map::new();
    for k in ["resultType", "ttlMs", "cacheScope"] {
        if let Some(v) = r.get(k) {
            m.insert(k.into(), v.clone());
        }
    }
    Value::Object(m)
}

impl ModernState {
    pub fn new(version: String, discover: DiscoverAnswer) -> Self {
        ModernState {
            version,
            discover,
            tools: Mutex::default(),
            listings: Mutex::default(),
            input_requests: Mutex::default(),
        }
    }

    pub fn begin_listing(&self) {
        lock(&self.listings).push(Vec::new());
    }

    /// Record one `tools/list` page; a `resultType` other than absent/`complete` makes the
    /// listing fail (§6.1).
    pub fn on_page(&self, page: &Map<String, Value>) -> Result<(), String> {
        let n = {
            let mut l = lock(&self.listings);
            if l.is_empty() {
                l.push(Vec::new());
            }
            let last = l.last_mut().expect("pushed above");
            last.push(result_meta(page));
            last.len()
        };
        match page_problem(page, n) {
            None => Ok(()),
            Some(e) => Err(e),
        }
    }

    pub fn remember_tools(&self, tools: &[Box<RawValue>]) {
        #[derive(serde::Deserialize)]
        struct Named {
            name: Option<String>,
            #[serde(rename = "inputSchema")]
            input_schema: Option<Box<RawValue>>,
        }
        let mut map = BTreeMap::new();
        for t in tools {
            let Ok(Named {
                name: Some(name),
                input_schema: Some(schema),
            }) = serde_json::from_str::<Named>(t.get())
            else {
                continue;
            };
            // `null` is a present key to `Value::get`, as it was when the tool was parsed.
            map.entry(name).or_insert(schema);
        }
        *lock(&self.tools) = map;
    }

    pub fn schema_of(&self, tool: &str) -> Option<Value> {
        lock(&self.tools).get(tool).map(|s| raw_to_value(s))
    }

    pub fn page_meta(&self) -> Vec<Value> {
        lock(&self.listings).last().cloned().unwrap_or_default()
    }

    pub fn record_input_requests(&self, requests: Value) {
        let mut rec = lock(&self.input_requests);
        if rec.len() < MAX_INPUT_REQUESTS {
            rec.push(requests);
        }
    }

    pub fn input_requests(&self) -> Vec<Value> {
        lock(&self.input_requests).clone()
    }
}

//! GitHub code scanning's ingestion rules for a SARIF upload, as GitHub documents them
//! ("SARIF support for code scanning": required properties, upload limits) plus the one
//! rule it enforces without listing it among them (`locationFromSarifResult: expected at
//! least one location`). A file that breaks any of these is rejected whole, so every
//! SARIF document mcpward writes must pass [`github_problems`] as well as the schema.
//! docs/reporters.md (SARIF) lists the same rules.
#![allow(dead_code)]

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// GitHub's documented upload limits.
pub const MAX_RUNS: usize = 20;
pub const MAX_RESULTS_PER_RUN: usize = 25_000;
pub const MAX_RULES_PER_RUN: usize = 25_000;
pub const MAX_LOCATIONS_PER_RESULT: usize = 1_000;
pub const MAX_TAGS_PER_RULE: usize = 20;
/// The gzip-compressed upload may not exceed 10 MB; the uncompressed text is an upper bound.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
const LEVELS: [&str; 4] = ["none", "note", "warning", "error"];

/// Every way `sarif` would be rejected by (or would misbehave in) GitHub code scanning;
/// empty when it would be accepted with stable alerts.
pub fn github_problems(text: &str) -> Vec<String> {
    let mut p = Vec::new();
    if text.len() > MAX_FILE_BYTES {
        p.push(format!(
            "file is {} bytes, over {MAX_FILE_BYTES}",
            text.len()
        ));
    }
    let doc: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![format!("not JSON: {e}")],
    };
    if doc["version"] != "2.1.0" {
        p.push(format!("version is {}, not \"2.1.0\"", doc["version"]));
    }
    if !doc["$schema"].is_string() {
        p.push("no $schema".into());
    }
    let Some(runs) = doc["runs"].as_array() else {
        p.push("no runs array".into());
        return p;
    };
    if runs.is_empty() || runs.len() > MAX_RUNS {
        p.push(format!("{} runs (1..={MAX_RUNS} accepted)", runs.len()));
    }
    for (ri, run) in runs.iter().enumerate() {
        let at = format!("runs[{ri}]");
        let driver = &run["tool"]["driver"];
        if driver["name"].as_str().is_none_or(str::is_empty) {
            p.push(format!("{at}.tool.driver.name missing"));
        }
        let rules = driver["rules"].as_array().cloned().unwrap_or_default();
        if rules.len() > MAX_RULES_PER_RUN {
            p.push(format!("{at}: {} rules", rules.len()));
        }
        let mut rule_ids = BTreeSet::new();
        for (k, rule) in rules.iter().enumerate() {
            match rule["id"].as_str() {
                Some(id) if !id.is_empty() => {
                    if !rule_ids.insert(id.to_string()) {
                        p.push(format!("{at}.rules[{k}]: duplicate id {id}"));
                    }
                }
                _ => p.push(format!("{at}.rules[{k}]: no id")),
            }
            if rule["shortDescription"]["text"]
                .as_str()
                .is_none_or(str::is_empty)
            {
                p.push(format!("{at}.rules[{k}]: no shortDescription.text"));
            }
            if let Some(level) = rule["defaultConfiguration"]["level"].as_str() {
                if !LEVELS.contains(&level) {
                    p.push(format!(
                        "{at}.rules[{k}]: defaultConfiguration.level {level}"
                    ));
                }
            }
            let tags = rule["properties"]["tags"].as_array().map_or(0, Vec::len);
            if tags > MAX_TAGS_PER_RULE {
                p.push(format!("{at}.rules[{k}]: {tags} tags"));
            }
        }
        let Some(results) = run["results"].as_array() else {
            p.push(format!("{at}: no results array"));
            continue;
        };
        if results.len() > MAX_RESULTS_PER_RUN {
            p.push(format!("{at}: {} results", results.len()));
        }
        // GitHub folds results with the same rule, file and primaryLocationLineHash into one
        // alert: distinct findings must not share one.
        let mut prints: BTreeMap<(String, String, String), usize> = BTreeMap::new();
        for (k, r) in results.iter().enumerate() {
            let at = format!("{at}.results[{k}]");
            let rule_id = r["ruleId"].as_str().unwrap_or("");
            if rule_id.is_empty() {
                p.push(format!("{at}: no ruleId"));
            } else if !rule_ids.contains(rule_id) {
                p.push(format!(
                    "{at}: ruleId {rule_id} is not in tool.driver.rules"
                ));
            }
            if r["message"]["text"].as_str().is_none_or(str::is_empty) {
                p.push(format!("{at}: no message.text"));
            }
            if let Some(level) = r.get("level") {
                if !level.as_str().is_some_and(|l| LEVELS.contains(&l)) {
                    p.push(format!("{at}: level {level}"));
                }
            }
            let locations = r["locations"].as_array().cloned().unwrap_or_default();
            if locations.is_empty() {
                p.push(format!(
                    "{at}: locationFromSarifResult: expected at least one location"
                ));
            }
            if locations.len() > MAX_LOCATIONS_PER_RESULT {
                p.push(format!("{at}: {} locations", locations.len()));
            }
            let mut first_uri = String::new();
            for (li, loc) in locations.iter().enumerate() {
                let pl = &loc["physicalLocation"];
                let Some(uri) = pl["artifactLocation"]["uri"].as_str() else {
                    p.push(format!(
                        "{at}.locations[{li}]: expected a physical location"
                    ));
                    continue;
                };
                if uri.is_empty()
                    || uri.starts_with('/')
                    || uri.contains("://")
                    || uri.contains('\\')
                {
                    p.push(format!(
                        "{at}.locations[{li}]: uri {uri:?} is not a repository-relative path"
                    ));
                }
                if li == 0 {
                    first_uri = uri.to_string();
                }
                match pl["region"]["startLine"].as_u64() {
                    Some(n) if n >= 1 => {}
                    _ => p.push(format!("{at}.locations[{li}]: no region.startLine >= 1")),
                }
            }
            match r["partialFingerprints"]["primaryLocationLineHash"].as_str() {
                Some(h) if !h.is_empty() => {
                    let key = (rule_id.to_string(), first_uri, h.to_string());
                    if let Some(prev) = prints.insert(key, k) {
                        p.push(format!(
                            "{at}: same rule, file and primaryLocationLineHash as results[{prev}] (GitHub merges them into one alert)"
                        ));
                    }
                }
                _ => p.push(format!(
                    "{at}: no partialFingerprints.primaryLocationLineHash"
                )),
            }
        }
    }
    p
}

/// Validation against the SARIF 2.1.0 JSON schema (the vendored copy in tests/data).
pub fn schema_problems(text: &str) -> Vec<String> {
    let schema_text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json"),
    )
    .expect("vendored SARIF schema");
    let schema: Value = serde_json::from_str(&schema_text).expect("schema is JSON");
    let doc: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![format!("not JSON: {e}")],
    };
    let validator = jsonschema::draft4::new(&schema).expect("SARIF schema compiles");
    validator
        .iter_errors(&doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

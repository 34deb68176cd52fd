//! The cross-server findings (#15) on the benign corpus: the 57 real servers' published tool
//! lists (`tests/corpus/benign/*.json`) loaded as one fleet, each file one server named by its
//! slug. Cross-server names there are real (GitHub's and GitLab's servers share tool names)
//! and expected; a cross-server shadowing finding there is a false positive.
//!
//! `cargo test --test fleet_corpus -- --nocapture` prints the figures (docs/detection.md,
//! "Cross-server findings on real servers").

use mcpward::checks::{collision, security};
use mcpward::model::Finding;
use serde_json::Value;
use std::path::PathBuf;

fn benign() -> Vec<(String, Vec<Value>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/benign");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, v["tools"].as_array().unwrap().clone())
        })
        .collect()
}

fn count(findings: &[Finding], id: &str) -> usize {
    findings.iter().filter(|f| f.id == id).count()
}

/// Measured (docs/detection.md): 52 tool names shared by two or more of the 57 servers,
/// toxic-flow pairs as printed, no cross-server shadowing.
const CROSS_NAMES: usize = 52;

#[test]
fn benign_corpus_as_one_fleet() {
    let servers = benign();
    let members: Vec<(&str, &[Value])> = servers
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_slice()))
        .collect();
    let tools: usize = servers.iter().map(|s| s.1.len()).sum();
    let col = collision::check_fleet(&members, &collision::CollisionConfig::default());
    let sec = security::check_fleet(&members, &security::FleetConfig::default());
    for f in col.iter().chain(&sec) {
        if f.id != "security/toxic-flow" || f.location.as_deref() == Some("fleet") {
            println!(
                "{} [{}] {}",
                f.id,
                f.location.as_deref().unwrap_or(""),
                f.message
            );
        }
    }
    let names = count(&col, "collision/cross-server-name");
    let descs = count(&col, "collision/description-collision");
    let shadow = count(&sec, "security/tool-shadowing");
    let flows = count(&sec, "security/toxic-flow");
    println!(
        "{} servers, {tools} tools: {names} cross-server names, {descs} cross-server description collisions, {shadow} cross-server shadowing, {flows} toxic-flow findings",
        servers.len()
    );
    assert_eq!(names, CROSS_NAMES);
    assert_eq!(
        shadow, 0,
        "cross-server shadowing false positives on real servers"
    );
    // Deterministic whatever the member order.
    let mut reversed = members.clone();
    reversed.reverse();
    assert_eq!(
        collision::check_fleet(&reversed, &collision::CollisionConfig::default()),
        col
    );
    assert_eq!(
        security::check_fleet(&reversed, &security::FleetConfig::default()),
        sec
    );
}

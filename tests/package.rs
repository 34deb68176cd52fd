//! What `cargo install` ships: the `mcpward` package has exactly one binary target, and
//! the fixture server is an unpublished workspace member (fixtures/README.md).

use serde_json::Value;
use std::process::Command;

fn metadata() -> Value {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata JSON")
}

fn package<'a>(meta: &'a Value, name: &str) -> &'a Value {
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("package {name} in the workspace"))
}

#[test]
fn cargo_install_ships_one_binary() {
    let meta = metadata();
    let bins: Vec<&str> = package(&meta, "mcpward")["targets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bin"))
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(bins, ["mcpward"]);
    // `publish = false` reads as an empty registry list.
    assert_eq!(
        package(&meta, "mcpward-fixture")["publish"],
        serde_json::json!([])
    );
}

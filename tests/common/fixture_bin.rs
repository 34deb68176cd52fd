//! Where the fixture server binary is, building it first when needed.
//!
//! The fixture is its own workspace member (`fixtures/server`, `publish = false`), so that
//! `cargo install` ships `mcpward` only; cargo therefore gives tests no
//! `CARGO_BIN_EXE_mcpward-fixture`. Instead the first call in a test process runs
//! `cargo build --bin mcpward-fixture` into the same target directory and profile as the
//! `mcpward` binary under test (a no-op when it is fresh), so plain `cargo test` works from a
//! clean clone. `MCPWARD_FIXTURE=<path>` skips the build and uses that binary.
//! Shared by `tests/common/mod.rs` and the benches (through `#[path]`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The fixture binary next to `mcpward_exe` (which cargo built for this test or bench).
pub fn fixture_bin(mcpward_exe: &Path) -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(p) = std::env::var_os("MCPWARD_FIXTURE").filter(|p| !p.is_empty()) {
            return PathBuf::from(p);
        }
        build(mcpward_exe)
    })
    .clone()
}

fn build(mcpward_exe: &Path) -> PathBuf {
    let profile_dir = mcpward_exe
        .parent()
        .expect("the mcpward binary lives in <target>/[<triple>/]<profile>/");
    let profile = profile_dir
        .file_name()
        .and_then(|n| n.to_str())
        .expect("profile directory name");
    // Cargo marks the root of every target directory with CACHEDIR.TAG; one level further
    // up means a `--target <triple>` build.
    let above = profile_dir.parent().expect("target directory");
    let (target_dir, triple) = if above.join("CACHEDIR.TAG").exists() {
        (above, None)
    } else {
        let root = above.parent().expect("target directory");
        (root, above.file_name().and_then(|n| n.to_str()))
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    // `--workspace` resolves features as `cargo test` did for the whole workspace, so the
    // shared dependencies are not built a second time with the fixture's features alone.
    cmd.args([
        "build",
        "--quiet",
        "--workspace",
        "--bin",
        "mcpward-fixture",
    ])
    .arg("--manifest-path")
    .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
    .arg("--target-dir")
    .arg(target_dir);
    match profile {
        "debug" => {}
        "release" => {
            cmd.arg("--release");
        }
        other => {
            cmd.args(["--profile", other]);
        }
    }
    if let Some(t) = triple {
        cmd.args(["--target", t]);
    }
    let out = cmd.output().expect("run cargo to build mcpward-fixture");
    assert!(
        out.status.success(),
        "cargo build --bin mcpward-fixture failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exe = profile_dir.join(format!("mcpward-fixture{}", std::env::consts::EXE_SUFFIX));
    assert!(exe.exists(), "{} was not built", exe.display());
    exe
}

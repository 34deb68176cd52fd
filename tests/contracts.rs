//! Named contracts (#16 §5): `baseline --name`, `diff NAME`, `contracts list|show|delete`,
//! and `drift/baseline-stale` for an old baseline.

mod common;
use common::*;
use serde_json::Value;
use std::process::{Command, Output};

fn fx() -> String {
    fixture().display().to_string()
}

fn table(name: &str) -> String {
    format!("{}/fixtures/tables/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run_on(w: &Workdir, today: &str, args: &[&str]) -> Output {
    Command::new(mcpward())
        .args(args)
        .current_dir(w.path())
        .env("NO_COLOR", "1")
        .env("MCPWARD_TODAY", today)
        .output()
        .unwrap()
}

fn lock(w: &Workdir, name: &str) -> Value {
    let p = w
        .path()
        .join(format!(".mcpward/contracts/{name}.lock.json"));
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn a_named_contract_records_its_endpoint_and_is_checked_with_no_config() {
    let w = Workdir::new();
    let f = fx();
    let v1 = table("drift-v1.json");
    let o = w.run(&[
        "baseline",
        "--name",
        "fx",
        "--notes",
        "pinned in review",
        "--",
        &f,
        "--tools-file",
        &v1,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let l = lock(&w, "fx");
    assert_eq!(l["meta"]["contract"]["name"], "fx");
    assert_eq!(l["meta"]["contract"]["notes"], "pinned in review");
    let endpoint = l["meta"]["contract"]["endpoint"].as_str().unwrap();
    assert!(
        endpoint.starts_with("stdio:") && endpoint.ends_with("drift-v1.json"),
        "{endpoint}"
    );
    // The whole surface is pinned without a config.
    assert!(l.get("prompts").is_some(), "{l}");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/schemas/lockfile.v2.schema.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    assert!(
        v.is_valid(&l),
        "{:?}",
        v.iter_errors(&l).map(|e| e.to_string()).collect::<Vec<_>>()
    );
    let mut bad = l.clone();
    bad["meta"]["contract"]["endpoint"] = Value::from(7);
    assert!(!v.is_valid(&bad));
    // diff NAME reaches the recorded endpoint: no drift.
    let o = w.run(&["diff", "fx", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(triples(&json_report(&o))
        .iter()
        .any(|(id, s, _)| id == "drift/no-changes" && s == "pass"));
    // --endpoint points it at a changed server: drift fails the run.
    let changed = format!("stdio:{f} --tools-file {}", table("drift-v2.json"));
    let o = w.run(&["diff", "fx", "--json", "--endpoint", &changed]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(non_pass(&json_report(&o))
        .iter()
        .any(|l| l.starts_with("drift/summary fail")));
}

#[test]
fn endpoint_forms_round_trip_through_the_contract() {
    let srv = HttpFixture::start(&["--tools", "clean"]);
    let w = Workdir::new();
    let secret = "contract-header-secret-777";
    let header = format!("Authorization: Bearer {secret}");
    let o = w.run(&["baseline", "--name", "web", "--header", &header, &srv.url]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(w.path().join(".mcpward/contracts/web.lock.json")).unwrap();
    assert!(!text.contains(secret), "a header value was stored");
    assert_eq!(
        lock(&w, "web")["meta"]["contract"]["endpoint"],
        srv.url.as_str()
    );
    let o = w.run(&["diff", "web", "--header", &header]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!String::from_utf8_lossy(&o.stdout).contains(secret));
    // An argument with a space survives the record.
    let f = fx();
    let o = w.run(&[
        "baseline",
        "--name",
        "spaced",
        "--",
        "sh",
        "-c",
        &format!("exec {f:?} --tools clean"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = w.run(&["diff", "spaced"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn list_show_and_delete() {
    let w = Workdir::new();
    let f = fx();
    for (name, t) in [("alpha", "clean"), ("beta", "paginated")] {
        let o = w.run(&["baseline", "--name", name, "--", &f, "--tools", t]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    // The config's own lockfile is listed too.
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], "t", ""),
    );
    assert_eq!(w.run(&["baseline"]).status.code(), Some(0));
    let o = run_on(&w, "2099-01-01", &["contracts", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("NAME"), "{out}");
    assert!(
        lines[1].starts_with("alpha") && lines[1].contains("contract"),
        "{out}"
    );
    assert!(lines[2].starts_with("beta"), "{out}");
    assert!(
        lines[3].contains("server") && lines[3].contains("./mcpward.lock.json"),
        "{out}"
    );
    let o = run_on(&w, "2099-01-01", &["contracts", "list", "--json"]);
    let rows: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rows[0]["name"], "alpha");
    assert_eq!(rows[0]["tools"], 4);
    assert!(rows[0]["ageDays"].as_i64().unwrap() > 20_000);
    assert_eq!(rows[0]["canonicalVersion"], 2);
    // show: a table of the pinned tools, or JSON.
    let o = w.run(&["contracts", "show", "alpha"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        out.contains("Tools (4):") && out.contains("add_numbers"),
        "{out}"
    );
    let o = w.run(&["contracts", "show", "alpha", "--json"]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["tools"].as_array().unwrap().len(), 4);
    assert_eq!(doc["contract"]["name"], "alpha");
    // delete
    let o = w.run(&["contracts", "delete", "alpha"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!w.path().join(".mcpward/contracts/alpha.lock.json").exists());
    let o = w.run(&["contracts", "delete", "alpha"]);
    assert_eq!(o.status.code(), Some(2));
    let o = w.run(&["contracts", "show", "alpha"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_names_and_missing_contracts_exit_2_with_a_message() {
    let w = Workdir::new();
    let f = fx();
    for bad in ["../x", ".hidden", "a/b", ""] {
        let o = w.run(&["baseline", "--name", bad, "--", &f, "--tools", "clean"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
    let o = w.run(&["diff", "nope", "--", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("use --endpoint"), "{}", stderr(&o));
    let o = w.run(&["diff", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no contract named nope"),
        "{}",
        stderr(&o)
    );
    // --name without a server on the command line.
    let o = w.run(&["baseline", "--name", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs the server"), "{}", stderr(&o));
    // A contract file that is not JSON.
    std::fs::create_dir_all(w.path().join(".mcpward/contracts")).unwrap();
    w.write(".mcpward/contracts/broken.lock.json", "{not json");
    let o = w.run(&["diff", "broken"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be read"), "{}", stderr(&o));
    let o = w.run(&["contracts", "list"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("unreadable"));
}

#[test]
fn an_old_baseline_warns_on_every_diff() {
    let w = Workdir::new();
    w.write(
        "mcpward.yaml",
        &stdio_config(&["--tools", "clean"], "t", ""),
    );
    assert_eq!(w.run(&["baseline"]).status.code(), Some(0));
    let stale = |o: &Output| {
        triples(&json_report(o))
            .into_iter()
            .filter(|(id, _, _)| id == "drift/baseline-stale")
            .map(|(_, s, _)| s)
            .collect::<Vec<_>>()
    };
    // Today: fresh.
    let o = w.run(&["diff", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stale(&o).is_empty());
    // 200 days on: a warning with the age, and the run still passes.
    let captured = lock_captured(&w);
    let later = later_day(&captured, 200);
    let o = run_on(&w, &later, &["diff", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stale(&o), ["warn"]);
    let r = json_report(&o);
    let msg = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "drift/baseline-stale")
        .unwrap()["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(msg.contains("200 days ago"), "{msg}");
    // `run` with drift on says it too; max_age_days: 0 turns it off, 365 moves the line.
    for (extra, want) in [
        ("checks:\n  drift: {}\n", vec!["warn"]),
        ("checks:\n  drift:\n    max_age_days: 0\n", vec![]),
        ("checks:\n  drift:\n    max_age_days: 365\n", vec![]),
    ] {
        w.write(
            "mcpward.yaml",
            &stdio_config(&["--tools", "clean"], "t", extra),
        );
        let o = run_on(&w, &later, &["run", "--json"]);
        assert_eq!(stale(&o), want, "{extra}");
    }
    w.write(
        "mcpward.yaml",
        &stdio_config(
            &["--tools", "clean"],
            "t",
            "checks:\n  drift:\n    max_age_days: -1\n",
        ),
    );
    assert_eq!(w.run(&["run"]).status.code(), Some(2));
}

fn lock_captured(w: &Workdir) -> String {
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(w.path().join("mcpward.lock.json")).unwrap())
            .unwrap();
    v["meta"]["capturedAt"].as_str().unwrap()[..10].to_string()
}

/// `day` plus `n` days, as YYYY-MM-DD (through the shell's `date`, independent of the code
/// under test).
fn later_day(day: &str, n: u32) -> String {
    let o = Command::new("date")
        .args(["-u", "-d", &format!("{day} + {n} days"), "+%Y-%m-%d"])
        .output()
        .unwrap();
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

use super::*;
use crate::model::{Finding, Report, ServerSummary};

fn entry(rule: &str, location: &str) -> Entry {
    Entry {
        rule: rule.into(),
        location: location.into(),
        reason: "accepted in review".into(),
        expires: None,
        server: None,
        origin: "suppress[0]".into(),
    }
}

fn ids(fs: &[Finding]) -> Vec<(String, Status, Option<String>)> {
    fs.iter()
        .map(|f| (f.id.clone(), f.status, f.location.clone()))
        .collect()
}

#[test]
fn dates_and_globs() {
    assert!(valid_date("2026-02-28") && valid_date("2024-02-29") && valid_date("2000-02-29"));
    for bad in [
        "2026-02-29",
        "1900-02-29",
        "2026-13-01",
        "2026-00-10",
        "2026-1-01",
        "26-01-01",
        "2026-01-32",
        "２０２６-01-01",
        "",
    ] {
        assert!(!valid_date(bad), "{bad}");
    }
    assert!(glob_match("evil*", "evil_tool"));
    assert!(glob_match("*", ""));
    assert!(glob_match("a*b?d", "a/x.yb_d"), "* crosses / and .");
    assert!(!glob_match("a?c", "ac"));
    assert!(!glob_match("evil", "evil_tool"));
    assert!(glob_match("**x*", "yyx"));
    // Long near-misses stay fast (one backtrack point).
    let text = "a".repeat(10_000);
    assert!(!glob_match(&format!("{}b", "*a".repeat(50)), &text));
}

#[test]
fn a_matching_failure_is_suppressed_with_its_reason_and_does_not_fail() {
    let fs = vec![
        Finding::fail("security/tool-poisoning", "bad").location("evil"),
        Finding::pass("security/summary", "ok"),
    ];
    let mut e = entry("security/tool-poisoning", "ev?l");
    e.expires = Some("2026-12-31".into());
    let out = apply(fs, &[e], "2026-12-31", false, None);
    assert_eq!(out.len(), 2, "{out:?}");
    assert_eq!(out[0].status, Status::Suppressed);
    assert_eq!(
        out[0].suppression,
        Some(Suppression {
            reason: "accepted in review".into(),
            expires: Some("2026-12-31".into())
        })
    );
    assert_eq!(crate::model::exit_code_of(&out), 0);
    let s = Summary::of(&out);
    assert_eq!((s.failed, s.suppressed, s.total), (0, 1, 2));
}

#[test]
fn passes_skips_and_other_rules_or_locations_are_left_alone() {
    let fs = vec![
        Finding::pass("security/tool-poisoning", "ok").location("evil"),
        Finding::skip("security/tool-poisoning", "n/a").location("evil"),
        Finding::fail("security/hidden-unicode", "bad").location("evil"),
        Finding::warn("security/tool-poisoning", "w").location("good"),
    ];
    let out = apply(
        fs.clone(),
        &[entry("security/tool-poisoning", "evil")],
        "2026-01-01",
        false,
        None,
    );
    assert_eq!(&out[..4], &fs[..]);
    assert_eq!(out[4].id, "config/suppression-stale");
    assert_eq!(out[4].status, Status::Warn);
    assert!(
        out[4]
            .message
            .contains("suppress[0] (rule security/tool-poisoning, location \"evil\")"),
        "{}",
        out[4].message
    );
}

#[test]
fn an_expired_entry_no_longer_suppresses_and_fails() {
    let fs = vec![Finding::fail("security/tool-poisoning", "bad").location("evil")];
    let mut e = entry("security/tool-poisoning", "*");
    e.expires = Some("2026-06-30".into());
    let out = apply(fs, &[e], "2026-07-01", false, None);
    assert_eq!(
        ids(&out),
        vec![
            (
                "security/tool-poisoning".into(),
                Status::Fail,
                Some("evil".into())
            ),
            (
                "config/suppression-expired".into(),
                Status::Fail,
                Some("suppress[0]".into())
            ),
        ]
    );
    assert!(
        out[1].message.contains("expired on 2026-06-30"),
        "{}",
        out[1].message
    );
    assert_eq!(out[1].severity, Severity::Error);
}

#[test]
fn stale_fails_with_strict_and_is_not_judged_when_its_family_did_not_run() {
    let fs = vec![Finding::pass("security/summary", "ok")];
    let e = entry("security/tool-poisoning", "evil");
    let strict = apply(
        fs.clone(),
        std::slice::from_ref(&e),
        "2026-01-01",
        true,
        None,
    );
    assert_eq!(strict[1].status, Status::Fail);
    assert_eq!(strict[1].severity, Severity::Error);
    let drift_only = vec![Finding::pass("drift/summary", "ok")];
    assert_eq!(
        apply(drift_only.clone(), &[e], "2026-01-01", true, None),
        drift_only
    );
    // No entry: results untouched.
    assert_eq!(apply(fs.clone(), &[], "2026-01-01", true, None), fs);
}

#[test]
fn a_finding_without_location_is_matched_by_star_only() {
    let fs = vec![Finding::fail("compliance/ping", "no pong")];
    let out = apply(
        fs.clone(),
        &[entry("compliance/ping", "*")],
        "2026-01-01",
        false,
        None,
    );
    assert_eq!(out[0].status, Status::Suppressed);
    let out = apply(
        fs,
        &[entry("compliance/ping", "x*")],
        "2026-01-01",
        false,
        None,
    );
    assert_eq!(out[0].status, Status::Fail);
}

fn member(name: &str, results: Vec<Finding>) -> FleetMember {
    let r = Report::new(
        ServerSummary {
            name: name.into(),
            version: "1".into(),
            protocol_version: "p".into(),
        },
        results,
        "t".into(),
    );
    FleetMember::tested(name, r, vec![])
}

#[test]
fn fleet_entries_apply_to_their_server_and_stale_is_judged_over_the_run() {
    let poisoned = || vec![Finding::fail("security/tool-poisoning", "bad").location("evil")];
    let mut members = vec![member("api", poisoned()), member("db", poisoned())];
    let mut scoped = entry("security/tool-poisoning", "evil");
    scoped.server = Some("api".into());
    let mut unused = entry("security/hidden-unicode", "*");
    unused.origin = "suppress[1]".into();
    let mut elsewhere = entry("security/tool-poisoning", "*");
    elsewhere.server = Some("unselected".into());
    elsewhere.expires = Some("2000-01-01".into());
    let mut cross = vec![];
    apply_fleet(
        &mut members,
        &mut cross,
        &[scoped, unused.clone(), elsewhere.clone()],
        "2026-01-01",
        false,
        true,
    );
    let api = &members[0].report.as_ref().unwrap();
    let db = &members[1].report.as_ref().unwrap();
    assert_eq!(api.results[0].status, Status::Suppressed);
    assert_eq!(api.summary.suppressed, 1);
    assert_eq!(db.results[0].status, Status::Fail);
    // The unused unscoped entry is stale at fleet level; the entry of an unselected
    // member is not judged (neither stale nor expired).
    assert_eq!(
        ids(&cross),
        vec![(
            "config/suppression-stale".into(),
            Status::Warn,
            Some("suppress[1]".into())
        )]
    );
    // A partial run (--server / --shard) does not judge unscoped entries stale.
    let mut members = vec![member("api", poisoned())];
    let mut cross = vec![];
    apply_fleet(
        &mut members,
        &mut cross,
        &[unused],
        "2026-01-01",
        true,
        false,
    );
    assert!(cross.is_empty(), "{cross:?}");
}

#[test]
fn a_family_summary_is_accepted_once_every_finding_it_counts_is() {
    let findings = || {
        vec![
            Finding::fail(
                "security/summary",
                "Security scan found 2 issue(s) in 2 tool(s)",
            ),
            Finding::fail("security/secret-in-schema", "a").location("t1"),
            Finding::fail("security/injection-pattern", "b").location("t2"),
        ]
    };
    // One of two accepted: the summary still fails (a finding nobody reviewed remains).
    let one = apply(
        findings(),
        &[entry("security/secret-in-schema", "t1")],
        "2026-12-01",
        false,
        None,
    );
    assert_eq!(one[0].status, Status::Fail);
    // Both accepted: the summary is accepted too, and says why.
    let both = apply(
        findings(),
        &[
            entry("security/secret-in-schema", "t1"),
            entry("security/injection-pattern", "*"),
        ],
        "2026-12-01",
        false,
        None,
    );
    assert_eq!(both[0].status, Status::Suppressed);
    assert!(both[0]
        .suppression
        .as_ref()
        .unwrap()
        .reason
        .contains("2 suppressed"));
    assert!(both.iter().all(|f| f.status == Status::Suppressed));
    // Nothing of the family accepted: the summary is left alone.
    let none = apply(
        findings(),
        &[entry("schema/x", "*")],
        "2026-12-01",
        false,
        None,
    );
    assert_eq!(none[0].status, Status::Fail);
}

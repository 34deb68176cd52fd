use super::*;
use crate::model::{Severity, Status};

fn answer(status: Option<u16>, body: OriginBody) -> OriginAnswer {
    OriginAnswer {
        status,
        body,
        error: None,
    }
}

fn probed(foreign: OriginAnswer, own: OriginAnswer) -> OriginProbe {
    OriginProbe::Probed {
        method: "initialize".into(),
        foreign_origin: "http://mcpward-rebinding.example:4000".into(),
        own_origin: "http://127.0.0.1:4000".into(),
        foreign,
        own,
    }
}

fn one(p: &OriginProbe) -> Finding {
    let mut f = judge(p);
    assert_eq!(f.len(), 1, "{f:?}");
    let f = f.remove(0);
    assert_eq!(f.id, "http/origin-validation");
    f
}

const SERVED: (Option<u16>, OriginBody) = (Some(200), OriginBody::Result);

#[test]
fn a_foreign_origin_answered_normally_fails() {
    let f = one(&probed(
        answer(SERVED.0, SERVED.1),
        answer(SERVED.0, SERVED.1),
    ));
    assert_eq!((f.status, f.severity), (Status::Fail, Severity::Error));
    assert!(f.message.contains(
            "answered initialize sent with a foreign Origin (http://mcpward-rebinding.example:4000, and that Host) normally"
        ), "{}", f.message);
    assert!(
        f.message.contains("HTTP 200 with a JSON-RPC result"),
        "{}",
        f.message
    );
    assert_eq!(
        f.actual.as_ref().unwrap()["foreign"]["answer"]["status"],
        200
    );
}

#[test]
fn a_foreign_origin_refused_with_any_4xx_passes() {
    for status in [400, 403, 404, 421] {
        let f = one(&probed(
            answer(Some(status), OriginBody::Error),
            answer(SERVED.0, SERVED.1),
        ));
        assert_eq!(f.status, Status::Pass, "{status}: {}", f.message);
        assert!(
            f.message.contains(&format!("HTTP {status}")),
            "{}",
            f.message
        );
        assert!(f.actual.is_none());
    }
}

#[test]
fn refusing_the_own_origin_too_warns() {
    let f = one(&probed(
        answer(Some(403), OriginBody::Error),
        answer(Some(403), OriginBody::Other),
    ));
    assert_eq!((f.status, f.severity), (Status::Warn, Severity::Warning));
    assert!(
        f.message.contains("refuses every request a browser sends"),
        "{}",
        f.message
    );
    assert!(
        f.message
            .contains("but also with its own origin http://127.0.0.1:4000: HTTP 403"),
        "{}",
        f.message
    );
}

#[test]
fn two_authentication_challenges_are_not_judged() {
    let f = one(&probed(
        answer(Some(401), OriginBody::Other),
        answer(Some(401), OriginBody::Other),
    ));
    assert_eq!(f.status, Status::Skip, "{}", f.message);
    assert!(
        f.message.contains("asked for authentication"),
        "{}",
        f.message
    );
    // A 401 for the foreign origin alone is a refusal.
    let f = one(&probed(
        answer(Some(401), OriginBody::Other),
        answer(SERVED.0, SERVED.1),
    ));
    assert_eq!(f.status, Status::Pass, "{}", f.message);
}

#[test]
fn a_json_rpc_error_is_a_refusal_only_when_the_own_origin_is_served() {
    let err = || answer(Some(200), OriginBody::Error);
    let f = one(&probed(err(), answer(SERVED.0, SERVED.1)));
    assert_eq!(f.status, Status::Pass, "{}", f.message);
    assert!(f.message.contains("not the 403"), "{}", f.message);
    // The request is not served with either origin (a modern server without discover).
    let f = one(&probed(err(), err()));
    assert_eq!(f.status, Status::Skip, "{}", f.message);
}

#[test]
fn no_answer_or_another_status_is_not_judged() {
    let failed = OriginAnswer {
        status: None,
        body: OriginBody::Other,
        error: Some("no answer within 10000 ms".into()),
    };
    let f = one(&probed(failed, answer(SERVED.0, SERVED.1)));
    assert_eq!(f.status, Status::Skip);
    assert!(
        f.message.contains("no answer (no answer within 10000 ms)"),
        "{}",
        f.message
    );
    for status in [302, 500, 503] {
        let f = one(&probed(
            answer(Some(status), OriginBody::Other),
            answer(SERVED.0, SERVED.1),
        ));
        assert_eq!(f.status, Status::Skip, "{status}");
    }
    // 2xx without a JSON-RPC response (an SSE stream that never answered, an empty body).
    let f = one(&probed(
        answer(Some(200), OriginBody::Other),
        answer(SERVED.0, SERVED.1),
    ));
    assert_eq!(f.status, Status::Skip);
}

#[test]
fn a_public_host_is_skipped_with_the_reason() {
    let f = one(&OriginProbe::NotLocal {
        host: "mcp.example.com".into(),
    });
    assert_eq!((f.status, f.severity), (Status::Skip, Severity::Info));
    assert!(
        f.message
            .starts_with("mcp.example.com is not a loopback or private address"),
        "{}",
        f.message
    );
}

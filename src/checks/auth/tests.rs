use super::*;
use crate::model::Status;
use serde_json::json;

const URL: &str = "http://127.0.0.1:9/mcp";

fn good() -> AuthObservation {
    AuthObservation {
        server_url: URL.into(),
        grant: true,
        first: Some((
            401,
            Some(r#"Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp""#.into()),
        )),
        resource_metadata: Some(MetadataFetch {
            tried: vec![("u".into(), "ok".into())],
            document: Some(json!({"resource": URL, "authorization_servers": ["http://127.0.0.1:9"]})),
        }),
        server_metadata: Some(MetadataFetch {
            tried: vec![("u".into(), "ok".into())],
            document: Some(json!({"token_endpoint": "http://127.0.0.1:9/token", "code_challenge_methods_supported": ["S256"]})),
        }),
        without_token: Some(AuthProbe { status: Some(401), served: false, error: None }),
        wrong_token: Some(AuthProbe { status: Some(401), served: false, error: None }),
    }
}

fn status_of(fs: &[Finding], id: &str) -> Status {
    fs.iter()
        .find(|f| f.id == id)
        .unwrap_or_else(|| panic!("no {id}: {fs:?}"))
        .status
}

#[test]
fn a_correct_server_passes_every_rule() {
    let fs = check(&good());
    assert_eq!(fs.len(), 5);
    assert!(fs.iter().all(|f| f.status == Status::Pass), "{fs:#?}");
}

#[test]
fn challenge_faults() {
    let mut o = good();
    o.first = Some((401, None));
    assert_eq!(status_of(&check(&o), "auth/challenge"), Status::Fail);
    o.first = Some((401, Some("Bearer realm=\"x\"".into())));
    assert_eq!(status_of(&check(&o), "auth/challenge"), Status::Fail);
    o.first = Some((401, Some("Basic realm=\"x\"".into())));
    assert_eq!(status_of(&check(&o), "auth/challenge"), Status::Fail);
    o.first = Some((200, None));
    assert_eq!(status_of(&check(&o), "auth/challenge"), Status::Skip);
}

#[test]
fn resource_metadata_faults() {
    let mut o = good();
    for doc in [
        None,
        Some(json!({"resource": URL})),
        Some(json!({"resource": URL, "authorization_servers": []})),
        Some(json!({"authorization_servers": ["x"]})),
        Some(json!({"resource": "https://evil.example/mcp", "authorization_servers": ["x"]})),
    ] {
        o.resource_metadata.as_mut().unwrap().document = doc.clone();
        assert_eq!(
            status_of(&check(&o), "auth/resource-metadata"),
            Status::Fail,
            "{doc:?}"
        );
    }
    o.resource_metadata = None;
    assert!(check(&o).iter().all(|f| f.id != "auth/resource-metadata"));
}

#[test]
fn server_metadata_warnings() {
    let mut o = good();
    for doc in [
        None,
        Some(json!({"code_challenge_methods_supported": ["S256"]})),
        Some(json!({"token_endpoint": "t", "code_challenge_methods_supported": ["plain"]})),
        Some(json!({"token_endpoint": "t"})),
    ] {
        o.server_metadata.as_mut().unwrap().document = doc.clone();
        assert_eq!(
            status_of(&check(&o), "auth/server-metadata"),
            Status::Warn,
            "{doc:?}"
        );
    }
}

#[test]
fn unauthenticated_access_only_when_auth_is_advertised() {
    let mut o = good();
    o.without_token = Some(AuthProbe {
        status: Some(200),
        served: true,
        error: None,
    });
    assert_eq!(
        status_of(&check(&o), "auth/unauthenticated-access"),
        Status::Fail
    );
    o.first = Some((200, None));
    assert_eq!(
        status_of(&check(&o), "auth/unauthenticated-access"),
        Status::Fail,
        "PRM still advertises"
    );
    o.resource_metadata = None;
    assert_eq!(
        status_of(&check(&o), "auth/unauthenticated-access"),
        Status::Skip
    );
}

#[test]
fn invalid_token_must_be_401() {
    let mut o = good();
    o.wrong_token = Some(AuthProbe {
        status: Some(200),
        served: true,
        error: None,
    });
    assert_eq!(status_of(&check(&o), "auth/invalid-token"), Status::Fail);
    o.wrong_token = Some(AuthProbe {
        status: Some(403),
        served: false,
        error: None,
    });
    assert_eq!(status_of(&check(&o), "auth/invalid-token"), Status::Fail);
    o.wrong_token = Some(AuthProbe {
        status: None,
        served: false,
        error: Some("timeout".into()),
    });
    assert_eq!(status_of(&check(&o), "auth/invalid-token"), Status::Skip);
}

#[test]
fn a_bearer_token_is_not_judged_for_the_oauth_challenge() {
    let mut o = good();
    o.grant = false;
    o.first = Some((401, Some("Bearer".into())));
    assert_eq!(status_of(&check(&o), "auth/challenge"), Status::Skip);
}

#[test]
fn an_open_server_without_oauth_has_no_token_to_validate() {
    let mut o = good();
    o.first = Some((200, None));
    o.resource_metadata = None;
    o.without_token = Some(AuthProbe {
        status: Some(200),
        served: true,
        error: None,
    });
    o.wrong_token = Some(AuthProbe {
        status: Some(200),
        served: true,
        error: None,
    });
    let fs = check(&o);
    assert_eq!(status_of(&fs, "auth/unauthenticated-access"), Status::Skip);
    assert_eq!(status_of(&fs, "auth/invalid-token"), Status::Skip);
}

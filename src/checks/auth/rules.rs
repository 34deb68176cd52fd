//! The auth family's rules (#17): the server's side of the MCP authorization contract, seen
//! while mcpward obtains its token. Built from these constants; the registry
//! (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const CHALLENGE: Rule = Rule {
    id: "auth/challenge",
    severity: Severity::Error,
    short: "401 challenge names the resource metadata",
    description: "The first request, sent without a token, got HTTP 401: the MCP authorization spec requires a `WWW-Authenticate: Bearer` header with `resource_metadata` (RFC 9728 §5.1) so a client can find the authorization server. Fails when the header or the parameter is missing. A `skip` when the server did not answer 401 (see `auth/unauthenticated-access`).",
    fix: "Answer unauthenticated requests with `401` and `WWW-Authenticate: Bearer resource_metadata=\"https://<server>/.well-known/oauth-protected-resource/<path>\"` (plus `scope=` for the scopes the request needs).",
};

pub const RESOURCE_METADATA: Rule = Rule {
    id: "auth/resource-metadata",
    severity: Severity::Error,
    short: "Protected Resource Metadata is served and names this server",
    description: "The Protected Resource Metadata document (RFC 9728), from the challenge's `resource_metadata` URL or the well-known path of the server's origin and path: fails when it is missing, is not a JSON object, lacks `authorization_servers`, or its `resource` is not this server's URI (a client then must not use its authorization server). Runs for the `client_credentials` and `refresh_token` auth types.",
    fix: "Serve `{\"resource\": \"<the server URL>\", \"authorization_servers\": [\"<issuer>\"]}` at `/.well-known/oauth-protected-resource/<path of the MCP endpoint>` (and name it in the 401 challenge).",
};

pub const SERVER_METADATA: Rule = Rule {
    id: "auth/server-metadata",
    severity: Severity::Warning,
    short: "Authorization server metadata is complete",
    description: "The authorization server's metadata (RFC 8414, then OpenID discovery, with the MCP path-insertion order): warns when no document is found, when it has no `token_endpoint`, or when `code_challenge_methods_supported` lacks `S256` (interactive MCP clients need PKCE with S256).",
    fix: "Publish the metadata at `/.well-known/oauth-authorization-server<issuer path>` with `token_endpoint` and `code_challenge_methods_supported: [\"S256\"]`.",
};

pub const UNAUTHENTICATED_ACCESS: Rule = Rule {
    id: "auth/unauthenticated-access",
    severity: Severity::Error,
    short: "Requests without a token are refused",
    description: "`tools/list` sent without any token, once the run's own connection was set up: fails when the server advertises OAuth (a 401 challenge or Protected Resource Metadata) yet serves the request, so its tools are reachable by anyone. A `skip` when the server advertises no OAuth.",
    fix: "Enforce the token on every MCP request (not only on `initialize`): answer 401 with the challenge when `Authorization` is missing.",
};

pub const INVALID_TOKEN: Rule = Rule {
    id: "auth/invalid-token",
    severity: Severity::Error,
    short: "A token the server never issued is rejected",
    description: "`tools/list` sent with a well-formed bearer token that no authorization server issued: fails unless the server answers 401. A server that accepts any bearer value is open to anyone who sends one.",
    fix: "Validate every access token (signature or introspection, expiry, and that its audience is this server) and answer 401 `error=\"invalid_token\"` otherwise.",
};

/// Report and docs order.
pub const RULES: &[Rule] = &[
    CHALLENGE,
    RESOURCE_METADATA,
    SERVER_METADATA,
    UNAUTHENTICATED_ACCESS,
    INVALID_TOKEN,
];

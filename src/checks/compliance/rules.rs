//! The compliance family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const HANDSHAKE: Rule = Rule {
    id: "compliance/handshake",
    severity: Severity::Error,
    short: "Protocol handshake check",
    description: "The connection handshake (initialize, or server/discover in the 2026-07-28 \
            era) completed. Always a pass when reported: a failed handshake stops the run with exit 2.",
    fix: "Nothing to fix when this result is present. If the run stops before it, make the \
            server answer `initialize` (or `server/discover`) with a valid result for a protocol \
            version mcpward supports.",
};

pub const PROTOCOL_VERSION: Rule = Rule {
    id: "compliance/protocol-version",
    severity: Severity::Error,
    short: "Protocol version check",
    description: "The server negotiated a protocol version and it has the usual shape \
            (a date like 2025-11-25 or a dotted version).",
    fix: "Return a `protocolVersion` from the MCP specification in the initialize result, \
            ideally the version the client offered.",
};

pub const SERVER_INFO: Rule = Rule {
    id: "compliance/server-info",
    severity: Severity::Error,
    short: "Server info check",
    description: "The server identifies itself with a non-empty `serverInfo.name` (required) \
            and `serverInfo.version` (a missing version is a warning). Clients show these to users \
            and use them in logs.",
    fix: "Fill `serverInfo: { name, version }` in the initialize result (in the 2026-07-28 era, \
            `_meta[\"io.modelcontextprotocol/serverInfo\"]` of the discover result).",
};

pub const CAPABILITIES: Rule = Rule {
    id: "compliance/capabilities",
    severity: Severity::Error,
    short: "Capabilities check",
    description: "The server declares a `capabilities` object, which clients read to learn \
            which features (tools, resources, prompts, logging…) they may use.",
    fix: "Return `capabilities` as a JSON object, e.g. `{\"tools\": {}}`; use `{}` when the \
            server offers nothing optional.",
};

pub const PING: Rule = Rule {
    id: "compliance/ping",
    severity: Severity::Error,
    short: "Ping check",
    description: "The server answers a `ping` request with an empty result, which clients use \
            as a liveness check. Skipped in the 2026-07-28 era, which removed `ping`.",
    fix: "Handle the `ping` method and answer it with `{}`; most MCP SDKs do this for you.",
};

pub const EXPECTED_PROTOCOL_VERSION: Rule = Rule {
    id: "compliance/expected-protocol-version",
    severity: Severity::Error,
    short: "Expected protocol version check",
    description: "The negotiated protocol version equals `expect.protocol_version` from the \
            config, so an unintended protocol upgrade or downgrade is caught in CI.",
    fix: "Either make the server negotiate the expected version, or update \
            `expect.protocol_version` in mcpward.yaml after an intended upgrade.",
};

pub const DISCOVER: Rule = Rule {
    id: "compliance/discover",
    severity: Severity::Error,
    short: "server/discover returns a valid DiscoverResult",
    description: "A 2026-07-28 server must implement server/discover and answer it with resultType, supportedVersions (containing the version in use), capabilities, ttlMs and cacheScope. Clients read the server's capabilities and identity from it.",
    fix: "Implement server/discover and return every required field with the right type.",
};

pub const RESULT_TYPE: Rule = Rule {
    id: "compliance/result-type",
    severity: Severity::Error,
    short: "Results carry resultType",
    description: "Every 2026-07-28 result carries a resultType string (\"complete\" for final results). Clients use it to tell final results from interim ones.",
    fix: "Add resultType: \"complete\" to every result (server/discover, every tools/list page).",
};

pub const CACHE_HINTS: Rule = Rule {
    id: "compliance/cache-hints",
    severity: Severity::Error,
    short: "Cacheable results carry valid ttlMs and cacheScope",
    description: "server/discover and every tools/list page must carry ttlMs (integer >= 0) and cacheScope (\"public\" or \"private\"); all pages of one listing share one cacheScope. Clients and intermediaries cache by these hints.",
    fix: "Return ttlMs and cacheScope on every cacheable result, with the same cacheScope on every page.",
};

pub const UNSUPPORTED_VERSION: Rule = Rule {
    id: "compliance/unsupported-version",
    severity: Severity::Error,
    short: "Unsupported protocol versions are rejected with -32022",
    description: "A request whose envelope names a protocol version the server does not support must fail with -32022 whose data lists the supported versions and echoes the requested one (HTTP 400). Clients use the list to retry with a common version.",
    fix: "Answer an unknown io.modelcontextprotocol/protocolVersion with error -32022, data {supported, requested}, and HTTP status 400.",
};

pub const META_REQUIRED: Rule = Rule {
    id: "compliance/meta-required",
    severity: Severity::Error,
    short: "Requests without the required _meta envelope are rejected",
    description: "Every 2026-07-28 request must carry io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in params._meta; a server must reject a request missing one with -32602 (HTTP 400).",
    fix: "Validate the envelope of every request and answer -32602 (HTTP 400) when a required key is missing.",
};

pub const UNKNOWN_METHOD: Rule = Rule {
    id: "compliance/unknown-method",
    severity: Severity::Error,
    short: "Removed and unknown methods answer -32601",
    description: "ping was removed in 2026-07-28; like any unknown method it must be answered with -32601 (HTTP 404).",
    fix: "Answer unknown and removed methods with -32601 and, over HTTP, status 404.",
};

pub const HEADER_VALIDATION: Rule = Rule {
    id: "compliance/header-validation",
    severity: Severity::Error,
    short: "HTTP headers are checked against the body",
    description: "Over Streamable HTTP the MCP-Protocol-Version and Mcp-Method headers must match the request body; a mismatch or a missing header must be rejected with 400 and -32020 so intermediaries can route on headers safely.",
    fix: "Compare MCP-Protocol-Version, Mcp-Method and Mcp-Name with the body and reject mismatches with HTTP 400 and error -32020.",
};

pub const STATELESS_HTTP: Rule = Rule {
    id: "compliance/stateless-http",
    severity: Severity::Warning,
    short: "The HTTP endpoint is stateless",
    description: "2026-07-28 removed HTTP sessions and the GET stream: GET and DELETE on the endpoint should answer 405 and responses should carry no Mcp-Session-Id.",
    fix: "Answer GET and DELETE with 405 and stop issuing Mcp-Session-Id in the 2026-07-28 era.",
};

pub const SERVER_MESSAGES: Rule = Rule {
    id: "compliance/server-messages",
    severity: Severity::Error,
    short: "Server messages (stateless era)",
    description: "In the 2026-07-28 revision a server may not send requests to the client, may not log without a requested logLevel and may not ask for input the client did not declare. Watched over the whole run; emitted as the report's last result.",
    fix: "Do not send server-to-client requests or unsolicited notifications/message; return errors with the request's id.",
};

pub const SUBSCRIPTIONS: Rule = Rule {
    id: "compliance/subscriptions",
    severity: Severity::Error,
    short: "subscriptions/listen acknowledgment",
    description: "A server that advertises tools.listChanged must accept subscriptions/listen and first send notifications/subscriptions/acknowledged tagged with the request's id; clients rely on it to learn about tool changes in the stateless revision.",
    fix: "Implement subscriptions/listen and send the acknowledgment first, or stop advertising tools.listChanged.",
};

pub const JSONRPC_FRAMING: Rule = Rule {
    id: "compliance/jsonrpc-framing",
    severity: Severity::Error,
    short: "Only valid JSON-RPC 2.0 answers a request",
    description: "Every message the server sends is JSON-RPC 2.0: `\"jsonrpc\": \"2.0\"`, a response's `id` equal in type and value to the request's, exactly one of `result` / `error`, and an `error` with an integer `code` and a string `message`. An invalid message is never taken as an answer: the request it claimed to answer fails. A fail when a request was answered only by invalid messages, a warning when every request still got a valid answer. Reported only when the server sent an invalid message, in both eras, over every transport; names the first one (cut, redacted) and how many there were.",
    fix: "Send `\"jsonrpc\": \"2.0\"` on every message, echo the request's id unchanged (an integer stays an integer), and put either `result` or a well-formed `error` in each response, never both.",
};

pub const LIMITS: Rule = Rule {
    id: "compliance/limits",
    severity: Severity::Warning,
    short: "The server stayed within mcpward's limits",
    description: "What a server sends is bounded (the `limits` config section): a message over `limits.message_bytes` is discarded and the request it answered fails, a listing over `limits.tools` tools is cut, progress restarts a call's timer at most `limits.progress_resets` times, and recorded chatter is capped. Reported (as a warning, in both eras, as one of the report's last results) only when a limit was reached, naming each limit: what was judged is not all the server sent.",
    fix: "Send smaller messages (paginate large listings), fewer tools or less chatter, or raise the limit in the `limits` section of mcpward.yaml when the size is intended.",
};

pub const CAPABILITIES_SERVED: Rule = Rule {
    id: "compliance/capabilities-served",
    severity: Severity::Error,
    short: "What is declared is what is served",
    description: "For `resources/list`, `resources/templates/list`, `prompts/list`, `logging/setLevel` and `completion/complete` (one result each, both eras): a declared capability (`resources`, `prompts`, `logging`, `completions`) must answer with a valid result (a fail otherwise); an undeclared one must answer JSON-RPC -32601 (a warning when the server serves it anyway, or answers anything else). `completion/complete` is asked about a listed prompt argument or template variable; -32602 for that reference still counts as served. In the 2026-07-28 era `logging/setLevel` was removed and must answer -32601 whatever is declared. Clients decide what to ask from the capabilities.",
    fix: "Declare exactly the capabilities the server implements: add the handler for a declared one, or drop the capability from the `initialize` (or `server/discover`) result; answer methods of undeclared capabilities with -32601.",
};

pub const SURFACE_STABLE: Rule = Rule {
    id: "compliance/surface-stable",
    severity: Severity::Error,
    short: "The listed surface is the same on every listing and connection",
    description: "Tools, prompts, resources, resource templates and instructions are listed once more in the same session and once on a second connection (for stdio a second server process), and compared order-insensitively by name / uri. A difference is a fail in the 2026-07-28 era (the revision forbids a per-connection surface) and a warning before it: a client that caches the listing, and a lockfile pinned from one connection, see another server than the next connection. Opt out with `checks.compliance.stability: false` (the second connection costs a server start).",
    fix: "Build the listing from fixed data: no session ids, timestamps, random values or per-connection state in names, descriptions or schemas.",
};

pub const SPURIOUS_LIST_CHANGED: Rule = Rule {
    id: "compliance/spurious-list-changed",
    severity: Severity::Info,
    short: "list_changed notifications only when a list changed",
    description: "A `notifications/tools/list_changed` (or prompts / resources) arrived during the run although a fresh listing of that list was the same as before. Reported only when it happened, as a warning at info severity that never fails the run: every such notification makes clients re-list and may invalidate a cache.",
    fix: "Send `notifications/*/list_changed` only after the list really changed.",
};

pub const ERA_LANE: Rule = Rule {
    id: "compliance/era-lane",
    severity: Severity::Info,
    short: "Both protocol eras were tested",
    description: "With `protocol_era: both` (or `--protocol-era both`) every family runs once per era. A server that speaks only one era gets the other lane as this one `skip`, with the reason the connection in that era failed; the server itself is still tested in the era it speaks.",
    fix: "Nothing to fix when the server is meant to speak one era; otherwise implement the other era's handshake (`initialize` for the legacy era, `server/discover` for the 2026-07-28 revision).",
};

pub const RULES: &[Rule] = &[
    HANDSHAKE,
    PROTOCOL_VERSION,
    SERVER_INFO,
    CAPABILITIES,
    PING,
    EXPECTED_PROTOCOL_VERSION,
    // The 2026-07-28 revision's rules (emitted only in that era).
    DISCOVER,
    RESULT_TYPE,
    CACHE_HINTS,
    UNSUPPORTED_VERSION,
    META_REQUIRED,
    UNKNOWN_METHOD,
    HEADER_VALIDATION,
    STATELESS_HTTP,
    SERVER_MESSAGES,
    SUBSCRIPTIONS,
    // Run-level, both eras, only when the server sent an invalid message.
    JSONRPC_FRAMING,
    // Both eras, only when a limit was reached.
    LIMITS,
    // The whole surface (#14), both eras.
    CAPABILITIES_SERVED,
    SURFACE_STABLE,
    SPURIOUS_LIST_CHANGED,
    // `protocol_era: both` (#15), only for a lane that could not connect.
    ERA_LANE,
];

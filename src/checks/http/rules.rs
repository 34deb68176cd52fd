//! The http family's rules: every finding of the family is built from one of these
//! constants; the registry (`crate::rules`) lists [`RULES`].

use crate::model::Severity;
use crate::rules::types::Rule;

pub const ORIGIN_VALIDATION: Rule = Rule {
    id: "http/origin-validation",
    severity: Severity::Error,
    short: "Origin validation (DNS rebinding)",
    description: "The Streamable HTTP transport says a server MUST validate the `Origin` header \
            of every request, to stop DNS rebinding: a web page on any site can make the \
            browser send requests to a server on the user's machine or network under the \
            page's own host name, and read the answers. For a server on a loopback or private \
            address mcpward sends its handshake request (`initialize`, or `server/discover` in \
            the 2026-07-28 revision) once with `Host` and `Origin` of a foreign name and once \
            with the server's own origin: answering the foreign one normally fails; refusing \
            it (HTTP 403, 400, any 4xx) passes. Refusing the server's own origin too is a \
            warning: browser-based clients cannot use the server. Servers on a public \
            address or name are skipped; stdio servers are not probed.",
    fix: "Check `Origin` (and `Host`) on every request against the origins and host names you \
            serve, and answer 403 with a JSON-RPC error to any other; a request without \
            `Origin` comes from a non-browser client. The MCP SDKs ship this (e.g. the \
            TypeScript SDK's DNS-rebinding protection with `allowedHosts` / `allowedOrigins`). \
            Bind local servers to 127.0.0.1, not 0.0.0.0.",
};

pub const RULES: &[Rule] = &[ORIGIN_VALIDATION];

//! The MCP client: one interface (connect, list, call, ping, raw probe request, close) over
//! two wires (stdio, Streamable HTTP) and two protocol eras. What it learns is handed out as
//! the types of `crate::observed`; checks never import this module.
//!
//! Rooms, lowest first: `rpc` (JSON-RPC plumbing), `stdio` / `http` / `sse` / `procs`
//! (wires), `conn` (one open connection and its request exchange), `legacy` and `modern`
//! (the era handshakes and what each era needs per request), `era` (the era state the
//! client owns), `origin` (the `http/origin-validation` probe beside the session),
//! `client` (the interface). No room refers back to this file.

pub mod client;
pub mod conn;
pub mod era;
pub mod http;
pub mod legacy;
pub mod modern;
pub mod oauth;
pub mod origin;
pub mod procs;
pub mod rpc;
pub mod sse;
pub mod stdio;

pub use crate::observed::{
    CallOutcome, Chatter, Era, Listing, ProbeRecord, RpcError, ServerHello, TextListing,
};
pub use crate::protocol::versions::{EraChoice, LEGACY_VERSIONS};
pub use client::{Client, ConnectError, ConnectOptions};
pub use conn::Endpoint;

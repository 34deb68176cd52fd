//! The stateless 2026-07-28 protocol era (protocol-2026-07-28.md) behind the one client
//! interface, in rooms: `classify` (what an answer means: era verdict, version choice,
//! call and page results), `state` (what a modern connection remembers), `envelope` (how a
//! normal request is shaped) and `handshake` (era selection and fallback). The envelope
//! and header rules themselves are protocol, in `crate::protocol`; the deliberate
//! compliance probes belong to the compliance family.

pub mod classify;
pub mod envelope;
pub mod handshake;
pub mod state;

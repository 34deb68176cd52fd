//! The era a connection speaks, as the state the client owns: `Legacy` needs nothing after
//! its handshake; `Modern` remembers what the stateless revision needs between requests.

use super::modern::state::ModernState;
use crate::observed::ServerHello;

pub enum EraState {
    Legacy,
    Modern(Box<ModernState>),
}

impl EraState {
    pub fn modern(&self) -> Option<&ModernState> {
        match self {
            EraState::Modern(s) => Some(s),
            EraState::Legacy => None,
        }
    }
}

/// How a handshake ended.
pub enum Handshake {
    Done(Box<ServerHello>, EraState),
    Fail(String),
    /// stdio `auto`: start over on a fresh process with the plain legacy handshake
    /// offering this version.
    Respawn {
        offer: String,
        why: String,
    },
}

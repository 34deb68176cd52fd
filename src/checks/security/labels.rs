//! What a detection signal reports: its hit and the labels its messages name. Shared by
//! `signals.rs` and `rare.rs` (the rare shapes it runs), so neither imports the other.

use super::engine::Span;
use crate::rules::types::Rule;

/// One hit: the rule it reports under, a label for the message, and its evidence spans,
/// primary first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub rule: &'static Rule,
    pub label: &'static str,
    pub evidence: Vec<Span>,
}

pub const ROLE_DELIMITER: &str = "chat-template role delimiter";
pub const MARKUP: &str = "markup that hides instructions for the model";
pub const PERSONA: &str = "persona or mode switch";
pub const AUTHORITY: &str = "claims authority over the model's instructions";
pub const OVERRIDE: &str = "instruction override";
pub const CONCEALMENT: &str = "hides the action from the user";
pub const LINE_JUMPING: &str = "demands to be called first or preferred";
pub const TAMPERING: &str = "overrides the user's input";
pub const DECEPTION: &str = "tells the model what to claim to the user";
pub const EXFILTRATION: &str = "sends data to an external address";
pub const SECRET_READ: &str = "reads a credential file";
pub const SECRET_ASK: &str = "asks for a secret";
pub const PERSONAL_DATA: &str = "asks for several kinds of the user's personal data";
pub const CONTEXT_PARAM: &str = "parameter named for the model's context or secrets";
/// Real servers (Netlify, Pinecone) ask for the calling model's name or provider too, so
/// this one is a warning: worth a reviewer's look, not an attack by itself.
pub const MODEL_IDENTITY: &str = "asks which model is calling";
/// The same parameter, required: the tool cannot be called without naming the model.
pub const MODEL_IDENTITY_REQUIRED: &str = "requires the name of the model that calls it";

/// Hits reported as warnings rather than failures.
pub fn advisory(label: &str) -> bool {
    label == MODEL_IDENTITY
}
pub const SHADOW_OTHER: &str = "instructs the model about other tools";
pub const FAKE_DEPRECATION: &str = "redirects calls with a false deprecation notice";
pub const PIPE_TO_SHELL: &str = "downloads and runs code";
pub const SHELL_COMMAND: &str = "tells the model to run a shell command";
pub const HEADER_INJECTION: &str = "smuggles an HTTP header line after a CR LF";
pub const HOST_ROOT: &str = "mounts the host's root file system into a container";
pub const SSH_BACKDOOR: &str = "adds a key to the user's SSH login list";
pub const SYSTEM_FILE: &str = "rewrites a system file";
pub const SHELL_INJECTION: &str = "carries a shell injection payload";
/// Readable prose in base64, hex or ROT13: no description needs to hide its words.
pub const ENCODED: &str = "hides readable text in base64, hex or ROT13";
pub const ESCAPED: &str = "spells words in \\x or \\u escapes";
pub const DECODE: &str = "asks the model to decode a hidden payload";
pub const SQL_PAYLOAD: &str = "carries an SQL injection payload";
pub const NO_CONFIRM: &str = "skips the user's confirmation";
pub const PROMOTION: &str = "advertises itself to be chosen over other tools";
pub const DISCLOSE: &str = "tells the model to reveal secrets or take privileges";
pub const HOSTILE: &str = "states a hostile aim or an attacker's address";
pub const IMPLICIT: &str = "recommends a side effect through another tool with a fixed argument";
pub const CODE_EVAL: &str = "tells the model to evaluate code";
pub const COERCION: &str = "threatens a failure unless the model complies";
pub const PERSIST: &str = "plants an instruction for later turns";
pub const SELF_MODIFY: &str = "rewrites tool definitions at run time";
pub const REMOTE_REF: &str = "loads part of its schema from another host";
pub const DECEPTIVE_LINK: &str = "a link whose text names another host than it leads to";

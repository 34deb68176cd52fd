//! The config of a `--from FILE` run with no config file (#16 §2): a snapshot needs no
//! server, so only the families that read a surface are on.

use super::types::{Checks, Config, Server, Transport};

/// The config of [`super::offline_defaults`]: the default checks of the families that read
/// a listing (schema, security, collision on; drift runs in `baseline`/`diff` with its
/// defaults), and the live-only families off, since they could only be skipped.
pub fn config() -> Config {
    let mut checks = Checks::default();
    checks.compliance.enabled = false;
    checks.errors.enabled = false;
    Config {
        // Never connected to: a `--from` run has no server.
        server: Server {
            transport: Transport::Stdio {
                command: String::new(),
                args: Vec::new(),
                env: Default::default(),
            },
            protocol_era: crate::protocol::versions::EraChoice::Auto,
        },
        expect: Default::default(),
        checks,
        timeouts: Default::default(),
        limits: Default::default(),
        suites: Vec::new(),
        suppress: Vec::new(),
    }
}

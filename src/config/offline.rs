//! The config of a `--from FILE` run with no config file (#16 §2): a snapshot needs no
//! server, so only the families that read a surface are on.

use super::{Checks, Config, Loaded, Server, Transport};
use std::path::Path;

/// What `run`/`baseline`/`diff --from FILE` use when no config file exists: the default
/// checks of the families that read a listing (schema, security, collision on; drift
/// runs in `baseline`/`diff` with its defaults), and the live-only families off, since
/// they could only be skipped. `path` is the config path that was looked for.
pub fn offline_defaults(path: &Path) -> Loaded {
    let mut checks = Checks::default();
    checks.compliance.enabled = false;
    checks.errors.enabled = false;
    Loaded {
        config: Config {
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
        },
        path: path.to_path_buf(),
        dir: Path::new(".").to_path_buf(),
        secrets: Vec::new(),
        warnings: Vec::new(),
        key_lines: Default::default(),
    }
}

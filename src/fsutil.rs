//! File writes that never leave a half-written file behind.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Write via a temp file in the same directory, fsync, then rename: a reader never sees a
/// partial file and a failure leaves the previous content intact. A replaced file keeps
/// its permissions; a new one is readable by everyone (lockfiles and goldens are committed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, bytes, |_| Ok(()))
}

/// Like [`write_atomic`], but never replaces an existing file (`init`): the rename fails
/// with `AlreadyExists` instead.
pub fn write_new_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let (tmp, _) = synced_temp(path, bytes, 0o644)?;
    tmp.persist_noclobber(path).map_err(|e| e.error)?;
    Ok(())
}

/// [`write_atomic`] with a hook that runs after the data is synced and before the rename
/// (a test seam: a failure there must leave the old file intact and no temp file behind).
pub fn write_atomic_with(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce(&std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mode = existing_mode(path).unwrap_or(0o644);
    let (tmp, dir) = synced_temp(path, bytes, mode)?;
    before_rename(tmp.as_file())?;
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable; not every platform can open a directory.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The data in a temp file beside `path`, with `mode`, synced to disk.
fn synced_temp(
    path: &Path,
    bytes: &[u8],
    mode: u32,
) -> std::io::Result<(tempfile::NamedTempFile, PathBuf)> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".mcpward-tmp-")
        .tempfile_in(&dir)?;
    tmp.write_all(bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.as_file().sync_all()?;
    Ok((tmp, dir))
}

#[cfg(unix)]
fn existing_mode(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn existing_mode(_: &Path) -> Option<u32> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_files() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(
                mode, 0o644,
                "a new file is world-readable like any committed file"
            );
        }
    }

    #[test]
    fn write_new_never_replaces() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("mcpward.yaml");
        write_new_atomic(&p, b"first").unwrap();
        let e = write_new_atomic(&p, b"second").unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&p).unwrap(), b"first");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn failure_keeps_the_old_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f.json");
        write_atomic(&p, b"old").unwrap();
        let missing = d.path().join("no/such/dir/f.json");
        assert!(write_atomic(&missing, b"new").is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
    }
}

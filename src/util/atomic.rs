//! Atomic file writes: the content goes to a temporary file beside the target, which is
//! then renamed over it, so a reader (or an interrupted run) never sees half a file.

use anyhow::Context;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Writes `path` through `fill`, atomically.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("creating {}", dir.display())),
            &dir.display().to_string(),
        )
    })?;
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result: anyhow::Result<()> = (|| {
        let file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        let mut w = BufWriter::new(file);
        fill(&mut w)?;
        w.flush()?;
        w.get_ref().sync_all()?;
        Ok(())
    })();
    if let Err(e) = result {
        // A writer that wraps I/O errors in its own (Parquet's "transport error") hides
        // a full disk: asked of the file system before the temporary file frees room.
        let full = no_room(dir);
        let _ = std::fs::remove_file(&tmp);
        if full {
            crate::user_bail!("{}: the disk is full", path.display());
        }
        let e = e.context(format!("writing {}", path.display()));
        return Err(crate::util::error::environment_error(
            e,
            &path.display().to_string(),
        ));
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!(
                "renaming {} to {}",
                tmp.display(),
                path.display()
            )),
            &path.display().to_string(),
        ));
    }
    Ok(())
}

/// Removes the temporary files that writes into `dir` left when their process was
/// killed (`.NAME.tmp-PID`, `.NAME.PID.tmp.png`). Only for a caller that holds the
/// folder alone (its exclusive lock): no other writer's file can be in progress.
pub fn remove_stale(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let temporary =
            name.starts_with('.') && (name.contains(".tmp-") || name.ends_with(".tmp.png"));
        if temporary && e.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// True when the file system holding `dir` has no block left for this user.
fn no_room(dir: &Path) -> bool {
    rustix::fs::statvfs(dir).is_ok_and(|v| v.f_bavail == 0)
}

/// Writes bytes to `path`, atomically.
pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_with(path, |w| Ok(w.write_all(bytes)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporaries_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        for f in [
            ".results.csv.tmp-123",
            ".box.456.tmp.png",
            "results.csv",
            ".hidden",
            "x.tmp-1",
        ] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        remove_stale(dir.path());
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [".hidden", "results.csv", "x.tmp-1"]);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.csv");
        write(&path, b"old").unwrap();
        let err = write_with(&path, |w| {
            w.write_all(b"half")?;
            anyhow::bail!("interrupted")
        });
        assert!(err.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }
}

//! The files searchlab keeps and appends to (journals, checkpoint logs, lock files) are
//! its own regular files: never opened through a symlink, a FIFO or a device. A symlink
//! in a journal's place could make a run append to a file anywhere (outside `--out`),
//! and a FIFO would block it; both are refused, naming the file, before anything is
//! read or written. Folders on the way (`--out`, an experiment's folder) may be links
//! and are followed.

use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Refuses `path` unless it is a regular file or does not exist; `what` names it in
/// the message ("journal", "lock file").
pub fn check_regular(path: &Path, what: &str) -> anyhow::Result<()> {
    let refuse = |is: &str| {
        crate::user_error!(
            "{}: the {what} is {is}, not a regular file; searchlab writes it only as a file of its own: remove it and run again",
            path.display()
        )
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(refuse("a symlink")),
        Ok(m) if m.is_dir() => Err(refuse("a folder")),
        Ok(m) if !m.is_file() => Err(refuse("a FIFO or a device")),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(crate::util::error::environment_error(
            anyhow::Error::new(e),
            &format!("{}: cannot read the {what}", path.display()),
        )),
    }
}

/// Opens `path` for reading and appending, creating it if missing (`create`), never
/// through a symlink and never waiting on a FIFO.
pub fn open_append(path: &Path, what: &str, create: bool) -> anyhow::Result<File> {
    check_regular(path, what)?;
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(create)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("opening {}", path.display())),
                &format!("{}: cannot write the {what}", path.display()),
            )
        })?;
    // A link or a FIFO put in its place between the check and the open.
    check_regular(path, what)?;
    Ok(file)
}

/// Opens `path` for reading, never through a symlink; `None` when it does not exist.
pub fn open_read(path: &Path, what: &str) -> anyhow::Result<Option<File>> {
    check_regular(path, what)?;
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    match OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits() as i32)
        .open(path)
    {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("reading {}", path.display())),
            &format!("{}: cannot read the {what}", path.display()),
        )),
    }
}

/// Makes a FIFO at `path`, for the tests of what reads and writes files.
#[cfg(test)]
pub(crate) fn make_fifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_folders_and_fifos_are_refused_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.jsonl");
        std::fs::write(&outside, "x\n").unwrap();
        let link = dir.path().join("runs.jsonl");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let dangling = dir.path().join("dangling.jsonl");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        let folder = dir.path().join("folder.jsonl");
        std::fs::create_dir(&folder).unwrap();
        let fifo = dir.path().join("fifo.jsonl");
        make_fifo(&fifo);
        for (path, is) in [
            (&link, "a symlink"),
            (&dangling, "a symlink"),
            (&folder, "a folder"),
            (&fifo, "a FIFO or a device"),
        ] {
            for err in [
                open_append(path, "journal", true).unwrap_err(),
                open_read(path, "journal").unwrap_err(),
            ] {
                assert!(crate::util::error::is_user_error(&err));
                let text = err.to_string();
                assert!(
                    text.starts_with(&format!("{}: the journal is {is}", path.display())),
                    "{text}"
                );
            }
        }
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "x\n");
        assert!(!dir.path().join("nowhere").exists());
        let own = dir.path().join("own.jsonl");
        assert!(open_read(&own, "journal").unwrap().is_none());
        open_append(&own, "journal", true).unwrap();
        assert!(open_read(&own, "journal").unwrap().is_some());
    }
}

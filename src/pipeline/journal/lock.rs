//! An experiment folder's lock, held while a run writes its journal and tables (see
//! [`ExperimentLock`]).

use std::io::Write;
use std::path::Path;

/// The name of the lock file in an experiment's folder.
pub const LOCK_FILE: &str = "run.lock";

/// An experiment folder's lock, held while a run writes its journal and tables: a
/// second `searchlab` on the same folder stops at once with a message naming the lock
/// file and the process holding it (its PID is written in the file). There is one lock
/// per folder, `run.lock`: an unsharded run, a merge and a tuning take it exclusively;
/// a shard takes it shared (shards of one plan run side by side, never beside an
/// unsharded run of the same folder) and its own shard's lock exclusively. The lock is
/// the operating system's (`flock`), so it is released when the process ends, however
/// it ends; the file itself stays. A lock file that is not a regular file (a FIFO, a
/// symlink, a folder) is refused, naming it.
pub struct ExperimentLock {
    _files: Vec<std::fs::File>,
}

impl ExperimentLock {
    /// The folder's lock, exclusively.
    pub fn acquire(dir: &Path) -> anyhow::Result<ExperimentLock> {
        let file = lock_file(dir, LOCK_FILE, "", true)?;
        Ok(ExperimentLock { _files: vec![file] })
    }

    /// The folder's lock shared, and the shard's own lock file `file` in `dir`
    /// exclusively; the refusal says the holder is running `part` (e.g. "shard 1/4 of ")
    /// this experiment.
    pub fn acquire_shard(dir: &Path, file: &str, part: &str) -> anyhow::Result<ExperimentLock> {
        let folder = lock_file(dir, LOCK_FILE, "", false)?;
        let own = lock_file(dir, file, part, true)?;
        Ok(ExperimentLock {
            _files: vec![folder, own],
        })
    }
}

/// Opens and locks `dir/name` (exclusively, or shared); an exclusive holder writes its
/// PID in it. Every failure is a user error naming the file.
fn lock_file(dir: &Path, name: &str, part: &str, exclusive: bool) -> anyhow::Result<std::fs::File> {
    let path = dir.join(name);
    let shown = path.display();
    let env = |e: std::io::Error, doing: &str| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("{doing} {shown}")),
            &format!("{shown}: cannot {doing} the lock file"),
        )
    };
    let mut file = open_lock(&path)?;
    let locked = match exclusive {
        true => file.try_lock(),
        false => file.try_lock_shared(),
    };
    match locked {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            crate::user_bail!(
                "{shown}: {} is running {part}this experiment; wait for it to finish (or stop it) and run again",
                holder(&mut file)
            );
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(env(e, "lock")),
    }
    if exclusive {
        file.set_len(0).map_err(|e| env(e, "write"))?;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(0)).map_err(|e| env(e, "write"))?;
        writeln!(file, "{}", std::process::id()).map_err(|e| env(e, "write"))?;
        file.sync_data().map_err(|e| env(e, "write"))?;
    }
    Ok(file)
}

/// Opens a lock file for reading and writing: a regular file or none yet (never
/// following a symlink, never waiting on a FIFO).
fn open_lock(path: &Path) -> anyhow::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let shown = path.display();
    crate::util::files::check_regular(path, "lock file")?;
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(flags.bits() as i32)
        .open(path)
        .map_err(|e| {
            crate::util::error::environment_error(
                anyhow::Error::new(e).context(format!("opening {shown}")),
                &format!("{shown}: cannot open the lock file"),
            )
        })?;
    crate::util::files::check_regular(path, "lock file")?;
    Ok(file)
}

/// Who holds a lock this process could not take: the PID an exclusive holder wrote, or
/// shard runs (which hold it shared and write nothing).
fn holder(file: &mut std::fs::File) -> String {
    if file.try_lock_shared().is_ok() {
        let _ = file.unlock();
        return "a shard run (--shard)".to_string();
    }
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(file, &mut text);
    match text.trim().parse::<u32>() {
        Ok(pid) => format!("process {pid}"),
        Err(_) => "another process".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_share_the_folder_lock_and_an_unsharded_run_takes_it_alone() {
        let dir = tempfile::tempdir().unwrap();
        let shard = |i: usize| {
            ExperimentLock::acquire_shard(
                dir.path(),
                &format!("run.shard-{i}-of-2.lock"),
                &format!("shard {i}/2 of "),
            )
        };
        let (a, b) = (shard(0).unwrap(), shard(1).unwrap());
        let err = ExperimentLock::acquire(dir.path())
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("run.lock: a shard run (--shard) is running this experiment"),
            "{err}"
        );
        let err = shard(0).err().unwrap().to_string();
        assert!(
            err.contains("is running shard 0/2 of this experiment"),
            "{err}"
        );
        drop((a, b));
        let whole = ExperimentLock::acquire(dir.path()).unwrap();
        let err = shard(1).err().unwrap().to_string();
        assert!(
            err.contains(&format!("run.lock: process {}", std::process::id())),
            "{err}"
        );
        drop(whole);
        assert!(shard(1).is_ok());
    }

    #[test]
    fn a_second_lock_on_a_folder_is_refused_naming_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let held = ExperimentLock::acquire(dir.path()).unwrap();
        let err = ExperimentLock::acquire(dir.path()).err().unwrap();
        assert!(crate::util::error::is_user_error(&err));
        let text = err.to_string();
        assert!(text.contains("run.lock"), "{text}");
        assert!(
            text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        drop(held);
        assert!(ExperimentLock::acquire(dir.path()).is_ok());
    }
}

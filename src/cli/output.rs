//! Standard output as the environment: a program that writes its table or its board to
//! a full device (`> /dev/full`, a file on a full disk) fails with a bare I/O error
//! that names no path. Every program's writes end in [`super::run`], which asks here
//! whether standard output is the device that failed and says so: exit code 2, what
//! and where, and what to do.

use std::os::unix::fs::{FileTypeExt, MetadataExt};

/// `err` as a user error naming standard output when it is a failed write and standard
/// output is a full device; any other error unchanged.
pub fn stdout_failure(err: anyhow::Error) -> anyhow::Error {
    use std::io::ErrorKind as K;
    if crate::util::error::is_user_error(&err) {
        return err;
    }
    let kind = err
        .chain()
        .find_map(|e| e.downcast_ref::<std::io::Error>().map(std::io::Error::kind));
    let full = matches!(
        kind,
        Some(K::StorageFull | K::QuotaExceeded | K::FileTooLarge)
    );
    if full && stdout_is_full() {
        return crate::user_error!(
            "standard output: the device is full ({}); send the output to a file on a disk with room",
            crate::util::error::one_line(&err)
        );
    }
    err
}

/// A user error's message with every overlong word (a 5,000-character `--out` path, a
/// 10,000-character `--set` value that a message quotes whole) cut to its first
/// [`crate::util::input::EXCERPT_CHARS`] characters: one readable line whatever the
/// input. Other errors (bugs) are kept whole.
pub fn clipped(err: anyhow::Error) -> anyhow::Error {
    if !crate::util::error::is_user_error(&err) {
        return err;
    }
    let text = crate::util::error::one_line(&err);
    if !text.split(' ').any(|w| w.chars().count() > 2 * EXCERPT) {
        return err;
    }
    let words: Vec<String> = text
        .split(' ')
        .map(|w| match w.chars().count() {
            n if n > 2 * EXCERPT => {
                let head: String = w.chars().take(EXCERPT).collect();
                format!("{head}… ({n} characters)")
            }
            _ => w.to_string(),
        })
        .collect();
    crate::user_error!("{}", words.join(" "))
}

const EXCERPT: usize = crate::util::input::EXCERPT_CHARS;

/// True when standard output is `/dev/full` or a file on a file system with no room.
fn stdout_is_full() -> bool {
    let Ok(meta) = std::fs::metadata("/dev/stdout") else {
        return false;
    };
    if meta.file_type().is_char_device() {
        return meta.rdev() == dev_full_number();
    }
    meta.is_file() && rustix::fs::fstatvfs(std::io::stdout()).is_ok_and(|v| v.f_bavail == 0)
}

/// The device number of `/dev/full` (character device 1, 7 on Linux).
fn dev_full_number() -> u64 {
    std::fs::metadata("/dev/full").map_or(u64::MAX, |m| m.rdev())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlong_words_of_user_errors_are_clipped() {
        let long = "x".repeat(5000);
        let err = clipped(crate::user_error!(
            "{long}/e: cannot create the output folder"
        ));
        assert_eq!(
            err.to_string(),
            format!(
                "{}… (5003 characters) cannot create the output folder",
                "x".repeat(40)
            )
        );
        assert!(crate::util::error::is_user_error(&err));
        let short = clipped(crate::user_error!("a/b: bad"));
        assert_eq!(short.to_string(), "a/b: bad");
    }

    #[test]
    fn other_errors_pass_unchanged() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let err = stdout_failure(anyhow::Error::new(io));
        assert!(!crate::util::error::is_user_error(&err));
        let err = stdout_failure(crate::user_error!("x: bad"));
        assert_eq!(err.to_string(), "x: bad");
    }
}

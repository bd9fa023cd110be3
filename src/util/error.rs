//! Errors that are the user's to fix, told apart from failures of the program.
//!
//! Bad input (a malformed file, an unknown config key, an out-of-range value) is a
//! [`UserError`]: `main` prints its one line on stderr and exits with code 2. Work ended
//! by Ctrl-C or SIGTERM ([`super::cancel::Interrupted`]) exits with code 130. Anything
//! else that reaches `main` is a failure of the program or the machine (exit code 1).

use std::fmt;

/// A problem with what the user gave us: a file, a config, a command-line value or an
/// answer at a prompt. The message says what is wrong and where, on one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserError(pub String);

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UserError {}

/// Builds an `anyhow::Error` holding a [`UserError`], `format!`-style.
#[macro_export]
macro_rules! user_error {
    ($($arg:tt)*) => {
        ::anyhow::Error::new($crate::util::error::UserError(format!($($arg)*)))
    };
}

/// Writes a line to standard error, `eprintln!`-style, ignoring a failure to write it
/// (stderr on a full disk, a closed pipe): what stderr tells the user must never fail or
/// stop the work it describes, as `eprintln!`'s panic would.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Returns early with a [`UserError`], `format!`-style.
#[macro_export]
macro_rules! user_bail {
    ($($arg:tt)*) => {
        return Err($crate::user_error!($($arg)*))
    };
}

/// The process exit code for an error: 2 for the user's input, 130 for work stopped by
/// a stop request, 1 for everything else.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if is_user_error(err) {
        2
    } else if super::cancel::is_interrupted(err) {
        super::cancel::EXIT_CODE
    } else {
        1
    }
}

/// True when any error in the chain is a [`UserError`].
pub fn is_user_error(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<UserError>())
}

/// True when the error comes from writing to a closed pipe (the reader of stdout went
/// away): a normal end of the program, not a failure.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An I/O failure that is the user's or the machine's to fix (a full disk, a path
/// below a regular file, a name too long, no permission, a read-only file system),
/// found anywhere in `err`'s chain, as a user error: "`what`: `reason`". Other errors
/// are returned unchanged.
pub fn environment_error(err: anyhow::Error, what: &str) -> anyhow::Error {
    use std::io::ErrorKind as K;
    // Libraries that wrap I/O errors in their own (polars, the image encoder) keep only
    // the text, "… (os error 13)": the code is read back from it.
    let os_code = err
        .chain()
        .find_map(|e| {
            e.downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::raw_os_error)
        })
        .or_else(|| os_code_in(&one_line(&err)));
    let io_kind = err
        .chain()
        .find_map(|e| e.downcast_ref::<std::io::Error>().map(std::io::Error::kind))
        .or_else(|| os_code.map(|c| std::io::Error::from_raw_os_error(c).kind()));
    // ELOOP (its kind is not stable yet).
    if os_code == Some(40) && !is_user_error(&err) {
        return crate::user_error!("{what}: the path is a loop of symlinks");
    }
    let reason = match io_kind {
        Some(K::StorageFull) => Some("the disk is full"),
        Some(K::QuotaExceeded) => Some("the disk quota is exceeded"),
        Some(K::NotADirectory) => Some("a part of the path is a file, not a folder"),
        Some(K::IsADirectory) => Some("it is a folder"),
        Some(K::InvalidFilename) => Some("the file name is too long or invalid"),
        Some(K::PermissionDenied) => Some("permission denied"),
        Some(K::ReadOnlyFilesystem) => Some("the file system is read-only"),
        Some(K::FileTooLarge) => Some("the file is too large"),
        Some(K::AlreadyExists) => Some("it exists and is not a folder (a symlink to nowhere?)"),
        Some(K::NotFound) => Some("a part of the path does not exist"),
        Some(K::ExecutableFileBusy) | Some(K::ResourceBusy) => Some("it is busy"),
        _ => {
            // Libraries that wrap I/O errors in their own (polars) keep only the text.
            let text = one_line(&err);
            if text.contains("No space left on device") || text.contains("os error 28") {
                Some("the disk is full")
            } else {
                None
            }
        }
    };
    match reason {
        Some(r) if !is_user_error(&err) => crate::user_error!("{what}: {r}"),
        _ => err,
    }
}

/// The code of the last "(os error N)" in an error's text, or of an I/O error written
/// with `{:?}` ("Os { code: N, … }").
fn os_code_in(text: &str) -> Option<i32> {
    ["(os error ", "Os { code: "].iter().find_map(|mark| {
        let at = text.rfind(mark)? + mark.len();
        text[at..].split([')', ',']).next()?.parse().ok()
    })
}

/// The one line printed for an error: its whole context chain, outermost first.
pub fn one_line(err: &anyhow::Error) -> String {
    let parts: Vec<String> = err.chain().map(|e| e.to_string()).collect();
    parts.join(": ").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn user_errors_exit_2_even_with_context() {
        let err: anyhow::Result<()> = Err(user_error!("size 11 is outside 5..=10"));
        let err = err.context("reading maze.txt").unwrap_err();
        assert_eq!(exit_code(&err), 2);
        assert_eq!(
            one_line(&err),
            "reading maze.txt: size 11 is outside 5..=10"
        );
    }

    #[test]
    fn a_broken_pipe_is_recognised_through_context() {
        let io = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let err = anyhow::Error::new(io).context("writing the table");
        assert!(is_broken_pipe(&err));
        assert!(!is_broken_pipe(&anyhow::anyhow!("disk full")));
    }

    #[test]
    fn environment_failures_are_user_errors_naming_the_path() {
        let io = std::io::Error::from(std::io::ErrorKind::StorageFull);
        let err = environment_error(anyhow::Error::new(io).context("x"), "out/results.csv");
        assert_eq!(exit_code(&err), 2);
        assert_eq!(err.to_string(), "out/results.csv: the disk is full");
        let wrapped = anyhow::anyhow!("ImageError(IoError(Permission denied (os error 13)))");
        let err = environment_error(wrapped, "out/x.png");
        assert_eq!(err.to_string(), "out/x.png: permission denied");
        let debug =
            anyhow::anyhow!("ImageError(IoError(Os {{ code: 1, kind: PermissionDenied }}))");
        let err = environment_error(debug, "out/x.png");
        assert_eq!(err.to_string(), "out/x.png: permission denied");
        let other = environment_error(anyhow::anyhow!("bug"), "p");
        assert_eq!(exit_code(&other), 1);
    }

    #[test]
    fn other_errors_exit_1() {
        let err = anyhow::anyhow!("disk full");
        assert_eq!(exit_code(&err), 1);
    }
}

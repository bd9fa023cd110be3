//! Errors that are the user's to fix, told apart from failures of the program.
//!
//! Bad input (a malformed file, an unknown config key, an out-of-range value) is a
//! [`UserError`]: `main` prints its one line on stderr and exits with code 2. Anything
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

/// Returns early with a [`UserError`], `format!`-style.
#[macro_export]
macro_rules! user_bail {
    ($($arg:tt)*) => {
        return Err($crate::user_error!($($arg)*))
    };
}

/// The process exit code for an error: 2 for the user's input, 1 for everything else.
pub fn exit_code(err: &anyhow::Error) -> i32 {
    if is_user_error(err) { 2 } else { 1 }
}

/// True when any error in the chain is a [`UserError`].
pub fn is_user_error(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<UserError>())
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
    fn other_errors_exit_1() {
        let err = anyhow::anyhow!("disk full");
        assert_eq!(exit_code(&err), 1);
    }
}

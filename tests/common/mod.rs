//! Helpers shared by the integration tests: run the binary with arguments and stdin.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `searchlab` in `dir` (the project root when `None`) with `args`, feeding `stdin`.
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_searchlab"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.current_dir(dir.unwrap_or(Path::new(env!("CARGO_MANIFEST_DIR"))));
    let mut child = cmd.spawn().expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    let out = child.wait_with_output().expect("the binary finishes");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn run(args: &[&str], stdin: &str) -> Output {
    run_in(None, args, stdin)
}

/// Asserts a user error: exit code 2, one line on stderr containing `needle`, no panic.
pub fn assert_user_error(out: &Output, needle: &str) {
    assert_eq!(out.code, 2, "exit code; stderr: {}", out.stderr);
    assert_eq!(
        out.stderr.trim_end().lines().count(),
        1,
        "one line on stderr: {:?}",
        out.stderr
    );
    assert!(
        out.stderr.contains(needle),
        "stderr {:?} should contain {needle:?}",
        out.stderr
    );
    assert!(!out.stderr.contains("panicked"), "no panic: {}", out.stderr);
}

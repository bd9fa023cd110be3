//! Reading what the user gives us with limits: files (configs, studies, instances,
//! boards, mazes) and standard input are read up to [`MAX_INPUT_BYTES`], an answer at a
//! prompt up to [`MAX_LINE_BYTES`], and a message quotes at most a short [`excerpt`]
//! of bad input. `/dev/zero` as a config, or a 64 MB answer, is one clear line, not an
//! exhausted machine or a screenful of echo.

use std::io::{BufRead, Read};
use std::path::Path;

/// The largest input file (or standard input) read: 16 MiB.
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The longest answer read at a prompt: 4 KiB.
pub const MAX_LINE_BYTES: u64 = 4 << 10;

/// How many characters of bad input a message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` quoted for a message: at most [`EXCERPT_CHARS`] characters (then `…` and the
/// full length), control characters escaped.
pub fn excerpt(text: &str) -> String {
    let count = text.chars().count();
    if count <= EXCERPT_CHARS {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(EXCERPT_CHARS).collect();
    format!("{head:?}… ({count} characters)")
}

/// `text` as a message shows it unquoted: at most [`EXCERPT_CHARS`] characters (with
/// `… (N characters)` after a longer one), control characters written as escapes so
/// that no input can move the terminal's cursor or end the message's line.
pub fn clip(text: &str) -> String {
    let count = text.chars().count();
    let head: String = text
        .chars()
        .take(EXCERPT_CHARS)
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect();
    match count > EXCERPT_CHARS {
        true => format!("{head}… ({count} characters)"),
        false => head,
    }
}

/// `text` with every control character but newlines and tabs written as its escape
/// (`\u{1b}`), for output that shows what files say (`list`, the report): no file can
/// move a terminal's cursor, recolour it or rewrite its title through searchlab.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .flat_map(|c| match bad(c) {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect::<String>()
        .into()
}

/// Byte offsets to 1-based line numbers of a text, for messages naming a line.
pub struct LineIndex(Vec<usize>);

impl LineIndex {
    pub fn new(text: &str) -> Self {
        LineIndex(
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    /// The line the byte at `offset` is on.
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// Reads the file `path` as UTF-8 text of at most [`MAX_INPUT_BYTES`]; `what` names it
/// in messages ("config", "board file"). Every failure is a user error naming the path.
pub fn read_file(path: &Path, what: &str) -> anyhow::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let name = path.display();
    // Opened without waiting for a writer, so that a FIFO nothing writes to reads as
    // empty rather than blocking forever; reads then wait as usual (process
    // substitution, `<(…)`, still works).
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| crate::user_error!("{name}: cannot read the {what}: {}", io_reason(&e)))?;
    rustix::fs::fcntl_setfl(&file, rustix::fs::OFlags::empty()).map_err(|e| {
        crate::user_error!(
            "{name}: cannot read the {what}: {}",
            io_reason(&std::io::Error::from(e))
        )
    })?;
    if let Ok(meta) = file.metadata()
        && meta.is_dir()
    {
        crate::user_bail!("{name}: cannot read the {what}: it is a folder");
    }
    read_limited(file, &name.to_string(), what)
}

/// Reads standard input as UTF-8 text of at most [`MAX_INPUT_BYTES`].
pub fn read_stdin(what: &str) -> anyhow::Result<String> {
    read_limited(std::io::stdin().lock(), "standard input", what)
}

/// Reads `reader` to its end, up to [`MAX_INPUT_BYTES`].
pub fn read_limited(reader: impl Read, name: &str, what: &str) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| crate::user_error!("{name}: cannot read the {what}: {}", io_reason(&e)))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        crate::user_bail!(
            "{name}: the {what} is larger than {} MiB, the most searchlab reads",
            MAX_INPUT_BYTES >> 20
        );
    }
    utf8(bytes, name, what)
}

/// Bytes as text, or a user error giving the line of the first invalid byte.
pub fn utf8(bytes: Vec<u8>, name: &str, what: &str) -> anyhow::Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        crate::user_error!("{name}:{line}: the {what} is not UTF-8 text")
    })
}

/// Reads one line (without its end) of at most [`MAX_LINE_BYTES`]; `None` at the end of
/// the input. `what` names the line in messages (the prompt's question).
pub fn read_line(input: &mut impl BufRead, what: &str) -> anyhow::Result<Option<String>> {
    let mut bytes = Vec::new();
    let n = input
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|e| crate::user_error!("{what}: cannot read standard input: {}", io_reason(&e)))?;
    if n == 0 {
        return Ok(None);
    }
    if bytes.len() as u64 > MAX_LINE_BYTES && !bytes.ends_with(b"\n") {
        crate::user_bail!(
            "{what}: the answer is longer than {MAX_LINE_BYTES} bytes, the most searchlab reads"
        );
    }
    match String::from_utf8(bytes) {
        Ok(s) => Ok(Some(s)),
        Err(_) => crate::user_bail!("{what}: the answer is not UTF-8 text"),
    }
}

/// An I/O error's reason without Rust's "(os error N)" suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::error::is_user_error;

    #[test]
    fn a_fifo_nothing_writes_to_reads_as_empty_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("config.toml");
        crate::util::files::make_fifo(&fifo);
        // Before, `open` waited for a writer that never came.
        assert_eq!(read_file(&fifo, "config").unwrap(), "");
        // A writer that comes is read to its end.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
                std::io::Write::write_all(&mut f, b"[experiment]\n").unwrap();
            })
        };
        let mut text = String::new();
        for _ in 0..1000 {
            text = read_file(&fifo, "config").unwrap();
            if !text.is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        writer.join().unwrap();
        assert_eq!(text, "[experiment]\n");
    }

    #[test]
    fn printable_text_keeps_lines_and_tabs_and_escapes_other_controls() {
        assert_eq!(printable("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            printable("\u{1b}[2J\u{1b}]0;owned\u{7}x\r"),
            "\\u{1b}[2J\\u{1b}]0;owned\\u{7}x\\r"
        );
        assert!(matches!(printable("plain"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn clipped_text_keeps_its_quotes_and_escapes_controls() {
        assert_eq!(clip("params.schedule=\"lin\""), "params.schedule=\"lin\"");
        assert_eq!(clip("a\u{1b}[2Jb\n"), "a\\u{1b}[2Jb\\n");
        let long = "y".repeat(100);
        assert_eq!(
            clip(&long),
            format!("{}… (100 characters)", "y".repeat(EXCERPT_CHARS))
        );
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("abc"), "\"abc\"");
        let long = "x".repeat(1000);
        let e = excerpt(&long);
        assert!(e.len() < 80 && e.contains("1000 characters"), "{e}");
    }

    #[test]
    fn files_are_read_with_a_limit_and_as_text() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'a'; MAX_INPUT_BYTES as usize + 1]).unwrap();
        let err = read_file(&big, "config").unwrap_err();
        assert!(is_user_error(&err) && err.to_string().contains("larger than 16 MiB"));
        let bin = dir.path().join("bin");
        std::fs::write(&bin, b"ok\n\xff\xfe").unwrap();
        let err = read_file(&bin, "config").unwrap_err();
        assert!(is_user_error(&err));
        assert!(
            err.to_string()
                .ends_with("bin:2: the config is not UTF-8 text")
        );
        let err = read_file(dir.path(), "config").unwrap_err();
        assert!(is_user_error(&err) && err.to_string().contains("folder"));
        let err = read_file(&dir.path().join("none"), "config").unwrap_err();
        assert!(is_user_error(&err) && !err.to_string().contains("os error"));
        assert!(read_limited(std::io::repeat(0), "/dev/zero", "config").is_err());
    }

    #[test]
    fn lines_are_limited() {
        let long = "9".repeat(64 << 10);
        let err = read_line(&mut long.as_bytes(), "Iterations?").unwrap_err();
        assert!(is_user_error(&err));
        assert!(err.to_string().len() < 120);
        assert_eq!(
            read_line(&mut "7\nrest".as_bytes(), "q").unwrap(),
            Some("7\n".into())
        );
        assert_eq!(read_line(&mut "".as_bytes(), "q").unwrap(), None);
        assert!(is_user_error(
            &read_line(&mut &b"\xff\xfe\n"[..], "q").unwrap_err()
        ));
    }
}

//! Interactive prompts in the seeds' style: the question on stdout (no newline), the
//! answer read from stdin, and the same validation as the command-line flag.

use crate::util::input::excerpt;
use std::io::{BufRead, Write};

/// Asks `question` unless `given` already holds the value; `parse` checks the answer
/// exactly as it checks the flag, and its message becomes the one-line error.
pub fn value_or_ask<T>(
    given: Option<T>,
    question: &str,
    parse: fn(&str) -> Result<T, String>,
) -> anyhow::Result<T> {
    if let Some(v) = given {
        return Ok(v);
    }
    let stdin = std::io::stdin();
    ask(&mut stdin.lock(), &mut std::io::stdout(), question, parse)
}

/// [`value_or_ask`]'s reading part, over any input and output.
pub fn ask<T>(
    input: &mut impl BufRead,
    output: &mut impl Write,
    question: &str,
    parse: fn(&str) -> Result<T, String>,
) -> anyhow::Result<T> {
    write!(output, "{question}")?;
    output.flush()?;
    let what = format!("answer to {:?}", question.trim());
    let Some(line) = crate::util::input::read_line(input, &what)? else {
        crate::user_bail!("no answer to {:?}: standard input ended", question.trim());
    };
    parse(line.trim()).map_err(|e| crate::user_error!("{what}: {e}"))
}

/// True for text of digits with an optional sign (an integer, however long).
pub fn is_integer_text(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A positive integer (iterations, descents).
pub fn positive_int(s: &str) -> Result<u64, String> {
    match s.trim().parse::<i128>() {
        Ok(n) if n >= 1 && n <= i128::from(u64::MAX) => Ok(n as u64),
        Ok(n) if n >= 1 => Err(format!("{n} is too large (at most {})", u64::MAX)),
        Ok(n) => Err(format!("{n} is not a positive integer")),
        Err(_) if is_integer_text(s.trim()) => Err(format!(
            "{} is too large (at most {})",
            excerpt(s.trim()),
            u64::MAX
        )),
        Err(_) => Err(format!("{} is not a positive integer", excerpt(s))),
    }
}

/// A finite number.
pub fn number(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{} is not a number", excerpt(s))),
    }
}

/// A probability in [0, 1].
pub fn probability(s: &str) -> Result<f64, String> {
    let p = number(s)?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("probability {p} is outside [0, 1]"))
    }
}

/// A temperature: a number greater than 0.
pub fn temperature(s: &str) -> Result<f64, String> {
    let t = number(s)?;
    if t > 0.0 {
        Ok(t)
    } else {
        Err(format!("temperature {t} must be greater than 0"))
    }
}

/// A geometric decay rate in (0, 1].
pub fn decay(s: &str) -> Result<f64, String> {
    let d = number(s)?;
    if d > 0.0 && d <= 1.0 {
        Ok(d)
    } else {
        Err(format!("decay rate {d} is outside (0, 1]"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_then_parses() {
        let mut out = Vec::new();
        let v = ask(
            &mut "250\n".as_bytes(),
            &mut out,
            "Iterations? ",
            positive_int,
        )
        .unwrap();
        assert_eq!(v, 250);
        assert_eq!(out, b"Iterations? ");
        let err = ask(
            &mut "0\n".as_bytes(),
            &mut Vec::new(),
            "Iterations? ",
            positive_int,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "answer to \"Iterations?\": 0 is not a positive integer"
        );
        assert!(crate::util::error::is_user_error(&err));
        let err = ask(&mut "".as_bytes(), &mut Vec::new(), "Decay rate? ", decay).unwrap_err();
        assert!(err.to_string().contains("standard input ended"));
    }

    #[test]
    fn validators_bound_their_ranges() {
        assert!(positive_int("-3").is_err());
        assert!(positive_int("ten").is_err());
        assert_eq!(probability("0.01"), Ok(0.01));
        assert!(probability("1.5").is_err());
        assert!(probability("nan").is_err());
        assert!(temperature("0").is_err());
        assert_eq!(decay("1.0"), Ok(1.0));
        assert!(decay("0").is_err());
        assert!(decay("1.01").is_err());
        assert!(
            positive_int("99999999999999999999")
                .unwrap_err()
                .contains("too large")
        );
    }

    #[test]
    fn non_utf8_and_huge_answers_are_user_errors_naming_the_prompt() {
        let err = ask(
            &mut &b"\xff\xfe\n"[..],
            &mut Vec::new(),
            "Iterations? ",
            positive_int,
        )
        .unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
        assert!(err.to_string().contains("Iterations?"), "{err}");
        let huge = "9".repeat(1 << 20);
        let err = ask(
            &mut huge.as_bytes(),
            &mut Vec::new(),
            "Iterations? ",
            positive_int,
        )
        .unwrap_err();
        assert!(crate::util::error::is_user_error(&err));
        assert!(err.to_string().len() < 200);
    }
}

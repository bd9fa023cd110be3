//! Memory budgets of the searches that store states (tiles BFS, DFS and A*, pegsol's
//! count and strong solver): a search estimates the bytes its stores hold as they grow
//! and stops, with a clear message and exit code 2, before it would pass its budget.
//! The default, [`DEFAULT_MEMORY_LIMIT`], is well under the memory of a small machine;
//! `--memory-limit` changes it.

/// The default memory budget of one search: 4 GiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 4 << 30;

/// The smallest budget accepted: 1 MiB.
pub const MIN_MEMORY_LIMIT: u64 = 1 << 20;

/// Parses `--memory-limit`: a number of megabytes (`4096`) or a number with a unit
/// (`512M`, `512MB`, `512MiB`, `4G`, `4GB`, `1.5GiB`, `1T`); units are binary.
pub fn parse_memory_limit(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let shift = match unit.as_str() {
        "" | "m" | "mb" | "mib" => 20,
        "k" | "kb" | "kib" => 10,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => {
            return Err(format!(
                "{} is not a memory size (e.g. 4096 for MB, or 512M, 4G)",
                crate::util::input::excerpt(text)
            ));
        }
    };
    let value: f64 = match number.parse() {
        Ok(v) if number.bytes().any(|b| b.is_ascii_digit()) => v,
        _ => {
            return Err(format!(
                "{} is not a memory size (e.g. 4096 for MB, or 512M, 4G)",
                crate::util::input::excerpt(text)
            ));
        }
    };
    let bytes = value * (1u64 << shift) as f64;
    if bytes.is_nan() || bytes < MIN_MEMORY_LIMIT as f64 {
        return Err(format!("a memory limit of {t} is below 1 MiB"));
    }
    if bytes > (1u64 << 50) as f64 {
        return Err(format!("a memory limit of {t} is above 1 PiB"));
    }
    Ok(bytes as u64)
}

/// Bytes as text for messages: `512 MiB`, `4.0 GiB`.
pub fn bytes_text(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_with_and_without_units() {
        assert_eq!(parse_memory_limit("4096"), Ok(4 << 30));
        assert_eq!(parse_memory_limit("512M"), Ok(512 << 20));
        assert_eq!(parse_memory_limit("4GiB"), Ok(4 << 30));
        assert_eq!(parse_memory_limit("1.5g"), Ok(3 << 29));
        for bad in ["", "0", "x", "4X", "1k", "nan", ".", "99999999999T"] {
            assert!(parse_memory_limit(bad).is_err(), "{bad}");
        }
        assert_eq!(bytes_text(512 << 20), "512 MiB");
        assert_eq!(bytes_text(4 << 30), "4.0 GiB");
    }
}

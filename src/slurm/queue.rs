//! Talking to Slurm through its commands, as a user at a login node would: `sbatch` to
//! submit, `squeue` to see what is still queued or running, `scontrol show job` for the
//! state and exit code of finished jobs (kept a few minutes by the controller; no
//! accounting database is needed). A missing command or a refusal is a user error
//! quoting Slurm's own message.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Runs a Slurm command and returns its standard output.
fn slurm(program: &str, args: &[String]) -> anyhow::Result<String> {
    let out = Command::new(program).args(args).output().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            crate::user_error!(
                "{program}: not found: Slurm's commands are not on this machine's PATH (run on a cluster's login node, or set up a local cluster with scripts/slurm-local.sh)"
            )
        } else {
            crate::user_error!("{program}: cannot run it: {e}")
        }
    })?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message");
        crate::user_bail!(
            "{program} {} failed: {}",
            args.join(" "),
            first.trim().trim_start_matches("sbatch: error: ")
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Submits a job script with extra `sbatch` options; returns the job id.
pub fn sbatch(options: &[String], script: &Path) -> anyhow::Result<u64> {
    let mut args = vec!["--parsable".to_string()];
    args.extend_from_slice(options);
    args.push(script.display().to_string());
    let out = slurm("sbatch", &args)?;
    parse_job_id(&out)
        .ok_or_else(|| crate::user_error!("sbatch: unexpected answer {:?}", out.trim()))
}

/// The job id in `sbatch --parsable`'s answer (`123` or `123;cluster`).
fn parse_job_id(out: &str) -> Option<u64> {
    out.trim().split(';').next()?.trim().parse().ok()
}

/// The ids of this user's jobs, queued or running, that run one of `scripts`.
pub fn queued_scripts(scripts: &[std::path::PathBuf]) -> anyhow::Result<Vec<String>> {
    let args = ["--me", "-h", "-o", "%i|%o"].map(String::from);
    let out = slurm("squeue", &args)?;
    Ok(out
        .lines()
        .filter_map(|l| l.split_once('|'))
        .filter(|(_, script)| scripts.iter().any(|s| Path::new(script.trim()) == s))
        .map(|(id, _)| id.to_string())
        .collect())
}

/// The ids (`12`, `12_3`, `12_[4-7]`) and states of the jobs `ids` still queued or
/// running.
pub fn queued(ids: &[u64]) -> anyhow::Result<Vec<(String, String)>> {
    let list: Vec<String> = ids.iter().map(u64::to_string).collect();
    let args = ["-h", "-o", "%i %T", "-j"].map(String::from);
    let mut args = args.to_vec();
    args.push(list.join(","));
    Ok(pairs(&slurm("squeue", &args)?))
}

fn pairs(out: &str) -> Vec<(String, String)> {
    out.lines()
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?.to_string(), w.next()?.to_string()))
        })
        .collect()
}

/// How a finished job ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub state: String,
    /// `code:signal`, as Slurm prints it.
    pub exit: String,
}

/// The states of job `id`'s records the controller still holds: by array task (`None`
/// for a job that is not an array). Empty when it no longer knows the job.
pub fn ended(id: u64) -> BTreeMap<Option<u32>, Ended> {
    let args = ["-o", "show", "job"].map(String::from);
    let mut args = args.to_vec();
    args.push(id.to_string());
    slurm("scontrol", &args)
        .map(|out| parse_records(&out))
        .unwrap_or_default()
}

/// `scontrol -o show job`'s records (one a line, `Key=Value` words).
fn parse_records(out: &str) -> BTreeMap<Option<u32>, Ended> {
    out.lines()
        .filter_map(|line| {
            let fields: BTreeMap<&str, &str> = line
                .split_whitespace()
                .filter_map(|w| w.split_once('='))
                .collect();
            let task = match fields.get("ArrayTaskId") {
                // A pending remainder of an array ("4-7") has not ended.
                Some(t) => Some(t.parse::<u32>().ok()?),
                None => None,
            };
            Some((
                task,
                Ended {
                    state: fields.get("JobState")?.to_string(),
                    exit: fields.get("ExitCode").unwrap_or(&"?").to_string(),
                },
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_parsed() {
        assert_eq!(parse_job_id("42\n"), Some(42));
        assert_eq!(parse_job_id("42;local\n"), Some(42));
        assert_eq!(parse_job_id("Submitted batch job 42"), None);
        assert_eq!(
            pairs("12_[2-3] PENDING\n12_1 RUNNING\n"),
            vec![
                ("12_[2-3]".to_string(), "PENDING".to_string()),
                ("12_1".to_string(), "RUNNING".to_string())
            ]
        );
        let records = parse_records(
            "JobId=13 ArrayJobId=12 ArrayTaskId=1 JobName=x JobState=FAILED Reason=NonZeroExitCode ExitCode=2:0 Other=a\n\
             JobId=12 ArrayJobId=12 ArrayTaskId=2-3 JobState=PENDING ExitCode=0:0\n\
             JobId=14 JobName=m JobState=CANCELLED Reason=DependencyNeverSatisfied ExitCode=0:0\n",
        );
        assert_eq!(
            records.get(&Some(1)),
            Some(&Ended {
                state: "FAILED".into(),
                exit: "2:0".into()
            })
        );
        assert_eq!(
            records.get(&None).map(|e| e.state.as_str()),
            Some("CANCELLED")
        );
        assert_eq!(
            records.len(),
            2,
            "the pending remainder is not a record of an ended task"
        );
    }
}

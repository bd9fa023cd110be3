//! `searchlab slurm`: an experiment, or the experiments of the report's studies, as a
//! Slurm job array of shards ([`crate::pipeline::shard`]) and a merge job that runs once
//! the whole array has succeeded, so that the tables are those one machine would have
//! written.
//!
//! It writes the job scripts ([`script`]) to `<out>/slurm/<name>/`, with absolute paths
//! (the jobs run on other machines, in other directories), and with `--submit` submits
//! them through `sbatch` ([`queue`]): only the tasks whose shards still miss runs, so
//! that the same command after a failed, cancelled or timed-out task computes only what
//! is missing. `--wait` follows the jobs until the merge has run, showing the runs done
//! across the cluster, and fails naming each task that did not finish and its log.

pub mod queue;
pub mod script;

use crate::pipeline::config::Config;
use crate::pipeline::execute::experiment_dir;
use crate::pipeline::plan::Plan;
use crate::pipeline::progress::Progress;
use crate::pipeline::recorded::{Access, recorded_runs};
use crate::pipeline::runner::Runner;
use crate::pipeline::shard::{MAX_SHARDS, Shard};
use script::{Job, Resources, check_path, ranges};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

#[derive(Debug, clap::Args)]
pub struct SlurmArgs {
    /// The experiment config (TOML); or --study
    #[arg(required_unless_present = "study")]
    config: Option<PathBuf>,
    /// Tasks of the job array: the plan is split into this many shards
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SHARDS)))]
    tasks: u32,
    /// Output folder (as for `run`)
    #[arg(long, default_value = "outputs")]
    out: PathBuf,
    /// Run the experiments of the report's study NAME instead of one config (repeatable); the merge job writes the report
    #[arg(long = "study", value_name = "NAME", conflicts_with_all = ["config", "set"])]
    study: Vec<String>,
    /// Override a config key, as for `run`
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Slurm partition of the jobs (default: the cluster's)
    #[arg(long)]
    partition: Option<String>,
    /// Time limit of each job, e.g. 04:00:00 or 1-00:00:00 (default: the partition's)
    #[arg(long, value_name = "HH:MM:SS")]
    time: Option<String>,
    /// CPUs of each task: its --jobs
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4096))]
    cpus_per_task: u32,
    /// Memory of each job, e.g. 4G or 4000 (MB) (default: the cluster's)
    #[arg(long, value_name = "M")]
    mem: Option<String>,
    /// Submit with sbatch (only the tasks whose shards still miss runs) and print the job ids
    #[arg(long)]
    submit: bool,
    /// Wait for the merge job; fail naming each task that did not finish and its log
    #[arg(long)]
    wait: bool,
    /// No progress output while waiting
    #[arg(long)]
    quiet: bool,
}

/// What the jobs run: the scripts, and the experiments whose shards they compute.
struct Target<'a> {
    job: Job,
    out: PathBuf,
    experiments: Vec<(Config, Plan<'a>)>,
    /// The file the merge job writes last.
    merged: PathBuf,
}

/// Writes the job scripts; with `--submit`, submits them; with `--wait`, waits.
pub fn run(args: SlurmArgs, domains: &[crate::domain::Domain]) -> anyhow::Result<()> {
    let runners = crate::domain::runners(domains);
    let functions = crate::domain::functions(domains);
    if args.wait && !args.submit {
        crate::user_bail!("--wait needs --submit (it waits for the jobs it submits)");
    }
    let resources = resources(&args)?;
    let target = target(&args, &runners, &functions, resources)?;
    let job = &target.job;
    std::fs::create_dir_all(job.logs()).map_err(|e| {
        crate::util::error::environment_error(
            anyhow::Error::new(e).context(format!("creating {}", job.logs().display())),
            &format!("{}: cannot create the folder", job.logs().display()),
        )
    })?;
    for (path, text) in [
        (job.array_script(), job.array_text()),
        (job.merge_script(), job.merge_text()),
        (job.submit_script(), job.submit_text()),
    ] {
        crate::util::atomic::write(&path, text.as_bytes())?;
        executable(&path)?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: job scripts in {} (array.sbatch: {} tasks, one shard each; merge.sbatch: after the array; submit.sh)",
        job.name,
        job.folder.display(),
        job.tasks
    )?;
    if !args.submit {
        writeln!(
            out,
            "submit with: bash {}   (or the same command with --submit)",
            job.submit_script().display()
        )?;
        return Ok(());
    }
    drop(out);
    let submitted = submit(&target)?;
    if args.wait {
        wait(&target, &submitted, args.quiet)?;
    }
    Ok(())
}

fn executable(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| crate::user_error!("{}: cannot make it executable: {e}", path.display()))
}

/// The resources of each job, checked so that nothing else reaches an `#SBATCH` line.
fn resources(args: &SlurmArgs) -> anyhow::Result<Resources> {
    let check =
        |flag: &str, value: &Option<String>, ok: fn(&str) -> bool, example: &str| match value {
            Some(v) if !ok(v) => Err(crate::user_error!(
                "--{flag} {}: expected {example}",
                crate::util::input::excerpt(v)
            )),
            _ => Ok(value.clone()),
        };
    Ok(Resources {
        partition: check(
            "partition",
            &args.partition,
            |v| {
                !v.is_empty()
                    && v.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-.,".contains(c))
            },
            "a partition name (letters, digits, _ - . or a comma list)",
        )?,
        time: check(
            "time",
            &args.time,
            valid_time,
            "a Slurm time limit such as 30 (minutes), 04:00:00 or 1-12:00:00",
        )?,
        cpus_per_task: args.cpus_per_task,
        mem: check(
            "mem",
            &args.mem,
            |v| {
                let digits = v.trim_end_matches(['K', 'M', 'G', 'T']);
                !digits.is_empty()
                    && digits.len() + 1 >= v.len()
                    && digits.chars().all(|c| c.is_ascii_digit())
            },
            "a memory size such as 4000 (MB) or 16G",
        )?,
    })
}

/// Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S.
fn valid_time(v: &str) -> bool {
    let number = |s: &str| !s.is_empty() && s.len() <= 6 && s.chars().all(|c| c.is_ascii_digit());
    let (days, rest) = match v.split_once('-') {
        Some((d, r)) => (Some(d), r),
        None => (None, v),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    days.is_none_or(number) && parts.iter().all(|p| number(p)) && parts.len() <= 3
}

/// The experiments to run and the job scripts that run them.
fn target<'a>(
    args: &SlurmArgs,
    runners: &[&'a Runner],
    functions: &crate::domain::Functions,
    resources: Resources,
) -> anyhow::Result<Target<'a>> {
    let cwd = std::env::current_dir()?;
    let exe = std::env::current_exe()?;
    let out = std::path::absolute(&args.out)?;
    check_path(&exe, "the searchlab binary")?;
    check_path(&cwd, "the working directory")?;
    check_path(&out, "--out")?;
    let text = |p: &Path| p.display().to_string();
    let (name, what, task, merge, merge_jobs, experiments, merged);
    if let Some(path) = &args.config {
        let config = crate::pipeline::config::resolve(&cwd, path, &args.set)?;
        let plan = crate::pipeline::plan::plan(&config, runners)?;
        crate::present::outputs::check(&config, &plan)?;
        // A file by its absolute path; a built-in config by its name (the binary the
        // jobs run has it too).
        let config_path = if path.is_file() {
            let p = std::path::absolute(path)?;
            check_path(&p, "the config")?;
            p
        } else {
            // A config's name: letters, digits, `_`, `-` and `.` (checked when read).
            PathBuf::from(&config.name)
        };
        name = config.name.clone();
        what = format!("experiment {name} ({})", path.display());
        let mut words = vec![
            text(&exe),
            "run".into(),
            text(&config_path),
            "--out".into(),
            text(&out),
        ];
        for s in &args.set {
            words.extend(["--set".to_string(), s.clone()]);
        }
        task = words;
        let dir = experiment_dir(&out, &name);
        merge = vec![text(&exe), "merge".into(), text(&dir)];
        merge_jobs = false;
        merged = dir.join("manifest.json");
        experiments = vec![(config, plan)];
    } else {
        let (_, work) = crate::report::plan::plan_studies(&cwd, runners, functions, &args.study)?;
        name = format!("report-{}", args.study.join("-"));
        crate::pipeline::config::check_name("job", &name, "--study")?;
        what = format!("the report's studies {}", args.study.join(", "));
        let mut words = vec![text(&exe), "report".to_string()];
        for s in &args.study {
            words.extend(["--study".to_string(), s.clone()]);
        }
        words.extend(["--out".to_string(), text(&out)]);
        task = words.clone();
        merge = words;
        merge_jobs = true;
        // Each study is written to its own file; the last one is written last.
        let last = args.study.last().map_or("report", String::as_str);
        merged = out.join("report").join(format!("{last}.md"));
        experiments = work
            .into_iter()
            .filter(|w| w.runs)
            .map(|w| (w.config, w.plan))
            .collect();
    }
    Ok(Target {
        job: Job {
            folder: out.join("slurm").join(&name),
            name,
            what,
            cwd,
            tasks: args.tasks,
            resources,
            task,
            merge,
            merge_jobs,
        },
        out,
        experiments,
        merged,
    })
}

/// For each task, how many runs of its shard no journal holds yet (over every
/// experiment of the target).
fn missing_by_task(target: &Target) -> anyhow::Result<Vec<usize>> {
    let n = target.job.tasks;
    let mut missing = vec![0usize; n as usize];
    for (config, plan) in &target.experiments {
        let dir = experiment_dir(&target.out, &config.name);
        let done = recorded_runs(plan, &[&dir], Access::Count)?.records;
        for run in plan.runs.iter().filter(|r| !done.contains_key(&r.key)) {
            missing[Shard::of(&run.key, n) as usize] += 1;
        }
    }
    Ok(missing)
}

/// What was submitted.
struct Submitted {
    /// The array's job id and the tasks submitted.
    array: Option<(u64, Vec<u32>)>,
    merge: u64,
    at: SystemTime,
}

fn submit(target: &Target) -> anyhow::Result<Submitted> {
    let job = &target.job;
    let queued = queue::queued_scripts(&[job.array_script(), job.merge_script()])?;
    if !queued.is_empty() {
        crate::user_bail!(
            "{}: jobs of these scripts are still queued or running ({}); wait for them to end (squeue --me) or cancel them (scancel {}) before submitting again",
            job.folder.display(),
            queued.join(", "),
            queued.join(" ")
        );
    }
    let at = SystemTime::now();
    let missing = missing_by_task(target)?;
    let tasks: Vec<u32> = (0..job.tasks)
        .filter(|&t| missing[t as usize] > 0)
        .collect();
    let mut out = std::io::stdout().lock();
    let array = if tasks.is_empty() {
        writeln!(
            out,
            "{}: every shard has all its runs; no task to submit",
            job.name
        )?;
        None
    } else {
        let id = queue::sbatch(
            &[format!("--array={}", ranges(&tasks))],
            &job.array_script(),
        )?;
        let which = if tasks.len() == job.tasks as usize {
            format!("tasks 0-{} (one shard each)", job.tasks - 1)
        } else {
            format!(
                "tasks {} of 0-{} (the others' shards have all their runs)",
                ranges(&tasks),
                job.tasks - 1
            )
        };
        writeln!(
            out,
            "submitted job array {id}: {which}; logs {}",
            job.logs()
                .join(format!("{}-{id}_<task>.log", job.name))
                .display()
        )?;
        Some((id, tasks))
    };
    let dependency = match &array {
        Some((id, _)) => vec![format!("--dependency=afterok:{id}")],
        None => Vec::new(),
    };
    let merge = queue::sbatch(&dependency, &job.merge_script())?;
    writeln!(
        out,
        "submitted merge job {merge}{}; log {}",
        if array.is_some() {
            " (runs once every task has succeeded)"
        } else {
            ""
        },
        job.merge_log(merge).display()
    )?;
    Ok(Submitted { array, merge, at })
}

/// How often the queue is asked, and the journals read, while waiting.
const POLL: Duration = Duration::from_secs(2);
const COUNT_RUNS_EVERY: Duration = Duration::from_secs(5);

fn wait(target: &Target, sub: &Submitted, quiet: bool) -> anyhow::Result<()> {
    let job = &target.job;
    let total: usize = target.experiments.iter().map(|(_, p)| p.runs.len()).sum();
    let missing_now =
        |t: &Target| -> anyhow::Result<usize> { Ok(missing_by_task(t)?.iter().sum()) };
    let mut missing = missing_now(target)?;
    let observer = crate::util::observe::stderr(quiet);
    let progress = Progress::new(&*observer, missing as u64);
    let mut stage = progress.experiment(&job.name, total as u64, (total - missing) as u64);
    let mut ids: Vec<u64> = sub.array.iter().map(|(id, _)| *id).collect();
    ids.push(sub.merge);
    let mut counted = Instant::now();
    let mut failures = 0;
    loop {
        let queued = match queue::queued(&ids) {
            Ok(q) => {
                failures = 0;
                q
            }
            // The controller may be briefly unreachable; a minute of that is an error.
            Err(e) if failures < 30 => {
                failures += 1;
                if failures == 1 {
                    progress.note(&format!("slurm: {}", crate::util::error::one_line(&e)));
                }
                vec![(String::new(), String::new())]
            }
            Err(e) => return Err(e),
        };
        if counted.elapsed() >= COUNT_RUNS_EVERY || queued.is_empty() {
            let now = missing_now(target)?;
            for _ in now..missing {
                stage.inc();
            }
            missing = missing.min(now);
            counted = Instant::now();
        }
        if queued.is_empty() {
            break;
        }
        std::thread::sleep(POLL);
    }
    stage.finish();
    progress.finish();
    verdict(target, sub)
}

/// After the jobs have left the queue: each submitted task must have completed with
/// its shard whole, and the merge job must have completed.
fn verdict(target: &Target, sub: &Submitted) -> anyhow::Result<()> {
    let job = &target.job;
    let missing = missing_by_task(target)?;
    let mut problems: Vec<String> = Vec::new();
    if let Some((id, tasks)) = &sub.array {
        let ended = queue::ended(*id);
        for &t in tasks {
            let state = ended.get(&Some(t));
            let bad_state = state.is_some_and(|e| e.state != "COMPLETED");
            let left = missing[t as usize];
            if bad_state || left > 0 {
                let how = match state {
                    Some(e) => format!("{}, exit code {}", e.state, e.exit),
                    None => "ended".to_string(),
                };
                problems.push(format!(
                    "task {t} of job {id} failed ({how}; {left} runs of shard {t}/{} missing), log {}",
                    job.tasks,
                    job.task_log(*id, t).display()
                ));
            }
        }
    }
    let merge_state = queue::ended(sub.merge).remove(&None);
    let merged = match &merge_state {
        Some(e) => e.state == "COMPLETED",
        None => written_since(&target.merged, sub.at),
    };
    if !merged {
        let how = merge_state.map_or("did not complete".to_string(), |e| {
            format!("ended {} (exit code {})", e.state, e.exit)
        });
        problems.push(format!(
            "merge job {} {how}, log {}",
            sub.merge,
            job.merge_log(sub.merge).display()
        ));
    }
    if !problems.is_empty() {
        crate::user_bail!(
            "slurm: {}; run the same command again: only the missing runs are computed",
            problems.join("; ")
        );
    }
    let tasks = match &sub.array {
        Some((id, tasks)) => format!("job array {id}: tasks {} completed; ", ranges(tasks)),
        None => String::new(),
    };
    writeln!(
        std::io::stdout().lock(),
        "{}: {tasks}merge job {} completed -> {}",
        job.name,
        sub.merge,
        target.merged.display()
    )?;
    Ok(())
}

/// True when `path` was written at or after `since`.
fn written_since(path: &Path, since: SystemTime) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= since)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_time_limits() {
        for ok in ["30", "30:00", "04:00:00", "1-12", "1-12:00", "2-00:00:00"] {
            assert!(valid_time(ok), "{ok}");
        }
        for bad in ["", "1h", "1:2:3:4", "-1", "1-", "04:00:00\n#SBATCH", "a-1"] {
            assert!(!valid_time(bad), "{bad:?}");
        }
    }
}

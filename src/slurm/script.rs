//! The text of the job scripts `searchlab slurm` writes: `array.sbatch` (a job array,
//! task I running shard I of N), `merge.sbatch` (run after the whole array succeeded)
//! and `submit.sh` (submits both with the dependency). Pure functions of a [`Job`], so
//! that what a cluster is asked to run can be read and tested without one.

use std::path::{Path, PathBuf};

/// Resources each job asks for (`#SBATCH` lines); `None` leaves the cluster's default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resources {
    pub partition: Option<String>,
    pub time: Option<String>,
    pub cpus_per_task: u32,
    pub mem: Option<String>,
}

/// A sweep spread over a job array.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// The experiment's name, or `report-<studies>`: names the jobs, logs and folder.
    pub name: String,
    /// What runs, for the scripts' comments (e.g. "experiment quickstart").
    pub what: String,
    /// The folder of the scripts; `logs/` in it holds the jobs' output.
    pub folder: PathBuf,
    /// The working directory of the jobs (where `configs/` and `experiments/` are).
    pub cwd: PathBuf,
    pub tasks: u32,
    pub resources: Resources,
    /// The command of a task, without `--shard` and `--jobs` (absolute paths).
    pub task: Vec<String>,
    /// The command of the merge job, without `--jobs`.
    pub merge: Vec<String>,
    /// Whether the merge command takes `--jobs` (`report` does, `merge` does not).
    pub merge_jobs: bool,
}

/// The shell's `--jobs` value inside a job: the CPUs Slurm gave the task.
const JOBS: &str = "\"${SLURM_CPUS_PER_TASK:-1}\"";

impl Job {
    pub fn array_script(&self) -> PathBuf {
        self.folder.join("array.sbatch")
    }

    pub fn merge_script(&self) -> PathBuf {
        self.folder.join("merge.sbatch")
    }

    pub fn submit_script(&self) -> PathBuf {
        self.folder.join("submit.sh")
    }

    pub fn logs(&self) -> PathBuf {
        self.folder.join("logs")
    }

    /// The array's job name (the merge job's adds `-merge`).
    pub fn job_name(&self) -> String {
        format!("searchlab-{}", self.name)
    }

    /// The log of task `task` of array job `job`.
    pub fn task_log(&self, job: u64, task: u32) -> PathBuf {
        self.logs().join(format!("{}-{job}_{task}.log", self.name))
    }

    /// The log of merge job `job`.
    pub fn merge_log(&self, job: u64) -> PathBuf {
        self.logs().join(format!("{}-merge-{job}.log", self.name))
    }

    fn header(&self, job_name: &str, log: &str) -> String {
        let mut h = format!(
            "#SBATCH --job-name={job_name}\n#SBATCH --cpus-per-task={}\n#SBATCH --chdir={}\n#SBATCH --output={}\n",
            self.resources.cpus_per_task,
            self.cwd.display(),
            self.logs().join(log).display()
        );
        for (flag, value) in [
            ("partition", &self.resources.partition),
            ("time", &self.resources.time),
            ("mem", &self.resources.mem),
        ] {
            if let Some(v) = value {
                h.push_str(&format!("#SBATCH --{flag}={v}\n"));
            }
        }
        h
    }

    /// `array.sbatch`: task I runs shard I of N.
    pub fn array_text(&self) -> String {
        let n = self.tasks;
        format!(
            "#!/bin/bash\n\
             # searchlab job array: the shards of {what}.\n\
             # Task I runs shard I of {n} of the plan into a journal of its own. Running a\n\
             # task again computes only the runs its shard still misses; `sbatch --array=1,3\n\
             # array.sbatch` runs tasks 1 and 3 alone (the shard count is written out below,\n\
             # not read from $SLURM_ARRAY_TASK_COUNT, so that they keep their shards).\n\
             # Written by `searchlab slurm`.\n\
             {header}#SBATCH --array=0-{last}\n\
             set -euo pipefail\n\
             exec {command} \\\n    --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --jobs {JOBS}\n",
            what = self.what,
            header = self.header(&self.job_name(), &format!("{}-%A_%a.log", self.name)),
            last = n - 1,
            command = shell_words(&self.task),
        )
    }

    /// `merge.sbatch`: run once every task of the array has succeeded.
    pub fn merge_text(&self) -> String {
        let jobs = if self.merge_jobs {
            format!(" --jobs {JOBS}")
        } else {
            String::new()
        };
        format!(
            "#!/bin/bash\n\
             # searchlab merge job: after the shards of {what}.\n\
             # Submitted with --dependency=afterok:<the array's job id>, it runs once every\n\
             # task has succeeded and writes the tables one machine would have written.\n\
             # Written by `searchlab slurm`.\n\
             {header}#SBATCH --kill-on-invalid-dep=yes\n\
             set -euo pipefail\n\
             exec {command}{jobs}\n",
            what = self.what,
            header = self.header(
                &format!("{}-merge", self.job_name()),
                &format!("{}-merge-%j.log", self.name)
            ),
            command = shell_words(&self.merge),
        )
    }

    /// `submit.sh`: the array, then the merge job depending on it.
    pub fn submit_text(&self) -> String {
        format!(
            "#!/bin/bash\n\
             # Submits the job array of {what},\n\
             # then its merge job, which runs once every task has succeeded. Written by\n\
             # `searchlab slurm`; `searchlab slurm ... --submit` does the same but submits\n\
             # only the tasks whose shards still miss runs.\n\
             set -euo pipefail\n\
             array=$(sbatch --parsable {array})\n\
             array=${{array%%;*}}\n\
             merge=$(sbatch --parsable --dependency=afterok:\"$array\" {merge})\n\
             echo \"submitted job array $array ({n} tasks) and merge job ${{merge%%;*}} (after the array); logs in {logs}\"\n",
            what = self.what,
            array = shell_word(&self.array_script().display().to_string()),
            merge = shell_word(&self.merge_script().display().to_string()),
            n = self.tasks,
            logs = self.logs().display(),
        )
    }
}

/// `word` quoted for the shell when it needs it.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,@:=%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn shell_words(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks that `path` can stand in an `#SBATCH` line as it is: absolute, and only
/// letters, digits and `/ . _ - + , @ : =` (no spaces, quotes, `$` or `%`, which
/// Slurm or the shell would read as something else).
pub fn check_path(path: &Path, what: &str) -> anyhow::Result<()> {
    let text = path.to_string_lossy();
    if !path.is_absolute() {
        crate::user_bail!(
            "{what} {}: a path in a Slurm job script must be absolute (the jobs run on other nodes, in other folders)",
            crate::util::input::excerpt(&text)
        );
    }
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+,@:=".contains(c));
    if !plain {
        crate::user_bail!(
            "{what} {}: a path in a Slurm job script may only have letters, digits and / . _ - + , @ : = (no spaces, quotes, $ or %); use another folder",
            crate::util::input::excerpt(&text)
        );
    }
    Ok(())
}

/// A job-array index list for `sbatch --array`: runs of consecutive tasks as ranges
/// (`0-3,5,7-8`).
pub fn ranges(tasks: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tasks.len() {
        let start = tasks[i];
        let mut end = start;
        while i + 1 < tasks.len() && tasks[i + 1] == end + 1 {
            i += 1;
            end = tasks[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> Job {
        Job {
            name: "quickstart".into(),
            what: "experiment quickstart".into(),
            folder: PathBuf::from("/o/slurm/quickstart"),
            cwd: PathBuf::from("/p"),
            tasks: 4,
            resources: Resources {
                partition: Some("short".into()),
                time: Some("01:00:00".into()),
                cpus_per_task: 2,
                mem: None,
            },
            task: [
                "/bin/searchlab",
                "run",
                "/p/q.toml",
                "--out",
                "/o",
                "--set",
                "params.x=it's",
            ]
            .map(String::from)
            .to_vec(),
            merge: ["/bin/searchlab", "merge", "/o/quickstart"]
                .map(String::from)
                .to_vec(),
            merge_jobs: false,
        }
    }

    #[test]
    fn the_array_runs_one_shard_per_task_with_the_cpus_it_was_given() {
        let text = job().array_text();
        for line in [
            "#SBATCH --job-name=searchlab-quickstart\n",
            "#SBATCH --array=0-3\n",
            "#SBATCH --cpus-per-task=2\n",
            "#SBATCH --chdir=/p\n",
            "#SBATCH --output=/o/slurm/quickstart/logs/quickstart-%A_%a.log\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --time=01:00:00\n",
            "exec /bin/searchlab run /p/q.toml --out /o --set 'params.x=it'\\''s' \\\n    --shard \"$SLURM_ARRAY_TASK_ID/4\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\"\n",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
        assert!(!text.contains("--mem"), "no memory asked unless given");
        assert!(text.starts_with("#!/bin/bash\n"));
    }

    #[test]
    fn the_merge_waits_for_the_whole_array() {
        let j = job();
        let merge = j.merge_text();
        assert!(merge.contains("#SBATCH --job-name=searchlab-quickstart-merge\n"));
        assert!(merge.contains("#SBATCH --kill-on-invalid-dep=yes\n"));
        assert!(
            merge.ends_with("exec /bin/searchlab merge /o/quickstart\n"),
            "{merge}"
        );
        let submit = j.submit_text();
        assert!(submit.contains("array=$(sbatch --parsable /o/slurm/quickstart/array.sbatch)\n"));
        assert!(submit.contains(
            "merge=$(sbatch --parsable --dependency=afterok:\"$array\" /o/slurm/quickstart/merge.sbatch)\n"
        ));
        assert_eq!(
            j.task_log(12, 3),
            PathBuf::from("/o/slurm/quickstart/logs/quickstart-12_3.log")
        );
        let mut r = j;
        r.merge_jobs = true;
        assert!(
            r.merge_text()
                .ends_with("merge /o/quickstart --jobs \"${SLURM_CPUS_PER_TASK:-1}\"\n")
        );
    }

    #[test]
    fn words_paths_and_ranges() {
        assert_eq!(shell_word("/a/b.toml"), "/a/b.toml");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("$x"), "'$x'");
        assert_eq!(shell_word(""), "''");
        assert!(check_path(Path::new("/a/b-c_1.toml"), "config").is_ok());
        let err = check_path(Path::new("/a b/c"), "--out")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--out \"/a b/c\": a path in a Slurm job script"),
            "{err}"
        );
        assert!(check_path(Path::new("rel/c"), "--out").is_err());
        assert!(check_path(Path::new("/a%j"), "--out").is_err());
        assert_eq!(ranges(&[0, 1, 2, 3]), "0-3");
        assert_eq!(ranges(&[1, 3]), "1,3");
        assert_eq!(ranges(&[0, 2, 3, 4, 7]), "0,2-4,7");
        assert_eq!(ranges(&[]), "");
    }
}

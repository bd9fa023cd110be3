//! The built-in configs and studies, compiled into the binary from `configs/` and
//! `experiments/` (by `build.rs`), and the user's own beside them: a folder's
//! `configs/NAME.toml` or `experiments/NAME.toml` in the working folder adds to the
//! built-in ones and overrides the one of the same name. So an installed binary, or one
//! copied to a cluster, runs the default experiments from any folder, and nothing reads
//! the source tree at run time. `searchlab init` writes the built-in files out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod built_in {
    include!(concat!(env!("OUT_DIR"), "/catalog.rs"));
}

/// Where an entry comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Compiled into the binary.
    BuiltIn,
    /// A file of the working folder; `overrides` when a built-in one of the same name
    /// has another text (a copy of the built-in file, as in a checkout, overrides
    /// nothing).
    Local { path: PathBuf, overrides: bool },
}

/// One config or study.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub origin: Origin,
    built_in: Option<&'static str>,
}

impl Entry {
    /// How messages name it: its path, or `built-in configs/NAME.toml`.
    pub fn source(&self, folder: &str) -> String {
        match &self.origin {
            Origin::Local { path, .. } => path.display().to_string(),
            Origin::BuiltIn => format!("built-in {folder}/{}.toml", self.name),
        }
    }

    /// True when the binary has an entry of this name.
    pub fn is_built_in(&self) -> bool {
        self.built_in.is_some()
    }

    /// Its text (a local file is read with the input limits).
    pub fn text(&self, what: &str) -> anyhow::Result<String> {
        match (&self.origin, self.built_in) {
            (Origin::Local { path, .. }, _) => crate::util::input::read_file(path, what),
            (Origin::BuiltIn, Some(t)) => Ok(t.to_string()),
            (Origin::BuiltIn, None) => anyhow::bail!("no built-in text for {}", self.name),
        }
    }
}

/// A kind of entry: configs or studies.
#[derive(Debug, Clone, Copy)]
pub struct Catalog {
    /// The folder name: `configs` or `experiments`.
    pub folder: &'static str,
    built_in: &'static [(&'static str, &'static str)],
}

/// The experiment configs.
pub const CONFIGS: Catalog = Catalog {
    folder: "configs",
    built_in: built_in::CONFIGS,
};

/// The report's studies.
pub const STUDIES: Catalog = Catalog {
    folder: "experiments",
    built_in: built_in::STUDIES,
};

impl Catalog {
    /// Every entry by name: the built-in ones, then the working folder's (`base`) over
    /// them. A local folder that cannot be listed counts as empty.
    pub fn entries(&self, base: &Path) -> BTreeMap<String, Entry> {
        let mut out: BTreeMap<String, Entry> = self
            .built_in
            .iter()
            .map(|(name, text)| {
                let entry = Entry {
                    name: name.to_string(),
                    origin: Origin::BuiltIn,
                    built_in: Some(text),
                };
                (name.to_string(), entry)
            })
            .collect();
        let dir = base.join(self.folder);
        let Ok(listing) = std::fs::read_dir(&dir) else {
            return out;
        };
        let mut paths: Vec<PathBuf> = listing
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml") && p.is_file())
            .collect();
        paths.sort();
        for path in paths {
            let Some(name) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                continue;
            };
            let built_in = self.built_in(&name);
            let path = dir.join(format!("{name}.toml"));
            let same =
                built_in.is_some_and(|b| std::fs::read(&path).is_ok_and(|t| t == b.as_bytes()));
            let local = Origin::Local {
                path,
                overrides: built_in.is_some() && !same,
            };
            out.insert(
                name.clone(),
                Entry {
                    name,
                    origin: local,
                    built_in,
                },
            );
        }
        out
    }

    /// The entry of a name, if there is one.
    pub fn get(&self, base: &Path, name: &str) -> Option<Entry> {
        self.entries(base).remove(name)
    }

    fn built_in(&self, name: &str) -> Option<&'static str> {
        self.built_in
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// Writes every built-in file into `<dir>/<folder>/`, leaving files that exist
    /// alone; returns the paths written and those skipped.
    pub fn write_out(&self, dir: &Path) -> anyhow::Result<(Vec<PathBuf>, Vec<PathBuf>)> {
        let folder = dir.join(self.folder);
        std::fs::create_dir_all(&folder).map_err(|e| {
            crate::user_error!("{}: cannot create the folder: {e}", folder.display())
        })?;
        let (mut written, mut skipped) = (Vec::new(), Vec::new());
        for (name, text) in self.built_in {
            let path = folder.join(format!("{name}.toml"));
            if path.exists() {
                skipped.push(path);
            } else {
                crate::util::atomic::write(&path, text.as_bytes())?;
                written.push(path);
            }
        }
        Ok((written, skipped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_entries_are_there_and_local_files_override_them() {
        let dir = tempfile::tempdir().unwrap();
        let all = CONFIGS.entries(dir.path());
        assert!(all.contains_key("quickstart"), "{:?}", all.keys());
        assert_eq!(all["quickstart"].origin, Origin::BuiltIn);
        assert!(STUDIES.entries(dir.path()).contains_key("rjm"));
        std::fs::create_dir(dir.path().join("configs")).unwrap();
        std::fs::write(dir.path().join("configs/quickstart.toml"), "x = 1").unwrap();
        std::fs::write(dir.path().join("configs/mine.toml"), "y = 2").unwrap();
        let all = CONFIGS.entries(dir.path());
        assert!(matches!(
            &all["quickstart"].origin,
            Origin::Local {
                overrides: true,
                ..
            }
        ));
        assert_eq!(all["quickstart"].text("config").unwrap(), "x = 1");
        assert!(matches!(
            &all["mine"].origin,
            Origin::Local {
                overrides: false,
                ..
            }
        ));
        let (written, skipped) = CONFIGS.write_out(dir.path()).unwrap();
        assert_eq!(skipped.len(), 1);
        assert!(written.len() > 5);
    }
}

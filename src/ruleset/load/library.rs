//! The search path: where rulesets are found (directories, then the shipped ones), the
//! names a record may give, and reading a ruleset's file. The [`Library`] type, with the
//! cache of the data files it parsed ([`DataCache`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::quote::quote;
use crate::ruleset::error::{suggest, RulesetError};
use crate::ruleset::schema::{DataError, DataValue};
use crate::ruleset::shipped;

pub(crate) use crate::ruleset::lines::is_name;

/// The environment variable naming extra ruleset directories (a path list, like `PATH`).
pub const ENV_VAR: &str = "REFEREE_RULESETS";

/// Where rulesets are found: directories searched in order (`--rulesets DIR`, then
/// `REFEREE_RULESETS`), then the rulesets shipped in the binary. A name found in an
/// earlier place shadows the later ones. The same holds for the data files of data
/// settings, in a folder of each place (`DIR/halasi/standard.yaml`).
#[derive(Clone, Debug, Default)]
pub struct Library {
    dirs: Vec<PathBuf>,
    /// The data files parsed so far (shared by clones).
    pub(super) data: DataCache,
}

/// Parsed data files by their displayed path, shared by a library's clones. A file that
/// does not parse keeps its error, so it is reported again without being parsed again.
#[derive(Clone, Default)]
pub(super) struct DataCache(pub(super) Arc<Mutex<HashMap<String, Result<DataValue, DataError>>>>);

impl fmt::Debug for DataCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut files: Vec<String> = self
            .0
            .lock()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        files.sort();
        f.debug_tuple("DataCache").field(&files).finish()
    }
}

/// One available ruleset, as `referee rules` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetInfo {
    pub name: String,
    /// The file as displayed: `rulesets/halatafl.rules` for a shipped one, else its path.
    pub file: String,
    /// The title, inherited along `extends` when the file has none.
    pub title: Option<String>,
    /// The game of its base; `None` when the file or its chain cannot be read.
    pub game: Option<String>,
    /// The ruleset it extends, for a variant.
    pub extends: Option<String>,
    /// Built into the binary (not found in a directory).
    pub shipped: bool,
}

/// The text of one ruleset file and how to name it.
pub(super) struct Found {
    /// The name its file gives it (the file stem).
    pub(super) name: String,
    pub(super) display: String,
    pub(super) text: Cow<'static, str>,
    pub(super) shipped: bool,
}

/// A ruleset name as a record's `Ruleset` tag may give it: a bare name, never a path.
/// Refuses the empty name, `/`, `\` and `..`, and anything that is not a kebab-case
/// name. The error has no file; the caller places it ([`RulesetError::at`]).
pub fn check_name(name: &str) -> Result<(), RulesetError> {
    if name.is_empty() {
        return Err(RulesetError::general(
            "the ruleset name is empty; expected a name like `halatafl`",
        ));
    }
    if name.contains('/') || name.contains('\\') || name.contains("..") {
        return Err(RulesetError::general(format!(
            "`{}` is a path; a ruleset is named, not located (expected a bare name \
             like `halatafl-emperor`, without `/`, `\\` or `..`)",
            quote(name)
        )));
    }
    if !is_name(name) {
        return Err(RulesetError::general(format!(
            "`{}` is not a ruleset name; expected lowercase letters, digits and \
             hyphens (like `halatafl-emperor`)",
            quote(name)
        )));
    }
    Ok(())
}

impl Library {
    /// A library searching `dirs` in order, then the shipped rulesets.
    pub fn new(dirs: Vec<PathBuf>) -> Library {
        Library {
            dirs,
            data: DataCache::default(),
        }
    }

    /// The command line's `--rulesets` directories, then those of `REFEREE_RULESETS`.
    pub fn from_env(cli_dirs: Vec<PathBuf>) -> Library {
        let mut dirs = cli_dirs;
        if let Some(value) = std::env::var_os(ENV_VAR) {
            dirs.extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty()));
        }
        Library::new(dirs)
    }

    /// The directories searched before the shipped rulesets.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Where a name is found first; `Ok(None)` when nowhere. Only a name is looked up
    /// ([`check_name`]), and only a file inside its directory is read ([`inside`]).
    pub(super) fn find(&self, name: &str) -> Result<Option<Found>, RulesetError> {
        check_name(name)?;
        for dir in &self.dirs {
            let path = dir.join(format!("{name}.rules"));
            if path.is_file() {
                return read_file_in(dir, &path).map(Some);
            }
        }
        Ok(shipped::get(name).map(|text| Found {
            name: name.to_string(),
            display: shipped::display_path(name),
            text: Cow::Borrowed(text),
            shipped: true,
        }))
    }

    /// The names of every available ruleset, sorted, each once.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.sources().into_iter().map(|(n, _)| n).collect();
        names.sort();
        names
    }

    /// Every available ruleset name with where it is: directories first, in order, then
    /// the shipped ones; a shadowed name only once (the first).
    pub(super) fn sources(&self) -> Vec<(String, Option<PathBuf>)> {
        let mut out: Vec<(String, Option<PathBuf>)> = Vec::new();
        for dir in &self.dirs {
            for (name, path) in files_in(dir, "rules") {
                if !out.iter().any(|(n, _)| *n == name) {
                    out.push((name, path));
                }
            }
        }
        for name in shipped::names() {
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.to_string(), None));
            }
        }
        out
    }

    pub(super) fn found_of(
        &self,
        name: &str,
        path: &Option<PathBuf>,
    ) -> Result<Found, RulesetError> {
        match path {
            // A file listed by `files_in`, so its folder is its directory.
            Some(p) => read_file_in(p.parent().unwrap_or(Path::new(".")), p),
            None => Ok(Found {
                name: name.to_string(),
                display: shipped::display_path(name),
                text: Cow::Borrowed(shipped::get(name).unwrap_or_default()),
                shipped: true,
            }),
        }
    }

    pub(super) fn not_found(&self, name: &str) -> RulesetError {
        let names = self.names();
        RulesetError::general(format!("no ruleset named `{}`", quote(name)))
            .with_suggestion(suggest(name, names.iter().map(String::as_str)))
    }
}

/// The files `DIR/*.EXT` by name (the file stem), sorted; none when `dir` cannot be read.
pub(super) fn files_in(dir: &Path, ext: &str) -> Vec<(String, Option<PathBuf>)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut here: Vec<(String, Option<PathBuf>)> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext) && p.is_file())
        .filter_map(|p| {
            let stem = p.file_stem()?.to_str()?.to_string();
            Some((stem, Some(p)))
        })
        .collect();
    here.sort();
    here
}

/// The file `path`, found in the ruleset directory `dir`, as it really is once links are
/// followed, when that is inside `dir` (itself followed through links). A file of a
/// ruleset directory that leads out of it (a link, or a link to a folder on the way) is
/// refused: a record names a ruleset, and the directory decides which files that can be.
pub(super) fn inside(dir: &Path, path: &Path) -> Result<PathBuf, RulesetError> {
    let display = path.display().to_string();
    let cannot =
        |e: std::io::Error| RulesetError::new(&display, 0, 0, format!("cannot read the file: {e}"));
    let root = dir.canonicalize().map_err(cannot)?;
    let real = path.canonicalize().map_err(cannot)?;
    if real.starts_with(&root) {
        Ok(real)
    } else {
        Err(RulesetError::new(
            &display,
            0,
            0,
            format!(
                "the file leads outside its ruleset directory `{}` (to `{}`); a ruleset \
                 directory may only lend files that are in it, so it is refused",
                dir.display(),
                real.display()
            ),
        ))
    }
}

/// [`read_file`] for a file of the ruleset directory `dir`, checked with [`inside`].
fn read_file_in(dir: &Path, path: &Path) -> Result<Found, RulesetError> {
    let real = inside(dir, path)?;
    read_named(path, &real)
}

pub(super) fn read_file(path: &Path) -> Result<Found, RulesetError> {
    read_named(path, path)
}

/// The file `path` names, read from `real` (where it leads).
fn read_named(path: &Path, real: &Path) -> Result<Found, RulesetError> {
    let display = path.display().to_string();
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let text = std::fs::read_to_string(real)
        .map_err(|e| RulesetError::new(&display, 0, 0, format!("cannot read the file: {e}")))?;
    Ok(Found {
        name,
        display,
        text: Cow::Owned(text),
        shipped: false,
    })
}

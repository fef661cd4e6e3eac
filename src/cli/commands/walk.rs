//! `check`'s arguments expanded before any record is read: a directory is walked for
//! record files the way ripgrep and fd walk a tree (the `ignore` crate), a file is taken
//! as named. `docs/decisions.md`, "Directories", says what is skipped and why.

use std::path::{Path, PathBuf};

use ignore::overrides::{Override, OverrideBuilder};
use ignore::WalkBuilder;

use crate::cli::Failure;

/// The extension of a record file, looked for in a directory when no `--glob` picks
/// the names.
pub const EXTENSION: &str = "game";

/// One input of `check`.
pub struct Source {
    /// The file to read; `None` is standard input.
    pub path: Option<PathBuf>,
    /// The name the output shows.
    pub name: String,
}

/// An argument that gave nothing to check, or a part of a tree that could not be read.
pub enum Problem {
    /// A directory (or a part of one) that could not be read.
    Unreadable(String),
    /// A directory with no file to check in it.
    Empty(String),
}

impl Problem {
    pub fn message(&self) -> &str {
        match self {
            Problem::Unreadable(m) | Problem::Empty(m) => m,
        }
    }
}

/// The inputs in order, what went wrong, and what is worth a word on stderr only.
#[derive(Default)]
pub struct Expanded {
    pub sources: Vec<Source>,
    pub problems: Vec<Problem>,
    /// Ignore files that could not be parsed in full (the rest of them applies).
    pub warnings: Vec<String>,
}

/// Expands `check`'s arguments in the order given: `-` is standard input, a directory
/// is walked (sorted by path, hidden and ignored entries skipped, symbolic links inside
/// it not followed), anything else is a file, checked whatever its name. `globs` are
/// `--glob` patterns, ripgrep's: a pattern picks names, `!pattern` leaves them out;
/// without a picking pattern a directory gives its `*.game` files.
pub fn expand(args: &[String], globs: &[String]) -> Result<Expanded, Failure> {
    // A bad pattern is a usage error before anything is read.
    overrides(Path::new("."), globs)?;
    let picks = globs.iter().any(|g| !g.starts_with('!'));
    let mut ex = Expanded::default();
    for arg in args {
        if arg == "-" {
            ex.sources.push(Source {
                path: None,
                name: "<stdin>".into(),
            });
        } else if Path::new(arg).is_dir() {
            walk(arg, globs, picks, &mut ex)?;
        } else {
            // A missing or unreadable file is reported when it is opened, in turn.
            ex.sources.push(Source {
                path: Some(PathBuf::from(arg)),
                name: arg.clone(),
            });
        }
    }
    Ok(ex)
}

/// The `--glob` patterns as a matcher rooted at the directory walked.
fn overrides(root: &Path, globs: &[String]) -> Result<Override, Failure> {
    let mut b = OverrideBuilder::new(root);
    for g in globs {
        b.add(g)
            .map_err(|e| Failure::Usage(format!("--glob {g}: {e}")))?;
    }
    b.build()
        .map_err(|e| Failure::Usage(format!("--glob: {e}")))
}

fn walk(dir: &str, globs: &[String], picks: bool, ex: &mut Expanded) -> Result<(), Failure> {
    let mut builder = WalkBuilder::new(dir);
    builder
        // Hidden entries, `.ignore` and `.gitignore` files (of the tree and of the
        // directories above it), `.git/info/exclude`.
        .standard_filters(true)
        // `.gitignore` holds in an exported tree too: which records a tree has does
        // not depend on a `.git` directory being there…
        .require_git(false)
        // …nor on the user's own git configuration.
        .git_global(false)
        .follow_links(false)
        .overrides(overrides(Path::new(dir), globs)?)
        .sort_by_file_name(|a, b| a.cmp(b));
    let before = ex.sources.len();
    let mut unreadable = false;
    for entry in builder.build() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                ex.problems
                    .push(Problem::Unreadable(format!("cannot read {e}")));
                unreadable = true;
                continue;
            }
        };
        if let Some(e) = entry.error() {
            ex.warnings.push(e.to_string());
        }
        // Only regular files: a symbolic link inside the tree is not followed.
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.into_path();
        if !picks && path.extension().is_none_or(|e| e != EXTENSION) {
            continue;
        }
        ex.sources.push(Source {
            name: path.to_string_lossy().into_owned(),
            path: Some(path),
        });
    }
    if ex.sources.len() == before && !unreadable {
        ex.problems.push(Problem::Empty(if picks {
            format!("no file under {dir} matches --glob")
        } else {
            format!(
                "no *.{EXTENSION} file under {dir} (hidden and ignored files are skipped; \
                 --glob picks other names)"
            )
        }));
    }
    Ok(())
}

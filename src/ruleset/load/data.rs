//! Data files on the search path: the file a data setting ([`Kind::Data`]) names is
//! `FOLDER/NAME.EXT` in each directory in order, then among the shipped ones
//! (`rulesets/halasi/standard.yaml`). The name is a bare name, never a path: a ruleset or
//! a record names a file, the library locates it. Each file is read and parsed once per
//! library (the command line has one), by the game module's own pure parser.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use super::library::Library;
use super::{is_name, Schemas};
use crate::quote::quote;
use crate::ruleset::error::{suggest, RulesetError};
use crate::ruleset::schema::{DataLoad, Kind, Schema, SettingSpec};
use crate::ruleset::{shipped, Data, Origin, Ruleset};

/// A data setting's declaration, taken from its [`Kind::Data`].
#[derive(Copy, Clone)]
struct DataKind {
    folder: &'static str,
    ext: &'static str,
    load: DataLoad,
    /// The setting's default, a name to show as an example.
    example: &'static str,
}

impl DataKind {
    fn of(spec: &SettingSpec) -> Option<DataKind> {
        match spec.kind {
            Kind::Data { folder, ext, load } => Some(DataKind {
                folder,
                ext,
                load,
                example: spec.default,
            }),
            _ => None,
        }
    }

    fn display(&self, (name, path): &Source) -> String {
        match path {
            Some(p) => p.display().to_string(),
            None => shipped::data_display_path(self.folder, name, self.ext),
        }
    }
}

/// One data file available: its name (the file stem) and where it is (`None`: shipped).
type Source = (String, Option<PathBuf>);

/// Where an error about a setting goes: a file as displayed, a line and a column.
pub(super) type Place = (String, u32, u32);

impl Library {
    /// The data files `FOLDER/*.EXT`: the directories' in order, then the shipped ones.
    /// With `shadowed`, every file; else each name once, where it is found first.
    fn data_sources(&self, kind: DataKind, shadowed: bool) -> Vec<Source> {
        let mut out: Vec<Source> = Vec::new();
        let push = |out: &mut Vec<Source>, name: String, path: Option<PathBuf>| {
            if shadowed || !out.iter().any(|(n, _)| *n == name) {
                out.push((name, path));
            }
        };
        for dir in self.dirs() {
            for (name, path) in super::library::files_in(&dir.join(kind.folder), kind.ext) {
                push(&mut out, name, path);
            }
        }
        for name in shipped::data_names(kind.folder, kind.ext) {
            push(&mut out, name.to_string(), None);
        }
        out
    }

    /// Where the data file `name` is found first. Only a bare name is looked up.
    fn find_data(&self, kind: DataKind, name: &str) -> Option<Source> {
        if !is_name(name) {
            return None;
        }
        for dir in self.dirs() {
            let path = dir.join(kind.folder).join(format!("{name}.{}", kind.ext));
            if path.is_file() {
                return Some((name.to_string(), Some(path)));
            }
        }
        shipped::data(kind.folder, name, kind.ext).map(|_| (name.to_string(), None))
    }

    /// Reads and parses one data file, once per library.
    fn parse_data(&self, kind: DataKind, source: &Source) -> Result<Data, RulesetError> {
        let display = kind.display(source);
        let (name, path) = source;
        let cached = self
            .data
            .0
            .lock()
            .ok()
            .and_then(|m| m.get(&display).cloned());
        let parsed = match cached {
            Some(parsed) => parsed,
            None => {
                let text: Cow<'static, str> = match path {
                    Some(p) => {
                        // `DIR/FOLDER/NAME.EXT`: it must be inside `DIR`.
                        let dir = p.parent().and_then(Path::parent).unwrap_or(Path::new("."));
                        let real = super::library::inside(dir, p)?;
                        Cow::Owned(std::fs::read_to_string(real).map_err(|e| {
                            RulesetError::new(&display, 0, 0, format!("cannot read the file: {e}"))
                        })?)
                    }
                    None => Cow::Borrowed(
                        shipped::data(kind.folder, name, kind.ext).unwrap_or_default(),
                    ),
                };
                let parsed = (kind.load)(name, &text);
                if let Ok(mut m) = self.data.0.lock() {
                    m.insert(display.clone(), parsed.clone());
                }
                parsed
            }
        };
        match parsed {
            Ok(value) => Ok(Data {
                name: name.clone(),
                file: display,
                value,
            }),
            Err(e) => Err(RulesetError::new(&display, e.line, e.column, e.message)),
        }
    }

    /// Loads the file of every data setting of `ruleset` ([`Kind::Data`]) that is not
    /// loaded for its current value: after [`apply_overrides`](crate::ruleset::apply_overrides),
    /// the step that makes the ruleset whole again. ([`Library::load`] and
    /// [`Library::load_file`] do it themselves.) Every error found: an unknown name
    /// (with a suggestion among the files found), placed where the setting was set; a
    /// file that does not parse, placed in that file.
    pub fn load_data(
        &self,
        ruleset: &mut Ruleset,
        schema: &Schema,
    ) -> Result<(), Vec<RulesetError>> {
        self.load_data_placed(ruleset, schema, &|_| None)
    }

    /// [`Library::load_data`], with `place` giving a better place than the setting's
    /// origin for an error about a setting (the value's own position in its file).
    pub(super) fn load_data_placed(
        &self,
        ruleset: &mut Ruleset,
        schema: &Schema,
        place: &dyn Fn(&str) -> Option<Place>,
    ) -> Result<(), Vec<RulesetError>> {
        let mut errors = Vec::new();
        for spec in schema.settings {
            let Some(kind) = DataKind::of(spec) else {
                continue;
            };
            let Some(setting) = ruleset.settings.get(spec.key) else {
                continue;
            };
            let name = setting.value.as_word().unwrap_or_default().to_string();
            if ruleset.data.get(spec.key).is_some_and(|d| d.name == name) {
                continue;
            }
            ruleset.data.remove(spec.key);
            let at = || {
                let (file, line, column) =
                    place(spec.key).unwrap_or_else(|| match &setting.origin {
                        Origin::Ruleset(loc) | Origin::Options(loc) | Origin::SeatsTag(loc) => {
                            (loc.file.clone(), loc.line, loc.column)
                        }
                        Origin::CommandLine => ("--option".to_string(), 1, 1),
                        Origin::Default => (format!("the {} module", schema.game), 0, 0),
                    });
                move |message: String| RulesetError::new(&file, line, column, message)
            };
            // The value passed the schema check, so it is a bare name; the library
            // never builds a path from anything else.
            if !is_name(&name) {
                errors.push(at()(format!(
                    "`{}` takes the bare name of a `{}/NAME.{}` file, not `{}`",
                    spec.key,
                    kind.folder,
                    kind.ext,
                    quote(&setting.value.to_string())
                )));
                continue;
            }
            let Some(source) = self.find_data(kind, &name) else {
                let known = self.data_sources(kind, false);
                errors.push(
                    at()(format!(
                        "`{}` names `{name}`, but there is no `{}/{name}.{}` on the ruleset \
                         search path",
                        spec.key,
                        kind.folder,
                        kind.ext,
                        name = quote(&name)
                    ))
                    .with_suggestion(suggest(&name, known.iter().map(|(n, _)| n.as_str()))),
                );
                continue;
            };
            match self.parse_data(kind, &source) {
                Ok(data) => {
                    ruleset.data.insert(spec.key.to_string(), data);
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// For `referee rules --check`: every data file of every data setting of `schemas`,
    /// in the directories (shadowed ones too) and shipped, must parse, and its name be
    /// one a setting can give. Every error found.
    pub(super) fn check_data(&self, schemas: Schemas<'_>) -> Vec<RulesetError> {
        let mut kinds: Vec<DataKind> = Vec::new();
        for spec in schemas.iter().flat_map(|s| s.settings) {
            if let Some(kind) = DataKind::of(spec) {
                if !kinds
                    .iter()
                    .any(|k| (k.folder, k.ext) == (kind.folder, kind.ext))
                {
                    kinds.push(kind);
                }
            }
        }
        let mut errors = Vec::new();
        for kind in kinds {
            for source in self.data_sources(kind, true) {
                if !is_name(&source.0) {
                    errors.push(RulesetError::new(
                        &kind.display(&source),
                        0,
                        0,
                        format!(
                            "`{}` is not a name a setting can give (lowercase letters, digits \
                             and hyphens, like `{}`), so no ruleset can use this file",
                            quote(&source.0),
                            kind.example
                        ),
                    ));
                    continue;
                }
                if let Err(e) = self.parse_data(kind, &source) {
                    errors.push(e);
                }
            }
        }
        errors
    }
}

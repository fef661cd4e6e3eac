//! The library's entry points: loading a ruleset by name or by path, listing the
//! available rulesets, and checking them all.

use std::path::Path;

use super::library::{check_name, read_file, Library, RulesetInfo};
use super::resolve::{check_defaults, header_of};
use super::Schemas;
use crate::ruleset::error::RulesetError;
use crate::ruleset::shipped;
use crate::ruleset::Ruleset;

impl Library {
    /// Loads the ruleset `name` (checked with [`check_name`]) with its `extends` chain,
    /// checked against its game's schema. Returns the first error; [`Library::check_all`]
    /// lists them all.
    pub fn load(&self, name: &str, schemas: Schemas<'_>) -> Result<Ruleset, RulesetError> {
        self.load_all_errors(name, schemas)
            .map_err(|mut errors| errors.swap_remove(0))
    }

    /// [`Library::load`], with every error found.
    pub fn load_all_errors(
        &self,
        name: &str,
        schemas: Schemas<'_>,
    ) -> Result<Ruleset, Vec<RulesetError>> {
        check_name(name).map_err(|e| vec![e])?;
        match self.find(name).map_err(|e| vec![e])? {
            Some(found) => self.resolve(found, schemas),
            None => Err(vec![self.not_found(name)]),
        }
    }

    /// Loads a ruleset file by path (`--ruleset FILE`); its `extends` resolve through the
    /// library. The file's stem must be the name its `ruleset` line gives.
    pub fn load_file(&self, path: &Path, schemas: Schemas<'_>) -> Result<Ruleset, RulesetError> {
        self.load_file_all_errors(path, schemas)
            .map_err(|mut errors| errors.swap_remove(0))
    }

    /// [`Library::load_file`], with every error found.
    pub fn load_file_all_errors(
        &self,
        path: &Path,
        schemas: Schemas<'_>,
    ) -> Result<Ruleset, Vec<RulesetError>> {
        let found = read_file(path).map_err(|e| vec![e])?;
        self.resolve(found, schemas)
    }

    /// Every available ruleset (shadowed ones once), sorted by name.
    pub fn list(&self) -> Vec<RulesetInfo> {
        let mut out = Vec::new();
        for (name, path) in self.sources() {
            let (file, shipped) = match &path {
                Some(p) => (p.display().to_string(), false),
                None => (shipped::display_path(&name), true),
            };
            let mut info = RulesetInfo {
                name: name.clone(),
                file,
                title: None,
                game: None,
                extends: None,
                shipped,
            };
            if let Ok(found) = self.found_of(&name, &path) {
                let header = header_of(&found);
                info.extends = header.extends.clone();
                info.title = header.title.clone();
                info.game = header.game.clone();
                // A variant: its game and (when it has none) title come from its chain.
                let mut seen = vec![name.clone()];
                let mut next = header.extends;
                while let Some(parent) = next.take() {
                    if seen.contains(&parent) {
                        break;
                    }
                    let Ok(Some(found)) = self.find(&parent) else {
                        break;
                    };
                    let h = header_of(&found);
                    if info.title.is_none() {
                        info.title = h.title;
                    }
                    if h.game.is_some() {
                        info.game = h.game;
                    }
                    seen.push(parent);
                    next = h.extends;
                }
            }
            out.push(info);
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// For `referee rules --check`: loads every available ruleset — each must parse, its
    /// chain resolve, its settings and rule ids pass its game's schema, and a base must
    /// give a text for every rule id — and checks each schema's defaults, and every data
    /// file the schemas' data settings can name (shipped and in the directories, shadowed
    /// ones too). Every error found, each once; empty when all is well.
    pub fn check_all(&self, schemas: Schemas<'_>) -> Vec<RulesetError> {
        let mut errors: Vec<RulesetError> = Vec::new();
        let mut games: Vec<String> = Vec::new();
        for (name, path) in self.sources() {
            let result = self
                .found_of(&name, &path)
                .map_err(|e| vec![e])
                .and_then(|found| self.resolve(found, schemas));
            match result {
                Ok(ruleset) => {
                    if !games.contains(&ruleset.game) {
                        games.push(ruleset.game);
                    }
                }
                Err(es) => {
                    for e in es {
                        if !errors.contains(&e) {
                            errors.push(e);
                        }
                    }
                }
            }
        }
        for game in games {
            if let Some(schema) = super::schema_in(schemas, &game) {
                errors.extend(check_defaults(schema));
            }
        }
        for e in self.check_data(schemas) {
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
        errors
    }
}

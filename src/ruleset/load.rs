//! Finding and loading rulesets: the search path ([`Library`]), `extends` chains, the
//! schema check, and building the effective [`Ruleset`].
//!
//! The ruleset layer sits below the game modules, so it never names them: callers pass a
//! resolver from a game name to its [`Schema`] ([`Schemas`]).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::check::check_value;
use super::error::{suggest, RulesetError};
use super::parse::{parse_file, parse_value_node, Pos, Spanned, Statement, ValueNode};
use super::schema::Schema;
use super::shipped;
use super::{Location, Origin, RuleText, Ruleset, Setting};

/// A game name to its schema (`None` for a game this build does not have).
pub type Schemas<'a> = &'a dyn Fn(&str) -> Option<&'static Schema>;

/// The games of the spec, for suggesting a misspelt `game` line.
const GAMES: &[&str] = &["halatafl", "thaayam", "halves", "halasi"];

/// The environment variable naming extra ruleset directories (a path list, like `PATH`).
pub const ENV_VAR: &str = "REFEREE_RULESETS";

/// Where rulesets are found: directories searched in order (`--rulesets DIR`, then
/// `REFEREE_RULESETS`), then the rulesets shipped in the binary. A name found in an
/// earlier place shadows the later ones.
#[derive(Clone, Debug, Default)]
pub struct Library {
    dirs: Vec<PathBuf>,
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
struct Found {
    /// The name its file gives it (the file stem).
    name: String,
    display: String,
    text: Cow<'static, str>,
    shipped: bool,
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
            "`{name}` is a path; a ruleset is named, not located (expected a bare name \
             like `halatafl-emperor`, without `/`, `\\` or `..`)"
        )));
    }
    if !is_name(name) {
        return Err(RulesetError::general(format!(
            "`{name}` is not a ruleset name; expected lowercase letters, digits and \
             hyphens (like `halatafl-emperor`)"
        )));
    }
    Ok(())
}

/// Kebab-case, as the grammar's `name`.
pub(crate) fn is_name(name: &str) -> bool {
    let mut parts = name.split('-');
    let first_ok = name.starts_with(|c: char| c.is_ascii_lowercase());
    first_ok
        && parts.all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

impl Library {
    /// A library searching `dirs` in order, then the shipped rulesets.
    pub fn new(dirs: Vec<PathBuf>) -> Library {
        Library { dirs }
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

    /// Where a name is found first; `Ok(None)` when nowhere.
    fn find(&self, name: &str) -> Result<Option<Found>, RulesetError> {
        for dir in &self.dirs {
            let path = dir.join(format!("{name}.rules"));
            if path.is_file() {
                return read_file(&path).map(Some);
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
    fn sources(&self) -> Vec<(String, Option<PathBuf>)> {
        let mut out: Vec<(String, Option<PathBuf>)> = Vec::new();
        for dir in &self.dirs {
            let Ok(read) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut here: Vec<(String, Option<PathBuf>)> = read
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "rules") && p.is_file())
                .filter_map(|p| {
                    let stem = p.file_stem()?.to_str()?.to_string();
                    Some((stem, Some(p)))
                })
                .collect();
            here.sort();
            for (name, path) in here {
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

    fn found_of(&self, name: &str, path: &Option<PathBuf>) -> Result<Found, RulesetError> {
        match path {
            Some(p) => read_file(p),
            None => Ok(Found {
                name: name.to_string(),
                display: shipped::display_path(name),
                text: Cow::Borrowed(shipped::get(name).unwrap_or_default()),
                shipped: true,
            }),
        }
    }

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

    fn not_found(&self, name: &str) -> RulesetError {
        let names = self.names();
        RulesetError::general(format!("no ruleset named `{name}`"))
            .with_suggestion(suggest(name, names.iter().map(String::as_str)))
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
    /// give a text for every rule id — and checks each schema's defaults. Every error
    /// found, each once; empty when all is well.
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
            if let Some(schema) = schemas(&game) {
                errors.extend(check_defaults(schema));
            }
        }
        errors
    }

    /// Follows `found`'s chain to its base and builds the ruleset.
    fn resolve(&self, found: Found, schemas: Schemas<'_>) -> Result<Ruleset, Vec<RulesetError>> {
        let mut errors = Vec::new();
        let mut chain: Vec<FileRules> = Vec::new();
        let mut current = found;
        loop {
            let file = analyze(&current, &mut errors);
            let parent = file.extends.clone();
            let display = file.display.clone();
            chain.push(file);
            let Some(parent) = parent else {
                break;
            };
            if chain.iter().any(|f| f.name == parent.node) {
                let mut names: Vec<&str> = chain.iter().map(|f| f.name.as_str()).collect();
                names.push(&parent.node);
                errors.push(RulesetError::new(
                    &display,
                    parent.pos.line,
                    parent.pos.column,
                    format!(
                        "`extends {}` makes a cycle: {}; a chain must end at a base ruleset \
                         (one with `game`)",
                        parent.node,
                        names.join(" → ")
                    ),
                ));
                return Err(errors);
            }
            match self.find(&parent.node) {
                Ok(Some(next)) => current = next,
                Ok(None) => {
                    let names = self.names();
                    errors.push(
                        RulesetError::new(
                            &display,
                            parent.pos.line,
                            parent.pos.column,
                            format!("no ruleset named `{}` to extend", parent.node),
                        )
                        .with_suggestion(suggest(&parent.node, names.iter().map(String::as_str))),
                    );
                    return Err(errors);
                }
                Err(e) => {
                    errors.push(e);
                    return Err(errors);
                }
            }
        }

        let base = chain.last().expect("a chain has its first file");
        let Some(game) = base.game.clone() else {
            // `analyze` reported the missing `game`/`extends` already.
            return Err(errors);
        };
        let Some(schema) = schemas(&game.node) else {
            errors.push(
                RulesetError::new(
                    &base.display,
                    game.pos.line,
                    game.pos.column,
                    format!("unknown game `{}`; expected {}", game.node, {
                        let known: Vec<&str> = GAMES
                            .iter()
                            .copied()
                            .filter(|g| schemas(g).is_some())
                            .collect();
                        super::error::one_of(known)
                    }),
                )
                .with_suggestion(suggest(
                    &game.node,
                    GAMES.iter().copied().filter(|g| schemas(g).is_some()),
                )),
            );
            return Err(errors);
        };

        for file in &chain {
            check_against(file, schema, &mut errors);
        }
        for id in schema.rules {
            if !base.rules.iter().any(|(r, _)| r.node == *id) {
                errors.push(RulesetError::new(
                    &base.display,
                    game.pos.line,
                    game.pos.column,
                    format!(
                        "the base ruleset `{}` gives no text for rule `{id}`; a base ruleset \
                         needs `rule {id} \"…\"` for every rule of `{}`",
                        base.name, schema.game
                    ),
                ));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }

        let mut settings = BTreeMap::new();
        for spec in schema.settings {
            let value = parse_value_node(spec.default)
                .map_err(|e| {
                    vec![RulesetError::general(format!(
                        "the {} module's default for `{}` does not parse: {e}",
                        schema.game, spec.key
                    ))]
                })?
                .to_value();
            settings.insert(
                spec.key.to_string(),
                Setting {
                    value,
                    origin: Origin::Default,
                },
            );
        }
        let mut rules = BTreeMap::new();
        let mut title = None;
        let mut source = None;
        for file in chain.iter().rev() {
            for (key, value, pos) in &file.sets {
                settings.insert(
                    key.node.clone(),
                    Setting {
                        value: value.to_value(),
                        origin: Origin::Ruleset(file.location(*pos)),
                    },
                );
            }
            for (id, text) in &file.rules {
                rules.insert(
                    id.node.clone(),
                    RuleText {
                        text: text.node.clone(),
                        location: file.location(text.pos),
                    },
                );
            }
            if file.title.is_some() {
                title = file.title.clone();
            }
            if file.source.is_some() {
                source = file.source.clone();
            }
        }
        let first = &chain[0];
        Ok(Ruleset {
            name: first.name.clone(),
            game: game.node,
            title,
            source,
            file: first.display.clone(),
            chain: chain.iter().map(|f| f.name.clone()).collect(),
            settings,
            rules,
        })
    }
}

/// The module's defaults, each parsed and checked against its own kind.
fn check_defaults(schema: &Schema) -> Vec<RulesetError> {
    let file = format!("the {} module", schema.game);
    let mut errors = Vec::new();
    for spec in schema.settings {
        match parse_value_node(spec.default) {
            Err(e) => errors.push(RulesetError::new(
                &file,
                0,
                0,
                format!("the default of `{}` does not parse: {e}", spec.key),
            )),
            Ok(v) => {
                if let Err(p) = check_value(spec, &v) {
                    errors.push(RulesetError::new(
                        &file,
                        0,
                        0,
                        format!("the default of `{}` is wrong: {}", spec.key, p.message),
                    ));
                }
            }
        }
    }
    errors
}

fn read_file(path: &Path) -> Result<Found, RulesetError> {
    let display = path.display().to_string();
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| RulesetError::new(&display, 0, 0, format!("cannot read the file: {e}")))?;
    Ok(Found {
        name,
        display,
        text: Cow::Owned(text),
        shipped: false,
    })
}

/// One file's statements, sorted out and checked for structure (not yet against a
/// schema).
struct FileRules {
    /// The name the file's stem gives (it must equal the `ruleset` line's).
    name: String,
    display: String,
    game: Option<Spanned<String>>,
    extends: Option<Spanned<String>>,
    title: Option<String>,
    source: Option<String>,
    sets: Vec<(Spanned<String>, ValueNode, Pos)>,
    rules: Vec<(Spanned<String>, Spanned<String>)>,
}

impl FileRules {
    fn location(&self, pos: Pos) -> Location {
        Location {
            file: self.display.clone(),
            line: pos.line,
            column: pos.column,
        }
    }
}

/// The header of a file for listing, errors ignored.
struct Header {
    title: Option<String>,
    game: Option<String>,
    extends: Option<String>,
}

fn header_of(found: &Found) -> Header {
    let mut errors = Vec::new();
    let f = analyze(found, &mut errors);
    Header {
        title: f.title,
        game: f.game.map(|g| g.node),
        extends: f.extends.map(|e| e.node),
    }
}

/// Sorts a file's statements and checks its structure: `ruleset NAME` first and equal
/// to the file name, exactly one of `game` and `extends`, no statement or key twice.
fn analyze(found: &Found, errors: &mut Vec<RulesetError>) -> FileRules {
    let display = found.display.clone();
    let parsed = parse_file(&found.text, &display);
    let first_syntax_error_line = parsed.errors.first().map(|e| e.line);
    errors.extend(parsed.errors);
    let mut file = FileRules {
        name: found.name.clone(),
        display: display.clone(),
        game: None,
        extends: None,
        title: None,
        source: None,
        sets: Vec::new(),
        rules: Vec::new(),
    };
    let err =
        |pos: Pos, message: String| RulesetError::new(&display, pos.line, pos.column, message);
    let mut ruleset_pos: Option<Pos> = None;
    let mut title_pos: Option<Pos> = None;
    let mut source_pos: Option<Pos> = None;
    let mut set_pos: BTreeMap<String, Pos> = BTreeMap::new();
    let mut rule_pos: BTreeMap<String, Pos> = BTreeMap::new();
    let twice = |what: &str, first: Pos| {
        format!(
            "{what} given twice in this file (first at line {}); a file gives it once",
            first.line
        )
    };
    let key_twice = |key: &str, first: Pos| {
        format!(
            "the setting `{key}` is set twice in this file (first at line {}); a key is set \
             once per file",
            first.line
        )
    };
    let rule_twice = |id: &str, first: Pos| {
        format!(
            "rule `{id}` has a text twice in this file (first at line {})",
            first.line
        )
    };
    for (i, st) in parsed.statements.iter().enumerate() {
        let pos = st.pos;
        if let Statement::Ruleset(name) = &st.statement {
            if let Some(first) = ruleset_pos {
                errors.push(err(pos, twice("`ruleset`", first)));
                continue;
            }
            ruleset_pos = Some(pos);
            if i != 0 {
                errors.push(err(
                    pos,
                    "`ruleset NAME` must be the first statement".into(),
                ));
            }
            if name.node != found.name {
                let message = if found.shipped {
                    format!(
                        "the file is `{}` but says `ruleset {}`; the name must match the file \
                         name",
                        display, name.node
                    )
                } else {
                    format!(
                        "the file is named `{}.rules` but says `ruleset {}`; the name must \
                         match the file name",
                        found.name, name.node
                    )
                };
                errors.push(err(name.pos, message));
            }
            continue;
        }
        if i == 0 && ruleset_pos.is_none() && first_syntax_error_line.is_none_or(|l| l > pos.line) {
            errors.push(err(
                pos,
                format!(
                    "expected `ruleset {}` as the first statement, found `{}`",
                    found.name,
                    st.statement.keyword()
                ),
            ));
        }
        match &st.statement {
            Statement::Ruleset(_) => unreachable!("handled above"),
            Statement::Game(g) => {
                if let Some(first) = &file.game {
                    errors.push(err(pos, twice("`game`", first.pos)));
                } else if file.extends.is_some() {
                    errors.push(err(
                        pos,
                        "a ruleset has `game` (a base) or `extends` (a variant), not both".into(),
                    ));
                } else {
                    file.game = Some(g.clone());
                }
            }
            Statement::Extends(e) => {
                if let Some(first) = &file.extends {
                    errors.push(err(pos, twice("`extends`", first.pos)));
                } else if file.game.is_some() {
                    errors.push(err(
                        pos,
                        "a ruleset has `game` (a base) or `extends` (a variant), not both".into(),
                    ));
                } else {
                    file.extends = Some(e.clone());
                }
            }
            Statement::Title(t) => {
                if let Some(first) = title_pos {
                    errors.push(err(pos, twice("`title`", first)));
                } else {
                    title_pos = Some(pos);
                    file.title = Some(t.node.clone());
                }
            }
            Statement::Source(s) => {
                if let Some(first) = source_pos {
                    errors.push(err(pos, twice("`source`", first)));
                } else {
                    source_pos = Some(pos);
                    file.source = Some(s.node.clone());
                }
            }
            Statement::Set { key, value } => {
                if let Some(first) = set_pos.get(&key.node) {
                    errors.push(err(key.pos, key_twice(&key.node, *first)));
                } else {
                    set_pos.insert(key.node.clone(), pos);
                    file.sets.push((key.clone(), value.clone(), pos));
                }
            }
            Statement::Rule { id, text } => {
                if let Some(first) = rule_pos.get(&id.node) {
                    errors.push(err(id.pos, rule_twice(&id.node, *first)));
                } else {
                    rule_pos.insert(id.node.clone(), pos);
                    file.rules.push((id.clone(), text.clone()));
                }
            }
        }
    }
    if parsed.statements.is_empty() && first_syntax_error_line.is_none() {
        errors.push(err(
            Pos { line: 1, column: 1 },
            format!("the file is empty; expected `ruleset {}`", found.name),
        ));
    } else if file.game.is_none() && file.extends.is_none() && first_syntax_error_line.is_none() {
        errors.push(err(
            ruleset_pos.unwrap_or(Pos { line: 1, column: 1 }),
            "a ruleset needs `game GAME` (a base ruleset) or `extends NAME` (a variant)".into(),
        ));
    }
    file
}

/// Checks a file's `set` keys and values and its rule ids against the schema.
fn check_against(file: &FileRules, schema: &Schema, errors: &mut Vec<RulesetError>) {
    for (key, value, _) in &file.sets {
        match schema.setting(&key.node) {
            None => errors.push(
                RulesetError::new(
                    &file.display,
                    key.pos.line,
                    key.pos.column,
                    format!("unknown setting `{}` for `{}`", key.node, schema.game),
                )
                .with_suggestion(suggest(&key.node, schema.settings.iter().map(|s| s.key))),
            ),
            Some(spec) => {
                if let Err(p) = check_value(spec, value) {
                    errors.push(p.into_error(&file.display));
                }
            }
        }
    }
    for (id, _) in &file.rules {
        if !schema.rules.contains(&id.node.as_str()) {
            errors.push(
                RulesetError::new(
                    &file.display,
                    id.pos.line,
                    id.pos.column,
                    format!("unknown rule id `{}` for `{}`", id.node, schema.game),
                )
                .with_suggestion(suggest(&id.node, schema.rules.iter().copied())),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::testing::{schemas, HALATAFL};
    use crate::ruleset::Value;
    use std::fs;
    use tempfile::TempDir;

    const SHIPPED_HALATAFL: &[&str] = &[
        "halatafl",
        "halatafl-emperor",
        "halatafl-free",
        "halatafl-orthogonal",
        "halatafl-short",
        "halatafl-thrones",
    ];

    fn shipped() -> Library {
        Library::new(vec![])
    }

    /// A directory holding the given `(name, text)` files as `NAME.rules`.
    fn dir_with(files: &[(&str, &str)]) -> TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for (name, text) in files {
            fs::write(dir.path().join(format!("{name}.rules")), text).expect("write");
        }
        dir
    }

    /// A complete base ruleset named `name`, with `extra` lines after `game`.
    fn base(name: &str, extra: &str) -> String {
        let mut s = format!("ruleset {name}\ngame halatafl\n{extra}");
        for id in HALATAFL.rules {
            s.push_str(&format!("rule {id} \"The text of {id}.\"\n"));
        }
        s
    }

    fn errors_of(lib: &Library, name: &str) -> Vec<String> {
        lib.load_all_errors(name, &schemas)
            .expect_err(name)
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    fn loc(file: &str, line: u32, column: u32) -> Location {
        Location {
            file: file.into(),
            line,
            column,
        }
    }

    #[test]
    fn every_shipped_ruleset_loads_and_the_check_is_clean() {
        let lib = shipped();
        assert_eq!(lib.check_all(&schemas), vec![]);
        for name in SHIPPED_HALATAFL {
            let r = lib.load(name, &schemas).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.game, "halatafl");
            assert_eq!(r.file, format!("rulesets/{name}.rules"));
            assert_eq!(r.source.as_deref(), Some("halatafl.txt"));
            assert!(r.title.is_some());
            for id in HALATAFL.rules {
                assert!(
                    r.rule(id).is_some_and(|t| !t.text.is_empty()),
                    "{name}: {id}"
                );
            }
        }
        let listed: Vec<(String, Option<String>)> = lib
            .list()
            .into_iter()
            .filter(|i| i.name.starts_with("halatafl"))
            .map(|i| (i.name, i.game))
            .collect();
        let expected: Vec<(String, Option<String>)> = SHIPPED_HALATAFL
            .iter()
            .map(|n| (n.to_string(), Some("halatafl".to_string())))
            .collect();
        assert_eq!(listed, expected);
    }

    #[test]
    fn the_base_halatafl_sets_every_setting_explicitly() {
        let r = shipped().load("halatafl", &schemas).unwrap();
        assert_eq!(r.chain, vec!["halatafl"]);
        for spec in crate::ruleset::testing::HALATAFL.settings {
            let s = &r.settings[spec.key];
            assert!(
                matches!(&s.origin, Origin::Ruleset(l) if l.file == "rulesets/halatafl.rules"),
                "{} is set in the file",
                spec.key
            );
            assert_eq!(
                s.value.to_string(),
                spec.default,
                "{} is the default",
                spec.key
            );
        }
    }

    #[test]
    fn a_rule_cites_where_its_setting_was_set() {
        let r = shipped().load("halatafl-short", &schemas).unwrap();
        let schema = &crate::ruleset::testing::HALATAFL;
        let Some(Origin::Ruleset(l)) = r.rule_origin(schema, "win-reduce-to") else {
            panic!("win is set in a file")
        };
        assert_eq!(l.file, "rulesets/halatafl-short.rules");
        assert_eq!(
            l.to_string(),
            format!("rulesets/halatafl-short.rules:{}", l.line)
        );
        let Some(Origin::Ruleset(l)) = r.rule_origin(schema, "huff") else {
            panic!("capture is set in the base")
        };
        assert_eq!(l.file, "rulesets/halatafl.rules");
        assert_eq!(r.rule_origin(schema, "multi-jump"), None, "always applies");
    }

    #[test]
    fn the_variants_set_what_the_spec_says() {
        let lib = shipped();
        let value = |name: &str, key: &str| {
            lib.load(name, &schemas)
                .unwrap()
                .value(key)
                .unwrap()
                .to_string()
        };
        assert_eq!(value("halatafl-emperor", "emperor"), "true");
        assert_eq!(value("halatafl-short", "win"), "reduce-to(5)");
        assert_eq!(value("halatafl-thrones", "promotion"), "false");
        assert_eq!(value("halatafl-thrones", "win"), "thrones(1)");
        assert_eq!(value("halatafl-orthogonal", "diagonals"), "none");
        assert_eq!(value("halatafl-free", "men"), "any");
        assert_eq!(value("halatafl-free", "diagonals"), "main", "inherited");
    }

    #[test]
    fn a_variant_overrides_settings_and_texts_with_their_origins() {
        let lib = shipped();
        let r = lib.load("halatafl-emperor", &schemas).unwrap();
        assert_eq!(r.name, "halatafl-emperor");
        assert_eq!(r.chain, vec!["halatafl-emperor", "halatafl"]);
        assert_eq!(r.title.as_deref(), Some("Halatafl with emperors"));
        assert_eq!(r.value("emperor"), Some(&Value::Bool(true)));
        let Some(Origin::Ruleset(l)) = r.origin("emperor") else {
            panic!("set in a file")
        };
        assert_eq!(l.file, "rulesets/halatafl-emperor.rules");
        let text = shipped::get("halatafl-emperor").unwrap();
        assert!(text
            .lines()
            .nth(l.line as usize - 1)
            .unwrap()
            .starts_with("set emperor = true"));
        let Some(Origin::Ruleset(l)) = r.origin("diagonals") else {
            panic!("set in the base")
        };
        assert_eq!(l.file, "rulesets/halatafl.rules");
        assert_eq!(
            r.rule("emperor-move").unwrap().location.file,
            "rulesets/halatafl-emperor.rules"
        );
        assert_eq!(
            r.rule("step").unwrap().location.file,
            "rulesets/halatafl.rules"
        );

        // A chain of three in a directory, with exact positions.
        let dir = dir_with(&[
            ("house", &base("house", "set emperor = true\nset win = thrones(2)\n")),
            ("house-mid", "ruleset house-mid\nextends house\nset win = reduce-to(3)\nrule huff \"Mid huff.\"\ntitle \"Mid\"\n"),
            ("house-top", "# top\nruleset house-top\nextends house-mid\n  set emperor = false\nrule step \"Top step.\"\n"),
        ]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let r = lib.load("house-top", &schemas).unwrap();
        let file = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
        assert_eq!(r.file, file("house-top"));
        assert_eq!(r.chain, vec!["house-top", "house-mid", "house"]);
        assert_eq!(
            r.title.as_deref(),
            Some("Mid"),
            "inherited from the nearest"
        );
        assert_eq!(r.value("emperor"), Some(&Value::Bool(false)));
        assert_eq!(
            r.origin("emperor"),
            Some(&Origin::Ruleset(loc(&file("house-top"), 4, 3)))
        );
        assert_eq!(r.value("win").unwrap().to_string(), "reduce-to(3)");
        assert_eq!(
            r.origin("win"),
            Some(&Origin::Ruleset(loc(&file("house-mid"), 3, 1)))
        );
        assert_eq!(r.origin("men"), Some(&Origin::Default), "nobody sets it");
        assert_eq!(r.value("men").unwrap().to_string(), "forward-sideways");
        assert_eq!(r.rule("step").unwrap().text, "Top step.");
        assert_eq!(
            r.rule("step").unwrap().location,
            loc(&file("house-top"), 5, 11)
        );
        assert_eq!(r.rule("huff").unwrap().text, "Mid huff.");
        assert_eq!(
            r.rule("huff").unwrap().location,
            loc(&file("house-mid"), 4, 11)
        );
        assert_eq!(r.rule("jump").unwrap().text, "The text of jump.");
        assert_eq!(r.rule("jump").unwrap().location.file, file("house"));
    }

    #[test]
    fn schema_errors_in_a_file() {
        let dir = dir_with(&[(
            "bad",
            &base(
                "bad",
                "set free-edge = 1\nset emperor = 3\nset quiet-limit = 20000\nset win = reduce-to(x)\n\
                 set capture = compulsory-hufff\nset emperor = true\nrule huf \"x\"\n",
            ),
        )]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let f = dir.path().join("bad.rules").display().to_string();
        assert_eq!(
            errors_of(&lib, "bad"),
            vec![
                format!(
                    "{f}:8:5: the setting `emperor` is set twice in this file (first at line \
                     4); a key is set once per file"
                ),
                format!("{f}:3:5: unknown setting `free-edge` for `halatafl`"),
                format!("{f}:4:15: `emperor` takes `true` or `false`, not `3`"),
                format!("{f}:5:19: `quiet-limit` must be from 0 to 10000, not 20000"),
                format!("{f}:6:21: `reduce-to` takes an integer from 0 to 21, not `x`"),
                format!(
                    "{f}:7:15: unknown value `compulsory-hufff` for `capture`; expected \
                     `compulsory-huff`, `compulsory` or `optional`; did you mean \
                     `compulsory-huff`?"
                ),
                format!("{f}:9:6: unknown rule id `huf` for `halatafl`; did you mean `huff`?"),
            ]
        );
        // `load` gives the first of them.
        assert_eq!(
            lib.load("bad", &schemas).unwrap_err().to_string(),
            errors_of(&lib, "bad")[0]
        );
    }

    #[test]
    fn an_unknown_key_gets_a_suggestion() {
        let dir = dir_with(&[("k", &base("k", "set diagonal = main\n"))]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let e = lib.load("k", &schemas).unwrap_err();
        assert_eq!((e.line, e.column), (3, 5));
        assert_eq!(e.message, "unknown setting `diagonal` for `halatafl`");
        assert_eq!(e.suggestion.as_deref(), Some("diagonals"));
    }

    #[test]
    fn structure_errors() {
        let dir = dir_with(&[
            ("named", &base("other", "")),
            ("neither", "ruleset neither\ntitle \"x\"\n"),
            ("both", &base("both", "extends named\n")),
            ("late", "title \"x\"\nruleset late\nextends halatafl\n"),
            ("twice", "ruleset twice\nextends halatafl\ntitle \"a\"\ntitle \"b\"\nrule step \"a\"\nrule step \"b\"\n"),
            ("empty", "# nothing here\n"),
            ("game", &base("game", "").replace("game halatafl", "game halatafel")),
        ]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let f = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
        assert_eq!(
            errors_of(&lib, "named"),
            vec![format!(
                "{}:1:9: the file is named `named.rules` but says `ruleset other`; the name \
                 must match the file name",
                f("named")
            )]
        );
        assert_eq!(
            errors_of(&lib, "neither"),
            vec![format!(
                "{}:1:1: a ruleset needs `game GAME` (a base ruleset) or `extends NAME` (a \
                 variant)",
                f("neither")
            )]
        );
        assert_eq!(
            errors_of(&lib, "both"),
            vec![format!(
                "{}:3:1: a ruleset has `game` (a base) or `extends` (a variant), not both",
                f("both")
            )]
        );
        assert_eq!(
            errors_of(&lib, "late"),
            vec![
                format!(
                    "{}:1:1: expected `ruleset late` as the first statement, found `title`",
                    f("late")
                ),
                format!(
                    "{}:2:1: `ruleset NAME` must be the first statement",
                    f("late")
                ),
            ]
        );
        assert_eq!(
            errors_of(&lib, "twice"),
            vec![
                format!(
                    "{}:4:1: `title` given twice in this file (first at line 3); a file gives \
                     it once",
                    f("twice")
                ),
                format!(
                    "{}:6:6: rule `step` has a text twice in this file (first at line 5)",
                    f("twice")
                ),
            ]
        );
        assert_eq!(
            errors_of(&lib, "empty"),
            vec![format!(
                "{}:1:1: the file is empty; expected `ruleset empty`",
                f("empty")
            )]
        );
        assert_eq!(
            errors_of(&lib, "game"),
            vec![format!(
                "{}:2:6: unknown game `halatafel`; expected `halatafl`, `thaayam`, `halves` or `halasi`; did you mean `halatafl`?",
                f("game")
            )]
        );
    }

    #[test]
    fn syntax_errors_are_reported_with_the_file() {
        let dir = dir_with(&[(
            "syn",
            "ruleset syn\nextends halatafl\nset win == 3\nset x = [a\n",
        )]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let f = dir.path().join("syn.rules").display().to_string();
        assert_eq!(
            errors_of(&lib, "syn"),
            vec![
                format!("{f}:3:10: expected a value, found `=`"),
                format!("{f}:4:11: expected `]`, found the end of the line"),
            ]
        );
    }

    #[test]
    fn extends_cycles_and_missing_bases() {
        let dir = dir_with(&[
            ("a", "ruleset a\nextends b\n"),
            ("b", "ruleset b\nextends c\n"),
            ("c", "ruleset c\n  extends a\n"),
            ("me", "ruleset me\nextends me\n"),
            ("lost", "ruleset lost\nextends halatafl-emperer\n"),
            ("gone", "ruleset gone\nextends nowhere-at-all\n"),
        ]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let f = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
        assert_eq!(
            errors_of(&lib, "a"),
            vec![format!(
                "{}:2:11: `extends a` makes a cycle: a → b → c → a; a chain must end at a base \
                 ruleset (one with `game`)",
                f("c")
            )]
        );
        assert_eq!(
            errors_of(&lib, "me"),
            vec![format!(
                "{}:2:9: `extends me` makes a cycle: me → me; a chain must end at a base \
                 ruleset (one with `game`)",
                f("me")
            )]
        );
        let e = lib.load("lost", &schemas).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2:9: no ruleset named `halatafl-emperer` to extend; did you mean \
                 `halatafl-emperor`?",
                f("lost")
            )
        );
        let e = lib.load("gone", &schemas).unwrap_err();
        assert_eq!(e.suggestion, None);
        assert_eq!(e.message, "no ruleset named `nowhere-at-all` to extend");
        // The check lists every broken ruleset of the directory, and the shipped ones
        // are fine.
        let all = lib.check_all(&schemas);
        // The cycle is met from each of its three members, each time at another line.
        assert_eq!(all.len(), 6, "{all:#?}");
        assert!(all.iter().all(|e| !e.file.starts_with("rulesets/")));
    }

    #[test]
    fn names_that_are_paths_are_refused() {
        for name in [
            "",
            "../halatafl",
            "rulesets/halatafl",
            "a\\b",
            "..",
            "x..y",
            "/etc/passwd",
        ] {
            let e = check_name(name).expect_err(name);
            assert_eq!((e.file.as_str(), e.line), ("", 0), "{name}: no location");
            let e = shipped().load(name, &schemas).expect_err(name);
            assert!(
                e.message.contains("is a path") || e.message.contains("empty"),
                "{name}: {e}"
            );
        }
        for name in ["Halatafl", "halatafl.rules", "a b", "-x", "x-"] {
            let e = check_name(name).expect_err(name);
            assert!(e.message.contains("not a ruleset name"), "{name}: {e}");
        }
        assert_eq!(check_name("halatafl-emperor"), Ok(()));
        assert_eq!(check_name("x2-3d"), Ok(()));
        let e = shipped().load("halatafl-emperer", &schemas).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no ruleset named `halatafl-emperer`; did you mean `halatafl-emperor`?"
        );
        assert_eq!(
            e.at("game.txt", 3, 10).to_string(),
            "game.txt:3:10: no ruleset named `halatafl-emperer`; did you mean \
             `halatafl-emperor`?"
        );
    }

    #[test]
    fn a_base_missing_a_rule_text_fails() {
        let text = base("thin", "").replace("rule huff \"The text of huff.\"\n", "");
        let dir = dir_with(&[
            ("thin", &text),
            ("thin-v", "ruleset thin-v\nextends thin\nrule huff \"x\"\n"),
        ]);
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let f = dir.path().join("thin.rules").display().to_string();
        let expected = format!(
            "{f}:2:6: the base ruleset `thin` gives no text for rule `huff`; a base ruleset \
             needs `rule huff \"…\"` for every rule of `halatafl`"
        );
        assert_eq!(errors_of(&lib, "thin"), vec![expected.clone()]);
        // A variant's text does not excuse its base.
        assert_eq!(errors_of(&lib, "thin-v"), vec![expected.clone()]);
        assert_eq!(
            lib.check_all(&schemas),
            vec![lib.load("thin", &schemas).unwrap_err()]
        );
    }

    #[test]
    fn directories_come_first_and_shadow_shipped_rulesets() {
        let house = base(
            "halatafl",
            "title \"House Halatafl\"\nset quiet-limit = 50\n",
        );
        let first = dir_with(&[
            ("halatafl", &house),
            (
                "club",
                "ruleset club\nextends halatafl-emperor\ntitle \"Club\"\n",
            ),
        ]);
        let second = dir_with(&[
            ("club", "ruleset club\nextends nothing\n"),
            ("extra", "ruleset extra\nextends halatafl\n"),
        ]);
        let lib = Library::new(vec![
            first.path().to_path_buf(),
            second.path().to_path_buf(),
        ]);
        // The shipped variant extends the house base, found first.
        let r = lib.load("halatafl-emperor", &schemas).unwrap();
        assert_eq!(r.file, "rulesets/halatafl-emperor.rules");
        assert_eq!(r.value("quiet-limit"), Some(&Value::Int(50)));
        assert_eq!(r.title.as_deref(), Some("Halatafl with emperors"));
        let club = lib.load("club", &schemas).unwrap();
        assert_eq!(club.chain, vec!["club", "halatafl-emperor", "halatafl"]);
        assert_eq!(club.value("emperor"), Some(&Value::Bool(true)));
        let list = lib.list();
        let names: Vec<&str> = list.iter().map(|i| i.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(names, sorted, "sorted, each once");
        let info = |n: &str| list.iter().find(|i| i.name == n).unwrap().clone();
        assert_eq!(
            info("halatafl").file,
            first.path().join("halatafl.rules").display().to_string()
        );
        assert_eq!(info("halatafl").title.as_deref(), Some("House Halatafl"));
        assert!(!info("halatafl").shipped);
        assert_eq!(
            info("club").file,
            first.path().join("club.rules").display().to_string()
        );
        assert_eq!(info("club").game.as_deref(), Some("halatafl"));
        assert_eq!(info("club").extends.as_deref(), Some("halatafl-emperor"));
        assert_eq!(
            info("extra").title.as_deref(),
            Some("House Halatafl"),
            "inherited"
        );
        assert!(info("halatafl-short").shipped);
        assert_eq!(info("halatafl-short").file, "rulesets/halatafl-short.rules");
        assert_eq!(lib.check_all(&schemas), vec![]);
    }

    #[test]
    fn a_file_by_path_extends_through_the_library() {
        let dir = dir_with(&[(
            "mine",
            "ruleset mine\nextends halatafl-short\nset numbering = turns\n",
        )]);
        let path = dir.path().join("mine.rules");
        let r = shipped().load_file(&path, &schemas).unwrap();
        assert_eq!(r.file, path.display().to_string());
        assert_eq!(r.chain, vec!["mine", "halatafl-short", "halatafl"]);
        assert_eq!(r.value("numbering").unwrap().to_string(), "turns");
        assert_eq!(r.value("win").unwrap().to_string(), "reduce-to(5)");
        let missing = dir.path().join("nope.rules");
        let e = shipped().load_file(&missing, &schemas).unwrap_err();
        assert!(e.message.starts_with("cannot read the file"), "{e}");
        assert_eq!(e.file, missing.display().to_string());
    }

    #[test]
    fn from_env_searches_cli_dirs_then_the_variable() {
        let a = dir_with(&[("x", "ruleset x\nextends halatafl\ntitle \"from a\"\n")]);
        let b = dir_with(&[
            ("x", "ruleset x\nextends halatafl\ntitle \"from b\"\n"),
            ("y", "ruleset y\nextends halatafl\n"),
        ]);
        let c = dir_with(&[]);
        let joined = std::env::join_paths([b.path(), c.path()]).unwrap();
        // The only test that touches the variable.
        std::env::set_var(ENV_VAR, &joined);
        let lib = Library::from_env(vec![a.path().to_path_buf()]);
        std::env::remove_var(ENV_VAR);
        assert_eq!(
            lib.dirs(),
            &[
                a.path().to_path_buf(),
                b.path().to_path_buf(),
                c.path().to_path_buf()
            ]
        );
        assert_eq!(
            lib.load("x", &schemas).unwrap().title.as_deref(),
            Some("from a")
        );
        assert!(lib.load("y", &schemas).is_ok());
    }
}

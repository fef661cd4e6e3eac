//! From a file to an effective [`Ruleset`]: each file's statements sorted and checked
//! for structure, the `extends` chain followed to its base, every file checked against
//! the base game's schema, defaults filled in, settings and rule texts merged.

use std::collections::BTreeMap;

use super::library::{Found, Library};
use super::{schema_in, Schemas};
use crate::quote::quote;
use crate::ruleset::check::check_value;
use crate::ruleset::error::{suggest, RulesetError};
use crate::ruleset::parse::{
    parse_file, parse_value_node, Pos, Spanned, Statement, TestNode, ValueNode,
};
use crate::ruleset::schema::Schema;
use crate::ruleset::{
    Condition, Conditional, Location, Origin, RuleText, RuleTexts, Ruleset, Setting, Test,
};

impl Library {
    /// Follows `found`'s chain to its base and builds the ruleset.
    pub(super) fn resolve(
        &self,
        found: Found,
        schemas: Schemas<'_>,
    ) -> Result<Ruleset, Vec<RulesetError>> {
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
                        quote(&parent.node),
                        quote(&names.join(" → "))
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
                            format!("no ruleset named `{}` to extend", quote(&parent.node)),
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
        let Some(schema) = schema_in(schemas, &game.node) else {
            let known = || schemas.iter().map(|s| s.game);
            errors.push(
                RulesetError::new(
                    &base.display,
                    game.pos.line,
                    game.pos.column,
                    format!(
                        "unknown game `{}`; expected {}",
                        quote(&game.node),
                        crate::ruleset::error::one_of(known())
                    ),
                )
                .with_suggestion(suggest(&game.node, known())),
            );
            return Err(errors);
        };

        for file in &chain {
            check_against(file, schema, &mut errors);
        }
        for id in schema.rules {
            if !base
                .rules
                .iter()
                .any(|r| r.id.node == *id && r.when.is_empty())
            {
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
        // The texts are moved out of the files, not copied: a cold start builds the base
        // ruleset's every text.
        let mut rules: BTreeMap<String, RuleText> = BTreeMap::new();
        // Each file's conditional texts, in the order written, the base's first.
        let mut conditional: Vec<Vec<(String, Vec<Test>, RuleText)>> = Vec::new();
        let mut title = None;
        let mut source = None;
        for file in chain.iter_mut().rev() {
            for (key, value, pos) in &file.sets {
                settings.insert(
                    key.node.clone(),
                    Setting {
                        value: value.to_value(),
                        origin: Origin::Ruleset(file.location(*pos)),
                    },
                );
            }
            let mut written = Vec::new();
            for rule in std::mem::take(&mut file.rules) {
                let text = RuleText {
                    text: rule.text.node,
                    location: file.location(rule.text.pos),
                };
                if rule.tests.is_empty() {
                    rules.insert(rule.id.node, text);
                } else {
                    written.push((rule.id.node, rule.tests, text));
                }
            }
            conditional.push(written);
            if file.title.is_some() {
                title = file.title.clone();
            }
            if file.source.is_some() {
                source = file.source.clone();
            }
        }
        // Conditional texts are tried the nearest file first; a text for the same
        // condition in a nearer file replaces the farther one.
        let mut texts: BTreeMap<String, RuleTexts> = BTreeMap::new();
        for (id, when, text) in conditional.into_iter().rev().flatten() {
            if !rules.contains_key(&id) {
                continue;
            }
            let all = texts.entry(id).or_insert_with_key(|id| RuleTexts {
                plain: rules[id].clone(),
                conditional: Vec::new(),
            });
            if !all
                .conditional
                .iter()
                .any(|c| same_condition(&c.when, &when))
            {
                all.conditional.push(Conditional { when, text });
            }
        }
        let first = &chain[0];
        let mut ruleset = Ruleset {
            name: first.name.clone(),
            game: game.node,
            title,
            source,
            file: first.display.clone(),
            chain: chain.iter().map(|f| f.name.clone()).collect(),
            settings,
            rules,
            texts,
            data: BTreeMap::new(),
        };
        ruleset.choose_texts();
        // The data settings' files; an error about a setting points at its value in the
        // nearest file of the chain that sets it.
        let value_at = |key: &str| {
            chain.iter().find_map(|f| {
                f.sets
                    .iter()
                    .find(|(k, _, _)| k.node == key)
                    .map(|(_, value, _)| (f.display.clone(), value.pos.line, value.pos.column))
            })
        };
        self.load_data_placed(&mut ruleset, schema, &value_at)?;
        Ok(ruleset)
    }
}

/// The module's defaults, each parsed and checked against its own kind.
pub(super) fn check_defaults(schema: &Schema) -> Vec<RulesetError> {
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
    rules: Vec<FileRule>,
}

/// A `rule` line: its id, its condition (empty for the plain text) as written and as
/// values, and its text.
struct FileRule {
    id: Spanned<String>,
    when: Vec<TestNode>,
    tests: Vec<Test>,
    text: Spanned<String>,
    pos: Pos,
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

/// Whether two conditions test the same settings for the same values, in any order.
fn same_condition(a: &[Test], b: &[Test]) -> bool {
    a.len() == b.len() && covers(b, a)
}

/// Whether every test of `some` is one of `all`'s.
fn covers(all: &[Test], some: &[Test]) -> bool {
    some.iter().all(|t| all.contains(t))
}

fn tests_of(nodes: &[TestNode]) -> Vec<Test> {
    nodes
        .iter()
        .map(|t| Test {
            key: t.key.node.clone(),
            value: t.value.to_value(),
        })
        .collect()
}

/// The header of a file for listing, errors ignored.
pub(super) struct Header {
    pub(super) title: Option<String>,
    pub(super) game: Option<String>,
    pub(super) extends: Option<String>,
}

pub(super) fn header_of(found: &Found) -> Header {
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
    let no_statements = parsed.statements.is_empty();
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
            "the setting `{}` is set twice in this file (first at line {}); a key is set \
             once per file",
            quote(key),
            first.line
        )
    };
    let rule_twice = |id: &str, first: Pos| {
        format!(
            "rule `{}` has a text twice in this file (first at line {})",
            quote(id),
            first.line
        )
    };
    // The statements are moved into the file's lists: a cold start reads the base
    // ruleset's every line, and copying its texts cost as much as reading them.
    for (i, st) in parsed.statements.into_iter().enumerate() {
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
                        display,
                        quote(&name.node)
                    )
                } else {
                    format!(
                        "the file is named `{}.rules` but says `ruleset {}`; the name must \
                         match the file name",
                        found.name,
                        quote(&name.node)
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
        match st.statement {
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
                    file.game = Some(g);
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
                    file.extends = Some(e);
                }
            }
            Statement::Title(t) => {
                if let Some(first) = title_pos {
                    errors.push(err(pos, twice("`title`", first)));
                } else {
                    title_pos = Some(pos);
                    file.title = Some(t.node);
                }
            }
            Statement::Source(s) => {
                if let Some(first) = source_pos {
                    errors.push(err(pos, twice("`source`", first)));
                } else {
                    source_pos = Some(pos);
                    file.source = Some(s.node);
                }
            }
            Statement::Set { key, value } => {
                if let Some(first) = set_pos.get(&key.node) {
                    errors.push(err(key.pos, key_twice(&key.node, *first)));
                } else {
                    set_pos.insert(key.node.clone(), pos);
                    file.sets.push((key, value, pos));
                }
            }
            Statement::Rule { id, when, text } if when.is_empty() => {
                if let Some(first) = rule_pos.get(&id.node) {
                    errors.push(err(id.pos, rule_twice(&id.node, *first)));
                } else {
                    rule_pos.insert(id.node.clone(), pos);
                    file.rules.push(FileRule {
                        id,
                        when: Vec::new(),
                        tests: Vec::new(),
                        text,
                        pos,
                    });
                }
            }
            Statement::Rule { id, when, text } => {
                let tests = tests_of(&when);
                match condition_problem(&file.rules, &id, &when, &tests, &display) {
                    Some(e) => errors.push(e),
                    None => file.rules.push(FileRule {
                        id,
                        when,
                        tests,
                        text,
                        pos,
                    }),
                }
            }
        }
    }
    if no_statements && first_syntax_error_line.is_none() {
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

/// What is wrong with a conditional text of rule `id` before it joins `earlier`, the
/// file's texts so far: a setting tested twice, the same condition twice, or a condition
/// that an earlier text's holds whenever it does (so this text would never be in force).
fn condition_problem(
    earlier: &[FileRule],
    id: &Spanned<String>,
    when: &[TestNode],
    tests: &[Test],
    display: &str,
) -> Option<RulesetError> {
    for (i, t) in when.iter().enumerate() {
        if when[..i].iter().any(|u| u.key.node == t.key.node) {
            return Some(RulesetError::new(
                display,
                t.key.pos.line,
                t.key.pos.column,
                format!(
                    "`{}` is tested twice in this condition; a setting has one value",
                    quote(&t.key.node)
                ),
            ));
        }
    }
    for first in earlier
        .iter()
        .filter(|r| r.id.node == id.node && !r.when.is_empty())
    {
        let first_tests = &first.tests;
        let message = if same_condition(first_tests, tests) {
            format!(
                "rule `{}` has a text twice in this file {} (first at line {})",
                quote(&id.node),
                Condition(tests),
                first.pos.line
            )
        } else if covers(tests, first_tests) {
            format!(
                "this text of rule `{}` is never in force: the text at line {} ({}) comes \
                 first and holds whenever this one does; write the narrower condition first",
                quote(&id.node),
                first.pos.line,
                Condition(first_tests)
            )
        } else {
            continue;
        };
        return Some(RulesetError::new(
            display,
            id.pos.line,
            id.pos.column,
            message,
        ));
    }
    None
}

/// Checks one setting a file names (a `set` line's, or with `rule` the id of the rule
/// whose condition tests it) and its value against the schema.
fn check_setting(
    file: &FileRules,
    schema: &Schema,
    key: &Spanned<String>,
    value: &ValueNode,
    rule: Option<&str>,
    errors: &mut Vec<RulesetError>,
) {
    match schema.setting(&key.node) {
        None => errors.push(
            RulesetError::new(
                &file.display,
                key.pos.line,
                key.pos.column,
                format!(
                    "unknown setting `{}` for `{}`{}",
                    quote(&key.node),
                    schema.game,
                    // Where it stands, said only in the message: a cold start checks
                    // every condition of the base ruleset.
                    rule.map(|id| format!(" in the condition of rule `{}`", quote(id)))
                        .unwrap_or_default()
                ),
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

/// Checks a file's `set` keys and values and its rule ids against the schema.
fn check_against(file: &FileRules, schema: &Schema, errors: &mut Vec<RulesetError>) {
    for (key, value, _) in &file.sets {
        check_setting(file, schema, key, value, None, errors);
    }
    for rule in &file.rules {
        let id = &rule.id;
        if !schema.rules.contains(&id.node.as_str()) {
            errors.push(
                RulesetError::new(
                    &file.display,
                    id.pos.line,
                    id.pos.column,
                    format!(
                        "unknown rule id `{}` for `{}`",
                        quote(&id.node),
                        schema.game
                    ),
                )
                .with_suggestion(suggest(&id.node, schema.rules.iter().copied())),
            );
        }
        // A condition's settings are checked as `set` lines are.
        for test in &rule.when {
            check_setting(file, schema, &test.key, &test.value, Some(&id.node), errors);
        }
    }
}

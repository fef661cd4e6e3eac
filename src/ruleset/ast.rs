//! The ruleset file as the parser gives it: statements and values with the line and
//! column of every part. Below both readers of a line (`lines` by hand, `parse` by
//! pest).

use super::value::Value;

/// A 1-based line and column (columns count characters).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// Something written at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub pos: Pos,
}

/// A value as written, with the position of every part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueNode {
    pub kind: ValueKind,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Bool(bool),
    Int(i64),
    Word(String),
    Call { name: String, args: Vec<ValueNode> },
    Range(i64, i64),
    List(Vec<ValueNode>),
    Map(Vec<(Spanned<String>, ValueNode)>),
    Str(String),
}

impl ValueNode {
    /// The plain value, positions dropped.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            ValueKind::Bool(b) => Value::Bool(*b),
            ValueKind::Int(i) => Value::Int(*i),
            ValueKind::Word(w) => Value::Word(w.clone()),
            ValueKind::Call { name, args } => Value::Call {
                name: name.clone(),
                args: args.iter().map(ValueNode::to_value).collect(),
            },
            ValueKind::Range(a, b) => Value::Range(*a, *b),
            ValueKind::List(items) => Value::List(items.iter().map(ValueNode::to_value).collect()),
            ValueKind::Map(entries) => Value::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.node.clone(), v.to_value()))
                    .collect(),
            ),
            ValueKind::Str(s) => Value::Str(s.clone()),
        }
    }

    /// The same value moved: `line` replaces line 1, and positions on line 1 are shifted
    /// right by `column - 1` (a value parsed on its own, placed where it was written).
    pub fn shifted(mut self, line: u32, column: u32) -> ValueNode {
        fn shift(pos: &mut Pos, line: u32, column: u32) {
            if pos.line == 1 {
                pos.column += column - 1;
            }
            pos.line += line - 1;
        }
        fn walk(v: &mut ValueNode, line: u32, column: u32) {
            shift(&mut v.pos, line, column);
            match &mut v.kind {
                ValueKind::Call { args: items, .. } | ValueKind::List(items) => {
                    for i in items {
                        walk(i, line, column);
                    }
                }
                ValueKind::Map(entries) => {
                    for (k, v) in entries {
                        shift(&mut k.pos, line, column);
                        walk(v, line, column);
                    }
                }
                _ => {}
            }
        }
        walk(&mut self, line.max(1), column.max(1));
        self
    }
}

/// One statement of a ruleset file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `ruleset NAME`
    Ruleset(Spanned<String>),
    /// `game GAME`
    Game(Spanned<String>),
    /// `extends NAME`
    Extends(Spanned<String>),
    /// `title "…"`
    Title(Spanned<String>),
    /// `source "…"`
    Source(Spanned<String>),
    /// `set KEY = VALUE`
    Set {
        key: Spanned<String>,
        value: ValueNode,
    },
    /// `rule ID "…"`, or `rule ID when KEY = VALUE and … "…"` (`when` not empty): the
    /// text the rule has while every `KEY` has its `VALUE`.
    Rule {
        id: Spanned<String>,
        when: Vec<TestNode>,
        text: Spanned<String>,
    },
}

/// One `KEY = VALUE` of a rule text's condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestNode {
    pub key: Spanned<String>,
    pub value: ValueNode,
}

impl Statement {
    /// The statement's keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            Statement::Ruleset(_) => "ruleset",
            Statement::Game(_) => "game",
            Statement::Extends(_) => "extends",
            Statement::Title(_) => "title",
            Statement::Source(_) => "source",
            Statement::Set { .. } => "set",
            Statement::Rule { .. } => "rule",
        }
    }
}

/// A statement and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatementNode {
    pub statement: Statement,
    pub pos: Pos,
}

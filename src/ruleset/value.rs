//! Setting values as written in a ruleset's `set` line or a record's `Options` tag.

use std::fmt;

/// A setting value. Its `Display` is the ruleset syntax, so it can be written back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    /// A kebab-case word: `main`, `compulsory-huff`.
    Word(String),
    /// `reduce-to(5)`, `spinner(0..4)`: a name and its arguments.
    Call {
        name: String,
        args: Vec<Value>,
    },
    /// `0..4`, only inside a call.
    Range(i64, i64),
    List(Vec<Value>),
    /// `{self: 3, kin: 2}`, in written order.
    Map(Vec<(String, Value)>),
    Str(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Word(w) => f.write_str(w),
            Value::Call { name, args } => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Value::Range(a, b) => write!(f, "{a}..{b}"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str("]")
            }
            Value::Map(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")
            }
            Value::Str(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
        }
    }
}

impl Value {
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    pub fn as_word(&self) -> Option<&str> {
        match self {
            Value::Word(w) => Some(w),
            _ => None,
        }
    }
    /// A word as `(word, None)`, a one-integer call as `(name, Some(n))`.
    pub fn as_choice(&self) -> Option<(&str, Option<i64>)> {
        match self {
            Value::Word(w) => Some((w, None)),
            Value::Call { name, args } => match args.as_slice() {
                [Value::Int(n)] => Some((name, Some(*n))),
                _ => None,
            },
            _ => None,
        }
    }
    pub fn as_words(&self) -> Option<Vec<&str>> {
        match self {
            Value::List(items) => items.iter().map(|v| v.as_word()).collect(),
            _ => None,
        }
    }
    /// A map of integers, `{self: 3, kin: 2}`, in written order.
    pub fn as_int_map(&self) -> Option<Vec<(&str, i64)>> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .map(|(k, v)| v.as_int().map(|n| (k.as_str(), n)))
                .collect(),
            _ => None,
        }
    }
    pub fn as_ints(&self) -> Option<Vec<i64>> {
        match self {
            Value::List(items) => items.iter().map(|v| v.as_int()).collect(),
            _ => None,
        }
    }
}

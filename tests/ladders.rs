//! Within a module, files form a ladder: each file uses only those below it
//! (docs/architecture.md). This test reads the library's sources, follows its `mod`
//! declarations from `src/lib.rs` (leaving out `#[cfg(test)]` modules and items), and
//! builds, for each module folder, the graph of which of its files uses which. It fails
//! if any of those graphs has a cycle.
//!
//! A file uses another when it names it or an item in it: in a `use` line, in a path
//! (`super::board::by_name`, `crate::games::halatafl::win::wins`, `movegen::derive`
//! in a module's own file), or by calling a method that the other file adds to a type
//! with an inherent `impl` block (`impl Library { fn resolve .. }` in `resolve.rs`). An
//! item re-exported by a module's own file (`pub use library::is_name;`) is followed to
//! the file that defines it. A module's own file (`mod.rs`, or `legal.rs` for
//! `legal/`) is a node of its folder's graph like the others; its `mod` lines and its
//! re-exports (`pub use x::Y;` with `Y` not used in the file itself) are no use.
//!
//! A use that crosses folders counts in the nearest folder that holds both files: in
//! `thaayam/`, `legal/pruned.rs` naming `super::super::uncombined` is `legal` using
//! `uncombined`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One file of the module tree.
struct File {
    /// The module's path from the crate root (`["games", "halatafl", "movegen"]`).
    module: Vec<String>,
    path: PathBuf,
    /// The text without comments and without `#[cfg(test)]` items.
    code: String,
    /// Child modules declared in this file (`mod x;`), test modules left out.
    children: Vec<String>,
}

/// Removes comments, keeping strings and line breaks (string contents are blanked so
/// that no path inside a string counts).
fn strip_comments(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !is_ident(b[i - 1]))
        {
            // A raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|h| b.get(j + 1 + h) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            if b.get(i + 1) == Some(&b'\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != b'\'' {
                    j += 1;
                }
                out.push_str("' '");
                i = j + 1;
            } else {
                let ch_len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                if b.get(i + 1 + ch_len) == Some(&b'\'') {
                    out.push_str("' '");
                    i += 2 + ch_len;
                } else {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = src[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The end (exclusive) of the item starting at `from`: its first `;` outside brackets,
/// or its balanced `{ .. }` block.
fn item_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut paren = 0i32;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' => paren += 1,
            b')' | b']' => paren -= 1,
            b';' if paren == 0 => return i + 1,
            b'{' if paren == 0 => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'{' {
                        depth += 1;
                    } else if b[i] == b'}' {
                        depth -= 1;
                        if depth == 0 {
                            // `struct S { .. }` ends here; `static X: T = T { .. };` too.
                            return i + 1;
                        }
                    }
                    i += 1;
                }
                return i;
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Skips whitespace and attributes from `i`.
fn skip_attrs(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) == Some(&b'#') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'[' {
                    depth += 1;
                } else if b[i] == b']' {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                i += 1;
            }
        } else {
            return i;
        }
    }
}

/// Removes every item marked `#[cfg(test)]`; returns the code and the names of the
/// test modules declared (`#[cfg(test)] mod tests;`).
fn strip_test_items(code: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut test_mods = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let b = rest.as_bytes();
        let start = skip_attrs(b, at);
        let end = item_end(b, start);
        let item = &rest[start..end];
        let words: Vec<&str> = item
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if let Some(p) = words.iter().position(|w| *w == "mod") {
            if let Some(name) = words.get(p + 1) {
                test_mods.push(name.to_string());
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, test_mods)
}

/// The modules declared in a file (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared_mods(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(end) = rest.find([';', '{', '}']) {
        let (stmt, ends_decl) = (&rest[..end], rest.as_bytes()[end] == b';');
        rest = &rest[end + 1..];
        if !ends_decl {
            continue;
        }
        let words: Vec<&str> = stmt.split_whitespace().collect();
        if let Some(p) = words.iter().position(|w| *w == "mod") {
            let before_ok = words[..p]
                .iter()
                .all(|w| w.starts_with("pub") || w.starts_with('#') || w.ends_with(']'));
            if before_ok && p + 2 == words.len() && stmt.trim_end().ends_with(words[p + 1]) {
                out.push(words[p + 1].to_string());
            }
        }
    }
    out
}

fn load_tree(src: &Path) -> Vec<File> {
    let mut files = Vec::new();
    let mut queue = vec![(Vec::<String>::new(), src.join("lib.rs"))];
    while let Some((module, path)) = queue.pop() {
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let (code, test_mods) = strip_test_items(&strip_comments(&text));
        let children: Vec<String> = declared_mods(&code)
            .into_iter()
            .filter(|m| !test_mods.contains(m))
            .collect();
        // Where this file's children live: next to `mod.rs`/`lib.rs`, else in the folder
        // named after the file (`legal.rs` -> `legal/`).
        let name = path.file_name().unwrap().to_str().unwrap();
        let dir = if name == "mod.rs" || name == "lib.rs" {
            path.parent().unwrap().to_path_buf()
        } else {
            path.with_extension("")
        };
        for child in &children {
            let flat = dir.join(format!("{child}.rs"));
            let nested = dir.join(child).join("mod.rs");
            let file = if flat.exists() { flat } else { nested };
            let mut m = module.clone();
            m.push(child.clone());
            queue.push((m, file));
        }
        files.push(File {
            module,
            path,
            code,
            children,
        });
    }
    files
}

/// The paths of a `use` tree (`super::{a, b::{c, d}}` -> `super::a`, `super::b::c`,
/// `super::b::d`), each with the name it brings in.
fn expand_use(tree: &str, prefix: &str, out: &mut Vec<(String, String)>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim().trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap()];
        let prefix = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use(&inner[start..i], &prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand_use(&inner[start..], &prefix, out);
    } else if !tree.is_empty() {
        let (path, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p.trim(), a.trim().to_string()),
            None => (tree, tree.rsplit("::").next().unwrap().trim().to_string()),
        };
        let path = path.trim_end_matches("::self");
        out.push((join(prefix, path), alias));
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}::{b}"),
    }
}

/// A `use` statement: its tree and whether it is `pub` (any visibility).
struct Use {
    tree: String,
    public: bool,
    span: (usize, usize),
}

fn uses(code: &str) -> Vec<Use> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("use ") {
        let at = i + at;
        i = at + 4;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let end = at + code[at..].find(';').unwrap();
        let before = code[..at].trim_end();
        let public = before.ends_with("pub") || (before.ends_with(')') && before.contains("pub("));
        let vis_start = if public {
            before.rfind("pub").unwrap()
        } else {
            at
        };
        out.push(Use {
            tree: code[at + 4..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            public,
            span: (vis_start, end + 1),
        });
        i = end;
    }
    out
}

/// Every path written outside `use` lines that starts with `super::`, `crate::`,
/// `self::` or one of `children`.
fn written_paths(code: &str, children: &[String]) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if is_ident(b[i]) && (i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == b':')) {
            let mut j = i;
            loop {
                while j < b.len() && is_ident(b[j]) {
                    j += 1;
                }
                if code[j..].starts_with("::") && b.get(j + 2).is_some_and(|c| is_ident(*c)) {
                    j += 2;
                } else {
                    break;
                }
            }
            let path = &code[i..j];
            let first = path.split("::").next().unwrap();
            if path.contains("::")
                && (["super", "crate", "self"].contains(&first)
                    || children.iter().any(|c| c == first))
            {
                out.push(path.to_string());
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Does `code` define an item named `name` (at any depth: close enough)?
fn defines(code: &str, name: &str) -> bool {
    [
        "fn", "struct", "enum", "const", "static", "type", "trait", "union", "mod",
    ]
    .iter()
    .any(|kw| has_words(code, &[kw, name]))
        || code.contains(&format!("macro_rules! {name}"))
}

/// Does `code` hold the words `words` in a row (separated by whitespace)?
fn has_words(code: &str, words: &[&str]) -> bool {
    let toks: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    toks.windows(words.len()).any(|w| w == words)
}

fn has_word(code: &str, word: &str) -> bool {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

struct Tree {
    files: Vec<File>,
    by_module: BTreeMap<Vec<String>, usize>,
}

impl Tree {
    /// The absolute module path (with the item's segments after it) that `path`, written
    /// in file `f`, names.
    fn absolute(&self, f: &File, path: &str) -> Option<Vec<String>> {
        let segs: Vec<&str> = path.split("::").collect();
        let mut base = f.module.clone();
        let mut k = 0;
        match segs[0] {
            "crate" => {
                base.clear();
                k = 1;
            }
            "self" => k = 1,
            "super" => {
                while segs.get(k) == Some(&"super") {
                    base.pop()?;
                    k += 1;
                }
            }
            first if f.children.iter().any(|c| c == first) => {}
            _ => return None,
        }
        base.extend(segs[k..].iter().map(|s| s.to_string()));
        Some(base)
    }

    /// The module (file) that holds the item that `abs` names, following re-exports.
    fn resolve(&self, abs: &[String], depth: usize) -> Option<Vec<String>> {
        if depth > 8 {
            return None;
        }
        let mut module: Vec<String> = Vec::new();
        for (k, seg) in abs.iter().enumerate() {
            let file = &self.files[self.by_module[&module]];
            if file.children.contains(seg) {
                module.push(seg.clone());
                continue;
            }
            // An item of `module`: re-exported, or defined in its file.
            for u in uses(&file.code).iter().filter(|u| u.public) {
                let mut paths = Vec::new();
                expand_use(&u.tree, "", &mut paths);
                for (p, alias) in paths {
                    if alias == *seg {
                        let mut target = self.absolute(file, &p)?;
                        target.extend(abs[k + 1..].iter().cloned());
                        return self.resolve(&target, depth + 1);
                    }
                }
            }
            return defines(&file.code, seg).then_some(module);
        }
        Some(module)
    }

    /// Each file's uses, as (using module, used module) pairs.
    fn edges(&self) -> BTreeSet<(Vec<String>, Vec<String>)> {
        let mut out = BTreeSet::new();
        for f in &self.files {
            let mut code = f.code.clone();
            let mut paths = Vec::new();
            let all_uses = uses(&f.code);
            for u in all_uses.iter().rev() {
                code.replace_range(u.span.0..u.span.1, "");
            }
            for u in &all_uses {
                let mut expanded = Vec::new();
                expand_use(&u.tree, "", &mut expanded);
                for (p, alias) in expanded {
                    // A module's own re-export of its child's item is no use of that
                    // child unless the file uses the item itself.
                    let own_child = f.children.iter().any(|c| {
                        p.starts_with(&format!("{c}::")) || p.starts_with(&format!("self::{c}::"))
                    });
                    if u.public && own_child && (alias == "*" || !has_word(&code, &alias)) {
                        continue;
                    }
                    paths.push(p);
                }
            }
            paths.extend(written_paths(&code, &f.children));
            for p in paths {
                let p = p.trim_end_matches("::*");
                let Some(abs) = self.absolute(f, p) else {
                    continue;
                };
                if let Some(target) = self.resolve(&abs, 0) {
                    if target != f.module {
                        out.insert((f.module.clone(), target));
                    }
                }
            }
        }
        // Methods a file adds to another file's type.
        for f in &self.files {
            for (ty, methods) in foreign_impls(&f.code) {
                for g in &self.files {
                    if g.module == f.module || !has_word(&g.code, &ty) {
                        continue;
                    }
                    let calls = methods.iter().any(|m| {
                        !defines(&g.code, m)
                            && (g.code.contains(&format!(".{m}("))
                                || g.code.contains(&format!("{ty}::{m}("))
                                || g.code.contains(&format!("Self::{m}(")))
                    });
                    if calls {
                        out.insert((g.module.clone(), f.module.clone()));
                    }
                }
            }
        }
        out
    }
}

/// The methods of each inherent `impl` block of `code` whose type `code` does not
/// define: (type, method names).
fn foreign_impls(code: &str) -> Vec<(String, Vec<String>)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("impl") {
        let at = i + at;
        i = at + 4;
        if (at > 0 && is_ident(b[at - 1])) || b.get(at + 4).is_some_and(|c| is_ident(*c)) {
            continue;
        }
        let Some(open) = code[at..].find('{').map(|o| at + o) else {
            break;
        };
        let header = &code[at + 4..open];
        if has_word(header, "for") || code[at..open].contains(';') {
            continue;
        }
        // `impl<'a> Type<'a> where ..` -> `Type`.
        let mut h = header.trim();
        if h.starts_with('<') {
            let mut depth = 0;
            let mut end = 0;
            for (k, c) in h.char_indices() {
                match c {
                    '<' => depth += 1,
                    '>' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            h = h[end..].trim();
        }
        let ty: String = h
            .split(|c: char| c == '<' || c.is_whitespace())
            .next()
            .unwrap()
            .rsplit("::")
            .next()
            .unwrap()
            .to_string();
        let end = item_end(b, open);
        if ["struct", "enum", "type", "union"]
            .iter()
            .any(|kw| has_words(code, &[kw, &ty]))
        {
            i = end;
            continue;
        }
        let body = &code[open..end];
        let toks: Vec<&str> = body
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        let methods = toks
            .windows(2)
            .filter(|w| w[0] == "fn")
            .map(|w| w[1].to_string())
            .collect();
        out.push((ty, methods));
        i = end;
    }
    out
}

/// The graph of each module folder: node names are its files' names.
fn folder_graphs(tree: &Tree) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let node = |folder: &[String], module: &[String]| -> String {
        if module.len() == folder.len() {
            let f = &tree.files[tree.by_module[folder]];
            f.path.file_name().unwrap().to_str().unwrap().to_string()
        } else {
            let child = &tree.files[tree.by_module[&module[..=folder.len()]]];
            let p = &child.path;
            if p.ends_with("mod.rs") {
                format!("{}/", module[folder.len()])
            } else {
                p.file_name().unwrap().to_str().unwrap().to_string()
            }
        }
    };
    for (from, to) in tree.edges() {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let folder = &from[..common];
        let a = node(folder, &from);
        let b = node(folder, &to);
        graphs
            .entry(folder.to_vec())
            .or_default()
            .entry(a)
            .or_default()
            .insert(b);
    }
    graphs
}

/// A cycle of `graph`, if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if !state.contains_key(n.as_str()) {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn load() -> Tree {
    let files = load_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let by_module = files
        .iter()
        .enumerate()
        .map(|(k, f)| (f.module.clone(), k))
        .collect();
    Tree { files, by_module }
}

/// Folders whose own file holds the module's shared types (first) and its entry points
/// (last), as docs/architecture.md allows: their files may use the types of the module's
/// own file, which is not counted as a use here.
const OWN_FILE_HOLDS_TYPES: &[&str] = &[
    "src/cli",
    "src/cli/commands",
    "src/notation",
    "src/notation/record",
    "src/referee",
];

#[test]
fn no_module_folder_has_a_cycle_between_its_files() {
    let tree = load();
    let mut cycles = Vec::new();
    for (folder, mut graph) in folder_graphs(&tree) {
        let name = if folder.is_empty() {
            "src".to_string()
        } else {
            format!("src/{}", folder.join("/"))
        };
        if OWN_FILE_HOLDS_TYPES.contains(&name.as_str()) {
            let own = tree.files[tree.by_module[&folder]]
                .path
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .to_string();
            for (from, to) in graph.iter_mut() {
                if *from != own {
                    to.remove(&own);
                }
            }
        }
        if let Some(cycle) = find_cycle(&graph) {
            cycles.push(format!("{name}: {}", cycle.join(" -> ")));
        }
    }
    assert!(
        cycles.is_empty(),
        "files use each other in a loop (each file may use only files below it):\n{}",
        cycles.join("\n")
    );
}

/// The reader sees what it must: a sample of known uses.
#[test]
fn the_graph_holds_known_uses() {
    let tree = load();
    let graphs = folder_graphs(&tree);
    let halatafl = &graphs[&vec!["games".to_string(), "halatafl".to_string()]];
    assert!(halatafl["movegen.rs"].contains("board.rs"));
    assert!(halatafl["mod.rs"].contains("movegen.rs"));
    let ruleset = &graphs[&vec!["ruleset".to_string()]];
    assert!(ruleset["load/"].contains("parse.rs"));
    // Methods that a file adds to another file's type, called by a third.
    let load = &graphs[&vec!["ruleset".to_string(), "load".to_string()]];
    assert!(load["entry.rs"].contains("resolve.rs"));
    assert!(load["resolve.rs"].contains("data.rs"));
    // An item of a folder's own file, and one re-exported by it, named with `super::`.
    let legal = &graphs[&vec![
        "games".to_string(),
        "thaayam".to_string(),
        "legal".to_string(),
    ]];
    assert!(legal["legal.rs"].contains("pruned.rs"));
}

/// The pictures are a room of their own (issue 34): nothing in `cli/pictures/` uses
/// another file of `cli`, and the rest of `cli` calls into it.
#[test]
fn the_pictures_use_no_other_file_of_the_command_line() {
    let tree = load();
    let graphs = folder_graphs(&tree);
    let cli = &graphs[&vec!["cli".to_string()]];
    // A file that uses none of its folder's files has no entry.
    let none = BTreeSet::new();
    let pictures = cli.get("pictures/").unwrap_or(&none);
    assert!(
        pictures.is_empty(),
        "cli/pictures/ uses other files of cli: {pictures:?}"
    );
    assert!(cli["render.rs"].contains("pictures/"));
    assert!(cli["halasi/"].contains("pictures/"));
}

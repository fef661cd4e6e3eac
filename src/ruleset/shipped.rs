//! The rulesets shipped in `rulesets/`, and the data files in its folders
//! (`rulesets/halasi/standard.yaml`), built into the binary by `build.rs`. Each is kept as
//! text and parsed only when asked for.

include!(concat!(env!("OUT_DIR"), "/shipped_rulesets.rs"));

/// The text of a shipped ruleset.
pub fn get(name: &str) -> Option<&'static str> {
    SHIPPED
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| SHIPPED[i].1)
}

/// The names of the shipped rulesets, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n)
}

/// How a shipped ruleset's file is displayed: `rulesets/halatafl.rules`.
pub fn display_path(name: &str) -> String {
    format!("rulesets/{name}.rules")
}

/// The text of the shipped data file `rulesets/FOLDER/NAME.EXT`.
pub fn data(folder: &str, name: &str, ext: &str) -> Option<&'static str> {
    let file_name = format!("{name}.{ext}");
    SHIPPED_DATA
        .binary_search_by(|(f, n, _)| (*f, *n).cmp(&(folder, file_name.as_str())))
        .ok()
        .map(|i| SHIPPED_DATA[i].2)
}

/// The names (file stems) of the shipped data files `rulesets/FOLDER/*.EXT`, in file
/// name order.
pub fn data_names<'a>(folder: &'a str, ext: &'a str) -> impl Iterator<Item = &'static str> + 'a {
    SHIPPED_DATA.iter().filter_map(move |(f, n, _)| {
        if *f != folder {
            return None;
        }
        n.strip_suffix(ext)?.strip_suffix('.')
    })
}

/// How a shipped data file is displayed: `rulesets/halasi/standard.yaml`.
pub fn data_display_path(folder: &str, name: &str, ext: &str) -> String {
    format!("rulesets/{folder}/{name}.{ext}")
}

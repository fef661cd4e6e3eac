//! Markdown, as the guide and the help texts are written, turned into roff for the
//! manual pages: code spans and bold as bold, emphasis as italics, links as their text,
//! pipe tables as `tbl` tables, fenced blocks as unfilled text. What a terminal shows as
//! plain text (`referee guide`) a manual page shows typeset, with no mark left over.

/// Text for roff: backslashes as `\e`, a leading `.` or `'` protected.
pub fn escape(line: &str) -> String {
    let s = line.replace('\\', "\\e");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// A code span's text: escaped, its hyphens as minus signs (so `--format` pastes back as
/// typed), its quotes straight.
fn code(text: &str) -> String {
    text.replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('\'', "\\(aq")
        .replace('`', "\\(ga")
}

/// The index of the first `close` in `chars` at or after `from`.
fn find(chars: &[char], from: usize, close: &[char]) -> Option<usize> {
    (from..chars.len()).find(|&i| chars[i..].starts_with(close))
}

/// One line (or table cell) of Markdown with its inline marks as roff fonts: `code` and
/// **bold** in bold, *emphasis* in italics, `[text](target)` as its text. A mark with no
/// partner is kept as written.
pub fn inline(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 16);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '`' {
            if let Some(j) = find(&chars, i + 1, &['`']) {
                let span: String = chars[i + 1..j].iter().collect();
                out.push_str(&format!("\\fB{}\\fP", code(&span)));
                i = j + 1;
                continue;
            }
        }
        if c == '*' && next == Some('*') {
            if let Some(j) = find(&chars, i + 2, &['*', '*']).filter(|&j| j > i + 2) {
                let inner: String = chars[i + 2..j].iter().collect();
                out.push_str(&format!("\\fB{}\\fP", inline(&inner)));
                i = j + 2;
                continue;
            }
        }
        let opens = i == 0 || matches!(chars[i - 1], ' ' | '(' | '"');
        if (c == '*' || c == '_') && opens && next.is_some_and(|n| !n.is_whitespace() && n != c) {
            let closes = |j: &usize| {
                !chars[*j - 1].is_whitespace()
                    && chars.get(*j + 1).is_none_or(|a| !a.is_alphanumeric())
            };
            if let Some(j) = (i + 1..chars.len()).find(|j| chars[*j] == c && closes(j)) {
                let inner: String = chars[i + 1..j].iter().collect();
                out.push_str(&format!("\\fI{}\\fP", inline(&inner)));
                i = j + 1;
                continue;
            }
        }
        if c == '[' {
            let link = find(&chars, i + 1, &[']', '('])
                .and_then(|j| find(&chars, j + 2, &[')']).map(|k| (j, k)));
            if let Some((j, k)) = link {
                let label: String = chars[i + 1..j].iter().collect();
                out.push_str(&inline(&label));
                i = k + 1;
                continue;
            }
        }
        match c {
            '\\' => out.push_str("\\e"),
            _ => out.push(c),
        }
        i += 1;
    }
    if out.starts_with('.') || out.starts_with('\'') {
        out.insert_str(0, "\\&");
    }
    out
}

/// The cells of a pipe table's row: split at `|` outside code spans, `\|` kept as `|`.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim();
    let row = row.strip_prefix('|').unwrap_or(row);
    let row = row.strip_suffix('|').unwrap_or(row);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut in_code = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '`' => {
                in_code = !in_code;
                cell.push(c);
            }
            '|' if !in_code => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    cells.push(cell);
    cells.iter().map(|c| c.trim().to_string()).collect()
}

/// A pipe table (its lines as written) as a `tbl` table: the header row in bold, each
/// cell a text block so that long cells wrap.
fn table(rows: &[&str]) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .filter(|r| !r.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')))
        .map(|r| cells(r))
        .collect();
    let columns = rows.iter().map(Vec::len).max().unwrap_or(1);
    // The last column takes the width left; a long cell is a text block, which wraps.
    let mut out = String::from(".TS\nallbox;\n");
    out.push_str(&vec!["lb"; columns].join(" "));
    out.push('\n');
    let mut format = vec!["l"; columns];
    format[columns - 1] = "lx";
    out.push_str(&format.join(" "));
    out.push_str(".\n");
    for row in &rows {
        let cells: Vec<String> = (0..columns)
            .map(|i| {
                let text = row.get(i).map(String::as_str).unwrap_or("");
                if text.chars().count() > 30 || i == columns - 1 {
                    format!("T{{\n{}\nT}}", inline(text))
                } else {
                    inline(text)
                }
            })
            .collect();
        out.push_str(&cells.join("\t"));
        out.push('\n');
    }
    out.push_str(".TE\n");
    out
}

/// A Markdown page as the body of a manual page: `## ` headings as sections (as
/// written: a heading's code spans keep their case), `### ` as
/// subsections, the `# ` title left out (the NAME section says it), HTML comments left
/// out, fenced blocks unfilled, pipe tables as tables, the rest filled paragraphs and
/// list items. The page needs `tbl` (its first line `'\" t` asks `man` for it).
pub fn body(text: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    let mut in_comment = false;
    let mut para = false;
    let mut rows: Vec<&str> = Vec::new();
    let mut text_run = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let filled_text = !in_code
            && !in_comment
            && !trimmed.is_empty()
            && !trimmed.starts_with(['|', '#'])
            && !trimmed.starts_with("```")
            && !trimmed.starts_with("<!--")
            && !trimmed.starts_with("- ");
        if !filled_text {
            flush(&mut out, &mut text_run);
        }
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if !in_code && trimmed.starts_with('|') {
            rows.push(trimmed);
            continue;
        }
        if !rows.is_empty() {
            out.push_str(".PP\n");
            out.push_str(&table(&rows));
            rows.clear();
            para = false;
        }
        if !in_code && trimmed.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if trimmed.starts_with("```") {
            out.push_str(if in_code {
                ".fi\n.RE\n"
            } else {
                ".PP\n.RS 4\n.nf\n"
            });
            in_code = !in_code;
            para = false;
            continue;
        }
        if in_code {
            out.push_str(&escape(line));
            out.push('\n');
            continue;
        }
        if line.starts_with("# ") || trimmed.is_empty() {
            para = false;
            continue;
        }
        if let Some(h) = line.strip_prefix("## ") {
            out.push_str(&format!(".SH \"{}\"\n", inline(h)));
            para = false;
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            out.push_str(&format!(".SS \"{}\"\n", inline(h)));
            para = false;
            continue;
        }
        if let Some(item) = trimmed.strip_prefix("- ") {
            flush(&mut out, &mut text_run);
            out.push_str(".IP \\(bu 2\n");
            text_run.push_str(item);
            para = true;
            continue;
        }
        if !para {
            out.push_str(".PP\n");
            para = true;
        }
        // A paragraph's (or item's) lines are typeset together: a code span may run
        // from one line to the next.
        if !text_run.is_empty() {
            text_run.push(' ');
        }
        text_run.push_str(trimmed);
    }
    flush(&mut out, &mut text_run);
    if !rows.is_empty() {
        out.push_str(".PP\n");
        out.push_str(&table(&rows));
    }
    if in_code {
        out.push_str(".fi\n.RE\n");
    }
    out
}

/// Writes the text gathered of a paragraph or list item, typeset, and empties it.
fn flush(out: &mut String, text: &mut String) {
    if !text.is_empty() {
        out.push_str(&inline(text));
        out.push('\n');
        text.clear();
    }
}

/// `page` with every character outside ASCII as its roff name (`\[u2026]`), so that
/// every roff reads it, with or without a preprocessor for the input's encoding.
pub fn ascii(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    for c in page.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", c as u32));
        }
    }
    out
}

/// A generated manual page (clap's) with the Markdown marks of its help texts typeset:
/// every text line (not a request, not in an unfilled block) through [`inline`]'s code
/// and bold rules. Requests and their arguments are kept as they are.
pub fn typeset_text_lines(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    for line in page.lines() {
        if line.starts_with('.') || line.starts_with('\'') || !line.contains(['`', '*']) {
            out.push_str(line);
        } else {
            // clap has already escaped the line for roff: only the marks change.
            out.push_str(&marks_only(line));
        }
        out.push('\n');
    }
    out
}

/// A generated manual page (clap's) with the example lines of its `EXTRA` section (the
/// help's `Example:` lines, indented) set as written, unfilled: filled, a long example ran
/// on into the next line and its spaces were stretched to justify it.
pub fn examples_unfilled(page: &str) -> String {
    let mut out = String::with_capacity(page.len() + 64);
    let (mut extra, mut unfilled) = (false, false);
    for line in page.lines() {
        if line.starts_with(".SH ") {
            extra = line == ".SH EXTRA";
        }
        let example = extra && line.starts_with("  ");
        if example && !unfilled {
            out.push_str(".nf\n");
        } else if !example && unfilled {
            out.push_str(".fi\n");
        }
        unfilled = example;
        out.push_str(line);
        out.push('\n');
    }
    if unfilled {
        out.push_str(".fi\n");
    }
    out
}

/// `line` with its code spans and bold as fonts and nothing else changed.
fn marks_only(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    loop {
        let tick = rest.find('`');
        let bold = rest.find("**");
        match (tick, bold) {
            (Some(t), b) if b.is_none_or(|b| t < b) => match rest[t + 1..].find('`') {
                Some(e) => {
                    out.push_str(&rest[..t]);
                    out.push_str(&format!("\\fB{}\\fP", &rest[t + 1..t + 1 + e]));
                    rest = &rest[t + 2 + e..];
                }
                None => break,
            },
            (_, Some(b)) => match rest[b + 2..].find("**") {
                Some(e) => {
                    out.push_str(&rest[..b]);
                    out.push_str(&format!("\\fB{}\\fP", &rest[b + 2..b + 2 + e]));
                    rest = &rest[b + 4 + e..];
                }
                None => break,
            },
            _ => break,
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_marks_become_fonts() {
        assert_eq!(inline("run `referee check`"), "run \\fBreferee check\\fP");
        assert_eq!(inline("`--format json`"), "\\fB\\-\\-format json\\fP");
        assert_eq!(inline("a **bold** word"), "a \\fBbold\\fP word");
        assert_eq!(inline("an *emphasised* word"), "an \\fIemphasised\\fP word");
        assert_eq!(inline("see [the guide](records.md)"), "see the guide");
        assert_eq!(inline("**`=K` marks it**"), "\\fB\\fB=K\\fP marks it\\fP");
        // Marks with no partner, and marks inside words, stay.
        assert_eq!(inline("a lone ` tick"), "a lone ` tick");
        assert_eq!(
            inline("5 * 3 and snake_case_name"),
            "5 * 3 and snake_case_name"
        );
        assert_eq!(inline("a \\ backslash"), "a \\e backslash");
        assert_eq!(inline(".starts with a dot"), "\\&.starts with a dot");
    }

    #[test]
    fn tables_become_tbl_tables() {
        let md = "| tag | what |\n|---|---|\n| `Result` | `*` or `white\\|black` |\n";
        let roff = body(md);
        assert!(roff.contains(".TS\nallbox;\nlb lb\nl lx.\n"), "{roff}");
        assert!(
            roff.contains("\\fBResult\\fP\tT{\n\\fB*\\fP or \\fBwhite|black\\fP\nT}"),
            "{roff}"
        );
        assert!(roff.ends_with(".TE\n"), "{roff}");
        assert!(!roff.contains("|---"), "{roff}");
    }

    #[test]
    fn a_page_keeps_no_markdown_mark() {
        let md = "# Title\n\n<!-- for maintainers -->\n\n## A `code` section\n\nText with \
                  `code` and **bold**.\n\n- an item\n- another\n\n```game\n[Game \"x\"]\n```\n\
                  \nA span `from one\nline` to the next.\n";
        let roff = body(md);
        assert!(!roff.contains("maintainers"), "{roff}");
        assert!(!roff.contains("Title"), "{roff}");
        assert!(roff.contains(".SH \"A \\fBcode\\fP section\""), "{roff}");
        assert!(
            roff.contains("Text with \\fBcode\\fP and \\fBbold\\fP."),
            "{roff}"
        );
        assert!(roff.contains(".IP \\(bu 2\nan item\n"), "{roff}");
        assert!(roff.contains(".nf\n[Game \"x\"]\n.fi"), "{roff}");
        assert!(
            roff.contains("A span \\fBfrom one line\\fP to the next.\n"),
            "{roff}"
        );
        assert_eq!(ascii("a … b"), "a \\[u2026] b");
    }

    #[test]
    fn generated_pages_get_their_marks_typeset() {
        let page = ".TH x 1\n.SH NAME\nRuns `referee check` on **every** file\n.TP\n\\-\\-format\n";
        let out = typeset_text_lines(page);
        assert!(out.contains("Runs \\fBreferee check\\fP on \\fBevery\\fP file\n"));
        assert!(out.contains(".TP\n\\-\\-format\n"));
    }
}

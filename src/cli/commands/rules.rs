//! `referee rules`: list the rulesets, show one, or check them all.

use std::io::Write;

use serde_json::{json, Value as Json};

use super::{apply_cli_options, load_ruleset};
use crate::cli::diagnostics::origin;
use crate::cli::{Ctx, Failure, Format, Outcome};
use crate::referee;
use crate::ruleset::{RuleText, RuleTexts};

pub fn rules(ctx: &Ctx, name: Option<&str>, check: bool, out: &mut dyn Write) -> Outcome {
    let lib = &ctx.env.library;
    if check {
        let errors = lib.check_all(referee::schemas());
        let list = lib.list();
        for e in &errors {
            writeln!(out, "{e}")?;
        }
        writeln!(
            out,
            "{} rulesets checked: {} error{}",
            list.len(),
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        )?;
        return if errors.is_empty() {
            Ok(())
        } else {
            Err(Failure::Invalid)
        };
    }
    let Some(name) = name else {
        let list = lib.list();
        if ctx.global.format == Format::Json {
            let rows: Vec<Json> = list
                .iter()
                .map(|r| json!({"name": r.name, "game": r.game, "title": r.title, "file": r.file}))
                .collect();
            writeln!(out, "{}", Json::Array(rows))?;
        } else {
            for r in &list {
                writeln!(
                    out,
                    "{:<22} {:<9} {}",
                    r.name,
                    r.game.as_deref().unwrap_or("?"),
                    r.title.as_deref().unwrap_or("")
                )?;
            }
        }
        return Ok(());
    };
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, &[])?;
    let schema = referee::schema_of(&rs.game)
        .ok_or_else(|| Failure::Usage(format!("unknown game {}", rs.game)))?;
    if ctx.global.format == Format::Json {
        let settings: Vec<Json> = rs
            .settings
            .iter()
            .map(|(k, s)| {
                json!({"key": k, "value": s.value.to_string(), "set_at": origin(&s.origin),
                       "description": schema.setting(k).map(|d| d.description)})
            })
            .collect();
        let text = |when: Option<String>, t: &RuleText| json!({"when": when, "text": t.text, "source": t.location.to_string()});
        let rules: Vec<Json> = rs
            .rules
            .iter()
            .map(|(id, t)| {
                let all = rs.texts.get(id);
                let when = all.and_then(|a| condition_in_force(a, t));
                let mut texts: Vec<Json> = all.map_or(Vec::new(), |a| {
                    a.conditional
                        .iter()
                        .map(|c| text(Some(c.condition()), &c.text))
                        .collect()
                });
                texts.push(text(None, all.map_or(t, |a| &a.plain)));
                json!({"id": id, "text": t.text, "source": t.location.to_string(),
                       "when": when, "texts": texts})
            })
            .collect();
        let doc = json!({"name": rs.name, "game": rs.game, "title": rs.title, "source": rs.source,
                         "file": rs.file, "chain": rs.chain, "settings": settings, "rules": rules});
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    writeln!(out, "{} — {}", rs.name, rs.title.as_deref().unwrap_or(""))?;
    writeln!(
        out,
        "game {}; file {}; chain {}",
        rs.game,
        rs.file,
        rs.chain.join(" -> ")
    )?;
    if let Some(src) = &rs.source {
        // The source names the original rule text the ruleset reads, not a shipped file.
        writeln!(
            out,
            "source: the rule text {src} (the original, not shipped with referee)"
        )?;
    }
    writeln!(out, "\nSettings:")?;
    for (k, s) in &rs.settings {
        let desc = schema.setting(k).map(|d| d.description).unwrap_or("");
        writeln!(
            out,
            "  {:<16} = {:<18} {}",
            k,
            s.value.to_string(),
            origin(&s.origin)
        )?;
        if !desc.is_empty() {
            writeln!(out, "  {:<16}   {desc}", "")?;
        }
    }
    writeln!(out, "\nRules:")?;
    for (id, t) in &rs.rules {
        let all = rs.texts.get(id);
        match all.and_then(|a| condition_in_force(a, t)) {
            Some(when) => writeln!(out, "  {id} ({}; in force {when})", t.location)?,
            None => writeln!(out, "  {id} ({})", t.location)?,
        }
        writeln!(out, "    {}", t.text)?;
        // The texts not in force, so a reader sees every reading of the rule.
        let Some(all) = all else { continue };
        for c in all.conditional.iter().filter(|c| c.text != *t) {
            writeln!(out, "    {} ({}):", c.condition(), c.text.location)?;
            writeln!(out, "      {}", c.text.text)?;
        }
        if all.plain != *t {
            writeln!(out, "    otherwise ({}):", all.plain.location)?;
            writeln!(out, "      {}", all.plain.text)?;
        }
    }
    Ok(())
}

/// The condition of the text in force `t`, when it is a conditional text.
fn condition_in_force(all: &RuleTexts, t: &RuleText) -> Option<String> {
    all.conditional
        .iter()
        .find(|c| c.text == *t)
        .map(|c| c.condition())
}

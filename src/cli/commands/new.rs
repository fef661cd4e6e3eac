//! `referee new`: the header of a new record; and the header every command that writes a
//! new record uses.

use std::io::Write;
use std::sync::Arc;

use super::{apply_cli_options, load_ruleset, visit_game};
use crate::cli::{Ctx, Failure, Outcome, Render, Visitor};
use crate::games::{seat_name, Game};
use crate::notation::record;
use crate::referee::Session;
use crate::ruleset::Ruleset;

/// A fresh seed from the operating system's entropy: 128 bits as 32 hex digits.
pub fn fresh_seed() -> Result<String, Failure> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        Failure::Usage(format!(
            "cannot draw a seed from the operating system ({e}): choose one with --seed"
        ))
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The seed of a new record.
pub enum NewSeed {
    /// `--seed S`: the header gets `Seed` and `SeedCommit`.
    Given(String),
    /// A fresh seed from the operating system (`Seed` only): `new` draws one for a game
    /// with random events, `play` for a game that cannot start without one.
    Fresh,
    /// No seed: the players write every outcome (`new --no-seed`).
    Written,
}

/// The `Options` tag's value for the command line's `--option` settings, in the order
/// given: a record written under `--option` must replay under the same settings without
/// it, so every command that writes a new record writes this tag.
pub fn options_tag(ctx: &Ctx) -> Option<String> {
    (!ctx.env.options.is_empty()).then(|| {
        ctx.env
            .options
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join("; ")
    })
}

/// The header of a new record for a ruleset. `commit` adds the seed's `SeedCommit`.
pub fn header_for<G: Game>(
    rs: &Ruleset,
    settings: &G::Settings,
    seed: Option<&str>,
    seats_tag: bool,
    event: Option<&str>,
    options: Option<&str>,
) -> String {
    header_with::<G>(rs, settings, seed, true, seats_tag, event, options)
}

pub fn header_with<G: Game>(
    rs: &Ruleset,
    settings: &G::Settings,
    seed: Option<&str>,
    commit: bool,
    seats_tag: bool,
    event: Option<&str>,
    options: Option<&str>,
) -> String {
    let mut h = String::new();
    h.push_str(&format!("[Game \"{}\"]\n", G::NAME));
    h.push_str(&format!("[Ruleset \"{}\"]\n", record::escape(&rs.name)));
    if let Some(o) = options {
        h.push_str(&format!("[Options \"{}\"]\n", record::escape(o)));
    }
    if let Some(e) = event {
        h.push_str(&format!("[Event \"{}\"]\n", record::escape(e)));
    }
    h.push_str(&format!("[Date \"{}\"]\n", record::today()));
    let seats = G::seats(settings);
    if seats_tag {
        let names: Vec<&str> = seats.iter().map(|s| seat_name::<G>(*s)).collect();
        h.push_str(&format!("[Seats \"{}\"]\n", names.join(" ")));
    }
    for s in seats {
        let name = seat_name::<G>(*s);
        let mut cap = name.to_string();
        if let Some(first) = cap.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        h.push_str(&format!("[{cap} \"?\"]\n"));
    }
    if let Some(seed) = seed {
        h.push_str(&format!("[Seed \"{}\"]\n", record::escape(seed)));
        if commit {
            h.push_str(&format!(
                "[SeedCommit \"{}\"]\n",
                crate::dice::seed_commit(seed)
            ));
        }
    }
    h.push_str("[Result \"*\"]\n");
    h
}

struct NewVisit<'a> {
    rs: &'a Ruleset,
    options: Option<String>,
    seed: &'a NewSeed,
    seats_tag: bool,
    out: &'a mut dyn Write,
}

impl Visitor for NewVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let settings = G::settings(self.rs);
        let (seed, commit) = match self.seed {
            NewSeed::Given(s) => (Some(s.clone()), true),
            NewSeed::Fresh if G::has_chance(&settings) => (Some(fresh_seed()?), false),
            NewSeed::Fresh => (None, false),
            NewSeed::Written => (None, false),
        };
        // A record every command accepts: the game must start from this header.
        let started = Session::<G>::start(
            Arc::new(self.rs.clone()),
            None,
            &record::Header::default(),
            seed.as_deref(),
        );
        if let Err(v) = started {
            let without = match seed {
                Some(_) => "",
                None => " without a seed",
            };
            return Err(Failure::Usage(format!(
                "a record of {}{without} cannot start: {v}",
                self.rs.name
            )));
        }
        write!(
            self.out,
            "{}",
            header_with::<G>(
                self.rs,
                &settings,
                seed.as_deref(),
                commit,
                self.seats_tag,
                None,
                self.options.as_deref(),
            )
        )?;
        writeln!(self.out)?;
        Ok(())
    }
}

pub fn new_record(
    ctx: &Ctx,
    name: &str,
    seed: &NewSeed,
    seats: &[String],
    out: &mut dyn Write,
) -> Outcome {
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, seats)?;
    let game = rs.game.clone();
    visit_game(
        &game,
        NewVisit {
            rs: &rs,
            options: options_tag(ctx),
            seed,
            seats_tag: !seats.is_empty(),
            out,
        },
    )
}

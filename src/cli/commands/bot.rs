//! `referee bot`: the engine (or a random player) speaking the bot protocol on
//! stdin/stdout, for `referee match` (`runner::bot` does the work).

use std::io;
use std::sync::Arc;

use super::{load_ruleset, visit_game};
use crate::cli::args_match::BotArgs;
use crate::cli::{Ctx, Failure, Outcome, Render, Visitor};
use crate::ruleset::{self, Origin, Override, Ruleset};
use crate::runner::bot::{serve, Policy};
use crate::runner::protocol::Hello;

struct BotVisit<'a> {
    ctx: &'a Ctx,
    rs: Ruleset,
    policy: Policy,
    name: String,
    seed: &'a str,
}

impl Visitor for BotVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let BotVisit {
            ctx,
            rs,
            policy,
            name,
            seed,
        } = self;
        let rules = |hello: &Hello| settings_of(ctx, &rs, hello);
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut output = io::stdout().lock();
        serve::<G>(
            &rules,
            &policy,
            &name,
            seed,
            &ctx.env.limits,
            &mut input,
            &mut output,
        )
        .map_err(|e| Failure::Usage(format!("bot: {e}")))
    }
}

/// The bot's ruleset with the settings a `hello` names applied (those that differ).
fn settings_of(ctx: &Ctx, rs: &Ruleset, hello: &Hello) -> Result<Arc<Ruleset>, String> {
    let overrides: Vec<Override> = hello
        .settings
        .iter()
        .filter(|(k, v)| {
            rs.settings
                .get(*k)
                .is_none_or(|s| s.value.to_string() != **v)
        })
        .map(|(k, v)| Override {
            key: k.clone(),
            value: v.clone(),
            origin: Origin::CommandLine,
            file: "hello".into(),
            line: 1,
            column: 1,
            value_column: 1,
        })
        .collect();
    if overrides.is_empty() {
        return Ok(Arc::new(rs.clone()));
    }
    let schema = crate::games::registry::schema_of(&rs.game).ok_or("unknown game")?;
    let said = |errs: Vec<ruleset::RulesetError>| {
        errs.iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut out = ruleset::apply_overrides(rs, schema, &overrides)
        .map_err(|e| format!("the settings of `hello` do not apply: {}", said(e)))?;
    ctx.env
        .library
        .load_data(&mut out, schema)
        .map_err(|e| format!("the settings of `hello` do not apply: {}", said(e)))?;
    Ok(Arc::new(out))
}

pub fn bot(ctx: &Ctx, args: &BotArgs) -> Outcome {
    let rs = load_ruleset(ctx, &args.ruleset)?;
    let rs = super::apply_cli_options(ctx, &rs, &[])?;
    let policy = match args.random {
        true => Policy::Random,
        false => {
            let mut config = args.engine.config(&args.seed)?;
            // One thread unless asked: bots of a match share the machine.
            if args.engine.threads.is_none() {
                config.threads = 1;
            }
            Policy::Engine(config)
        }
    };
    let name = args.name.clone().unwrap_or_else(|| match &policy {
        Policy::Random => format!("referee-random {}", rs.name),
        Policy::Engine(c) => match c.budget {
            crate::engine::Budget::Playouts(n) => {
                format!("referee-engine {} {n} playouts", rs.name)
            }
            crate::engine::Budget::Time(d) => {
                format!("referee-engine {} {:.3} s", rs.name, d.as_secs_f64())
            }
        },
    });
    let game = rs.game.clone();
    visit_game(
        &game,
        BotVisit {
            ctx,
            rs,
            policy,
            name,
            seed: &args.seed,
        },
    )
}

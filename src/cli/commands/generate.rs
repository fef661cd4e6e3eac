//! `referee completions SHELL` and `referee man`: shell completion scripts and manual
//! pages, generated from the clap definitions so they never drift from `--help`, and the
//! guide's pages from the text `referee guide` prints.

use std::io::Write;
use std::path::Path;

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::{Cli, Failure, Outcome};

/// The completion script for `shell` on `out`.
pub fn completions(shell: Shell, out: &mut dyn Write) -> Outcome {
    // Rendered into memory first: the generators panic on a failed write, and a
    // closed stdout (`| head`) is not an error here.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "referee", &mut script);
    out.write_all(&script)?;
    Ok(())
}

/// `referee(1)` on `out`; with `dir`, one page a command and one a guide topic written
/// there instead (`referee.1`, `referee-check.1`, …, `referee-guide-thaayam.1`) and their
/// paths on `out`.
pub fn man(dir: Option<&Path>, out: &mut dyn Write) -> Outcome {
    // No `help` subcommand: it has no page of its own to refer to.
    let mut cmd = Cli::command().disable_help_subcommand(true);
    let Some(dir) = dir else {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut page)
            .map_err(|e| Failure::Usage(format!("cannot render the man page: {e}")))?;
        let page = crate::cli::roff::ascii(&crate::cli::roff::examples_unfilled(
            &crate::cli::roff::typeset_text_lines(&String::from_utf8_lossy(&page)),
        ));
        out.write_all(page.as_bytes())?;
        return Ok(());
    };
    let cannot =
        |e: std::io::Error| Failure::Usage(format!("cannot write to {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(cannot)?;
    // clap_mangen's `generate_to`, keeping the paths it writes to name them.
    cmd.build();
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    for page in pages {
        let man = clap_mangen::Man::new(page);
        let path = dir.join(man.get_filename());
        let mut roff = Vec::new();
        man.render(&mut roff).map_err(cannot)?;
        let roff = crate::cli::roff::ascii(&crate::cli::roff::examples_unfilled(
            &crate::cli::roff::typeset_text_lines(&String::from_utf8_lossy(&roff)),
        ));
        std::fs::write(&path, roff).map_err(cannot)?;
        writeln!(out, "{}", path.display())?;
    }
    // The guide, one page a topic, from the same text as `referee guide TOPIC`.
    for topic in crate::cli::guide::names() {
        let page = crate::cli::guide::roff(topic).unwrap_or_default();
        let path = dir.join(format!("referee-guide-{topic}.1"));
        std::fs::write(&path, page).map_err(cannot)?;
        writeln!(out, "{}", path.display())?;
    }
    Ok(())
}

//! `chess-validator`: a bench-only speed anchor.
//!
//! pgn-reader 0.29 + shakmaty 0.30 validating random legal chess games, so
//! the referee's own throughput can be compared with a well-known, fast,
//! streaming PGN validator on a corpus of comparable size.
//!
//! ```text
//! chess-validator generate --seed S --bytes N   > corpus.pgn
//! chess-validator validate FILE                 (FILE may be `-` for stdin)
//! ```
//!
//! `generate` is fully deterministic: the same seed and byte count give
//! byte-identical output, forever (no external RNG crate, see [`SplitMix64`]).
//!
//! `validate` replays every SAN move from the standard starting position
//! (no `[FEN]` tag support: the generated corpus never needs it), stops a
//! game at its first illegal move, prints
//! `games G, moves M, illegal I, bytes B` and exits 1 if I > 0.
//! Tokens that are not SAN at all are skipped by pgn-reader itself, as in
//! its own `validate` example; only well-formed SAN that is not a legal
//! move in the position counts as illegal.

use std::{
    env,
    fs::File,
    io::{self, Read, Write},
    ops::ControlFlow,
    process,
};

use pgn_reader::{Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, KnownOutcome, Outcome, Position};

const USAGE: &str = "usage:
  chess-validator generate --seed S --bytes N
  chess-validator validate FILE   (FILE may be `-` for stdin)";

/// A generated game stops with `*` after this many plies.
const MAX_PLIES: u32 = 300;

/// Movetext lines are wrapped so as not to exceed this many columns.
const WRAP_COLUMNS: usize = 80;

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("generate") => cmd_generate(&args[1..]),
        Some("validate") => cmd_validate(&args[1..]),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            Ok(0)
        }
        _ => Err(format!("expected a subcommand\n{USAGE}")),
    };
    match code {
        Ok(code) => process::exit(code),
        Err(msg) => {
            eprintln!("chess-validator: {msg}");
            process::exit(2);
        }
    }
}

// ---------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------

/// 64-bit FNV-1a hash (offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3) of the seed string's UTF-8 bytes; the result seeds
/// [`SplitMix64`].
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// SplitMix64 (Steele, Lea & Flood 2014; the reference code is Vigna's
/// `splitmix64.c`): the state advances by the golden-ratio increment
/// 0x9e3779b97f4a7c15 and each output is the state passed through the
/// finalizer `z = (z ^ z>>30) * 0xbf58476d1ce4e5b9; z = (z ^ z>>27) *
/// 0x94d049bb133111eb; z ^ z>>31`. Fixed here so the corpus for a seed never
/// changes.
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Exactly uniform integer in `0..n` (`n > 0`), by Lemire's
    /// multiply-shift with rejection ("Fast Random Integer Generation in an
    /// Interval", 2019).
    fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }
}

// ---------------------------------------------------------------------------
// generate
// ---------------------------------------------------------------------------

fn cmd_generate(args: &[String]) -> Result<i32, String> {
    let mut seed: Option<&str> = None;
    let mut bytes: Option<u64> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seed" => {
                seed = Some(it.next().ok_or("--seed needs a value")?);
            }
            "--bytes" => {
                let v = it.next().ok_or("--bytes needs a value")?;
                bytes = Some(
                    v.parse()
                        .map_err(|_| format!("--bytes: not a byte count: {v:?}"))?,
                );
            }
            other => return Err(format!("generate: unexpected argument {other:?}\n{USAGE}")),
        }
    }
    let seed = seed.ok_or_else(|| format!("generate: --seed is required\n{USAGE}"))?;
    let target = bytes.ok_or_else(|| format!("generate: --bytes is required\n{USAGE}"))?;

    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    generate(&mut out, seed, target).map_err(|e| format!("generate: {e}"))?;
    out.flush().map_err(|e| format!("generate: {e}"))?;
    Ok(0)
}

/// Writes whole random games to `out` until at least `target` bytes are
/// written.
fn generate<W: Write>(out: &mut W, seed: &str, target: u64) -> io::Result<()> {
    let mut rng = SplitMix64::new(fnv1a64(seed.as_bytes()));
    let mut game = Vec::with_capacity(4096);
    let mut movetext = Vec::with_capacity(4096);
    let mut written: u64 = 0;
    let mut round: u64 = 0;
    while written < target {
        round += 1;
        let result = random_movetext(&mut rng, &mut movetext);
        game.clear();
        write!(
            game,
            "[Event \"random\"]\n[Site \"-\"]\n[Round \"{round}\"]\n\
             [White \"random\"]\n[Black \"random\"]\n[Result \"{result}\"]\n\n"
        )?;
        game.extend_from_slice(&movetext);
        game.extend_from_slice(b"\n\n");
        out.write_all(&game)?;
        written += game.len() as u64;
    }
    Ok(())
}

/// Plays one random game from the starting position, writing its wrapped
/// movetext (ending with the result token, no trailing newline) to `buf`.
/// Returns the result.
fn random_movetext(rng: &mut SplitMix64, buf: &mut Vec<u8>) -> &'static str {
    buf.clear();
    let mut line_len = 0usize;
    let mut token = Vec::with_capacity(16);
    let mut pos = Chess::default();
    let mut plies = 0u32;
    let result = loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let outcome = if pos.is_check() {
                KnownOutcome::Decisive {
                    winner: !pos.turn(),
                }
            } else {
                KnownOutcome::Draw // stalemate
            };
            break Outcome::Known(outcome);
        }
        if pos.is_insufficient_material() {
            break Outcome::Known(KnownOutcome::Draw);
        }
        if plies == MAX_PLIES {
            break Outcome::Unknown;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        token.clear();
        if pos.turn() == Color::White {
            // The move number travels with White's move, so no line ends
            // with a bare "12.".
            write!(token, "{}. ", pos.fullmoves()).expect("write to Vec");
        }
        SanPlus::from_move_and_play_unchecked(&mut pos, m).append_ascii_to(&mut token);
        push_token(buf, &mut line_len, &token);
        plies += 1;
    };
    let result = result.as_str();
    push_token(buf, &mut line_len, result.as_bytes());
    result
}

/// Appends `token` to `buf`, separated by a space, or by a line break if
/// the line would exceed [`WRAP_COLUMNS`].
fn push_token(buf: &mut Vec<u8>, line_len: &mut usize, token: &[u8]) {
    if *line_len > 0 {
        if *line_len + 1 + token.len() > WRAP_COLUMNS {
            buf.push(b'\n');
            *line_len = 0;
        } else {
            buf.push(b' ');
            *line_len += 1;
        }
    }
    buf.extend_from_slice(token);
    *line_len += token.len();
}

// ---------------------------------------------------------------------------
// validate
// ---------------------------------------------------------------------------

/// Replays every game's SAN moves on a [`Chess`] position.
#[derive(Default)]
struct Validator {
    games: u64,
    moves: u64,
    illegal: u64,
}

impl Visitor for Validator {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Chess::default())
    }

    fn san(&mut self, pos: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(_) => {
                // Stop this game at its first illegal move; the reader skips
                // the rest of its movetext.
                self.illegal += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Self::Movetext) -> Self::Output {}
}

/// Counts the bytes read through it (pgn-reader does its own buffering, so
/// this sees a handful of large reads, not one per byte).
struct CountingReader<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

fn cmd_validate(args: &[String]) -> Result<i32, String> {
    let [path] = args else {
        return Err(format!("validate: expected exactly one FILE\n{USAGE}"));
    };
    let input: Box<dyn Read> = if path == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(path).map_err(|e| format!("validate: {path}: {e}"))?)
    };
    let (v, bytes) = validate(input).map_err(|e| format!("validate: {path}: {e}"))?;
    println!(
        "games {}, moves {}, illegal {}, bytes {}",
        v.games, v.moves, v.illegal, bytes
    );
    Ok(if v.illegal == 0 { 0 } else { 1 })
}

fn validate<R: Read>(input: R) -> io::Result<(Validator, u64)> {
    // pgn-reader buffers the underlying reader itself and recommends against
    // an extra BufReader.
    let mut reader = Reader::new(CountingReader {
        inner: input,
        bytes: 0,
    });
    let mut validator = Validator::default();
    reader.visit_all_games(&mut validator)?;
    let bytes = reader.into_inner().bytes;
    Ok((validator, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // First outputs of Vigna's splitmix64.c seeded with 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn fnv1a64_reference_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn generated_games_validate() {
        let mut pgn = Vec::new();
        generate(&mut pgn, "test", 20_000).unwrap();
        assert!(pgn.len() >= 20_000);
        let (v, bytes) = validate(&pgn[..]).unwrap();
        assert_eq!(bytes, pgn.len() as u64);
        assert_eq!(v.illegal, 0);
        assert!(v.games > 0 && v.moves > 0);
    }

    #[test]
    fn illegal_move_is_counted() {
        let pgn = b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event \"y\"]\n\n1. d4 *\n\n";
        let (v, _) = validate(&pgn[..]).unwrap();
        assert_eq!((v.games, v.moves, v.illegal), (2, 3, 1));
    }
}

//! A fixed-work driver for profiling Halatafl random playouts (issue 8), run under
//! `valgrind --tool=callgrind` so that each speed step is measured in instructions:
//!
//! ```text
//! cargo build --release --example halatafl_playouts
//! valgrind --tool=callgrind ./target/release/examples/halatafl_playouts halatafl 1000 random
//! ```
//!
//! Arguments: the ruleset (`halatafl`), the number of games, and how a turn is chosen:
//! `list` (the bench's old loop: `legal_turns`, then `moves[rng.uniform(len)]`) or
//! `random` ([`Game::random_turn`], as the bench and `selfplay` now do). Both play the
//! same games. Prints the games, the turns and a checksum of the final positions.

use referee::dice::Dice;
use referee::games::halatafl::Halatafl;
use referee::games::{Game, Status};
use referee::notation::record::Header;
use referee::ruleset::Library;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ruleset = args.first().map(String::as_str).unwrap_or("halatafl");
    let games: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let random = match args.get(2).map(String::as_str) {
        None | Some("random") => true,
        Some("list") => false,
        Some(other) => panic!("unknown mode {other}: list or random"),
    };
    let lib = Library::new(Vec::new());
    let rs = lib
        .load(ruleset, referee::referee::schemas())
        .expect("a shipped ruleset");
    let settings = Halatafl::settings(&rs);
    let tags = Header::default();
    let mut rng = Dice::from_seed("bench");
    let mut moves = Vec::with_capacity(256);
    let (mut turns, mut sum) = (0u64, 0u64);
    for _ in 0..games {
        let mut state = Halatafl::start(&settings, None, &tags, None).expect("start");
        for _ in 0..1000 {
            if let Status::Over(_) = Halatafl::status(&settings, &state) {
                break;
            }
            let pick = if random {
                Halatafl::random_turn(&settings, &state, None, &mut rng, &mut moves)
                    .expect("a legal turn")
            } else {
                moves.clear();
                Halatafl::legal_turns(&settings, &state, None, &mut moves);
                moves[rng.uniform(moves.len() as u32) as usize]
            };
            Halatafl::apply_legal(&settings, &mut state, None, &pick);
            turns += 1;
        }
        let b = state.pieces(referee::games::Seat(0)) ^ state.pieces(referee::games::Seat(1)) << 1;
        sum = sum.wrapping_mul(31).wrapping_add(b ^ state.kings());
    }
    println!("{ruleset}: {games} games, {turns} turns, checksum {sum:016x}");
}

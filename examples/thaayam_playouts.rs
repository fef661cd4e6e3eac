//! A fixed-work driver for profiling Thaayam random playouts (issue 8): the bench's
//! `playouts` loop for a given number of games, so that `valgrind --tool=callgrind`
//! instruction counts compare steps exactly.
//!
//! `cargo run --release --example thaayam_playouts -- [RULESET] [GAMES] [list]`
//! (defaults `thaayam-bell`, 400): the turn chosen by `Game::random_turn`, as the bench
//! chooses it, or with `list` from the whole list of `Game::legal_turns`. Both print the
//! same digest of the games played.

use referee::dice::Dice;
use referee::games::thaayam::Thaayam;
use referee::games::{Game, Status};
use referee::notation::record::Header;
use referee::ruleset::Library;

fn main() {
    let mut args = std::env::args().skip(1);
    let ruleset = args.next().unwrap_or_else(|| "thaayam-bell".to_string());
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let list = args.next().as_deref() == Some("list");
    let lib = Library::new(Vec::new());
    let rs = lib
        .load(&ruleset, referee::referee::schemas())
        .expect("shipped ruleset");
    let settings = Thaayam::settings(&rs);
    let tags = Header::default();
    let mut rng = Dice::from_seed("bench");
    let mut moves = Vec::with_capacity(256);
    let mut turns = 0u64;
    let mut digest = 0u64;
    for g in 0..games {
        let mut dice = Dice::from_seed(&format!("bench-{g}"));
        let mut state = Thaayam::start(&settings, None, &tags, Some(&mut dice)).expect("start");
        let mut n = 0;
        while n < 1000 {
            if let Status::Over(_) = Thaayam::status(&settings, &state) {
                break;
            }
            let chance = Thaayam::draw_chance(&settings, &mut state, &mut dice);
            let pick = if list {
                moves.clear();
                Thaayam::legal_turns(&settings, &state, chance.as_ref(), &mut moves);
                moves.swap_remove(rng.uniform(moves.len() as u32) as usize)
            } else {
                Thaayam::random_turn(&settings, &state, chance.as_ref(), &mut rng, &mut moves)
                    .expect("a legal turn")
            };
            Thaayam::apply_legal(&settings, &mut state, chance.as_ref(), &pick);
            let pos = u128::from_le_bytes(flat(&state.pos));
            digest = digest.wrapping_mul(31) ^ (pos as u64 ^ (pos >> 64) as u64);
            n += 1;
        }
        turns += n;
    }
    println!("{ruleset}: {games} games, {turns} turns, digest {digest:016x}");
}

/// The sixteen piece positions as one word, for the digest.
fn flat(pos: &[[u8; 4]; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (k, seat) in pos.iter().enumerate() {
        out[4 * k..4 * k + 4].copy_from_slice(seat);
    }
    out
}

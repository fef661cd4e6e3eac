//! What one Halatafl turn costs where no capture is possible and nothing may be huffed
//! (issue 8, docs/decisions.md "Halatafl playouts"): collects 1,000 such
//! positions from random `halatafl` games, then plays a random turn from them, one
//! after another, N times (`random_turn`, then `apply_legal`). Run under callgrind
//! with N = 0 and N = 100000; the difference over N is the instructions of one turn:
//!
//! ```text
//! cargo build --release --example halatafl_plain_turns
//! valgrind --tool=callgrind ./target/release/examples/halatafl_plain_turns king 0
//! valgrind --tool=callgrind ./target/release/examples/halatafl_plain_turns king 100000
//! ```
//!
//! Arguments: `men` (the seat to move has men only) or `king` (it has a king), and N.

use referee::dice::Dice;
use referee::games::halatafl::Halatafl;
use referee::games::{Game, Seat, Status};
use referee::notation::halatafl::Move;
use referee::notation::record::Header;
use referee::ruleset::Library;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kings = match args.first().map(String::as_str) {
        None | Some("king") => true,
        Some("men") => false,
        Some(other) => panic!("unknown kind {other}: men or king"),
    };
    let n: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    let lib = Library::new(Vec::new());
    let rs = lib
        .load("halatafl", referee::referee::schemas())
        .expect("a shipped ruleset");
    let s = Halatafl::settings(&rs);
    let mut rng = Dice::from_seed("plain");
    let mut turns = Vec::new();
    let mut plain = Vec::new();
    while plain.len() < 1000 {
        let mut st = Halatafl::start(&s, None, &Header::default(), None).expect("start");
        for _ in 0..1000 {
            if let Status::Over(_) = Halatafl::status(&s, &st) {
                break;
            }
            turns.clear();
            Halatafl::legal_turns(&s, &st, None, &mut turns);
            let jumps = turns.iter().any(|t| matches!(t.mv, Some(Move::Jump(_))));
            let king = st.kings() & st.pieces(st.to_move()) != 0;
            if !jumps && st.huffable(&s) == 0 && king == kings && plain.len() < 1000 {
                plain.push(st);
            }
            let t = Halatafl::random_turn(&s, &st, None, &mut rng, &mut turns).expect("a turn");
            Halatafl::apply_legal(&s, &mut st, None, &t);
        }
    }
    let mut sum = 0u64;
    for i in 0..n {
        let mut st = plain[(i % 1000) as usize];
        let t = Halatafl::random_turn(&s, &st, None, &mut rng, &mut turns).expect("a turn");
        Halatafl::apply_legal(&s, &mut st, None, &t);
        sum = sum
            .wrapping_mul(31)
            .wrapping_add(st.pieces(Seat(0)) ^ st.pieces(Seat(1)));
    }
    println!("{} positions, {n} turns, checksum {sum:016x}", plain.len());
}

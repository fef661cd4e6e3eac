//! The position the engine benches start from, shared by `benches/engine.rs` and
//! `benches/instructions_library.rs` (each includes this file).

use referee::dice::Dice;
use referee::games::Game;
use referee::notation::record::Header;

/// The position after `turns` uniformly random turns from the start (seeded).
pub fn position<G: Game>(s: &G::Settings, turns: usize) -> G::State {
    let mut dice = Dice::from_seed("engine-bench-position");
    let mut chooser = Dice::from_seed("engine-bench-chooser");
    let mut scratch = Vec::new();
    let mut st = G::start(s, None, &Header::default(), Some(&mut dice)).expect("start");
    for _ in 0..turns {
        if G::status(s, &st).is_over() {
            break;
        }
        let c = G::draw_chance(s, &mut st, &mut dice);
        let t = G::random_turn(s, &st, c.as_ref(), &mut chooser, &mut scratch).expect("turn");
        G::apply_legal(s, &mut st, c.as_ref(), &t);
    }
    st
}

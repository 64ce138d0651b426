//! The whole trait of this game on arbitrary bytes: the first byte picks
//! what the rest is read as (a state, an observation, a record, rules, or a
//! sequence of action ids played on a new game), and whatever is accepted
//! is held to every contract (game_traits::testkit::fuzz).
#![no_main]

use game_traits::testkit::fuzz;
use libfuzzer_sys::fuzz_target;
use stratego_core::Stratego as G;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 5 {
        0 => fuzz::state::<G>(rest),
        1 => fuzz::observation::<G>(rest),
        2 => fuzz::record::<G>(rest),
        3 => fuzz::rules::<G>(rest),
        _ => fuzz::actions::<G>(&Default::default(), rest),
    }
});

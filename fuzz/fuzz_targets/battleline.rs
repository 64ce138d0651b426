//! The whole trait of this game on arbitrary bytes (the first byte picks
//! what the rest is read as), whatever is accepted held to every contract:
//! `game_traits::testkit::fuzz::any`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| game_traits::testkit::fuzz::any::<battleline_core::BattleLine>(data));

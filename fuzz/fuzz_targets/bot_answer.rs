//! The bot protocol's input: a bot's answer line, as `ProtocolBot` reads
//! it (`game_env::parse_answer`). Any bytes: no panic; an accepted line is
//! a JSON object whose `action` is the id returned; a refusal is
//! `Garbage` quoting at most 200 characters of the line.
#![no_main]

use game_env::{parse_answer, BotFailure};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    match parse_answer(&line) {
        Ok(id) => {
            let value: serde_json::Value = serde_json::from_str(&line).expect("accepted is JSON");
            assert_eq!(value["action"].as_u64(), Some(id));
        }
        Err(BotFailure::Garbage(quoted)) => assert!(quoted.chars().count() <= 200),
        Err(other) => panic!("an answer line is accepted or garbage, not {other:?}"),
    }
});

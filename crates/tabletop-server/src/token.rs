//! Seat tokens: 128-bit secrets from the operating system, written as 32
//! hex digits, and the lookup of the seat a token opens, in constant time.

use std::fmt;

use game_traits::PlayerId;
use rand::rand_core::OsError;
use rand::TryRngCore;
use subtle::ConstantTimeEq;

/// A human seat's token. It has no `PartialEq` (a comparison that stops at
/// the first differing byte would time the secret) and its `Debug` hides it.
#[derive(Clone, Copy)]
pub struct Token([u8; 16]);

impl Token {
    /// A new token from the operating system's generator: the one
    /// randomness of the server that is not seeded, since it is a secret.
    pub fn new() -> Result<Token, OsError> {
        let mut bytes = [0u8; 16];
        rand::rngs::OsRng.try_fill_bytes(&mut bytes)?;
        Ok(Token(bytes))
    }

    /// The token written as `text` (32 hex digits), if it is one.
    pub fn parse(text: &str) -> Option<Token> {
        if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut out = [0u8; 16];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Token(out))
    }
}

/// 32 lowercase hex digits, as stored and as handed to the seat.
impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// The seat whose token is `token` among `tokens`, compared in constant
/// time against both seats (so the answer's timing tells nothing).
pub fn seat_of(tokens: &[Option<Token>; 2], token: &Token) -> Option<PlayerId> {
    let mut found = None;
    for seat in PlayerId::BOTH {
        let hit = match &tokens[seat.index()] {
            Some(t) => t.0.ct_eq(&token.0).unwrap_u8(),
            None => 0,
        };
        if hit == 1 {
            found = Some(seat);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_print_as_hex_parse_back_and_open_only_their_seat() {
        let a = Token::new().unwrap();
        let b = Token::new().unwrap();
        let text = a.to_string();
        assert_eq!(text.len(), 32);
        assert_eq!(Token::parse(&text).unwrap().to_string(), text);
        assert!(Token::parse(&text[1..]).is_none());
        assert!(Token::parse(&"g".repeat(32)).is_none());
        assert_eq!(format!("{a:?}"), "Token(..)");
        let tokens = [None, Some(a)];
        assert_eq!(seat_of(&tokens, &a), Some(PlayerId::P1));
        assert_eq!(seat_of(&tokens, &b), None);
    }
}

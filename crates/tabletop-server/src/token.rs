//! Seat tokens and player keys: 128-bit secrets from the operating system,
//! written as 32 hex digits, handed out once and stored only as their
//! [`Seal`] (a SHA-256 digest), so that a leaked database or backup seats
//! nobody; and the lookup of the seat a token opens, in constant time.
//!
//! The digest is not keyed: a key guards secrets that can be guessed
//! (passwords), and 2^128 random tokens cannot be searched from their
//! digests with or without one.

use std::fmt;

use game_traits::PlayerId;
use rand::rand_core::OsError;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
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
        from_hex(text).map(Token)
    }
}

impl Token {
    /// What is stored of the token: its digest.
    pub fn seal(&self) -> Seal {
        Seal(
            Sha256::new()
                .chain_update(DOMAIN)
                .chain_update(self.0)
                .finalize()
                .into(),
        )
    }

    /// Whether `other` is this token, compared in constant time.
    pub fn same(&self, other: &Token) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

/// Hashed before the token's bytes, so that a seal is never the digest of
/// a secret of another use.
const DOMAIN: &[u8] = b"tabletop-server token v1\0";

/// The stored form of a [`Token`]: its SHA-256 digest, written as 64 hex
/// digits. Like the token, no `PartialEq` and a `Debug` that hides it.
#[derive(Clone, Copy)]
pub struct Seal([u8; 32]);

impl Seal {
    /// The seal written as `text`: 64 hex digits, or 32 (a token stored
    /// by a server from before seals, sealed now; the store seals those at
    /// its next start).
    pub fn parse(text: &str) -> Option<Seal> {
        if text.len() == 32 {
            return Token::parse(text).map(|t| t.seal());
        }
        from_hex(text).map(Seal)
    }

    /// Whether `token`'s seal is this one, compared in constant time.
    pub fn opens(&self, token: &Token) -> bool {
        self.0.ct_eq(&token.seal().0).into()
    }
}

/// 64 lowercase hex digits, as stored.
impl fmt::Display for Seal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(&self.0, f)
    }
}

/// The `N` bytes written as `text`, exactly `2 * N` hex digits.
fn from_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; N];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn write_hex(bytes: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    bytes.iter().try_for_each(|b| write!(f, "{b:02x}"))
}

impl fmt::Debug for Seal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seal(..)")
    }
}

/// 32 lowercase hex digits, as handed to the seat.
impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_hex(&self.0, f)
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// The seat whose seal `token` opens among `seals`, compared in constant
/// time against both seats (so the answer's timing tells nothing).
pub fn seat_of(seals: &[Option<Seal>; 2], token: &Token) -> Option<PlayerId> {
    let sealed = token.seal();
    let mut found = None;
    for seat in PlayerId::BOTH {
        let hit = match &seals[seat.index()] {
            Some(s) => s.0.ct_eq(&sealed.0).unwrap_u8(),
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
        let seals = [None, Some(a.seal())];
        assert_eq!(seat_of(&seals, &a), Some(PlayerId::P1));
        assert_eq!(seat_of(&seals, &b), None);
        assert!(a.same(&a) && !a.same(&b));
    }

    #[test]
    fn a_seal_is_stored_instead_of_the_token_and_opens_only_its_token() {
        let a = Token::new().unwrap();
        let b = Token::new().unwrap();
        let text = a.seal().to_string();
        assert_eq!(text.len(), 64);
        assert!(!text.contains(&a.to_string()));
        let read = Seal::parse(&text).unwrap();
        assert!(read.opens(&a) && !read.opens(&b));
        assert_eq!(read.to_string(), text);
        assert_eq!(format!("{read:?}"), "Seal(..)");
        // The known digest, so that a change of the scheme is seen.
        let zero = Token::parse(&"0".repeat(32)).unwrap();
        assert_eq!(
            zero.seal().to_string(),
            "ef20a1cf940f3d2279c9bc2cf4a3922b10676de53a55222e7da2fe06c6c302e9"
        );
        assert!(Seal::parse(&"g".repeat(64)).is_none());
        assert!(Seal::parse(&text[1..]).is_none());
    }

    #[test]
    fn a_token_stored_before_seals_reads_as_its_seal() {
        let a = Token::new().unwrap();
        let old = Seal::parse(&a.to_string()).unwrap();
        assert!(old.opens(&a));
        assert_eq!(old.to_string(), a.seal().to_string());
    }
}

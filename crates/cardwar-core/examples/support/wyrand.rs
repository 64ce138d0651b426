//! WyRand (Wang Yi's generator, as in the `fastrand` crate): one multiply
//! and one add per 64-bit word, against ChaCha8's block function and
//! buffer. A playout needs uniform, independent-looking dice, not a
//! cryptographic stream; and a record keeps every action, so its replay
//! never draws from a generator: records stay reproducible whatever
//! generator played them, and a seed still gives the same game.

use rand::RngCore;

/// The WyRand state: a 64-bit counter.
pub struct WyRand(u64);

impl WyRand {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> Self {
        WyRand(seed)
    }
}

impl RngCore for WyRand {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xe703_7ed1_a0b4_28db);
        (t as u64) ^ (t >> 64) as u64
    }

    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
}

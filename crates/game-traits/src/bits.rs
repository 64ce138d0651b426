//! Bit-set helpers the games' samplers share, with the instructions the CPU
//! has where they pay.
//!
//! A uniform draw from a set held as bits ends with "the `n`-th set bit of
//! this word". `pdep` does that in one instruction on CPUs that have BMI2,
//! but on AMD processors before Zen 3 it is microcoded and costs up to
//! hundreds of cycles, so [`has_fast_pdep`] says no there and callers keep
//! their portable path (each game's sets have their own best one).
//! Detection happens at run time: the crates stay portable.
//!
//! ```
//! use game_traits::bits::has_fast_pdep;
//! # #[cfg(target_arch = "x86_64")]
//! if has_fast_pdep() {
//!     // SAFETY: `has_fast_pdep` has checked that the CPU has BMI2.
//!     let seventh = unsafe { game_traits::bits::select_pdep(0b1011_0000, 2) };
//!     assert_eq!(seventh, Some(7));
//! }
//! ```

/// Whether the CPU counts bits in one instruction (`popcnt`), so that a
/// function compiled with `#[target_feature(enable = "popcnt")]` may run.
#[inline]
pub fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cfg!(target_feature = "popcnt") || std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether `pdep` (BMI2) is present and fast: false on AMD and Hygon
/// processors before Zen 3 (family 0x19), which microcode it. A function
/// compiled with `#[target_feature(enable = "bmi2")]` may run whenever this
/// is true.
#[inline]
pub fn has_fast_pdep() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::sync::atomic::Ordering;
        // The check is one load, so that callers stay small enough to inline;
        // the detection itself is out of line and runs once.
        match FAST_PDEP.load(Ordering::Relaxed) {
            2 => true,
            1 => false,
            _ => detect_fast_pdep(),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// 0: not yet known, 1: no, 2: yes. A race only repeats the detection.
#[cfg(target_arch = "x86_64")]
static FAST_PDEP: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn detect_fast_pdep() -> bool {
    let fast = std::arch::is_x86_feature_detected!("bmi2") && !slow_pdep_vendor();
    FAST_PDEP.store(
        if fast { 2 } else { 1 },
        std::sync::atomic::Ordering::Relaxed,
    );
    fast
}

#[cfg(target_arch = "x86_64")]
fn slow_pdep_vendor() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let name = [vendor.ebx, vendor.edx, vendor.ecx];
    let amd = name == [0x6874_7541, 0x6974_6e65, 0x444d_4163]; // "AuthenticAMD"
    let hygon = name == [0x6f67_7948, 0x6e65_476e, 0x656e_6975]; // "HygonGenuine"
    if !(amd || hygon) {
        return false;
    }
    let eax = __cpuid(1).eax;
    let base = (eax >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((eax >> 20) & 0xff)
    } else {
        base
    };
    family < 0x19
}

/// The position of the `n`-th (from 0, lowest first) set bit of `word`, or
/// `None` when it has `n` or fewer, by one `pdep`: depositing `1 << n` into
/// the set bits of `word` leaves exactly the `n`-th of them. Inlined into callers compiled
/// with the same feature, so a whole sampler can be built with BMI2.
///
/// # Safety
///
/// The CPU must have BMI2 (see [`has_fast_pdep`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub unsafe fn select_pdep(word: u64, n: u32) -> Option<u32> {
    if n >= 64 {
        return None;
    }
    let bit = std::arch::x86_64::_pdep_u64(1u64 << n, word);
    (bit != 0).then(|| bit.trailing_zeros())
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn naive(word: u64, n: u32) -> Option<u32> {
        (0..64).filter(|i| word >> i & 1 == 1).nth(n as usize)
    }

    #[test]
    fn select_pdep_agrees_wherever_the_cpu_has_bmi2() {
        // Run on every CPU with BMI2, fast or not, so the instruction path
        // is tested wherever it can be.
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return;
        }
        let mut rng = crate::GameRng::seed_from_u64(8);
        for round in 0..4000 {
            // Sparse, dense and full words.
            let word = match round % 4 {
                0 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
                1 => rng.random::<u64>() | rng.random::<u64>(),
                2 => rng.random::<u64>(),
                _ => u64::MAX >> rng.random_range(0..64),
            };
            for n in 0..=65 {
                // SAFETY: checked above.
                assert_eq!(unsafe { select_pdep(word, n) }, naive(word, n));
            }
        }
    }
}

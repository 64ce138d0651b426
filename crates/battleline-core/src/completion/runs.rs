//! Runs without wild cards by table: the completion solver's commonest
//! question (where can a run of three or four values go, given the values
//! a side holds and those still available?) answered by two lookups
//! instead of trying every start. The expert asks it six times (once a
//! colour) for every Wedge it looks for, and the search over starts was
//! about a tenth of its time.

/// Per run length (3, 4) and 10-bit value mask: bit `lo` when the run of
/// that length from value index `lo` lies within the mask.
static WITHIN: [[u8; 1024]; 2] = runs_table(true);

/// Per run length (3, 4) and 10-bit value mask: bit `lo` when the run of
/// that length from value index `lo` holds every value of the mask.
static COVERING: [[u8; 1024]; 2] = runs_table(false);

const fn runs_table(within: bool) -> [[u8; 1024]; 2] {
    let mut t = [[0u8; 1024]; 2];
    let mut k = 0;
    while k < 2 {
        let n = 3 + k;
        let mut m = 0;
        while m < 1024 {
            let mut lo = 0;
            while lo + n <= 10 {
                let run = ((1u16 << n) - 1) << lo;
                let m16 = m as u16;
                let fits = if within {
                    run & !m16 == 0
                } else {
                    m16 & !run == 0
                };
                if fits {
                    t[k][m] |= 1 << lo;
                }
                lo += 1;
            }
            m += 1;
        }
        k += 1;
    }
    t
}

/// The highest start (0-based value index) of a run of `n` values holding
/// every value of `vmask`, its other values all in `avail` (the side has
/// no wild card and no two troops of one value); `None` when there is none.
/// `n` must be 3 or 4 (the formations' sizes).
#[inline]
pub(super) fn highest_start(n: u8, vmask: u16, avail: u16) -> Option<u8> {
    let k = usize::from(n - 3) & 1;
    let ok =
        WITHIN[k][usize::from((avail | vmask) & 0x3FF)] & COVERING[k][usize::from(vmask & 0x3FF)];
    (ok != 0).then(|| 7 - ok.leading_zeros() as u8)
}

//! The constants of Keccak-f[1600], derived from FIPS 202 section 3.2 at compile time rather than
//! copied from a table: the round constants from the LFSR `rc(t)` (algorithm 5), the rotation offsets
//! of rho (algorithm 2) and the lane permutation pi (algorithm 3). Lane `(x, y)` is index `x + 5 y`,
//! as in `keccak::f1600`.

/// Rounds of Keccak-f[1600]: `12 + 2 l` with `l = 6`.
pub(crate) const ROUNDS: usize = 24;

/// `rc(t)` of FIPS 202 algorithm 5: the output bit of an LFSR over GF(2)[x] / (x^8 + x^6 + x^5 + x^4 + 1).
const fn rc(t: usize) -> u64 {
    // R holds bits R[0..8] in bits 0..8; `0 || R` shifts it up, and R[8] (bit 8) folds back into
    // R[0], R[4], R[5] and R[6] (0x71) before the truncation to 8 bits.
    let mut r: u16 = 1;
    let mut i = 0;
    while i < t % 255 {
        r <<= 1;
        if r & 0x100 != 0 {
            r ^= 0x100 | 0x71;
        }
        i += 1;
    }
    (r & 1) as u64
}

/// `RC` of every round (FIPS 202 algorithm 6): bit `2^j - 1` is `rc(j + 7 i_r)` for `j` in 0..=6.
pub(crate) const ROUND_CONSTANTS: [u64; ROUNDS] = {
    let mut constants = [0u64; ROUNDS];
    let mut round = 0;
    while round < ROUNDS {
        let mut j = 0;
        while j <= 6 {
            constants[round] |= rc(j + 7 * round) << ((1 << j) - 1);
            j += 1;
        }
        round += 1;
    }
    constants
};

/// The rotation offset of rho for each lane (FIPS 202 algorithm 2): lane `(1, 0)` first, then along
/// `(x, y) -> (y, 2x + 3y)`, the t-th lane by `(t + 1)(t + 2) / 2 mod 64`; lane `(0, 0)` by 0.
pub(crate) const RHO: [u32; 25] = {
    let mut offsets = [0u32; 25];
    let (mut x, mut y) = (1, 0);
    let mut t = 0;
    while t < 24 {
        offsets[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let next_y = (2 * x + 3 * y) % 5;
        x = y;
        y = next_y;
        t += 1;
    }
    offsets
};

/// For each lane `(x, y)` after pi (FIPS 202 algorithm 3: `A'[x, y] = A[(x + 3y) mod 5, x]`): the index
/// of the lane it comes from, and that lane's rho offset (rho comes before pi in a round).
pub(crate) const PI_RHO: [(usize, u32); 25] = {
    let mut lanes = [(0usize, 0u32); 25];
    let mut y = 0;
    while y < 5 {
        let mut x = 0;
        while x < 5 {
            let source = (x + 3 * y) % 5 + 5 * x;
            lanes[x + 5 * y] = (source, RHO[source]);
            x += 1;
        }
        y += 1;
    }
    lanes
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_constants_are_those_of_the_specification() {
        // The first, a middle and the last of the published table (FIPS 202 / the Keccak reference).
        assert_eq!(ROUND_CONSTANTS[0], 0x0000_0000_0000_0001);
        assert_eq!(ROUND_CONSTANTS[1], 0x0000_0000_0000_8082);
        assert_eq!(ROUND_CONSTANTS[12], 0x0000_0000_8000_808B);
        assert_eq!(ROUND_CONSTANTS[23], 0x8000_0000_8000_8008);
    }

    #[test]
    fn rho_offsets_are_those_of_the_specification() {
        // FIPS 202 table 2, by lane index x + 5y.
        assert_eq!(RHO[..5], [0, 1, 62, 28, 27]);
        assert_eq!(RHO[5..10], [36, 44, 6, 55, 20]);
        assert_eq!(RHO[20..], [18, 2, 61, 56, 14]);
        // Every offset but lane (0, 0)'s is distinct.
        let mut seen = [false; 64];
        for &r in &RHO[1..] {
            assert!(!seen[r as usize]);
            seen[r as usize] = true;
        }
    }

    #[test]
    fn pi_is_a_permutation_of_the_lanes() {
        let mut seen = [false; 25];
        for &(source, _) in &PI_RHO {
            assert!(!seen[source]);
            seen[source] = true;
        }
        // (0, 0) stays; (1, 1) lands on (1, 0) and (3, 0) on (0, 1), as in A'[x, y] = A[x + 3y, x].
        assert_eq!(PI_RHO[0], (0, 0));
        assert_eq!(PI_RHO[1], (6, 44));
        assert_eq!(PI_RHO[5], (3, 28));
    }
}

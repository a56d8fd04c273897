//! The AVX2 backend: the four states side by side, lane `i` of state `k` in 64-bit element `k` of
//! the `i`-th 256-bit register, so every instruction of a round works on the four states at once.
//!
//! This is the only module with `unsafe` code: the one call of the `#[target_feature]` function after
//! the run-time check, and the unaligned loads and stores of the transposition.

use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi64x,
    _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use crate::spec::{PI_RHO, ROUND_CONSTANTS};

/// Whether this CPU (and OS) runs AVX2 code. `std` caches the CPUID answer after the first call.
pub(crate) fn available() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// Permutes the four states with AVX2 and returns `true`, or leaves them alone and returns `false`
/// when the CPU lacks AVX2.
#[inline]
pub(crate) fn try_f1600_x4(states: &mut [[u64; 25]; 4]) -> bool {
    if !available() {
        return false;
    }
    // SAFETY: `f1600_x4` requires only that the CPU supports AVX2, which `available()` has just
    // confirmed (`is_x86_feature_detected!` also checks that the OS saves the YMM registers).
    unsafe { f1600_x4(states) };
    true
}

#[target_feature(enable = "avx2")]
fn f1600_x4(states: &mut [[u64; 25]; 4]) {
    let mut lanes = transpose_in(states);
    // Each round returns the 25 lanes in their canonical places (so pi moves nothing between
    // iterations) and the column parities of the next round's theta, computed while the lanes are
    // still in registers. LLVM spills what does not fit in the 16 ymm registers; unrolling all 24
    // rounds measured slower here (about 335 against 230 ns per permutation in the same conditions).
    let mut parity = column_parity(&lanes);
    for rc in ROUND_CONSTANTS {
        (lanes, parity) = round(&lanes, &parity, rc);
    }
    transpose_out(&lanes, states);
}

/// Four 64-bit lanes of each state (at `i..i + 4`) as four registers of one lane each: a 4 x 4
/// transposition. It is its own inverse, so `transpose_out` uses it too.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi64(r[0], r[1]); // s0[i],   s1[i],   s0[i+2], s1[i+2]
    let t1 = _mm256_unpackhi_epi64(r[0], r[1]); // s0[i+1], s1[i+1], s0[i+3], s1[i+3]
    let t2 = _mm256_unpacklo_epi64(r[2], r[3]); // s2[i],   s3[i],   s2[i+2], s3[i+2]
    let t3 = _mm256_unpackhi_epi64(r[2], r[3]); // s2[i+1], s3[i+1], s2[i+3], s3[i+3]
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

#[inline]
#[target_feature(enable = "avx2")]
fn load4(lanes: &[u64; 4]) -> __m256i {
    // SAFETY: `lanes` is 32 readable bytes, exactly one `__m256i`; `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn store4(lanes: &mut [u64; 4], value: __m256i) {
    // SAFETY: `lanes` is 32 writable bytes, exactly one `__m256i`, borrowed mutably so nothing else
    // sees the write; `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), value) }
}

/// Four lanes of one state from `i`.
fn quad(state: &[u64; 25], i: usize) -> &[u64; 4] {
    state[i..i + 4].try_into().expect("4 lanes")
}

fn quad_mut(state: &mut [u64; 25], i: usize) -> &mut [u64; 4] {
    (&mut state[i..i + 4]).try_into().expect("4 lanes")
}

#[inline]
#[target_feature(enable = "avx2")]
fn transpose_in(states: &[[u64; 25]; 4]) -> [__m256i; 25] {
    let mut lanes = [_mm256_set1_epi64x(0); 25];
    for i in (0..24).step_by(4) {
        let rows = transpose4(states.each_ref().map(|s| load4(quad(s, i))));
        lanes[i..i + 4].copy_from_slice(&rows);
    }
    let last = states.each_ref().map(|s| s[24]);
    lanes[24] = load4(&last);
    lanes
}

#[inline]
#[target_feature(enable = "avx2")]
fn transpose_out(lanes: &[__m256i; 25], states: &mut [[u64; 25]; 4]) {
    for i in (0..24).step_by(4) {
        let rows = transpose4([lanes[i], lanes[i + 1], lanes[i + 2], lanes[i + 3]]);
        for (state, row) in states.iter_mut().zip(rows) {
            store4(quad_mut(state, i), row);
        }
    }
    let mut last = [0u64; 4];
    store4(&mut last, lanes[24]);
    for (state, lane) in states.iter_mut().zip(last) {
        state[24] = lane;
    }
}

/// Each 64-bit element rotated left by `L` bits; `R` must be `64 - L`. The rotations by whole bytes
/// (8 and 56) are one byte shuffle; the others are two shifts and an or (AVX2 has no rotation).
#[inline]
#[target_feature(enable = "avx2")]
fn rol<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    const { assert!(L + R == 64) };
    match L {
        0 => x,
        // Byte k of each element from byte k - 1 (mod 8), within each 128-bit half.
        8 => _mm256_shuffle_epi8(
            x,
            _mm256_setr_epi8(
                7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13,
                14,
            ),
        ),
        // Byte k of each element from byte k + 1 (mod 8).
        56 => _mm256_shuffle_epi8(
            x,
            _mm256_setr_epi8(
                1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14,
                15, 8,
            ),
        ),
        _ => _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x)),
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor5(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)), e)
}

/// Lane `$i` after theta, rho and pi: the lane `PI_RHO[$i].0` with theta's column parity `d` added,
/// rotated by its rho offset.
macro_rules! rho_pi {
    ($a:ident, $d:ident, $i:literal) => {
        rol::<{ PI_RHO[$i].1 as i32 }, { 64 - PI_RHO[$i].1 as i32 }>(_mm256_xor_si256(
            $a[PI_RHO[$i].0],
            $d[PI_RHO[$i].0 % 5],
        ))
    };
}

/// Chi on one plane (five lanes of one y, after rho and pi): `b[x] ^ (!b[x + 1] & b[x + 2])`.
macro_rules! chi {
    ($b:ident) => {
        [
            _mm256_xor_si256($b[0], _mm256_andnot_si256($b[1], $b[2])),
            _mm256_xor_si256($b[1], _mm256_andnot_si256($b[2], $b[3])),
            _mm256_xor_si256($b[2], _mm256_andnot_si256($b[3], $b[4])),
            _mm256_xor_si256($b[3], _mm256_andnot_si256($b[4], $b[0])),
            _mm256_xor_si256($b[4], _mm256_andnot_si256($b[0], $b[1])),
        ]
    };
}

/// One round of Keccak-f[1600] (theta, rho, pi, chi, iota) on the four states `a`, whose column
/// parities are `c`; returns the new states and their column parities.
#[inline]
#[target_feature(enable = "avx2")]
fn round(a: &[__m256i; 25], c: &[__m256i; 5], round_constant: u64) -> ([__m256i; 25], [__m256i; 5]) {
    // Theta: what the parities of the columns add to every lane of column x.
    let d = [
        _mm256_xor_si256(c[4], rol::<1, 63>(c[1])),
        _mm256_xor_si256(c[0], rol::<1, 63>(c[2])),
        _mm256_xor_si256(c[1], rol::<1, 63>(c[3])),
        _mm256_xor_si256(c[2], rol::<1, 63>(c[4])),
        _mm256_xor_si256(c[3], rol::<1, 63>(c[0])),
    ];
    // Rho and pi, then chi, one output plane at a time.
    let b0 = [rho_pi!(a, d, 0), rho_pi!(a, d, 1), rho_pi!(a, d, 2), rho_pi!(a, d, 3), rho_pi!(a, d, 4)];
    let e0 = chi!(b0);
    let b1 = [rho_pi!(a, d, 5), rho_pi!(a, d, 6), rho_pi!(a, d, 7), rho_pi!(a, d, 8), rho_pi!(a, d, 9)];
    let e1 = chi!(b1);
    let b2 = [rho_pi!(a, d, 10), rho_pi!(a, d, 11), rho_pi!(a, d, 12), rho_pi!(a, d, 13), rho_pi!(a, d, 14)];
    let e2 = chi!(b2);
    let b3 = [rho_pi!(a, d, 15), rho_pi!(a, d, 16), rho_pi!(a, d, 17), rho_pi!(a, d, 18), rho_pi!(a, d, 19)];
    let e3 = chi!(b3);
    let b4 = [rho_pi!(a, d, 20), rho_pi!(a, d, 21), rho_pi!(a, d, 22), rho_pi!(a, d, 23), rho_pi!(a, d, 24)];
    let e4 = chi!(b4);
    // Iota.
    let first = _mm256_xor_si256(e0[0], _mm256_set1_epi64x(round_constant as i64));
    let e = [
        first, e0[1], e0[2], e0[3], e0[4], e1[0], e1[1], e1[2], e1[3], e1[4], e2[0], e2[1], e2[2], e2[3], e2[4], e3[0],
        e3[1], e3[2], e3[3], e3[4], e4[0], e4[1], e4[2], e4[3], e4[4],
    ];
    let parity = column_parity(&e);
    (e, parity)
}

/// The parity of each column (theta's C).
#[inline]
#[target_feature(enable = "avx2")]
fn column_parity(a: &[__m256i; 25]) -> [__m256i; 5] {
    [0, 1, 2, 3, 4].map(|x| xor5(a[x], a[x + 5], a[x + 10], a[x + 15], a[x + 20]))
}

//! Four Keccak-f[1600] permutations at once, for batch work over many independent sponges.
//!
//! [`f1600_x4`] permutes four independent states; the result is bit-identical to
//! [`keccak::f1600`] on each state. On x86_64 CPUs with AVX2 it runs the four side by side in 256-bit
//! registers (one 64-bit lane of each state per register); elsewhere, and on x86_64 CPUs without
//! AVX2, it calls `keccak::f1600` four times.
//!
//! ```
//! let mut states = [[0u64; 25]; 4];
//! states[1][0] = 1;
//! let mut expected = states;
//! fairmines_keccak::f1600_x4(&mut states);
//! for state in &mut expected {
//!     keccak::f1600(state);
//! }
//! assert_eq!(states, expected);
//! assert_eq!(states[0][0], 0xF125_8F79_40E1_DDE7); // Keccak-f[1600] of the zero state
//! ```
//!
//! # Choice of the backend
//!
//! Each call of [`f1600_x4`] asks `std::is_x86_feature_detected!("avx2")`, which runs CPUID once per
//! process and then reads a cached flag (one atomic load); the answer decides between the AVX2 code and
//! the scalar fallback. [`backend`] says which one this machine uses.
//!
//! # Safety
//!
//! The API is safe. The `unsafe` code is confined to the private `avx2` module: one call of the
//! `#[target_feature(enable = "avx2")]` function, made only after the run-time check has confirmed
//! AVX2 (so no instruction the CPU lacks is ever executed), and the unaligned 32-byte loads and stores
//! between the states and the registers, each on a `&[u64; 4]` / `&mut [u64; 4]` borrowed from the
//! caller's states (in bounds by construction, and `loadu`/`storeu` need no alignment). Every other
//! intrinsic is a safe function inside a `#[target_feature]` function (Rust 1.87+).
#![deny(unsafe_code)] // everywhere but the `avx2` module, which allows it for itself
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2;
// The constants are used by the AVX2 code only (the fallback is `keccak::f1600`), and by unit tests.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
mod spec;

/// The README's example runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// Four independent Keccak-f[1600] permutations; bit-identical to `keccak::f1600` on each state.
#[inline]
pub fn f1600_x4(states: &mut [[u64; 25]; 4]) {
    #[cfg(target_arch = "x86_64")]
    if avx2::try_f1600_x4(states) {
        return;
    }
    f1600_x4_scalar(states);
}

/// Which implementation [`f1600_x4`] uses on this machine (`"avx2"` or `"scalar"`), for benchmarks and
/// reports.
pub fn backend() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if avx2::available() {
        return "avx2";
    }
    "scalar"
}

/// The scalar fallback on any machine: `keccak::f1600` on each state. Public only so that tests and
/// benchmarks can compare both paths on one machine.
#[doc(hidden)]
#[inline]
pub fn f1600_x4_scalar(states: &mut [[u64; 25]; 4]) {
    for state in states {
        keccak::f1600(state);
    }
}

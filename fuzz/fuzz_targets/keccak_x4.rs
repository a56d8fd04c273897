//! `fairmines_keccak::f1600_x4` (AVX2 where the CPU has it) and `f1600_x4_scalar` on four arbitrary
//! states, applied one to four times in a row: each result equals `keccak::f1600` on each state alone.
#![no_main]

use arbitrary::Arbitrary;
use fairmines_keccak::{f1600_x4, f1600_x4_scalar};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    states: [[u64; 25]; 4],
    /// Extra applications (0..=3) of the permutation to its own output.
    repeat: u8,
}

fuzz_target!(|input: Input| {
    let mut expected = input.states;
    let mut x4 = input.states;
    let mut scalar = input.states;
    for step in 0..=input.repeat % 4 {
        for state in &mut expected {
            keccak::f1600(state);
        }
        f1600_x4(&mut x4);
        f1600_x4_scalar(&mut scalar);
        assert_eq!(x4, expected, "f1600_x4 ({}) differs at application {step}", fairmines_keccak::backend());
        assert_eq!(scalar, expected, "f1600_x4_scalar differs at application {step}");
    }
});

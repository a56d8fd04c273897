//! `f1600_x4` (the backend of this machine) and `f1600_x4_scalar` against `keccak::f1600` on each
//! state, lane for lane.

use fairmines_keccak::{backend, f1600_x4, f1600_x4_scalar};
use proptest::prelude::*;

type States = [[u64; 25]; 4];
type Permutation = fn(&mut States);

/// Both paths of the crate.
const PATHS: [(&str, Permutation); 2] = [("f1600_x4", f1600_x4), ("f1600_x4_scalar", f1600_x4_scalar)];

/// The reference: `keccak::f1600` on each state alone.
fn reference(states: &States) -> States {
    let mut expected = *states;
    for state in &mut expected {
        keccak::f1600(state);
    }
    expected
}

fn assert_matches_reference(states: &States) {
    let expected = reference(states);
    for (name, permute) in PATHS {
        let mut actual = *states;
        permute(&mut actual);
        for k in 0..4 {
            for i in 0..25 {
                assert_eq!(
                    actual[k][i],
                    expected[k][i],
                    "{name} ({}): state {k}, lane {i} (x = {}, y = {})",
                    backend(),
                    i % 5,
                    i / 5
                );
            }
        }
    }
}

/// A deterministic, well-mixed state (xorshift64 from `seed`).
fn pseudo_random_state(seed: u64) -> [u64; 25] {
    let mut x = seed | 1;
    core::array::from_fn(|_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}

#[test]
fn backend_is_avx2_where_the_cpu_has_it() {
    #[cfg(target_arch = "x86_64")]
    let expected = if std::is_x86_feature_detected!("avx2") { "avx2" } else { "scalar" };
    #[cfg(not(target_arch = "x86_64"))]
    let expected = "scalar";
    assert_eq!(backend(), expected);
}

#[test]
fn zero_states_give_the_known_first_lane() {
    // Keccak-f[1600] of the all-zero state (the Keccak team's KeccakF-1600 intermediate values).
    const FIRST_LANES: [u64; 5] = [
        0xF125_8F79_40E1_DDE7,
        0x84D5_CCF9_33C0_478A,
        0xD598_261E_A65A_A9EE,
        0xBD15_4730_6F80_494D,
        0x8B28_4E05_6253_D057,
    ];
    for (name, permute) in PATHS {
        let mut states = [[0u64; 25]; 4];
        permute(&mut states);
        for state in &states {
            assert_eq!(state[..5], FIRST_LANES, "{name}");
            assert_eq!(*state, states[0], "{name}: equal inputs give equal outputs");
        }
    }
    assert_matches_reference(&[[0u64; 25]; 4]);
}

#[test]
fn all_ones_and_single_bits_match_the_reference() {
    assert_matches_reference(&[[u64::MAX; 25]; 4]);
    // Each bit of each lane alone, in a different state each time: a wrong rotation, a lane taken
    // from the wrong place or a state mixed into another shows up as a difference.
    for i in 0..25 {
        for bit in 0..64 {
            let mut states = [[0u64; 25]; 4];
            states[(i + bit) % 4][i] = 1 << bit;
            assert_matches_reference(&states);
        }
    }
}

#[test]
fn four_different_states_do_not_mix() {
    let states: States = core::array::from_fn(|k| pseudo_random_state(k as u64 + 1));
    let expected = reference(&states);
    for (name, permute) in PATHS {
        let mut actual = states;
        permute(&mut actual);
        assert_eq!(actual, expected, "{name}");
        // Each state alone among zero states gives the same result as among the others.
        for k in 0..4 {
            let mut alone = [[0u64; 25]; 4];
            alone[k] = states[k];
            permute(&mut alone);
            assert_eq!(alone[k], expected[k], "{name}: state {k} alone");
            let zero = reference(&[[0u64; 25]; 4])[0];
            for other in (0..4).filter(|&o| o != k) {
                assert_eq!(alone[other], zero, "{name}: state {other} beside state {k}");
            }
        }
    }
}

#[test]
fn a_thousand_chained_permutations_match_the_reference() {
    let start: States = core::array::from_fn(|k| pseudo_random_state(0xDEAD_BEEF + k as u64));
    let mut expected = start;
    for _ in 0..1000 {
        for state in &mut expected {
            keccak::f1600(state);
        }
    }
    for (name, permute) in PATHS {
        let mut actual = start;
        for _ in 0..1000 {
            permute(&mut actual);
        }
        assert_eq!(actual, expected, "{name}");
    }
    // And from the zero state, chained, each step compared.
    let mut actual = [[0u64; 25]; 4];
    for step in 0..1000 {
        let expected = reference(&actual);
        f1600_x4(&mut actual);
        assert_eq!(actual, expected, "step {step}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn random_states_match_the_reference(lanes in proptest::collection::vec(any::<u64>(), 100)) {
        let states: States = core::array::from_fn(|k| core::array::from_fn(|i| lanes[25 * k + i]));
        let expected = reference(&states);
        for (name, permute) in PATHS {
            let mut actual = states;
            permute(&mut actual);
            prop_assert_eq!(actual, expected, "{}", name);
        }
    }

    #[test]
    fn sparse_states_match_the_reference(bits in proptest::collection::vec((0usize..4, 0usize..25, 0u32..64), 0..8)) {
        let mut states = [[0u64; 25]; 4];
        for (k, i, bit) in bits {
            states[k][i] ^= 1 << bit;
        }
        assert_matches_reference(&states);
    }
}

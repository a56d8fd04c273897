//! Properties that hold for every input, checked on random ones.

use std::sync::atomic::{AtomicBool, Ordering};

use fairmines::input::Number;
use fairmines::{
    BatchEnd, BatchOptions, Digest, Error, MineCount, Nonces, Published, Tiles, WordStream, draw_order, input,
    mine_positions, mine_positions_batch, mine_positions_batch_with, place_mines, round_signature, verify,
};
use proptest::prelude::*;
use sha3::Shake256;
use sha3::digest::{ExtendableOutput, Update};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn positions_are_unique_sorted_on_the_board_and_as_many_as_mines(
        server in ".*", client in ".*", nonce in any::<u64>(), mines in 1u32..=24,
    ) {
        let positions = mine_positions(&server, &client, nonce, mines).unwrap();
        prop_assert_eq!(positions.len(), mines as usize);
        prop_assert!(positions.windows(2).all(|w| w[0] < w[1]));
        prop_assert!(positions.iter().all(|&p| (1..=25).contains(&p)));
        let mut order = draw_order(&server, &client, nonce, mines).unwrap().to_vec();
        order.sort_unstable();
        let shifted: Vec<u8> = order.iter().map(|t| t + 1).collect();
        prop_assert_eq!(shifted.as_slice(), &*positions);
    }

    #[test]
    fn the_unbounded_stream_equals_the_48_word_pre_draw(signature in any::<[u8; 32]>()) {
        let signature = Digest::from_bytes(signature);
        let mut shake = Shake256::default();
        shake.update(signature.to_hex().as_bytes());
        let pre_drawn = shake.finalize_boxed(48 * 4);
        let expected: Vec<u32> = pre_drawn
            .chunks_exact(4)
            .map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let streamed: Vec<u32> = WordStream::new(&signature).take(48).collect();
        prop_assert_eq!(streamed, expected);
    }

    #[test]
    fn invalid_mine_counts_are_errors(mines in prop_oneof![Just(0u32), 25u32..]) {
        let err = mine_positions("s", "c", 0, mines).unwrap_err();
        prop_assert_eq!(err.code(), 1);
        prop_assert_eq!(err.argument(), Some("mines"));
        prop_assert!(err.to_string().starts_with("mines:"), "{}", err);
        prop_assert!(draw_order("s", "c", 0, mines).is_err());
    }

    #[test]
    fn any_signed_mine_count_is_checked_without_panicking(mines in any::<i64>()) {
        let checked = MineCount::try_from(mines);
        prop_assert_eq!(checked.is_ok(), (1..=24).contains(&mines));
    }

    #[test]
    fn parse_never_panics(text in ".*", tiles in proptest::collection::vec(any::<i64>(), 0..40)) {
        let _ = text.parse::<Digest>();
        let declared = Tiles::declared(tiles.iter().copied(), "positions");
        let valid = tiles.len() <= 25 && tiles.iter().all(|t| (1..=25).contains(t));
        prop_assert_eq!(declared.is_ok(), valid);
        if let Err(e) = declared { prop_assert_eq!(e.argument(), Some("positions")); }
        let parsed = Published::parse("s", "c", 0, 3, Some(&text), None);
        prop_assert_eq!(parsed.is_ok(), text.parse::<Digest>().is_ok());
    }

    #[test]
    fn any_finite_word_source_places_or_errors(words in proptest::collection::vec(any::<u32>(), 0..30), mines in 1u32..=24) {
        match place_mines(words.iter().copied(), MineCount::new(mines).unwrap()) {
            Ok(p) => prop_assert_eq!(p.positions().len(), mines as usize),
            Err(Error::StreamExhausted { words_read }) => prop_assert_eq!(words_read as usize, words.len()),
            Err(other) => prop_assert!(false, "unexpected {other}"),
        }
    }

    #[test]
    fn a_batch_equals_single_rounds(start in any::<u64>(), count in 0usize..40, mines in 1u32..=24) {
        let start = start.min(u64::MAX - 40);
        let m = MineCount::new(mines).unwrap();
        let mut out = vec![0u8; count * mines as usize];
        mine_positions_batch("server", "client", Nonces::Range { start, count }, m, &mut out).unwrap();
        for (i, row) in out.chunks(mines as usize).enumerate() {
            prop_assert_eq!(row, &*mine_positions("server", "client", start + i as u64, mines).unwrap());
        }
    }
}

#[test]
fn four_rounds_in_step_equal_single_rounds_across_block_and_digit_boundaries() {
    // Prefixes `server:client:` of 120..=140 bytes put the nonce's digits before, across and after
    // the end of the first 136-byte block; the nonces cross from one to two digits, 9 to 10 digits
    // and reach 2^64 - 1 (groups of mixed lengths run one at a time).
    let groups =
        [[0, 1, 2, 3], [7, 8, 9, 10], [96, 97, 98, 99], [999_999_998, 999_999_999, 1_000_000_000, 1_000_000_001]];
    let top = [u64::MAX - 3, u64::MAX - 2, u64::MAX - 1, u64::MAX];
    for prefix in 120..=140usize {
        let server = "s".repeat(prefix - 8);
        let rounds = fairmines::RoundHasher::new(&server, "client");
        for nonces in groups.iter().chain([&top]) {
            // The same mine count in every lane, and a different one in each.
            for mines in [[1; 4], [3; 4], [24; 4], [1, 24, 3, 12]] {
                let mines = mines.map(|m| MineCount::new(m).unwrap());
                let single = core::array::from_fn(|i| rounds.placement(nonces[i], mines[i]));
                assert_eq!(rounds.placements_x4(*nonces, mines), single, "prefix {prefix}, {nonces:?}, {mines:?}");
            }
        }
    }
}

#[test]
fn a_large_batch_runs_on_threads_and_equals_single_rounds() {
    let nonces: Vec<u64> = (0..20_000).map(|i| i * 7 + 3).collect();
    let mines = MineCount::new(5).unwrap();
    let mut out = vec![0u8; nonces.len() * 5];
    mine_positions_batch("s", "c", Nonces::List(&nonces), mines, &mut out).unwrap();
    for (nonce, row) in nonces.iter().zip(out.chunks(5)).step_by(97) {
        assert_eq!(row, &*mine_positions("s", "c", *nonce, 5).unwrap());
    }
}

#[test]
fn a_batch_with_a_thread_cap_equals_one_without() {
    let (nonces, mines) = (Nonces::Range { start: 1 << 40, count: 9_000 }, MineCount::new(7).unwrap());
    let mut all = vec![0u8; 9_000 * 7];
    mine_positions_batch("s", "c", nonces, mines, &mut all).unwrap();
    for cap in [1, 2, 64] {
        let mut capped = vec![0u8; 9_000 * 7];
        let options = BatchOptions { threads: Some(input::threads(Number::Int(cap), "threads").unwrap()), stop: None };
        let end = mine_positions_batch_with("s", "c", nonces, mines, &mut capped, options).unwrap();
        assert_eq!((end, &capped), (BatchEnd::Complete, &all), "threads: {cap}");
    }
}

#[test]
fn a_stopped_batch_says_so_and_an_unset_flag_changes_nothing() {
    let (nonces, mines) = (Nonces::Range { start: 0, count: 50_000 }, MineCount::new(2).unwrap());
    let mut out = vec![0u8; 100_000];
    // Set before: nothing is written.
    let stop = AtomicBool::new(true);
    let end =
        mine_positions_batch_with("s", "c", nonces, mines, &mut out, BatchOptions { threads: None, stop: Some(&stop) });
    assert_eq!((end.unwrap(), out.iter().all(|&b| b == 0)), (BatchEnd::Stopped, true));
    // Set by another thread while it runs (or before it starts): the rows after the stop are left.
    let stop = AtomicBool::new(false);
    let options = BatchOptions { threads: Some(1.try_into().unwrap()), stop: Some(&stop) };
    let end = std::thread::scope(|scope| {
        scope.spawn(|| stop.store(true, Ordering::Relaxed));
        mine_positions_batch_with("s", "c", nonces, mines, &mut out, options).unwrap()
    });
    let written = out.chunks(2).take_while(|row| row != &[0, 0]).count();
    match end {
        BatchEnd::Stopped => assert!(written < 50_000, "{written} rows written"),
        BatchEnd::Complete => assert_eq!(written, 50_000),
    }
    // Never set: every row, as without options.
    let (unset, mut expected) = (AtomicBool::new(false), vec![0u8; 100_000]);
    let options = BatchOptions { threads: None, stop: Some(&unset) };
    assert_eq!(mine_positions_batch_with("s", "c", nonces, mines, &mut out, options).unwrap(), BatchEnd::Complete);
    mine_positions_batch("s", "c", nonces, mines, &mut expected).unwrap();
    assert_eq!(out, expected);
}

#[test]
fn a_thread_cap_is_an_integer_of_at_least_one() {
    assert_eq!(input::threads(Number::Float(3.0), "threads").unwrap().get(), 3);
    for bad in [Number::Int(0), Number::Int(-1), Number::Float(1.5), Number::Float(f64::NAN)] {
        let err = input::threads(bad, "options.threads").unwrap_err();
        assert_eq!((err.code(), err.argument()), (14, Some("options.threads")));
        assert!(err.detail().starts_with("must be an integer of at least 1"), "{}", err.detail());
    }
}

#[test]
fn a_count_is_an_integer_of_at_least_zero() {
    assert_eq!(input::count(Number::Int(0), "max_failures").unwrap(), 0);
    assert_eq!(input::count(Number::Int(i128::from(u64::MAX)), "max_failures").unwrap(), u64::MAX);
    for bad in [Number::Int(-1), Number::Int(i128::from(u64::MAX) + 1), Number::Float(1.5), Number::Float(f64::NAN)] {
        let err = input::count(bad, "max_failures").unwrap_err();
        assert_eq!((err.code(), err.argument()), (14, Some("max_failures")));
        assert!(err.detail().starts_with("must be an integer of at least 0, got "), "{}", err.detail());
    }
}

#[test]
fn batch_errors_name_their_argument() {
    let mines = MineCount::new(3).unwrap();
    let err = mine_positions_batch("s", "c", Nonces::Range { start: 0, count: 2 }, mines, &mut [0u8; 5]).unwrap_err();
    assert_eq!((err.code(), err.argument()), (8, Some("out")));
    let err =
        mine_positions_batch("s", "c", Nonces::Range { start: u64::MAX, count: 2 }, mines, &mut [0u8; 6]).unwrap_err();
    assert_eq!((err.code(), err.argument()), (2, Some("nonce")));
    // The last nonce of a range may be u64::MAX itself.
    let mut out = [0u8; 3];
    mine_positions_batch("s", "c", Nonces::Range { start: u64::MAX, count: 1 }, mines, &mut out).unwrap();
    assert_eq!(&out, &*mine_positions("s", "c", u64::MAX, 3).unwrap());
}

#[test]
fn a_batch_writes_at_most_four_gib() {
    let three = MineCount::new(3).unwrap();
    // The largest batch of 3-mine rounds is allowed; one round more is refused before any buffer is looked at.
    let most = fairmines::input::MAX_BATCH_BYTES / 3;
    assert_eq!(fairmines::input::batch_bytes(most.into(), three).unwrap() as u64, most * 3);
    let err = fairmines::input::batch_bytes(u128::from(most) + 1, three).unwrap_err();
    assert_eq!((err.code(), err.argument()), (14, Some("nonces")));
    assert_eq!(
        err.to_string(),
        "nonces: 1431655766 rounds at mines = 3 need 4294967298 bytes, and one batch writes at most 4294967296 \
         (4 GiB): split it into batches of at most 1431655765 rounds"
    );
    let huge = Nonces::Range { start: 0, count: usize::MAX };
    let err = mine_positions_batch("s", "c", huge, MineCount::new(24).unwrap(), &mut []).unwrap_err();
    assert_eq!((err.code(), err.argument()), (14, Some("nonces")));
}

#[test]
fn verify_reports_a_wrong_commitment_with_both_values() {
    let seed = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    let wrong: Digest = round_signature(seed, "c", 0);
    let verdict = verify(&Published {
        server_seed: seed,
        client_seed: "c",
        nonce: 0,
        mines: MineCount::new(3).unwrap(),
        commitment: Some(wrong),
        positions: None,
    });
    let check = verdict.commitment_check.unwrap();
    assert!(!check.ok());
    assert_eq!(check.declared, wrong);
    assert_eq!(check.expected.to_string(), "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42");
    assert_eq!(verdict.positions_ok(), None);
    assert!(!verdict.is_ok());
}

#[test]
fn error_codes_are_stable_and_messages_name_the_argument() {
    let cases: Vec<(Error, u32, &str)> = vec![
        (MineCount::new(0).unwrap_err(), 1, "mines: "),
        (Tiles::declared([26], "positions").unwrap_err(), 3, "positions: "),
        (Tiles::declared([1; 26], "positions").unwrap_err(), 3, "positions: "),
        ("xyz".parse::<Digest>().unwrap_err(), 4, "digest: "),
        (Published::parse("s", "c", 0, 3, Some("00"), None).unwrap_err(), 4, "commitment: "),
        (place_mines([], MineCount::new(1).unwrap()).unwrap_err(), 6, "words: "),
    ];
    for (err, code, prefix) in cases {
        assert_eq!(err.code(), code, "{err}");
        assert!(err.to_string().starts_with(prefix), "{err}");
    }
}

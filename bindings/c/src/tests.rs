//! Rust-side tests of the boundary. The C test suite (bindings/c/tests) covers the API from C.

use std::path::Path;

use super::*;

/// The checked-in header must equal a fresh generation (build.rs writes it into OUT_DIR).
#[test]
fn header_is_up_to_date() {
    let fresh = include_str!(concat!(env!("OUT_DIR"), "/fairmines.h"));
    let checked_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../include/fairmines.h");
    if std::env::var_os("FAIRMINES_BLESS_HEADER").is_some_and(|v| v == "1") {
        std::fs::write(&checked_in, fresh).expect("write include/fairmines.h");
        return;
    }
    let current = std::fs::read_to_string(&checked_in).unwrap_or_default();
    assert!(
        current == fresh,
        "include/fairmines.h is out of date with bindings/c/src: run `FAIRMINES_BLESS_HEADER=1 cargo test -p fairmines-c` and commit the result"
    );
}

#[test]
fn a_panic_becomes_a_status_and_a_message() {
    let status = boundary::status_call(|| panic!("boom"));
    assert_eq!(status, fairmines_status::FAIRMINES_PANIC);
    let message = unsafe { core::ffi::CStr::from_ptr(fairmines_last_error()) }.to_str().unwrap();
    assert!(message.contains("panic") && message.contains("boom"), "{message}");
    let formatted = boundary::status_call(|| panic!("code {}", 7));
    assert_eq!(formatted, fairmines_status::FAIRMINES_PANIC);
    let message = unsafe { core::ffi::CStr::from_ptr(fairmines_last_error()) }.to_str().unwrap();
    assert!(message.contains("code 7"), "{message}");
    assert_eq!(boundary::value_call(1u8, || panic!("value")), 1);
}

#[test]
fn core_error_codes_map_to_the_same_status_numbers() {
    let errors = [
        fairmines::Error::InvalidMines { got: 0 },
        fairmines::Error::InvalidNonce { detail: String::new() },
        fairmines::Error::InvalidTile { argument: "positions", detail: String::new() },
        fairmines::Error::InvalidHex { argument: "commitment", detail: String::new() },
        fairmines::Error::InvalidUtf8 { argument: "client_seed" },
        fairmines::Error::StreamExhausted { words_read: 0 },
        fairmines::Error::Rng { detail: String::new() },
        fairmines::Error::BufferSize { needed: 1, got: 0 },
        fairmines::Error::TileAlreadyRevealed { tile: 1 },
        fairmines::Error::RoundFinished,
        fairmines::Error::NothingToCashOut,
        fairmines::Error::InvalidRtp { detail: String::new() },
        fairmines::Error::InvalidPicks { detail: String::new() },
        fairmines::Error::InvalidNumber { argument: "ratio", detail: String::new() },
        fairmines::Error::InvalidState { argument: "state", detail: String::new() },
        fairmines::Error::RoundsInPlay { nonces: vec![0] },
        fairmines::Error::RoundVoided,
    ];
    for error in errors {
        let code = error.code();
        let core_name = error.name();
        let failure = boundary::Failure::from(error);
        assert_eq!(failure.status as u32, code);
        assert_ne!(failure.status, fairmines_status::FAIRMINES_UNKNOWN_ERROR);
        // The C names are the core's names with the prefix, except two that predate Error::name().
        let name = format!("FAIRMINES_{core_name}");
        let expected = match name.as_str() {
            "FAIRMINES_RNG" => "FAIRMINES_RNG_FAILED",
            "FAIRMINES_BUFFER_SIZE" => "FAIRMINES_BUFFER_TOO_SMALL",
            other => other,
        };
        assert_eq!(format!("{:?}", failure.status), expected);
    }
    // Codes 1..=17 are all known; the first free code is unknown.
    for code in 1..=17 {
        assert_ne!(fairmines_status::from_code(code), fairmines_status::FAIRMINES_UNKNOWN_ERROR, "{code}");
    }
    assert_eq!(fairmines_status::from_code(18), fairmines_status::FAIRMINES_UNKNOWN_ERROR);
    assert_eq!(fairmines_status::from_code(999), fairmines_status::FAIRMINES_UNKNOWN_ERROR);
}

#[test]
fn every_status_has_its_own_description() {
    use fairmines_status::*;
    let all = [
        FAIRMINES_OK,
        FAIRMINES_INVALID_MINES,
        FAIRMINES_INVALID_NONCE,
        FAIRMINES_INVALID_TILE,
        FAIRMINES_INVALID_HEX,
        FAIRMINES_INVALID_UTF8,
        FAIRMINES_STREAM_EXHAUSTED,
        FAIRMINES_RNG_FAILED,
        FAIRMINES_BUFFER_TOO_SMALL,
        FAIRMINES_TILE_ALREADY_REVEALED,
        FAIRMINES_ROUND_FINISHED,
        FAIRMINES_NOTHING_TO_CASH_OUT,
        FAIRMINES_INVALID_RTP,
        FAIRMINES_INVALID_PICKS,
        FAIRMINES_INVALID_NUMBER,
        FAIRMINES_INVALID_STATE,
        FAIRMINES_ROUNDS_IN_PLAY,
        FAIRMINES_ROUND_VOIDED,
        FAIRMINES_NULL_POINTER,
        FAIRMINES_LENGTH_TOO_LARGE,
        FAIRMINES_PANIC,
        FAIRMINES_UNKNOWN_ERROR,
        FAIRMINES_RATIO_TOO_LARGE,
        FAIRMINES_ROUND_IN_PLAY,
    ];
    let text = |s: u32| unsafe { core::ffi::CStr::from_ptr(fairmines_status_str(s)) }.to_str().unwrap();
    let mut seen = std::collections::HashSet::new();
    for status in all {
        assert!(seen.insert(text(status as u32)), "{status:?}");
        assert_ne!(text(status as u32), "unknown status");
    }
    assert_eq!(text(u32::MAX), "unknown status");
}

#[test]
fn worked_example_and_outputs_untouched_on_error() {
    let server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    let client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    let mut out = [0xa5u8; 4];
    let call = |mines: i64, out: &mut [u8]| unsafe {
        fairmines_mine_positions(
            server.as_ptr().cast(),
            server.len(),
            client.as_ptr().cast(),
            client.len(),
            1,
            mines,
            out.as_mut_ptr(),
            out.len(),
        )
    };
    assert_eq!(call(3, &mut out), fairmines_status::FAIRMINES_OK);
    assert_eq!(out, [7, 10, 19, 0xa5]);
    let mut out = [0xa5u8; 4];
    assert_eq!(call(5, &mut out), fairmines_status::FAIRMINES_BUFFER_TOO_SMALL);
    assert_eq!(call(0, &mut out), fairmines_status::FAIRMINES_INVALID_MINES);
    // Wide values are judged whole: 259 would be 3 as a byte.
    assert_eq!(call(259, &mut out), fairmines_status::FAIRMINES_INVALID_MINES);
    assert_eq!(last_error(), "mines: must be an integer in 1..=24, got 259");
    assert_eq!(out, [0xa5; 4]);
    let version = unsafe { core::ffi::CStr::from_ptr(fairmines_version()) }.to_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
}

/// The documented bound: an RTP whose denominator is at most 10^12 gives multipliers that fit 64 bits.
#[test]
fn rtp_denominators_up_to_10_pow_12_always_fit() {
    let limit = u128::from(u64::MAX) / 1_000_000_000_000;
    let one = fairmines::Rtp::parse("1").unwrap();
    for entry in fairmines::payout_table(one) {
        assert!(entry.multiplier.numer() <= limit && entry.multiplier.denom() <= limit, "{entry:?}");
    }
    // The extremes of that range, through the C function.
    let mut table =
        vec![
            fairmines_payout_entry { mines: 0, safe_picks: 0, multiplier: fairmines_ratio { numer: 0, denom: 0 } };
            FAIRMINES_PAYOUT_TABLE_SIZE
        ];
    for rtp in ["0.999999999999", "1/1000000000000", "999999999989/1000000000000", "1"] {
        let status = unsafe { fairmines_payout_table(rtp.as_ptr().cast(), rtp.len(), table.as_mut_ptr(), table.len()) };
        assert_eq!(status, fairmines_status::FAIRMINES_OK, "{rtp}");
    }
    assert_eq!(fairmines::payout_table(one).len(), FAIRMINES_PAYOUT_TABLE_SIZE);
    assert!(game::c_ratio(fairmines::Ratio::new(1, u128::from(u64::MAX) + 1).unwrap(), "x").is_err());
    assert_eq!(
        game::c_ratio(fairmines::Ratio::new(u128::from(u64::MAX), 1).unwrap(), "x").unwrap(),
        fairmines_ratio { numer: u64::MAX, denom: 1 }
    );
}

fn last_error() -> String {
    unsafe { core::ffi::CStr::from_ptr(fairmines_last_error()) }.to_str().unwrap().to_owned()
}

/// A round of the worked example through the C functions (nonce 1, mines at 7, 10, 19), and the
/// record's replay; NULL handles are refused, and _free(NULL) is a no-op.
#[test]
fn a_round_through_the_c_api() {
    use core::ptr::{null, null_mut};
    let server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    let client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    let rtp = "0.99";
    unsafe {
        let mut pair: *mut fairmines_seed_pair = null_mut();
        let s = fairmines_seed_pair_from_parts(server.as_ptr().cast(), 64, client.as_ptr().cast(), 64, 1, &mut pair);
        assert_eq!(s, fairmines_status::FAIRMINES_OK);
        let mut round: *mut fairmines_round = null_mut();
        let s = fairmines_seed_pair_start_round(pair, 3, rtp.as_ptr().cast(), rtp.len(), &mut round);
        assert_eq!(s, fairmines_status::FAIRMINES_OK);
        let mut r = fairmines_reveal {
            is_mine: true,
            is_finished: true,
            safe_picks: 9,
            multiplier: fairmines_ratio { numer: 0, denom: 0 },
        };
        assert_eq!(fairmines_round_reveal(round, 1, &mut r), fairmines_status::FAIRMINES_OK);
        assert_eq!(
            r,
            fairmines_reveal {
                is_mine: false,
                is_finished: false,
                safe_picks: 1,
                multiplier: fairmines_ratio { numer: 9, denom: 8 }
            }
        );
        assert_eq!(fairmines_round_reveal(round, 1, &mut r), fairmines_status::FAIRMINES_TILE_ALREADY_REVEALED);
        assert!(last_error().starts_with("tile:"), "{}", last_error());
        let mut positions = [0u8; 3];
        assert_eq!(
            fairmines_round_mine_positions(round, positions.as_mut_ptr(), 3),
            fairmines_status::FAIRMINES_ROUND_IN_PLAY
        );
        assert_eq!(fairmines_round_reveal(round, 10, &mut r), fairmines_status::FAIRMINES_OK);
        assert!(r.is_mine && r.is_finished && r.safe_picks == 1);
        assert_eq!(fairmines_round_mine_positions(round, positions.as_mut_ptr(), 3), fairmines_status::FAIRMINES_OK);
        assert_eq!(positions, [7, 10, 19]);
        let mut m = fairmines_ratio { numer: 0, denom: 0 };
        assert_eq!(fairmines_round_cash_out(round, &mut m), fairmines_status::FAIRMINES_ROUND_FINISHED);

        let mut record = [0 as c_char; 512];
        let mut needed = 0usize;
        assert_eq!(
            fairmines_round_record_json(round, record.as_mut_ptr(), record.len(), &mut needed),
            fairmines_status::FAIRMINES_OK
        );
        let json = core::ffi::CStr::from_ptr(record.as_ptr()).to_str().unwrap().to_owned();
        assert_eq!(needed, json.len() + 1);
        assert!(json.contains(r#""picks":[1,10],"outcome":"lost","multiplier":null"#), "{json}");
        let mut v = core::mem::MaybeUninit::<fairmines_round_verification>::uninit();
        let mut diff = [0 as c_char; 64];
        let s = fairmines_verify_round_json(
            json.as_ptr().cast(),
            json.len(),
            server.as_ptr().cast(),
            64,
            v.as_mut_ptr(),
            diff.as_mut_ptr(),
            diff.len(),
            &mut needed,
        );
        assert_eq!(s, fairmines_status::FAIRMINES_OK);
        let v = v.assume_init();
        assert!(v.ok && v.commitment_ok && v.difference_count == 0 && needed == 1);
        assert_eq!(v.expected_outcome, fairmines_outcome::FAIRMINES_OUTCOME_LOST);
        assert_eq!(&v.mine_positions[..4], &[7, 10, 19, 0]);

        // NULL handles and outputs.
        assert_eq!(fairmines_round_reveal(null_mut(), 1, &mut r), fairmines_status::FAIRMINES_NULL_POINTER);
        assert_eq!(last_error(), "round: is NULL");
        assert_eq!(fairmines_seed_pair_nonce(null(), null_mut()), fairmines_status::FAIRMINES_NULL_POINTER);
        assert_eq!(last_error(), "pair: is NULL");
        let mut nonce = 0u64;
        assert_eq!(fairmines_seed_pair_nonce(pair, &mut nonce), fairmines_status::FAIRMINES_OK);
        assert_eq!(nonce, 2);
        fairmines_round_free(round);
        fairmines_seed_pair_free(pair);
        fairmines_round_free(null_mut());
        fairmines_seed_pair_free(null_mut());
    }
}

/// A failing text output reports the size it needs and leaves the buffer alone.
#[test]
fn text_outputs_report_the_size_needed() {
    let mut buf = [0x55 as c_char; 4];
    let mut needed = 0usize;
    let ratio = fairmines_ratio { numer: 2475, denom: 100 };
    let s = unsafe { fairmines_ratio_decimal(ratio, 2, buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!(s, fairmines_status::FAIRMINES_BUFFER_TOO_SMALL);
    assert_eq!(needed, 6);
    assert_eq!(buf, [0x55; 4]);
    assert_eq!(last_error(), "out: the output needs 6 bytes, the buffer has 4");
    let mut buf = [0 as c_char; 6];
    let s = unsafe { fairmines_ratio_decimal(ratio, 2, buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!(s, fairmines_status::FAIRMINES_OK);
    assert_eq!(unsafe { core::ffi::CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap(), "24.75");
}

/// Wide integer arguments are judged whole: a value that a narrower type would wrap into range
/// (257 → 1 as a byte, 2^32 + 2 → 2 as a u32) is refused, naming its argument.
#[test]
fn wide_arguments_are_refused_not_narrowed() {
    let rtp = "1";
    let mut m = fairmines_ratio { numer: 7, denom: 7 };
    let multiplier = |mines: i64, picks: i64, m: &mut fairmines_ratio| unsafe {
        fairmines_multiplier(mines, picks, rtp.as_ptr().cast(), rtp.len(), m)
    };
    assert_eq!(multiplier(3, 1, &mut m), fairmines_status::FAIRMINES_OK);
    assert_eq!(m, fairmines_ratio { numer: 25, denom: 22 });
    for picks in [257, -1, i64::MIN, i64::MAX, 23, 0] {
        let mut m = fairmines_ratio { numer: 7, denom: 7 };
        assert_eq!(multiplier(3, picks, &mut m), fairmines_status::FAIRMINES_INVALID_PICKS, "{picks}");
        assert_eq!(last_error(), format!("safe_picks: must be in 1..=22 with 3 mines, got {picks}"));
        assert_eq!(m, fairmines_ratio { numer: 7, denom: 7 });
    }
    for mines in [259, -1, 25, i64::MIN] {
        assert_eq!(multiplier(mines, 1, &mut m), fairmines_status::FAIRMINES_INVALID_MINES, "{mines}");
        assert_eq!(last_error(), format!("mines: must be an integer in 1..=24, got {mines}"));
    }

    let third = fairmines_ratio { numer: 1, denom: 3 };
    let mut buf = [0x55 as c_char; 32];
    let mut needed = 0usize;
    let decimal = |places: i64, buf: &mut [c_char], needed: &mut usize| unsafe {
        fairmines_ratio_decimal(third, places, buf.as_mut_ptr(), buf.len(), needed)
    };
    assert_eq!(decimal(18, &mut buf, &mut needed), fairmines_status::FAIRMINES_OK);
    assert_eq!(needed, 21); // "0." and 18 digits and the NUL
    for places in [19, -1, (1 << 32) + 2, i64::MAX] {
        let mut buf = [0x55 as c_char; 32];
        let mut needed = 99usize;
        assert_eq!(decimal(places, &mut buf, &mut needed), fairmines_status::FAIRMINES_INVALID_NUMBER, "{places}");
        assert_eq!(last_error(), format!("places: must be an integer in 0..=18, got {places}"));
        assert_eq!((buf, needed), ([0x55 as c_char; 32], 99));
    }
}

#[test]
fn verdicts_follow_the_core() {
    use fairmines::Verdict;
    assert_eq!(fairmines_verdict::from(Verdict::Ok), fairmines_verdict::FAIRMINES_VERDICT_OK);
    assert_eq!(fairmines_verdict::from(Verdict::Mismatch), fairmines_verdict::FAIRMINES_VERDICT_MISMATCH);
    assert_eq!(fairmines_verdict::from(Verdict::Unchecked), fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED);
    // Zeroed memory never reads as a pass.
    assert_eq!(fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED as u32, 0);
}

//! The Rust-side tests of the C binding: the panic boundary and the status list against the core's error
//! kinds (scripts/check-generated.sh checks the committed header against a fresh generation). They are the crate's unit tests (`cargo test -p
//! fairmines-c`; lib.rs includes this file under `cfg(test)`): the crate ships no rlib that an
//! integration test could link, since an rlib named `fairmines` would collide with the core's. The C
//! suites (test_fairmines.c, test_game.c) test the API itself.

use std::ffi::CStr;

use super::*;

fn text(ptr: *const c_char) -> String {
    unsafe { CStr::from_ptr(ptr) }.to_str().unwrap().to_owned()
}

/// Every kind of the core is the status of the same code, named `FAIRMINES_` + its name, described in the
/// header and by `fairmines_status_str()` with its summary; a core error of that kind gives that status.
#[test]
fn every_core_error_kind_is_a_status_with_its_code_name_and_summary() {
    let header = include_str!(concat!(env!("OUT_DIR"), "/fairmines.h"));
    let readme = include_str!("../../README.md");
    for kind in fairmines::ErrorKind::ALL {
        let status = fairmines_status::from(kind);
        assert_eq!(status as u32, kind.code(), "{kind}");
        assert_eq!(format!("{status:?}"), format!("FAIRMINES_{}", kind.name()));
        assert_eq!(text(fairmines_status_str(kind.code())), kind.summary());
        let documented =
            format!("    /**\n     * {}\n     */\n    FAIRMINES_{} = {},\n", kind.summary(), kind.name(), kind.code());
        assert!(header.contains(&documented), "the header does not document {kind} with its summary:\n{documented}");
        let row = format!("| {} | `FAIRMINES_{}` | {} |", kind.code(), kind.name(), kind.summary());
        assert!(readme.contains(&row), "bindings/c/README.md lacks the row {row}");
    }
    // The header's constants are the core's.
    assert_eq!(FAIRMINES_TILES, usize::from(fairmines::TILES));
    assert_eq!(FAIRMINES_PAYOUT_TABLE_SIZE, fairmines::payout_table(fairmines::Rtp::parse("1").unwrap()).len());
    let core_codes = 1..=fairmines::ErrorKind::ALL.len() as u32;
    for status in [0, 100, 101, 102, 103, 104, 105] {
        assert!(!core_codes.contains(&status));
        assert_ne!(text(fairmines_status_str(status)), "unknown status", "{status}");
    }
    assert_eq!(text(fairmines_status_str(core_codes.end() + 1)), "unknown status");
    assert_eq!(text(fairmines_status_str(u32::MAX)), "unknown status");
    // A core error crosses with its kind's status and its message, or under the argument's C name.
    let error = fairmines::Error::BufferTooSmall { needed: 3, got: 2 };
    let failure = boundary::Failure::from(error.clone());
    assert_eq!(
        (failure.status, failure.message.as_str()),
        (fairmines_status::FAIRMINES_BUFFER_TOO_SMALL, "out: the output needs 3 bytes, the buffer has 2")
    );
    let failure = boundary::Failure::named(error, "out_positions");
    assert_eq!(failure.message, "out_positions: the output needs 3 bytes, the buffer has 2");
}

#[test]
fn a_panic_becomes_a_status_and_a_message() {
    let status = boundary::status_call(|| panic!("boom"));
    assert_eq!(status, fairmines_status::FAIRMINES_PANIC);
    let message = text(fairmines_last_error());
    assert!(message.contains("panic") && message.contains("boom"), "{message}");
    let formatted = boundary::status_call(|| panic!("code {}", 7));
    assert_eq!(formatted, fairmines_status::FAIRMINES_PANIC);
    assert!(text(fairmines_last_error()).contains("code 7"));
    assert_eq!(boundary::value_call(1u8, || panic!("value")), 1);
}

/// The documented bound: an RTP whose denominator is at most 10^12 gives multipliers that fit 64 bits
/// (the multipliers of RTP 1 are at most u64::MAX / 10^12 in both parts).
#[test]
fn rtp_denominators_up_to_10_pow_12_always_fit() {
    let limit = u128::from(u64::MAX) / 1_000_000_000_000;
    let one = fairmines::Rtp::parse("1").unwrap();
    for entry in fairmines::payout_table(one) {
        assert!(entry.multiplier.numer() <= limit && entry.multiplier.denom() <= limit, "{entry:?}");
    }
    assert_eq!(fairmines::payout_table(one).len(), FAIRMINES_PAYOUT_TABLE_SIZE);
    assert!(payout::c_ratio(fairmines::Ratio::new(1, u128::from(u64::MAX) + 1).unwrap(), "x").is_err());
    let max = fairmines::Ratio::new(u128::from(u64::MAX), 1).unwrap();
    assert_eq!(payout::c_ratio(max, "x").unwrap(), fairmines_ratio { numer: u64::MAX, denom: 1 });
}

#[test]
fn verdicts_and_checks_follow_the_core() {
    use fairmines::Verdict;
    assert_eq!(fairmines_verdict::from(Verdict::Ok), fairmines_verdict::FAIRMINES_VERDICT_OK);
    assert_eq!(fairmines_verdict::from(Verdict::Mismatch), fairmines_verdict::FAIRMINES_VERDICT_MISMATCH);
    assert_eq!(fairmines_verdict::from(Verdict::Unchecked), fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED);
    assert_eq!(fairmines_check::from(None), fairmines_check::FAIRMINES_CHECK_SKIPPED);
    assert_eq!(fairmines_check::from(Some(true)), fairmines_check::FAIRMINES_CHECK_PASSED);
    assert_eq!(fairmines_check::from(Some(false)), fairmines_check::FAIRMINES_CHECK_FAILED);
    // Zeroed memory never reads as a pass.
    assert_eq!(fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED as u32, 0);
}

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
    ];
    for error in errors {
        let code = error.code();
        let failure = boundary::Failure::from(error);
        assert_eq!(failure.status as u32, code);
        assert_ne!(failure.status, fairmines_status::FAIRMINES_UNKNOWN_ERROR);
    }
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
        FAIRMINES_NULL_POINTER,
        FAIRMINES_LENGTH_TOO_LARGE,
        FAIRMINES_PANIC,
        FAIRMINES_UNKNOWN_ERROR,
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
    let call = |mines: u8, out: &mut [u8]| unsafe {
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
    assert_eq!(out, [0xa5; 4]);
    let version = unsafe { core::ffi::CStr::from_ptr(fairmines_version()) }.to_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
}

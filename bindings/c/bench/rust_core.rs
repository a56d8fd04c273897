//! The Rust side of scripts/bench-c.sh: loops of calls straight into the core, built as a cdylib
//! (example `bench-core`) that bench/c_api.c loads beside libfairmines.a, so both sides are timed in
//! the same process, sample by sample. A cdylib because it keeps its own copy of std hidden; two Rust
//! staticlibs in one program clash. Each function runs the whole loop in Rust (one FFI call per
//! loop), so its time per call is the core's alone. The names start with `rust_core_`, which no C
//! function does: the script counts each loop's instructions by exact name (callgrind).
use std::hint::black_box;

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

/// `calls` commitments of the server seed, as hex text: the C API's `fairmines_commitment` writes
/// the 64 hex characters, so this side produces the same output.
#[unsafe(no_mangle)]
pub extern "C" fn rust_core_commitment_loop(calls: u64) {
    for _ in 0..calls {
        black_box(fairmines::commitment(black_box(SERVER)).to_hex());
    }
}

/// `calls` rounds' mine positions, nonces 0..calls (as c_api.c's loop).
#[unsafe(no_mangle)]
pub extern "C" fn rust_core_positions_loop(mines: u32, calls: u64) {
    for nonce in 0..calls {
        black_box(fairmines::mine_positions(black_box(SERVER), black_box(CLIENT), nonce, black_box(mines)).ok());
    }
}

/// Mine positions of nonces 0..count on all cores into `out` (`count * mines` bytes); aborts on error
/// (a panic cannot unwind out of `extern "C"`).
///
/// # Safety
/// `out` points to `count * mines` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rust_core_batch(count: usize, mines: u32, out: *mut u8) {
    let mines = fairmines::MineCount::new(mines).unwrap();
    // SAFETY: the caller's contract above.
    let out = unsafe { std::slice::from_raw_parts_mut(out, count * usize::from(mines.get())) };
    fairmines::mine_positions_batch(SERVER, CLIENT, fairmines::Nonces::Range { start: 0, count }, mines, out).unwrap();
}

//! The C API of fairmines: `libfairmines.a`, `libfairmines.so` and `include/fairmines.h`.
//!
//! Thin by design: every function converts C arguments into the core's types, calls the core
//! (`crates/fairmines`, which holds all the logic) and converts the result back.
//!
//! Conventions (also in the header): strings are UTF-8 spans (`const char *`, `size_t` length, no NUL
//! needed); every function returns a `fairmines_status` and writes its outputs only when it returns
//! `FAIRMINES_OK`; every body runs inside a panic boundary (see `boundary.rs`, which holds the
//! unsafe pointer handling).
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(non_camel_case_types)]
// The header, not rustdoc, documents the exported functions' safety contract for C callers.
#![allow(clippy::missing_safety_doc)]

mod boundary;
pub(crate) mod game;

pub use game::*;

use core::ffi::c_char;

use boundary::{
    Failure, input_bytes, input_str, output, output_buffer, output_slice, status_call, value_call, write_bytes,
    write_value,
};
use fairmines::{Digest, MineCount, Nonces, Published, ServerSeed, Tiles};

/// Tiles on the board (5 x 5). Positions are 1..=25, draw order indices 0..=24.
pub const FAIRMINES_TILES: usize = 25;
/// The smallest valid mine count.
pub const FAIRMINES_MIN_MINES: u8 = 1;
/// The largest valid mine count.
pub const FAIRMINES_MAX_MINES: u8 = 24;
/// Bytes of a hex output buffer: 64 lowercase hex characters and a terminating NUL.
pub const FAIRMINES_HEX_SIZE: usize = 65;

/// The result of every call. `FAIRMINES_OK` is 0; codes 1..=17 are the core library's stable error
/// codes (the same numbers in every fairmines binding; the names are the core's `Error::name()` with
/// the prefix `FAIRMINES_`, except the older `FAIRMINES_RNG_FAILED` and `FAIRMINES_BUFFER_TOO_SMALL`);
/// codes from 100 are specific to C.
/// `fairmines_status_str()` describes a code; `fairmines_last_error()` gives the message of the last
/// failure on the calling thread, naming the argument at fault.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_status {
    /// Success: the outputs were written.
    FAIRMINES_OK = 0,
    /// The mine count is outside 1..=24.
    FAIRMINES_INVALID_MINES = 1,
    /// A nonce past 2^64 - 1: a batch range that runs past it, or a seed pair that has used it.
    FAIRMINES_INVALID_NONCE = 2,
    /// A tile outside 1..=25 (declared, picked or revealed), or more than 25 tiles.
    FAIRMINES_INVALID_TILE = 3,
    /// A commitment or server seed that is not 64 hexadecimal characters (server seeds: lowercase).
    FAIRMINES_INVALID_HEX = 4,
    /// A string argument that is not valid UTF-8.
    FAIRMINES_INVALID_UTF8 = 5,
    /// The word stream ran out (cannot happen through this API; kept for code parity).
    FAIRMINES_STREAM_EXHAUSTED = 6,
    /// The operating system's random number generator failed.
    FAIRMINES_RNG_FAILED = 7,
    /// An output buffer is smaller than the result.
    FAIRMINES_BUFFER_TOO_SMALL = 8,
    /// A tile revealed a second time in the same round.
    FAIRMINES_TILE_ALREADY_REVEALED = 9,
    /// A reveal or cash-out on a round that has finished (lost or cashed out).
    FAIRMINES_ROUND_FINISHED = 10,
    /// A cash-out before any safe pick.
    FAIRMINES_NOTHING_TO_CASH_OUT = 11,
    /// A return-to-player factor that is not a fraction in (0, 1] (or not a number).
    FAIRMINES_INVALID_RTP = 12,
    /// A number of safe picks that the mine count does not allow (outside 1..=25 - mines).
    FAIRMINES_INVALID_PICKS = 13,
    /// A number (ratio) that does not parse, or a ratio with denominator 0.
    FAIRMINES_INVALID_NUMBER = 14,
    /// Saved state or a round record that does not parse or does not hold together (an unknown field
    /// included).
    FAIRMINES_INVALID_STATE = 15,
    /// The seed pair has rounds in play, so its server seed cannot be revealed (rotation): finish them, or
    /// void them with `fairmines_seed_pair_void_open_rounds()`. Not to be confused with
    /// `FAIRMINES_ROUND_IN_PLAY` (105), a finished round's output asked of a round in play.
    FAIRMINES_ROUNDS_IN_PLAY = 16,
    /// A reveal or cash-out on a round its seed pair voided (`fairmines_seed_pair_void_open_rounds()`).
    FAIRMINES_ROUND_VOIDED = 17,
    /// A required pointer argument is NULL.
    FAIRMINES_NULL_POINTER = 100,
    /// A length larger than any object can be (more than PTRDIFF_MAX).
    FAIRMINES_LENGTH_TOO_LARGE = 101,
    /// A bug: a Rust panic was caught at the boundary. Outputs are unspecified; please report it.
    FAIRMINES_PANIC = 102,
    /// An error of a newer core library that this C library does not know.
    FAIRMINES_UNKNOWN_ERROR = 103,
    /// An exact ratio whose numerator or denominator does not fit in 64 bits (`fairmines_ratio`).
    FAIRMINES_RATIO_TOO_LARGE = 104,
    /// The round is still in play: its mine positions and record exist once it has finished (or was
    /// voided). Not to be confused with `FAIRMINES_ROUNDS_IN_PLAY` (16), a refused rotation.
    FAIRMINES_ROUND_IN_PLAY = 105,
}

impl fairmines_status {
    fn from_code(code: u32) -> Self {
        use fairmines_status::*;
        match code {
            1 => FAIRMINES_INVALID_MINES,
            2 => FAIRMINES_INVALID_NONCE,
            3 => FAIRMINES_INVALID_TILE,
            4 => FAIRMINES_INVALID_HEX,
            5 => FAIRMINES_INVALID_UTF8,
            6 => FAIRMINES_STREAM_EXHAUSTED,
            7 => FAIRMINES_RNG_FAILED,
            8 => FAIRMINES_BUFFER_TOO_SMALL,
            9 => FAIRMINES_TILE_ALREADY_REVEALED,
            10 => FAIRMINES_ROUND_FINISHED,
            11 => FAIRMINES_NOTHING_TO_CASH_OUT,
            12 => FAIRMINES_INVALID_RTP,
            13 => FAIRMINES_INVALID_PICKS,
            14 => FAIRMINES_INVALID_NUMBER,
            15 => FAIRMINES_INVALID_STATE,
            16 => FAIRMINES_ROUNDS_IN_PLAY,
            17 => FAIRMINES_ROUND_VOIDED,
            _ => FAIRMINES_UNKNOWN_ERROR,
        }
    }
}

/// The outcome of one check in `fairmines_verify()`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_check {
    /// Not requested (the declared value was NULL).
    FAIRMINES_CHECK_SKIPPED = 0,
    /// The declared value equals the recomputed one.
    FAIRMINES_CHECK_PASSED = 1,
    /// The declared value differs from the recomputed one.
    FAIRMINES_CHECK_FAILED = 2,
}

/// What `fairmines_verify()` concluded. UNCHECKED is 0, so a zeroed struct never reads as OK.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_verdict {
    /// No check was requested (neither a commitment nor positions): the round was only recomputed, and
    /// nothing the operator published was compared with it.
    FAIRMINES_VERDICT_UNCHECKED = 0,
    /// At least one check was requested, and every requested one PASSED.
    FAIRMINES_VERDICT_OK = 1,
    /// A requested check FAILED.
    FAIRMINES_VERDICT_MISMATCH = 2,
}

impl From<fairmines::Verdict> for fairmines_verdict {
    fn from(verdict: fairmines::Verdict) -> Self {
        match verdict {
            fairmines::Verdict::Ok => fairmines_verdict::FAIRMINES_VERDICT_OK,
            fairmines::Verdict::Mismatch => fairmines_verdict::FAIRMINES_VERDICT_MISMATCH,
            fairmines::Verdict::Unchecked => fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED,
        }
    }
}

/// Everything `fairmines_verify()` recomputes, the verdict of each requested check and the overall one.
/// A plain value: the caller owns it (on the stack is fine), nothing inside needs freeing.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fairmines_verification {
    /// SHA3-256 of the server seed: 64 lowercase hex characters and a NUL.
    pub commitment: [c_char; FAIRMINES_HEX_SIZE],
    /// The round signature: 64 lowercase hex characters and a NUL.
    pub signature: [c_char; FAIRMINES_HEX_SIZE],
    /// The mine count; the first `mines` entries of `positions` and `draw_order` are set.
    pub mines: u8,
    /// The recomputed mine positions: sorted, 1-based; entries past `mines` are 0.
    pub positions: [u8; FAIRMINES_TILES],
    /// The recomputed draw order: 0-based tile indices as drawn; entries past `mines` are 0.
    pub draw_order: [u8; FAIRMINES_TILES],
    /// The commitment check (SKIPPED when no commitment was given).
    pub commitment_check: fairmines_check,
    /// The positions check (SKIPPED when no positions were given).
    pub positions_check: fairmines_check,
    /// OK, MISMATCH, or UNCHECKED when no check was requested.
    pub verdict: fairmines_verdict,
    /// True exactly when `verdict` is OK: at least one check was requested and every one PASSED. False
    /// when nothing was checked.
    pub ok: bool,
}

/// The crate version, e.g. "0.1.0", with a NUL.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library's version, e.g. "0.1.0": a static string, never NULL, never to be freed.
/// Compare it with `FAIRMINES_VERSION_STRING` to catch a header that does not match the library.
#[unsafe(no_mangle)]
pub extern "C" fn fairmines_version() -> *const c_char {
    value_call(c"".as_ptr(), || VERSION.as_ptr().cast())
}

/// A short English description of a status code: a static string, never NULL, never to be freed.
/// Takes any number; values that are not a `fairmines_status` give "unknown status".
#[unsafe(no_mangle)]
pub extern "C" fn fairmines_status_str(status: u32) -> *const c_char {
    value_call(c"unknown status".as_ptr(), || {
        let text: &core::ffi::CStr = match status {
            0 => c"success",
            1 => c"invalid mine count: must be 1..=24",
            2 => c"invalid nonce: past 2^64 - 1",
            3 => c"invalid tile: must be 1..=25, at most 25 tiles",
            4 => c"invalid hex: a digest must be 64 hexadecimal characters",
            5 => c"invalid UTF-8 in a string argument",
            6 => c"the word stream ran out",
            7 => c"the operating system's random number generator failed",
            8 => c"output buffer too small",
            9 => c"tile already revealed in this round",
            10 => c"the round has finished: no more reveals or cash-outs",
            11 => c"cash-out needs at least one safe pick",
            12 => c"invalid RTP factor: must be a fraction in (0, 1]",
            13 => c"invalid number of safe picks for the mine count",
            14 => c"invalid number: does not parse, or a denominator of 0",
            15 => c"invalid saved state or round record",
            16 => c"the seed pair has rounds in play: finish or void them before its server seed is revealed",
            17 => c"the round was voided: no more reveals or cash-outs",
            100 => c"NULL pointer argument",
            101 => c"length too large",
            102 => c"internal error: a Rust panic was caught (a bug, please report it)",
            103 => c"unknown error from the core library",
            104 => c"exact ratio too large for 64-bit numerator and denominator",
            105 => c"the round is still in play",
            _ => c"unknown status",
        };
        text.as_ptr()
    })
}

/// The message of the last failed call on the calling thread, naming the argument at fault, e.g.
/// "client_seed: is not valid UTF-8". Never NULL ("" before any failure). The string belongs to the
/// library and stays valid until the next failing fairmines call on the same thread; successful calls
/// do not change it (like errno).
#[unsafe(no_mangle)]
pub extern "C" fn fairmines_last_error() -> *const c_char {
    value_call(c"".as_ptr(), boundary::last_error)
}

/// Writes `hex` and a NUL into the caller's 65-byte buffer.
///
/// # Safety
/// `out` must be valid for 65 bytes of writes.
pub(crate) unsafe fn write_hex(out: core::ptr::NonNull<c_char>, digest: &Digest) {
    // Straight from the digest's hex bytes (ASCII, so no UTF-8 check) into the caller's buffer: one
    // copy of 64 bytes and the NUL, no local text buffer (this is on the path of every hex result).
    let hex = digest.to_hex();
    let out = out.cast::<u8>();
    // SAFETY: the caller guarantees 65 writable bytes: 64 here and the NUL at offset 64.
    unsafe {
        write_bytes(out, hex.as_bytes());
        write_value(out.add(FAIRMINES_HEX_SIZE - 1), 0);
    }
}

/// The commitment of a server seed: SHA3-256 of its UTF-8 text, as lowercase hex.
///
/// `server_seed` points to `server_seed_len` bytes of UTF-8 (no NUL needed; NULL is an error even when
/// the length is 0). `out_hex` receives 64 hex characters and a NUL: it must have room for
/// `FAIRMINES_HEX_SIZE` (65) bytes. It is written only when the call returns `FAIRMINES_OK`.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_commitment(
    server_seed: *const c_char,
    server_seed_len: usize,
    out_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract: a non-NULL pointer has `server_seed_len` readable bytes.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let out_hex = output(out_hex, "out_hex")?;
        let digest = fairmines::commitment(server_seed);
        // SAFETY: the header's contract: `out_hex` has room for 65 bytes.
        unsafe { write_hex(out_hex, &digest) };
        Ok(())
    })
}

/// The round signature: SHA3-256 of `server_seed + ":" + client_seed + ":" + decimal(nonce)`, as
/// lowercase hex.
///
/// Both seeds are UTF-8 spans (pointer and length, NULL is an error). `out_hex` receives 64 hex
/// characters and a NUL (65 bytes), only when the call returns `FAIRMINES_OK`.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_signature(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    out_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let out_hex = output(out_hex, "out_hex")?;
        let digest = fairmines::round_signature(server_seed, client_seed, nonce);
        // SAFETY: the header's contract: `out_hex` has room for 65 bytes.
        unsafe { write_hex(out_hex, &digest) };
        Ok(())
    })
}

/// Shared body of `fairmines_mine_positions` and `fairmines_draw_order`.
///
/// # Safety
/// The header's contract for the spans and the output buffer.
#[allow(clippy::too_many_arguments)] // the shape of the C API
unsafe fn tiles_call(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    out: *mut u8,
    out_capacity: usize,
    argument: &'static str,
    pick: fn(&fairmines::Placement) -> Tiles,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        output(out, argument)?;
        let mines = MineCount::try_from(mines)?;
        let out = output_buffer(out, out_capacity, usize::from(mines.get()), argument)?;
        let tiles = pick(&fairmines::placement(server_seed, client_seed, nonce, mines));
        // SAFETY: `out` has `out_capacity >= mines == tiles.len()` writable bytes (checked above).
        unsafe { write_bytes(out, &tiles) };
        Ok(())
    })
}

/// The mine positions of a round: `mines` tile numbers, sorted ascending, 1-based and row-major
/// (1 = top-left, 5 = top-right, 25 = bottom-right).
///
/// `mines` must be 1..=24 (any other value gives `FAIRMINES_INVALID_MINES`). `out_positions` must have
/// room for `out_capacity >= mines` bytes; exactly `mines` bytes are written, only when the call returns
/// `FAIRMINES_OK`.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_MINES`,
/// `FAIRMINES_BUFFER_TOO_SMALL`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_mine_positions(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    out_positions: *mut u8,
    out_capacity: usize,
) -> fairmines_status {
    // SAFETY: the same contract as this function's.
    unsafe {
        tiles_call(
            server_seed,
            server_seed_len,
            client_seed,
            client_seed_len,
            nonce,
            mines,
            out_positions,
            out_capacity,
            "out_positions",
            fairmines::Placement::positions,
        )
    }
}

/// The tiles of a round in the order they were drawn: `mines` 0-based tile indices (0..=24), unsorted.
///
/// Same arguments, buffer rule and errors as `fairmines_mine_positions()`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_draw_order(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    out_draw_order: *mut u8,
    out_capacity: usize,
) -> fairmines_status {
    // SAFETY: the same contract as this function's.
    unsafe {
        tiles_call(
            server_seed,
            server_seed_len,
            client_seed,
            client_seed_len,
            nonce,
            mines,
            out_draw_order,
            out_capacity,
            "out_draw_order",
            fairmines::Placement::draw_order,
        )
    }
}

/// The mine positions of `count` consecutive rounds `nonce_start, nonce_start + 1, ...` of one seed
/// pair, row after row: `count * mines` bytes, each row as `fairmines_mine_positions()` writes it.
/// Uses every core for large batches.
///
/// `out_positions` must have room for `out_capacity >= count * mines` bytes and must not overlap the
/// seeds. It is written only when the call returns `FAIRMINES_OK` (or, on `FAIRMINES_PANIC`, left in
/// an unspecified state). `count` may be 0. A range whose last nonce would pass 2^64 - 1 gives
/// `FAIRMINES_INVALID_NONCE`.
/// Errors: as `fairmines_mine_positions()`, plus `FAIRMINES_INVALID_NONCE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_mine_positions_batch(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce_start: u64,
    count: usize,
    mines: i64,
    out_positions: *mut u8,
    out_capacity: usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        output(out_positions, "out_positions")?;
        let mines = MineCount::try_from(mines)?;
        let needed = count
            .checked_mul(usize::from(mines.get()))
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| Failure::too_small("out_positions", usize::MAX, out_capacity))?;
        let out = output_buffer(out_positions, out_capacity, needed, "out_positions")?;
        // The core checks the range before writing anything; checking here too keeps the rule
        // "outputs written only on success" independent of the core's order.
        if count > 0 && nonce_start.checked_add(count as u64 - 1).is_none() {
            return Err(fairmines::Error::InvalidNonce {
                detail: format!("the range from {nonce_start} with {count} nonces passes 2^64 - 1"),
            }
            .into());
        }
        // SAFETY: `out` has `needed <= out_capacity` writable bytes, `needed <= isize::MAX`, and the
        // header forbids overlap with the seeds for the duration of the call.
        let out = unsafe { output_slice(out, needed) };
        fairmines::mine_positions_batch(
            server_seed,
            client_seed,
            Nonces::Range { start: nonce_start, count },
            mines,
            out,
        )?;
        Ok(())
    })
}

/// Verifies a finished round: recomputes commitment, signature and placement from the seeds and
/// compares them with what the operator declared.
///
/// `commitment` (a span of 64 hex characters, either case) and `positions` (a span of `positions_len`
/// 1-based tiles, any order) are optional: pass NULL to skip that check (the length is then ignored).
/// On `FAIRMINES_OK` the whole `*out` is written; a failed check is not an error: read `out->verdict`
/// (or `out->ok`), `out->commitment_check` and `out->positions_check`. With both NULL nothing is checked:
/// the verdict is `FAIRMINES_VERDICT_UNCHECKED` and `ok` is false. `mines` is 1..=24. On any error `*out`
/// is not touched.
/// Errors: `FAIRMINES_NULL_POINTER` (seeds or `out`), `FAIRMINES_INVALID_UTF8`,
/// `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_HEX` (commitment), `FAIRMINES_INVALID_TILE`
/// (positions), `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_verify(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    commitment: *const c_char,
    commitment_len: usize,
    positions: *const u8,
    positions_len: usize,
    out: *mut fairmines_verification,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (all three spans): the header's contract; NULL optional spans are skipped here.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let out = output(out, "out")?;
        let mines = MineCount::try_from(mines)?;
        let commitment = if commitment.is_null() {
            None
        } else {
            let text = unsafe { input_str(commitment, commitment_len, "commitment") }?;
            Some(Digest::parse_hex(text, "commitment")?)
        };
        let positions = if positions.is_null() {
            None
        } else {
            let tiles = unsafe { input_bytes(positions, positions_len, "positions") }?;
            Some(Tiles::declared(tiles.iter().copied(), "positions")?)
        };
        let verdict = fairmines::verify(&Published { server_seed, client_seed, nonce, mines, commitment, positions });
        let check = |ok: Option<bool>| match ok {
            None => fairmines_check::FAIRMINES_CHECK_SKIPPED,
            Some(true) => fairmines_check::FAIRMINES_CHECK_PASSED,
            Some(false) => fairmines_check::FAIRMINES_CHECK_FAILED,
        };
        let mut result = fairmines_verification {
            commitment: [0; FAIRMINES_HEX_SIZE],
            signature: [0; FAIRMINES_HEX_SIZE],
            mines: mines.get(),
            positions: [0; FAIRMINES_TILES],
            draw_order: [0; FAIRMINES_TILES],
            commitment_check: check(verdict.commitment_ok()),
            positions_check: check(verdict.positions_ok()),
            verdict: verdict.verdict().into(),
            ok: verdict.is_ok(),
        };
        copy_hex(&mut result.commitment, &verdict.commitment);
        copy_hex(&mut result.signature, &verdict.signature);
        let placement = verdict.placement;
        result.positions[..usize::from(mines.get())].copy_from_slice(&placement.positions());
        result.draw_order[..usize::from(mines.get())].copy_from_slice(&placement.draw_order());
        // SAFETY: the header's contract: `out` points to a `fairmines_verification` (alignment not needed).
        unsafe { write_value(out, result) };
        Ok(())
    })
}

fn copy_hex(dst: &mut [c_char; FAIRMINES_HEX_SIZE], digest: &Digest) {
    for (d, &s) in dst.iter_mut().zip(digest.to_hex().as_bytes()) {
        *d = s as c_char;
    }
    dst[FAIRMINES_HEX_SIZE - 1] = 0;
}

/// A fresh server seed from the operating system's CSPRNG: 32 random bytes written as 64 lowercase hex
/// characters, and its commitment (SHA3-256 of that text).
///
/// `out_seed_hex` and `out_commitment_hex` each need room for 65 bytes (64 characters and a NUL);
/// both are written only on `FAIRMINES_OK`. The seed is secret until its seed pair is rotated out:
/// the caller owns the buffer and should wipe it when done.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_RNG_FAILED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_server_seed_generate(
    out_seed_hex: *mut c_char,
    out_commitment_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        let out_seed = output(out_seed_hex, "out_seed_hex")?;
        let out_commitment = output(out_commitment_hex, "out_commitment_hex")?;
        // The core wipes its copy of the seed when `seed` is dropped.
        let seed = ServerSeed::generate()?;
        let mut text = [0 as c_char; FAIRMINES_HEX_SIZE];
        for (d, s) in text.iter_mut().zip(seed.reveal().bytes()) {
            *d = s as c_char;
        }
        // SAFETY: the header's contract: both buffers have room for 65 bytes.
        unsafe {
            write_bytes(out_seed, &text);
            write_hex(out_commitment, &seed.commitment());
        }
        text.fill(0);
        // Keep the wipe of the local copy from being optimised away.
        core::hint::black_box(&text);
        Ok(())
    })
}

#[cfg(test)]
mod tests;

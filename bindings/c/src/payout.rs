//! Exact payouts through C: ratios of two 64-bit numbers, multipliers, the payout table and decimals.

use core::ffi::c_char;

use fairmines::{MineCount, Number, Places, Ratio, Rtp, max_safe_picks};

use crate::boundary::{Failure, input_str, output, put, room, status_call, text_out, write_slice, write_value};
use crate::fairmines_status;

/// The number of entries `fairmines_payout_table()` writes: every mine count 1..=24 with every number of safe
/// picks 1..=25 - mines (24 + 23 + ... + 1).
pub const FAIRMINES_PAYOUT_TABLE_SIZE: usize = 300;

/// An exact non-negative fraction `numer / denom` in lowest terms (`denom` is never 0 in a result).
///
/// The core computes with 128-bit fractions; a result whose numerator or denominator does not fit in 64 bits is
/// refused with `FAIRMINES_RATIO_TOO_LARGE` instead of being rounded. Every RTP factor whose denominator in
/// lowest terms is at most 10^12 (any decimal with up to 12 places, e.g. "0.99") gives multipliers that always
/// fit. `fairmines_ratio_to_decimal()` writes the decimal shown to users.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct fairmines_ratio {
    /// The numerator.
    pub numer: u64,
    /// The denominator.
    pub denom: u64,
}

/// One entry of `fairmines_payout_table()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct fairmines_payout_entry {
    /// Mines in the round, 1..=24.
    pub mines: u8,
    /// Safe picks made, 1..=25 - mines.
    pub safe_picks: u8,
    /// The exact multiplier.
    pub multiplier: fairmines_ratio,
}

/// The value of a `has_multiplier = false` field: 0/1.
pub(crate) const ZERO: fairmines_ratio = fairmines_ratio { numer: 0, denom: 1 };

/// A core ratio as a C ratio, or `FAIRMINES_RATIO_TOO_LARGE` naming `argument`.
pub(crate) fn c_ratio(ratio: Ratio, argument: &str) -> Result<fairmines_ratio, Failure> {
    match (u64::try_from(ratio.numer()), u64::try_from(ratio.denom())) {
        (Ok(numer), Ok(denom)) => Ok(fairmines_ratio { numer, denom }),
        _ => Err(Failure {
            status: fairmines_status::FAIRMINES_RATIO_TOO_LARGE,
            message: format!("{argument}: the exact value {ratio} does not fit in a 64-bit numerator and denominator"),
        }),
    }
}

/// Every multiplier of the round must fit a `fairmines_ratio`: no reveal or cash-out fails once it moved.
pub(crate) fn check_round_fits(mines: MineCount, rtp: Rtp) -> Result<(), Failure> {
    c_ratio(rtp.factor(), "rtp")?;
    for safe_picks in 1..=max_safe_picks(mines) {
        c_ratio(fairmines::multiplier(mines, safe_picks, rtp)?, "rtp")?;
    }
    Ok(())
}

/// The exact multiplier after `safe_picks` safe picks with `mines` mines: C(25, k) / C(25 - m, k) x RTP, into
/// `*out_ratio`. `mines` is 1..=24 and `safe_picks` 1..=25 - mines (any other value is refused, never
/// narrowed); `rtp` as in `fairmines_seed_pair_start_round()`. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_PICKS` (outside 1..=25 - mines),
/// `FAIRMINES_INVALID_RTP`, `FAIRMINES_RATIO_TOO_LARGE`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_multiplier(
    mines: i64,
    safe_picks: i64,
    rtp: *const c_char,
    rtp_len: usize,
    out_ratio: *mut fairmines_ratio,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (the span and `out_ratio`): the header's contract.
        let rtp = unsafe { input_str(rtp, rtp_len, "rtp") }?;
        let out = output(out_ratio, "out_ratio")?;
        let mines = MineCount::try_from(Number::from(mines))?;
        let multiplier = fairmines::multiplier(mines, safe_picks, Rtp::parse(rtp)?)?;
        unsafe { write_value(out, c_ratio(multiplier, "multiplier")?) };
        Ok(())
    })
}

/// The whole payout table for an RTP factor: `FAIRMINES_PAYOUT_TABLE_SIZE` (300) entries, by mine count and
/// then safe picks, into `out_entries`, which has room for `capacity >= 300` entries. Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_RTP`, `FAIRMINES_RATIO_TOO_LARGE`,
/// `FAIRMINES_BUFFER_TOO_SMALL`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_payout_table(
    rtp: *const c_char,
    rtp_len: usize,
    out_entries: *mut fairmines_payout_entry,
    capacity: usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let rtp = unsafe { input_str(rtp, rtp_len, "rtp") }?;
        let out = output(out_entries, "out_entries")?;
        let entries = fairmines::payout_table(Rtp::parse(rtp)?)
            .into_iter()
            .map(|e| {
                let multiplier = c_ratio(e.multiplier, "multiplier")?;
                Ok(fairmines_payout_entry { mines: e.mines, safe_picks: e.safe_picks, multiplier })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        room::<fairmines_payout_entry>(capacity, entries.len(), "out_entries")?;
        // SAFETY: the header's contract: `out_entries` has room for `capacity >= entries.len()` entries.
        unsafe { write_slice(out, &entries) };
        Ok(())
    })
}

/// The decimal shown to users: `ratio` (not necessarily in lowest terms) rounded DOWN to `places` decimal
/// places, 0..=18 (never clamped), so a displayed multiplier never promises more than the exact one: 9/8 with 2
/// places is "1.12". Text output (see "API conventions"). Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_NUMBER` (denominator 0, naming `ratio.denom`; `places` outside 0..=18, naming `places`),
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_ratio_to_decimal(
    ratio: fairmines_ratio,
    places: i64,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        let decimal = || {
            // A 64-bit numerator is always a valid part: only the denominator (0) can be refused.
            let exact = Ratio::from_parts(ratio.numer, ratio.denom).map_err(|e| Failure::named(e, "ratio.denom"))?;
            Ok(exact.to_decimal(Places::new(places)?))
        };
        // SAFETY: the header's text-output contract.
        unsafe { text_out(out, capacity, out_needed, ["out", "out_needed"], decimal) }
    })
}

/// Parses an exact ratio from text (a UTF-8 span): "num/den", a whole number, or a decimal such as "0.99"
/// (exactly 99/100), as records write multipliers and RTP factors. The result is in lowest terms. Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_NUMBER`, `FAIRMINES_RATIO_TOO_LARGE`,
/// `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_ratio_parse(
    ratio: *const c_char,
    ratio_len: usize,
    out_ratio: *mut fairmines_ratio,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let text = unsafe { input_str(ratio, ratio_len, "ratio") }?;
        // SAFETY: the header's contract: `out_ratio` points to a writable struct.
        unsafe { put(out_ratio, "out_ratio", || c_ratio(Ratio::parse(text, "ratio")?, "ratio")) }
    })
}

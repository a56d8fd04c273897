//! Shared code of the fuzz targets: an independent, straightforward implementation of the algorithm
//! (`reference`), written from `ALGORITHM.md` over the `sha3` crate, and small input helpers.
//!
//! Nothing here calls the core's hashing or sampling: the targets compare the core with this code.

pub mod reference;

/// Bytes from the fuzzer as a string: the bytes themselves when they are valid UTF-8, else their lossy
/// conversion (so that every input still exercises the code).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A mine count for a target: mostly 0..=25 (every valid count and the two invalid neighbours),
/// sometimes any `u32`.
pub fn mine_count(selector: u8, any: u32) -> u32 {
    if selector < 240 { u32::from(selector) % 26 } else { any }
}

/// Whether findings already reported (and not yet fixed in the core) fail the run:
/// `FAIRMINES_FUZZ_STRICT=1`. Off by default so that fuzzing goes on past them; each such place in the
/// targets names its finding (see fuzz/README.md, "Findings").
pub fn strict() -> bool {
    static STRICT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STRICT.get_or_init(|| std::env::var_os("FAIRMINES_FUZZ_STRICT").is_some_and(|v| v == "1"))
}

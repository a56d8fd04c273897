//! Step 4: rejection sampling and partial Fisher–Yates placement on the 25-tile grid.

use core::fmt;
use core::ops::Deref;

use core::convert::Infallible;

use crate::hashing::{block_word, read_word};
use crate::{Error, WordStream};

/// Tiles on the board (5 × 5, numbered 1..=25 row-major: 1 top-left, 5 top-right, 25 bottom-right).
pub const TILES: u8 = 25;

/// A mine count the game offers: 1..=24.
///
/// ```
/// use fairmines::MineCount;
/// assert_eq!(MineCount::new(3)?.get(), 3);
/// assert!(MineCount::new(25).is_err());
/// assert!(MineCount::try_from(-1_i64).is_err());
/// # Ok::<(), fairmines::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MineCount(u8);

impl MineCount {
    /// The fewest mines a round can have.
    pub const MIN: u8 = 1;
    /// The most mines a round can have (one tile must stay safe).
    pub const MAX: u8 = TILES - 1;

    /// Checks that `mines` is in 1..=24.
    pub fn new(mines: u32) -> Result<Self, Error> {
        Self::try_from(i128::from(mines))
    }

    /// The count.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<i128> for MineCount {
    type Error = Error;
    fn try_from(mines: i128) -> Result<Self, Error> {
        if (i128::from(Self::MIN)..=i128::from(Self::MAX)).contains(&mines) {
            Ok(MineCount(mines as u8))
        } else {
            Err(Error::InvalidMines { got: mines })
        }
    }
}

macro_rules! mine_count_from {
    ($($t:ty),*) => {$(
        impl TryFrom<$t> for MineCount {
            type Error = Error;
            fn try_from(mines: $t) -> Result<Self, Error> {
                Self::try_from(mines as i128)
            }
        }
    )*};
}
mine_count_from!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// Up to 25 tile numbers, stored inline (no heap). Dereferences to `&[u8]`.
#[derive(Clone, Copy, Default)]
pub struct Tiles {
    len: u8,
    tiles: [u8; TILES as usize],
}

impl Tiles {
    /// Checks a list of declared mine positions (1-based) and returns it sorted.
    ///
    /// Every value must be in 1..=25 and there can be at most 25 of them; duplicates are kept so that
    /// a comparison with real positions fails. `argument` names the input in the error message.
    ///
    /// ```
    /// let declared = fairmines::Tiles::declared([19, 7, 10], "positions")?;
    /// assert_eq!(&*declared, &[7, 10, 19]);
    /// assert!(fairmines::Tiles::declared([0], "positions").is_err());
    /// # Ok::<(), fairmines::Error>(())
    /// ```
    pub fn declared<I>(positions: I, argument: &'static str) -> Result<Self, Error>
    where
        I: IntoIterator,
        I::Item: Into<i128>,
    {
        let mut out = Tiles::default();
        for (i, tile) in positions.into_iter().enumerate() {
            let tile = tile.into();
            if !(1..=i128::from(TILES)).contains(&tile) {
                return Err(Error::InvalidTile {
                    argument,
                    detail: format!("tile {tile} at index {i} is outside 1..=25"),
                });
            }
            if i >= usize::from(TILES) {
                return Err(Error::InvalidTile {
                    argument,
                    detail: "more than 25 tiles on a 25-tile board".to_owned(),
                });
            }
            out.push(tile as u8);
        }
        out.as_mut_slice().sort_unstable();
        Ok(out)
    }

    fn push(&mut self, tile: u8) {
        self.tiles[usize::from(self.len)] = tile;
        self.len += 1;
    }

    fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.tiles[..usize::from(self.len)]
    }
}

impl Deref for Tiles {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.tiles[..usize::from(self.len)]
    }
}

impl PartialEq for Tiles {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}
impl Eq for Tiles {}

impl fmt::Debug for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A draw the sampler threw away because its word was at or above the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// Which mine was being placed (0 = the first).
    pub draw: u8,
    /// Tiles still available at that draw (P): 25 at the first draw.
    pub available: u8,
    /// Position of the word in the stream (0-based).
    pub word_index: u32,
    /// The rejected word.
    pub word: u32,
}

/// Where the mines of one round lie.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    draw_order: Tiles,
    /// Bit `i` set: tile index `i` (0-based) holds a mine.
    mask: u32,
    words_used: u32,
}

impl Placement {
    /// The tile indices in the order they were drawn: 0-based, unsorted (what the article prints).
    pub fn draw_order(&self) -> Tiles {
        self.draw_order
    }

    /// The mine positions: sorted, 1-based (what the verifier prints).
    pub fn positions(&self) -> Tiles {
        // The mask's set bits, lowest first, are the mines in ascending order.
        let mut out = Tiles::default();
        let mut mask = self.mask;
        while mask != 0 {
            out.push(mask.trailing_zeros() as u8 + 1);
            mask &= mask - 1;
        }
        out
    }

    /// Whether 1-based `tile` holds a mine (`false` for a number off the board).
    pub fn is_mine(&self, tile: u8) -> bool {
        (1..=TILES).contains(&tile) && self.mask & (1 << (tile - 1)) != 0
    }

    /// The number of mines.
    pub fn mines(&self) -> u8 {
        self.draw_order.len
    }

    /// How many words of the stream were read: the mine count plus the rejected draws.
    pub fn words_used(&self) -> u32 {
        self.words_used
    }
}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Placement")
            .field("positions", &self.positions())
            .field("draw_order", &self.draw_order)
            .field("words_used", &self.words_used)
            .finish()
    }
}

/// Places `mines` mines with words from `words`.
///
/// For each mine, with P tiles still free, words at or above `floor(2^32 / P) * P` are rejected and the
/// next one is read; the accepted word's remainder mod P picks the tile among those still free, which
/// is then removed, keeping the others in order. Fails only if a finite `words` runs out.
///
/// ```
/// use fairmines::{place_mines, MineCount};
/// let placement = place_mines([9, 6, 18], MineCount::new(3)?)?;
/// // Index 18 among the 23 tiles left (9 and 6 are gone) is tile index 20.
/// assert_eq!(&*placement.draw_order(), &[9, 6, 20]);
/// assert_eq!(&*placement.positions(), &[7, 10, 21]);
/// // A word at or above floor(2^32 / 25) * 25 is rejected and the next one is read.
/// assert_eq!(place_mines([u32::MAX, 9], MineCount::new(1)?)?.words_used(), 2);
/// assert!(place_mines([9, 6], MineCount::new(3)?).is_err());
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn place_mines<I>(words: I, mines: MineCount) -> Result<Placement, Error>
where
    I: IntoIterator<Item = u32>,
{
    place_mines_observed(words, mines, |_| {})
}

/// [`place_mines`], calling `on_reject` for every rejected draw (for test vectors and searches).
pub fn place_mines_observed<I, F>(words: I, mines: MineCount, on_reject: F) -> Result<Placement, Error>
where
    I: IntoIterator<Item = u32>,
    F: FnMut(Rejection),
{
    let mut words = words.into_iter();
    let mut read = 0u32;
    place(
        || {
            let word = words.next().ok_or(Error::StreamExhausted { words_read: read })?;
            read += 1;
            Ok(word)
        },
        mines,
        on_reject,
    )
}

/// Places the mines of a round from an unbounded stream, which cannot run out.
pub(crate) fn place_from_stream(words: WordStream, mines: MineCount) -> Placement {
    if let Some(block) = words.unread_block()
        && let Some(placement) = place_unrejected(block, mines)
    {
        return placement;
    }
    let (mut state, mut next) = words.into_parts();
    let never_fails = place(|| Ok::<u32, Infallible>(read_word(&mut state, &mut next)), mines, |_| {});
    match never_fails {
        Ok(placement) => placement,
        Err(never) => match never {},
    }
}

/// The placement when no draw is rejected, which is almost every round: a word is rejected with
/// probability (2^32 mod P) / 2^32 < 6 × 10^-9, so mine `d` takes word `d` of the first block (24
/// mines need 24 of its 34 words). Checking every draw's limit without branching and falling back to
/// [`place`] when one fails gives the same result with none of the per-word bookkeeping.
fn place_unrejected(block: &[u64; 25], mines: MineCount) -> Option<Placement> {
    let mines = usize::from(mines.get()).min(LIMITS.len());
    let mut taken = Taken::new();
    let mut rejected = false;
    for draw in 0..mines {
        let word = block_word(block, draw);
        rejected |= !accepts(word, LIMITS[draw]);
        taken.take(REMAINDERS[draw].of(word));
    }
    if rejected {
        return None;
    }
    Some(taken.into_placement(mines as u32))
}

/// Bits per tile index in the packed list of free tiles (indices are 0..=24).
const TILE_BITS: u32 = 5;
const TILE_MASK: u8 = (1 << TILE_BITS) - 1;

/// The packed list 0, 1, …, 24: tile index `i` in bits `5i..5i + 5`.
const ALL_TILES: u128 = {
    let mut list = 0u128;
    let mut i = 0;
    while i < TILES as u32 {
        list |= (i as u128) << (TILE_BITS * i);
        i += 1;
    }
    list
};

/// At draw `d`, with P = 25 − d tiles free, `LIMITS[d]` = floor(2^32 / P) × P: the largest multiple
/// of P that fits in 32 bits. A word at or above it would bias the remainder mod P, so it is
/// rejected. A table, because this is a 64-bit division per mine otherwise.
const LIMITS: [u64; MineCount::MAX as usize] = {
    let mut limits = [0u64; MineCount::MAX as usize];
    let mut draw = 0;
    while draw < limits.len() {
        let p = (TILES as usize - draw) as u64;
        limits[draw] = (1u64 << 32) / p * p;
        draw += 1;
    }
    limits
};

/// `MOVING[i]`: the bits of the packed list from tile `i` on, the ones that move when it is taken (a
/// table: a variable 128-bit shift is several instructions on 64-bit machines).
const MOVING: [u128; TILES as usize] = {
    let mut moving = [0u128; TILES as usize];
    let mut i = 0;
    while i < moving.len() {
        moving[i] = u128::MAX << (TILE_BITS * i as u32);
        i += 1;
    }
    moving
};

/// Whether the sampler keeps `word` at a draw whose limit is `limit` (see [`LIMITS`]).
#[inline(always)]
fn accepts(word: u32, limit: u64) -> bool {
    u64::from(word) < limit
}

/// `word mod P` for one P in 2..=25, by two multiplications instead of a division (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019: exact for every 32-bit word and divisor).
/// A division was the largest cost of a draw after the permutation.
#[derive(Clone, Copy)]
struct Remainder {
    divisor: u64,
    /// floor(2^64 / divisor) + 1.
    inverse: u64,
}

impl Remainder {
    const fn new(divisor: u64) -> Self {
        Remainder { divisor, inverse: u64::MAX / divisor + 1 }
    }

    #[inline(always)]
    fn of(self, word: u32) -> u8 {
        let fraction = self.inverse.wrapping_mul(u64::from(word));
        ((u128::from(fraction) * u128::from(self.divisor)) >> 64) as u8
    }
}

/// `REMAINDERS[d]` takes a word mod P = 25 − d, the free tiles at draw `d`.
const REMAINDERS: [Remainder; MineCount::MAX as usize] = {
    let mut remainders = [Remainder::new(TILES as u64); MineCount::MAX as usize];
    let mut draw = 0;
    while draw < remainders.len() {
        remainders[draw] = Remainder::new((TILES as usize - draw) as u64);
        draw += 1;
    }
    remainders
};

/// The sampler itself, over any source of words; `E` is how the source can fail.
#[inline]
fn place<E, W, F>(mut next_word: W, mines: MineCount, mut on_reject: F) -> Result<Placement, E>
where
    W: FnMut() -> Result<u32, E>,
    F: FnMut(Rejection),
{
    let mut taken = Taken::new();
    let mut words_used = 0u32;
    for draw in 0..mines.get() {
        let (limit, remainder) = (LIMITS[usize::from(draw)], REMAINDERS[usize::from(draw)]);
        let index = loop {
            let word = next_word()?;
            let word_index = words_used;
            words_used += 1;
            if accepts(word, limit) {
                break remainder.of(word);
            }
            on_reject(Rejection { draw, available: TILES - draw, word_index, word });
        };
        taken.take(index);
    }
    Ok(taken.into_placement(words_used))
}

/// The tiles taken so far, and the free ones in order.
struct Taken {
    /// The free tiles in order, 5 bits each (25 × 5 = 125 bits): taking one out is a few shifts
    /// instead of moving the bytes after it, as a list would.
    available: u128,
    draw_order: Tiles,
    mask: u32,
}

impl Taken {
    #[inline(always)]
    fn new() -> Self {
        Taken { available: ALL_TILES, draw_order: Tiles::default(), mask: 0 }
    }

    /// Takes out the tile at `index` among those still free.
    #[inline(always)]
    fn take(&mut self, index: u8) {
        let available = self.available;
        let tile = (available >> (TILE_BITS * u32::from(index))) as u8 & TILE_MASK;
        // The tiles after the one taken move down one place; those before it stay.
        let moving = MOVING[usize::from(index)];
        self.available = available & !moving | (available >> TILE_BITS) & moving;
        self.draw_order.push(tile);
        self.mask |= 1 << tile;
    }

    #[inline(always)]
    fn into_placement(self, words_used: u32) -> Placement {
        Placement { draw_order: self.draw_order, mask: self.mask, words_used }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainder_by_multiplication_is_exact() {
        for remainder in REMAINDERS {
            let p = remainder.divisor as u32;
            // Every word near the ends and near the rejection limit, and a stride through the rest.
            // (For P dividing 2^32 the limit is 2^32 itself, and this range ends at u32::MAX.)
            let limit = (1u64 << 32) / u64::from(p) * u64::from(p);
            let near_limit = (limit - 300) as u32..=(limit + 300).min(u64::from(u32::MAX)) as u32;
            let edges = (0..=600).chain(u32::MAX - 600..=u32::MAX).chain(near_limit);
            // (Miri, which runs these tests too, interprets every instruction: fewer there.)
            let stride = if cfg!(miri) { 1 << 28 } else { 65_537 };
            let edges = edges.step_by(if cfg!(miri) { 97 } else { 1 });
            for word in edges.chain((0..=u32::MAX).step_by(stride)) {
                assert_eq!(u32::from(remainder.of(word)), word % p, "{word} mod {p}");
            }
        }
    }

    #[test]
    fn unrejected_path_agrees_with_the_sampler() {
        // Blocks from the permutation of counters, with every word of a chosen draw forced to the limit.
        for seed in 0..if cfg!(miri) { 24 } else { 400u64 } {
            let mut block = [0u64; 25];
            block[0] = seed;
            keccak::f1600(&mut block);
            let mines = MineCount::new((seed % 24 + 1) as u32).unwrap();
            let words = (0..).map(|k| block_word(&block, k)).take(34);
            let general = place_mines(words, mines).unwrap();
            assert_eq!(place_unrejected(&block, mines), Some(general));
            // Force draw d's word to exactly its limit (rejected); the fast path must decline. (No
            // word is rejected when P divides 2^32: P = 16, 8, 4, 2 at draws 9, 17, 21, 23.)
            let d = (seed % u64::from(mines.get())) as usize;
            let Ok(limit) = u32::try_from(LIMITS[d]) else { continue };
            let lane = &mut block[d / 2];
            let shift = 32 * (d % 2);
            *lane = *lane & !(0xffff_ffff << shift) | u64::from(limit.swap_bytes()) << shift;
            assert_eq!(block_word(&block, d), limit);
            assert_eq!(place_unrejected(&block, mines), None);
            let words = (0..).map(|k| block_word(&block, k)).take(34);
            assert_eq!(place_mines(words, mines).unwrap().words_used(), u32::from(mines.get()) + 1);
        }
    }
}

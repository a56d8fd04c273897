//! Step 4: rejection sampling and partial Fisher–Yates placement on the 25-tile grid.

use core::fmt;
use core::ops::Deref;

use core::convert::Infallible;

use crate::hashing::read_word;
use crate::{Error, Number, WordStream};

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
        Self::try_from(Number::from(mines))
    }

    /// The count.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl MineCount {
    /// For a value the caller has checked to be in 1..=24.
    pub(crate) const fn from_checked(mines: u8) -> Self {
        MineCount(mines)
    }
}

macro_rules! mine_count_from {
    ($($t:ty),*) => {$(
        impl TryFrom<$t> for MineCount {
            type Error = Error;
            fn try_from(mines: $t) -> Result<Self, Error> {
                Self::try_from(Number::from(mines))
            }
        }
    )*};
}
mine_count_from!(u8, u16, u32, u64, usize, i8, i16, i32, i64, i128);

/// Up to 25 tile numbers, stored inline (no heap). Dereferences to `&[u8]`.
#[derive(Clone, Copy, Default)]
pub struct Tiles {
    len: u8,
    tiles: [u8; TILES as usize],
}

impl Tiles {
    /// Checks a list of declared mine positions (1-based) and returns it sorted.
    ///
    /// Every value must be from 1 to 25 and there can be at most 25 of them; duplicates are kept so that
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
        I::Item: Into<Number>,
    {
        let mut out = crate::input::tiles(positions, argument)?;
        out.as_mut_slice().sort_unstable();
        Ok(out)
    }

    pub(crate) fn push(&mut self, tile: u8) {
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

/// `SET_BITS[b]`: the 1-based positions of the set bits of byte `b`, ascending, one per byte of the
/// little-endian `u64` (8 at most), and how many there are.
const SET_BITS: [(u64, u8); 256] = {
    let mut table = [(0u64, 0u8); 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut tiles, mut count) = (0u64, 0u8);
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                tiles |= (bit as u64 + 1) << (8 * count);
                count += 1;
            }
            bit += 1;
        }
        table[byte] = (tiles, count);
        byte += 1;
    }
    table
};

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
    /// Draw by draw, the accepted word mod P: the index of the tile taken among those still free.
    picks: Tiles,
    /// Bit `i` set: tile index `i` (0-based) holds a mine.
    mask: u32,
    words_used: u32,
}

impl Placement {
    /// The tile indices in the order they were drawn: 0-based, unsorted (what the article prints).
    pub fn draw_order(&self) -> Tiles {
        // Replayed from the picks: the positions (the hot path) do not need it.
        let mut free = FreeTiles::new();
        let mut order = Tiles::default();
        for &pick in self.picks.iter() {
            order.push(free.take(pick));
        }
        order
    }

    /// The mine positions: sorted, 1-based (what the verifier prints).
    pub fn positions(&self) -> Tiles {
        // The mask's set bits, lowest first, are the mines in ascending order. Eight bits at a time
        // from a table: a bit at a time took ~5 instructions a mine, 120 with 24 mines.
        let mut out = [0u8; 32];
        let mut len = 0;
        for (chunk, offset) in (0..32u32).step_by(8).map(|offset| ((self.mask >> offset) as u8, offset)) {
            let (tiles, count) = SET_BITS[usize::from(chunk)];
            // Bytes past `count` are junk that the next chunk overwrites or that lies past the end.
            let tiles = tiles + u64::from(offset) * 0x0101_0101_0101_0101;
            out[len..len + 8].copy_from_slice(&tiles.to_le_bytes());
            len += usize::from(count);
        }
        let mut tiles = [0u8; TILES as usize];
        tiles.copy_from_slice(&out[..TILES as usize]);
        Tiles { len: len as u8, tiles }
    }

    /// Whether 1-based `tile` holds a mine (`false` for a number off the board).
    pub fn is_mine(&self, tile: u8) -> bool {
        (1..=TILES).contains(&tile) && self.mask & (1 << (tile - 1)) != 0
    }

    /// The number of mines.
    pub fn mines(&self) -> u8 {
        self.picks.len
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
            .field("draw_order", &self.draw_order())
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
/// (By reference: the stream is 208 bytes, and LLVM copied it with `memcpy` when it was moved in.)
/// Always inlined, the fast path with it, into each round function: in the bindings' libraries, with
/// more callers, LLVM kept it out of line, a call and a copy of the placement more per round.
#[inline(always)]
pub(crate) fn place_from_stream(words: &mut WordStream, mines: MineCount) -> Placement {
    if let Some(block) = words.unread_block()
        && let Some(placement) = place_unrejected(block, mines)
    {
        return placement;
    }
    let (state, next) = words.parts_mut();
    let never_fails = place(|| Ok::<u32, Infallible>(read_word(state, next)), mines, |_| {});
    match never_fails {
        Ok(placement) => placement,
        Err(never) => match never {},
    }
}

/// The placement when no draw is rejected, which is almost every round: a word is rejected with
/// probability (2^32 mod P) / 2^32 < 6 × 10^-9, so mine `d` takes word `d` of the first block (24
/// mines need 24 of its 34 words). Checking the words without branching and falling back to
/// [`place`] when one might be rejected gives the same result with none of the per-word bookkeeping.
#[inline(always)]
fn place_unrejected(block: &[u64; 25], mines: MineCount) -> Option<Placement> {
    let mines = usize::from(mines.get()).min(REMAINDERS.len());
    let mut picks = Tiles { len: mines as u8, tiles: [0; TILES as usize] };
    // With 13 mines or more, the tiles left free are followed back as each pick is made (the last
    // draw first), so that this work overlaps the remainders instead of waiting for all of them.
    let (largest, mask) = if mines == usize::from(MineCount::MAX) {
        // One tile left free: its place alone, no byte lanes (as in `Survivors::undo`).
        let mut place = 0u8;
        let largest = pick_backwards(block, &mut picks, |pick| place += u8::from(place >= pick));
        (largest, ALL_MINES & !(1 << place))
    } else if let Some(mut survivors) = Survivors::after(mines) {
        let largest = pick_backwards(block, &mut picks, |pick| survivors.undo(pick));
        (largest, survivors.mask())
    } else {
        let largest = pick_backwards(block, &mut picks, |_| {});
        (largest, replayed_mask(&picks))
    };
    // Every draw's limit is at least ALWAYS_ACCEPTED: below it no word is rejected, whatever P is.
    // (A word at or above it is rejected only at some draws; the sampler then decides exactly.)
    if largest >= ALWAYS_ACCEPTED {
        return None;
    }
    Some(Placement { picks, mask, words_used: mines as u32 })
}

/// Fills `picks` (as many as its length) from the first words of `block`, mine `d` from word `d`,
/// the last draw first, and gives each pick to `on_pick`; returns the largest word.
#[inline(always)]
fn pick_backwards(block: &[u64; 25], picks: &mut Tiles, mut on_pick: impl FnMut(u8)) -> u32 {
    let mines = usize::from(picks.len);
    let mut largest = 0;
    let mut take = |draw: usize, word: u32| {
        largest = largest.max(word);
        let pick = REMAINDERS[draw].of(word);
        picks.tiles[draw] = pick;
        on_pick(pick);
    };
    // Two words a lane: the lane byte-swapped holds word 2i in its high half and 2i + 1 in its low.
    if mines % 2 == 1 {
        take(mines - 1, (block[mines / 2].swap_bytes() >> 32) as u32);
    }
    for pair in (0..mines / 2).rev() {
        let words = block[pair].swap_bytes();
        take(2 * pair + 1, words as u32);
        take(2 * pair, (words >> 32) as u32);
    }
    largest
}

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

/// The smallest of [`LIMITS`] (at least 2^32 − 24: each is 2^32 minus 2^32 mod P).
const ALWAYS_ACCEPTED: u32 = {
    let mut smallest = u32::MAX;
    let mut draw = 0;
    while draw < LIMITS.len() {
        if LIMITS[draw] < smallest as u64 {
            smallest = LIMITS[draw] as u32;
        }
        draw += 1;
    }
    smallest
};

/// Whether the sampler keeps `word` at a draw whose limit is `limit` (see [`LIMITS`]).
#[inline(always)]
fn accepts(word: u32, limit: u64) -> bool {
    u64::from(word) < limit
}

/// `word mod P` for one P in 2..=25, by two multiplications instead of a division (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019: with F = 58 fraction bits, at least 32 + 5
/// as their theorem asks for 32-bit words and divisors up to 2^5, it is exact for every word, and
/// both products fit in 64 bits). A division was the largest cost of a draw after the permutation.
#[derive(Clone, Copy)]
struct Remainder {
    divisor: u64,
    /// ceil(2^58 / divisor).
    inverse: u64,
}

/// The fraction bits of [`Remainder`].
const FRACTION_BITS: u32 = 58;

impl Remainder {
    const fn new(divisor: u64) -> Self {
        Remainder { divisor, inverse: (1u64 << FRACTION_BITS).div_ceil(divisor) }
    }

    /// The fraction word / P in 58 bits, times P: its integer part is the remainder.
    #[inline(always)]
    fn of(self, word: u32) -> u8 {
        let fraction = self.inverse.wrapping_mul(u64::from(word)) & ((1 << FRACTION_BITS) - 1);
        ((fraction * self.divisor) >> FRACTION_BITS) as u8
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
    let mut picks = Tiles::default();
    let mut words_used = 0u32;
    for draw in 0..mines.get() {
        let (limit, remainder) = (LIMITS[usize::from(draw)], REMAINDERS[usize::from(draw)]);
        let pick = loop {
            let word = next_word()?;
            let word_index = words_used;
            words_used += 1;
            if accepts(word, limit) {
                break remainder.of(word);
            }
            on_reject(Rejection { draw, available: TILES - draw, word_index, word });
        };
        picks.push(pick);
    }
    Ok(Placement { picks, mask: mine_mask(&picks), words_used })
}

/// The mine mask of a round from its picks (each draw's index among the tiles still free).
///
/// With few mines, the picks are replayed on the list of free tiles. With many, it is shorter to
/// follow the few tiles left free at the end back through the draws (see [`Survivors`]).
fn mine_mask(picks: &[u8]) -> u32 {
    match Survivors::after(picks.len()) {
        Some(mut survivors) => {
            picks.iter().rev().for_each(|&pick| survivors.undo(pick));
            survivors.mask()
        }
        None => replayed_mask(picks),
    }
}

/// The mine mask from replaying the picks on the list of free tiles.
#[inline(always)]
fn replayed_mask(picks: &[u8]) -> u32 {
    let mut free = FreeTiles::new();
    picks.iter().fold(0, |mask, &pick| mask | 1 << free.take(pick))
}

/// The mask with every tile a mine.
const ALL_MINES: u32 = (1 << TILES) - 1;

/// The places of the tiles still free after the draws (at most 12 of them: 13 mines or more),
/// followed backwards one draw at a time. A tile at place `i` in the list after a draw that took
/// place `p` was at place `i + 1` before it if `i >= p`, else at `i`. After the last draw the
/// survivors are at places 0, 1, … in order; before the first, a tile's place is the tile.
///
/// All of them move at once, one per byte of two 64-bit words (values stay below 128, so the
/// comparison can borrow from each byte's top bit without crossing into the next byte): about six
/// operations a draw instead of taking a tile out of the list.
struct Survivors {
    count: usize,
    /// The places of survivors 0..8 and 8..12, a byte each.
    low: u64,
    high: u64,
}

impl Survivors {
    const BYTES: u64 = 0x0101_0101_0101_0101;
    const TOP: u64 = 0x80 * Self::BYTES;

    /// The survivors of `mines` draws at their places after the last one, if there are at most 12.
    #[inline(always)]
    fn after(mines: usize) -> Option<Self> {
        let count = usize::from(TILES).checked_sub(mines).filter(|&count| count <= 12)?;
        Some(Survivors { count, low: 0x0706_0504_0302_0100, high: 0x0b0a_0908 })
    }

    /// Their places before a draw that took place `pick`.
    #[inline(always)]
    fn undo(&mut self, pick: u8) {
        let pick = u64::from(pick) * Self::BYTES;
        // Top bit of each byte: place >= pick. Shifted down to 1 and added: the place before the draw.
        self.low += (((self.low | Self::TOP) - pick) & Self::TOP) >> 7;
        if self.count > 8 {
            self.high += (((self.high | Self::TOP) - pick) & Self::TOP) >> 7;
        }
    }

    /// Every tile a mine but the survivors (once every draw is undone, their places are their tiles).
    #[inline(always)]
    fn mask(&self) -> u32 {
        let tile = |i: usize| if i < 8 { (self.low >> (8 * i)) as u8 } else { (self.high >> (8 * (i - 8))) as u8 };
        (0..self.count).fold(ALL_MINES, |mask, i| mask & !(1 << tile(i)))
    }
}

/// The free tiles in order, 5 bits each (25 × 5 = 125 bits): taking one out is a few shifts instead
/// of moving the bytes after it, as a list would.
struct FreeTiles(u128);

impl FreeTiles {
    #[inline(always)]
    fn new() -> Self {
        FreeTiles(ALL_TILES)
    }

    /// Takes out and returns the tile at `index` among those still free.
    #[inline(always)]
    fn take(&mut self, index: u8) -> u8 {
        let list = self.0;
        let tile = (list >> (TILE_BITS * u32::from(index))) as u8 & TILE_MASK;
        // The tiles after the one taken move down one place; those before it stay.
        let moving = MOVING[usize::from(index)];
        self.0 = list & !moving | (list >> TILE_BITS) & moving;
        tile
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hashing::block_word;

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

    /// Picks for `mines` draws from a counter: each one a valid index among the tiles still free.
    fn picks_from(seed: u64, mines: usize) -> Tiles {
        let mut state = [0u64; 25];
        state[0] = seed;
        keccak::f1600(&mut state);
        let mut picks = Tiles::default();
        for (draw, lane) in state[..mines].iter().enumerate() {
            picks.push((lane % (25 - draw as u64)) as u8);
        }
        picks
    }

    #[test]
    fn mask_from_survivors_matches_the_replayed_draws() {
        // Every mine count, so both ways (replaying the draws and following the survivors back) and the
        // one-survivor case are checked against taking the tiles out one by one.
        for seed in 0..if cfg!(miri) { 48 } else { 2_400u64 } {
            let mines = (seed % 24 + 1) as usize;
            let picks = picks_from(seed, mines);
            let mut free = FreeTiles::new();
            let replayed = picks.iter().fold(0u32, |mask, &pick| mask | 1 << free.take(pick));
            assert_eq!(mine_mask(&picks), replayed, "picks {picks:?}");
            assert_eq!(replayed.count_ones() as usize, mines);
        }
        // The extremes: always the first free tile, and always the last.
        for mines in 1..=24usize {
            let first = Tiles { len: mines as u8, tiles: [0; 25] };
            assert_eq!(mine_mask(&first), (1 << mines) - 1);
            let mut last = Tiles::default();
            (0..mines).for_each(|draw| last.push((24 - draw) as u8));
            assert_eq!(mine_mask(&last), ALL_MINES & !((1 << (25 - mines)) - 1));
        }
    }

    #[test]
    fn positions_are_the_set_bits_in_order() {
        for seed in 0..if cfg!(miri) { 64 } else { 20_000u32 } {
            let mask = seed.wrapping_mul(0x9e37_79b9).rotate_left(seed % 32) & ALL_MINES;
            let placement = Placement { picks: Tiles::default(), mask, words_used: 0 };
            let expected: Vec<u8> = (1..=25).filter(|&tile| mask >> (tile - 1) & 1 == 1).collect();
            assert_eq!(&*placement.positions(), &expected[..], "mask {mask:#x}");
        }
        let all = Placement { picks: Tiles::default(), mask: ALL_MINES, words_used: 0 };
        assert_eq!(&*all.positions(), &(1..=25).collect::<Vec<u8>>()[..]);
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

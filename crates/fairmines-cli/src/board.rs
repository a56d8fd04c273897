//! The 5 × 5 board as text.

use fairmines::{Placement, TILES, Tiles};

/// Tiles per row.
const SIDE: u8 = 5;

/// The 5 rows of the board, each tile shown by `mark(tile)` (1-based) right-aligned in `width` columns,
/// with `suffix(row)` after each row.
pub fn grid(width: usize, mark: impl Fn(u8) -> String, suffix: impl Fn(u8) -> String) -> String {
    debug_assert_eq!(SIDE * SIDE, TILES);
    let mut out = String::new();
    for row in 0..SIDE {
        out.push_str("   ");
        for col in 1..=SIDE {
            out.push_str(&format!("{:>width$}", mark(row * SIDE + col)));
        }
        out.push_str(&suffix(row));
        out.push('\n');
    }
    out
}

/// The board with the mines marked `*` and safe tiles `.`; where declared positions are given and
/// differ, `!` marks a declared mine on a safe tile and `?` a mine that was not declared.
pub fn render(placement: &Placement, declared: Option<Tiles>) -> String {
    let mark = |tile: u8| {
        let mine = placement.is_mine(tile);
        let mark = match declared.map(|d| d.contains(&tile)) {
            Some(true) if !mine => '!',
            Some(false) if mine => '?',
            _ if mine => '*',
            _ => '.',
        };
        mark.to_string()
    };
    let mut out = grid(2, mark, |row| format!("    tiles {:>2}-{}", row * SIDE + 1, row * SIDE + SIDE));
    out.push_str("   * mine  . safe");
    if declared.is_some_and(|d| *d != *placement.positions()) {
        out.push_str("  ! declared but safe  ? mine not declared");
    }
    out.push('\n');
    out
}

//! The 5 × 5 board as text.

use fairmines::{Placement, TILES, Tiles};

/// Tiles per row.
const SIDE: u8 = 5;

/// The board with the mines marked `*` and safe tiles `.`; where declared positions are given and
/// differ, `!` marks a declared mine on a safe tile and `?` a mine that was not declared.
pub fn render(placement: &Placement, declared: Option<Tiles>) -> String {
    let mut out = String::new();
    for row in 0..SIDE {
        out.push_str("   ");
        for col in 1..=SIDE {
            let tile = row * SIDE + col;
            let mine = placement.is_mine(tile);
            let mark = match declared.map(|d| d.contains(&tile)) {
                Some(true) if !mine => '!',
                Some(false) if mine => '?',
                _ if mine => '*',
                _ => '.',
            };
            out.push_str(&format!(" {mark}"));
        }
        out.push_str(&format!("    tiles {:>2}-{}\n", row * SIDE + 1, row * SIDE + SIDE));
    }
    debug_assert_eq!(SIDE * SIDE, TILES);
    out.push_str("   * mine  . safe");
    if declared.is_some_and(|d| *d != *placement.positions()) {
        out.push_str("  ! declared but safe  ? mine not declared");
    }
    out.push('\n');
    out
}

//! `fairmines play` and `fairmines table`: a round in the terminal, and the payout table.

use std::io::{BufRead, Write};

use fairmines::{MineCount, Outcome, Places, Reveal, Rtp, SeedPair, ServerSeed, payout_table, verify_round};
use serde_json::json;

use crate::{EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK};

/// Prints the multiplier of every (mines, safe picks), rounded down to `places` decimals, with the exact value.
pub fn table(rtp: Rtp, mines: Option<MineCount>, places: Places, as_json: bool) -> u8 {
    let rows: Vec<_> = payout_table(rtp).into_iter().filter(|e| mines.is_none_or(|m| m.get() == e.mines)).collect();
    if as_json {
        let rows: Vec<_> = rows
            .iter()
            .map(|e| {
                json!({
                    "mines": e.mines,
                    "safe_picks": e.safe_picks,
                    "multiplier": e.multiplier.to_decimal(places),
                    "exact": e.multiplier.to_string(),
                })
            })
            .collect();
        outln!("{}", json!({ "rtp": rtp.to_string(), "rounding": "down", "places": places.get(), "table": rows }));
        return EXIT_OK;
    }
    outln!("multiplier after k safe picks = C(25, k) / C(25 - mines, k) x RTP, RTP = {rtp}");
    outln!("shown rounded down to {} decimal places; `exact` is the exact fraction", places.get());
    outln!("{:>5} {:>10} {:>22}  exact", "mines", "safe picks", "multiplier");
    for e in rows {
        outln!("{:>5} {:>10} {:>22}  {}", e.mines, e.safe_picks, e.multiplier.to_decimal(places), e.multiplier);
    }
    EXIT_OK
}

/// The board as the player sees it: tile numbers, picked tiles, and at the end the mines.
fn board(picks: &[u8], mines: Option<&[u8]>) -> String {
    let mark = |tile: u8| {
        let is_mine = mines.is_some_and(|m| m.contains(&tile));
        match (picks.contains(&tile), is_mine) {
            (true, true) => "X".to_owned(),
            (true, false) => "o".to_owned(),
            (false, true) => "*".to_owned(),
            (false, false) if mines.is_some() => ".".to_owned(),
            (false, false) => tile.to_string(),
        }
    };
    crate::board::grid(3, mark, |_| String::new())
}

/// A round in the terminal: the commitment first, picks typed by the player, then the reveal of the
/// server seed and the round's verification.
pub fn play(mines: MineCount, rtp: Rtp, client_seed: Option<String>, places: Places) -> u8 {
    let client_seed = match client_seed.map_or_else(|| ServerSeed::generate().map(|s| s.reveal().to_owned()), Ok) {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut pair = match SeedPair::new(&client_seed) {
        Ok(pair) => pair,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let public = pair.public_part();
    outln!("commitment   {}  (SHA3-256 of the hidden server seed)", public.commitment);
    outln!("client seed  {}", public.client_seed);
    outln!("nonce        {}", public.nonce);
    outln!("mines        {}   RTP {rtp}", mines.get());
    let mut round = match pair.start_round(mines, rtp) {
        Ok(round) => round,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while !round.is_finished() {
        out!("\n{}pick a tile (1-25), or c to cash out: ", board(round.picks(), None));
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = lines.next() else {
            outln!();
            // End of input: cash out what was won, or end a round with no pick as lost.
            if round.cash_out().is_err() {
                outln!("no picks made; the round is abandoned");
                return EXIT_BAD_INPUT;
            }
            break;
        };
        let line = line.trim();
        if line.eq_ignore_ascii_case("c") {
            match round.cash_out() {
                Ok(m) => outln!("cashed out at x{}", m.to_decimal(places)),
                Err(e) => outln!("error: {e}"),
            }
            continue;
        }
        let Ok(tile) = line.parse::<i64>() else {
            outln!("error: tile: {line:?} is not a tile number");
            continue;
        };
        match round.reveal(tile) {
            Ok(Reveal { safe: false, .. }) => outln!("tile {tile}: MINE, the round is lost"),
            Ok(Reveal { safe_picks, multiplier: Some(multiplier), finished, .. }) => {
                outln!("tile {tile}: safe ({safe_picks} safe), cash out now for x{}", multiplier.to_decimal(places));
                if finished {
                    outln!("every safe tile is open: paid x{}", multiplier.to_decimal(places));
                }
            }
            Ok(Reveal { multiplier: None, .. }) => outln!("tile {tile}: safe"),
            Err(e) => outln!("error: {e}"),
        }
    }
    let Some(record) = round.record() else { return EXIT_BAD_INPUT };
    let positions = round.mine_positions().unwrap_or_default();
    outln!("\n{}   o safe pick  X mine hit  * mine", board(round.picks(), Some(&positions)));
    let revealed = match pair.rotate(None) {
        Ok(revealed) => revealed,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    outln!("the seed pair is rotated; its server seed can now be revealed:");
    outln!("server seed  {}", revealed.server_seed);
    outln!("record       {}", serde_json::to_string(&record).unwrap_or_default());
    match verify_round(&record, &revealed.server_seed) {
        Ok(v) if v.is_ok() => {
            let paid = match record.outcome {
                Outcome::Lost => "lost".to_owned(),
                Outcome::Voided => "voided".to_owned(),
                Outcome::CashedOut => {
                    format!("paid x{}", record.multiplier.map_or_else(String::new, |m| m.to_decimal(places)))
                }
            };
            outln!("verified: the commitment matches the server seed, and the seeds give this round ({paid})");
            EXIT_OK
        }
        Ok(v) => {
            for d in &v.differences {
                outln!("MISMATCH {d}");
            }
            EXIT_MISMATCH
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_BAD_INPUT
        }
    }
}

//! The seed pair's state as the operator stores it: the JSON format, its versions, and the checks that
//! a state holds together before anything of it is restored.
//!
//! Version 2 (written now) holds every round in play whole:
//! `{"version":2,"server_seed","commitment","client_seed","nonce","rounds":[{"nonce","mines","rtp","picks"}]}`.
//! Version 1 (no `version` field) held only the nonces of the rounds in play, `"open_rounds":[n, …]`; its
//! rounds come back void-only, and are written in version 2 as `{"nonce": n}` alone.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::payout::check_exact_multipliers;
use crate::{Digest, Error, MineCount, Rtp, ServerSeed, TILES, placement};

/// The version [`write`] writes.
const VERSION: u32 = 2;

// The text fields borrow when the state is written (no copy of the secret seed is made, and the
// service writes one a move) and own what is read.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct State<'a> {
    /// Absent in version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<u32>,
    server_seed: Cow<'a, str>,
    commitment: Digest,
    client_seed: Cow<'a, str>,
    nonce: u64,
    /// Version 2: the rounds in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rounds: Option<Vec<SavedRound<'a>>>,
    /// Version 1: the nonces of the rounds in play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open_rounds: Option<Vec<u64>>,
}

/// A round in play; `mines`, `rtp` and `picks` are absent together for a round restored from version 1.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedRound<'a> {
    nonce: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mines: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rtp: Option<Rtp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    picks: Option<Cow<'a, [u8]>>,
}

/// The part of a round in play that is not fixed by the seeds and the nonce.
#[derive(Clone)]
pub(crate) struct Game {
    pub(crate) mines: MineCount,
    pub(crate) rtp: Rtp,
    /// The tiles picked so far, all safe (a mine would have finished the round).
    pub(crate) picks: Vec<u8>,
}

/// A state that was read and checked whole.
pub(crate) struct Restored {
    pub(crate) server_seed: ServerSeed,
    pub(crate) client_seed: String,
    pub(crate) nonce: u64,
    /// The rounds in play by nonce; `None` for a round of version 1 (it can only be voided).
    pub(crate) rounds: BTreeMap<u64, Option<Game>>,
}

/// The state as JSON, in the current version.
pub(crate) fn write<'a>(
    server_seed: &ServerSeed,
    client_seed: &str,
    nonce: u64,
    rounds: impl Iterator<Item = (u64, Option<&'a Game>)>,
) -> String {
    let rounds: Vec<SavedRound> = rounds
        .map(|(nonce, game)| match game {
            Some(game) => SavedRound {
                nonce,
                mines: Some(game.mines.get()),
                rtp: Some(game.rtp),
                picks: Some(Cow::Borrowed(&game.picks[..])),
            },
            None => SavedRound { nonce, mines: None, rtp: None, picks: None },
        })
        .collect();
    // Sized for the whole text at once: growing the buffer as it was written took most of the time.
    let capacity = 256 + client_seed.len() + 96 * rounds.len();
    let state = State {
        version: Some(VERSION),
        server_seed: Cow::Borrowed(server_seed.reveal()),
        commitment: server_seed.commitment(),
        client_seed: Cow::Borrowed(client_seed),
        nonce,
        rounds: Some(rounds),
        open_rounds: None,
    };
    crate::game::json_with_capacity(&state, capacity)
}

fn bad(detail: String) -> Error {
    Error::InvalidState { argument: "state", detail }
}

/// Reads a state of any version, checking everything before returning anything.
pub(crate) fn read(json: &str) -> Result<Restored, Error> {
    let state: State = serde_json::from_str(json).map_err(|e| bad(e.to_string()))?;
    let server_seed = ServerSeed::from_hex(&state.server_seed).map_err(|e| bad(e.to_string()))?;
    if server_seed.commitment() != state.commitment {
        return Err(bad("commitment: is not SHA3-256 of the server seed".to_owned()));
    }
    // The field that lists the rounds, for the messages.
    let (field, saved) = match (state.version, state.rounds, state.open_rounds) {
        (None | Some(1), None, Some(open)) => {
            let saved = open.into_iter().map(|nonce| SavedRound { nonce, mines: None, rtp: None, picks: None });
            ("open_rounds", saved.collect())
        }
        (None | Some(1), _, _) => {
            return Err(bad("open_rounds: a state without a version lists its rounds in play here".to_owned()));
        }
        (Some(VERSION), Some(rounds), None) => ("rounds", rounds),
        (Some(VERSION), _, _) => {
            return Err(bad(format!("rounds: a state of version {VERSION} lists its rounds in play here")));
        }
        (Some(other), _, _) => {
            return Err(bad(format!("version: {other} is not a state version this library reads (1 or {VERSION})")));
        }
    };
    let mut rounds = BTreeMap::new();
    for (i, round) in saved.into_iter().enumerate() {
        let nonce = round.nonce;
        let at = if field == "rounds" { format!("rounds[{i}].nonce") } else { format!("open_rounds[{i}]") };
        if nonce >= state.nonce {
            return Err(bad(format!("{at}: {nonce} is not below the pair's next nonce {}", state.nonce)));
        }
        if rounds.contains_key(&nonce) {
            return Err(bad(format!("{at}: {nonce} is listed twice")));
        }
        let game = game(&server_seed, &state.client_seed, round).map_err(|e| bad(format!("{field}[{i}].{e}")))?;
        rounds.insert(nonce, game);
    }
    Ok(Restored { server_seed, client_seed: state.client_seed.into_owned(), nonce: state.nonce, rounds })
}

/// A saved round's game, checked against its grid; the error is `field: what is wrong`.
fn game(server_seed: &ServerSeed, client_seed: &str, round: SavedRound) -> Result<Option<Game>, String> {
    let (mines, rtp, picks) = match (round.mines, round.rtp, round.picks) {
        (None, None, None) => return Ok(None),
        (Some(mines), Some(rtp), Some(picks)) => (mines, rtp, picks.into_owned()),
        _ => return Err("mines: mines, rtp and picks are given together, or none of them".to_owned()),
    };
    let mines = MineCount::try_from(mines).map_err(|e| e.to_string())?;
    check_exact_multipliers(mines, rtp).map_err(|e| e.to_string())?;
    let safe_tiles = usize::from(TILES - mines.get());
    if picks.len() >= safe_tiles {
        return Err(format!(
            "picks: {} picks with {} mines open every safe tile, so the round would have finished",
            picks.len(),
            mines.get()
        ));
    }
    let grid = placement(server_seed.reveal(), client_seed, round.nonce, mines);
    for (i, &tile) in picks.iter().enumerate() {
        if !(1..=TILES).contains(&tile) {
            return Err(format!("picks[{i}]: tile {tile} is not between 1 and 25"));
        }
        if picks[..i].contains(&tile) {
            return Err(format!("picks[{i}]: tile {tile} is picked twice"));
        }
        if grid.is_mine(tile) {
            return Err(format!("picks[{i}]: tile {tile} is a mine, so the round would have finished"));
        }
    }
    Ok(Some(Game { mines, rtp, picks }))
}

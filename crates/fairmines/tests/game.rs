//! Seed pairs, rounds, reveals, cash-outs and their replay.

use fairmines::{
    Error, MineCount, Outcome, Reveal, Rtp, SeedPair, ServerSeed, mine_positions, multiplier, verify_round,
};

const CLIENT: &str = "player seed";

fn known_pair() -> (String, SeedPair) {
    let seed = ServerSeed::from_bytes(&[0x42; 32]);
    let text = seed.reveal().to_owned();
    (text, SeedPair::from_parts(seed, CLIENT, 0).unwrap())
}

fn rtp() -> Rtp {
    Rtp::parse("0.99").unwrap()
}

fn safe_tiles(server: &str, nonce: u64, mines: u32) -> Vec<i64> {
    let grid = mine_positions(server, CLIENT, nonce, mines).unwrap();
    (1..=25).filter(|t| !grid.contains(t)).map(i64::from).collect()
}

#[test]
fn rounds_use_the_nonce_then_increment_it_and_fix_the_grid_at_the_start() {
    let (server, mut pair) = known_pair();
    for nonce in 0..5 {
        assert_eq!(pair.public_part().nonce, nonce);
        let mut round = pair.start_round(MineCount::new(5).unwrap(), rtp()).unwrap();
        assert_eq!(round.nonce(), nonce);
        assert_eq!(round.mine_positions(), None, "the grid stays hidden while in play");
        let mine = mine_positions(&server, CLIENT, nonce, 5).unwrap()[0];
        let reveal = round.reveal(mine).unwrap();
        assert_eq!(reveal, Reveal { tile: mine, safe: false, safe_picks: 0, multiplier: None, finished: true });
        assert_eq!(&*round.mine_positions().unwrap(), &*mine_positions(&server, CLIENT, nonce, 5).unwrap());
    }
}

#[test]
fn safe_reveals_climb_the_multiplier_and_cash_out_pays_it() {
    let (server, mut pair) = known_pair();
    let mines = MineCount::new(3).unwrap();
    let mut round = pair.start_round(mines, rtp()).unwrap();
    let safe = safe_tiles(&server, 0, 3);
    for (k, &tile) in safe.iter().take(4).enumerate() {
        let k = k as u8 + 1;
        assert_eq!(
            round.reveal(tile).unwrap(),
            Reveal {
                tile: tile as u8,
                safe: true,
                safe_picks: k,
                multiplier: Some(multiplier(mines, k, rtp()).unwrap()),
                finished: false
            }
        );
    }
    assert_eq!(round.cash_out().unwrap(), multiplier(mines, 4, rtp()).unwrap());
    let record = round.record().unwrap();
    assert_eq!(record.outcome, Outcome::CashedOut);
    assert_eq!(record.picks, safe[..4].iter().map(|&t| t as u8).collect::<Vec<_>>());
    let verdict = verify_round(&record, &server).unwrap();
    assert!(verdict.is_ok(), "{verdict:?}");
    assert_eq!(verdict.expected_multiplier, record.multiplier);
}

#[test]
fn revealing_every_safe_tile_ends_the_round_paid() {
    let (server, mut pair) = known_pair();
    let mut round = pair.start_round(MineCount::new(20).unwrap(), rtp()).unwrap();
    for tile in safe_tiles(&server, 0, 20) {
        round.reveal(tile).unwrap();
    }
    assert!(round.is_finished());
    let record = round.record().unwrap();
    assert_eq!(record.outcome, Outcome::CashedOut);
    assert_eq!(record.multiplier, Some(multiplier(MineCount::new(20).unwrap(), 5, rtp()).unwrap()));
    assert!(verify_round(&record, &server).unwrap().is_ok());
}

#[test]
fn invalid_moves_are_typed_errors() {
    let (server, mut pair) = known_pair();
    let mut round = pair.start_round(MineCount::new(3).unwrap(), rtp()).unwrap();
    assert_eq!(round.cash_out().unwrap_err(), Error::NothingToCashOut);
    for bad in [0, 26, -1, 300] {
        let err = round.reveal(bad).unwrap_err();
        assert_eq!((err.code(), err.argument()), (3, Some("tile")), "{bad}");
    }
    let safe = safe_tiles(&server, 0, 3)[0];
    round.reveal(safe).unwrap();
    assert_eq!(round.reveal(safe).unwrap_err(), Error::TileAlreadyRevealed { tile: safe as u8 });
    round.cash_out().unwrap();
    assert_eq!(round.reveal(safe + 1).unwrap_err(), Error::RoundFinished);
    assert_eq!(round.cash_out().unwrap_err(), Error::RoundFinished);
    assert_eq!(Error::RoundFinished.code(), 10);
}

#[test]
fn a_tampered_record_is_caught_with_what_differs() {
    let (server, mut pair) = known_pair();
    let mut round = pair.start_round(MineCount::new(3).unwrap(), rtp()).unwrap();
    let safe = safe_tiles(&server, 0, 3);
    round.reveal(safe[0]).unwrap();
    round.reveal(safe[1]).unwrap();
    round.cash_out().unwrap();
    let record = round.record().unwrap();

    let mine = mine_positions(&server, CLIENT, 0, 3).unwrap()[0];
    let mut lost = record.clone();
    lost.picks[1] = mine; // the record claims a cash-out, but the second pick was a mine
    let verdict = verify_round(&lost, &server).unwrap();
    assert_eq!(verdict.expected_outcome, Outcome::Lost);
    assert!(verdict.differences.iter().any(|d| d.starts_with("outcome:")), "{verdict:?}");

    let mut richer = record.clone();
    richer.multiplier = Some(multiplier(MineCount::new(3).unwrap(), 3, rtp()).unwrap());
    assert!(verify_round(&richer, &server).unwrap().differences[0].starts_with("multiplier:"));

    let other_seed = ServerSeed::from_bytes(&[1; 32]);
    let verdict = verify_round(&record, other_seed.reveal()).unwrap();
    assert!(!verdict.commitment_ok);

    let mut bad_mines = record.clone();
    bad_mines.mines = 0;
    assert_eq!(verify_round(&bad_mines, &server).unwrap_err().code(), 1);
}

#[test]
fn rotation_reveals_the_old_seed_and_starts_afresh() {
    let (server, mut pair) = known_pair();
    let before = pair.public_part();
    let mut round = pair.start_round(MineCount::new(1).unwrap(), rtp()).unwrap();
    round.reveal(i64::from(mine_positions(&server, CLIENT, 0, 1).unwrap()[0])).unwrap();
    let revealed = pair.rotate(None).unwrap();
    assert_eq!(revealed.server_seed, server);
    assert_eq!(revealed.commitment, before.commitment);
    assert_eq!(revealed.rounds, 1);
    let after = pair.public_part();
    assert_ne!(after.commitment, before.commitment);
    assert_eq!((after.nonce, after.client_seed.as_str()), (0, CLIENT));

    let revealed = pair.set_client_seed("new seed").unwrap();
    assert_eq!(revealed.commitment, after.commitment);
    assert_eq!(pair.public_part().client_seed, "new seed");
    assert_ne!(pair.public_part().commitment, after.commitment);
}

#[test]
fn state_and_public_json_round_trip_and_the_public_part_holds_no_secret() {
    let (server, mut pair) = known_pair();
    let _in_play = pair.start_round(MineCount::new(1).unwrap(), rtp()).unwrap();
    let state = pair.to_state_json();
    assert!(state.starts_with(r#"{"version":2,"#), "{state}");
    assert!(state.ends_with(r#""nonce":1,"rounds":[{"nonce":0,"mines":1,"rtp":"99/100","picks":[]}]}"#), "{state}");
    let restored = SeedPair::from_state_json(&state).unwrap();
    assert_eq!(restored.public_part(), pair.public_part());
    assert_eq!(restored.open_rounds(), [0]);
    assert_eq!(restored.to_state_json(), state);

    let public = serde_json::to_string(&pair.public_part()).unwrap();
    assert!(!public.contains(&server));
    assert!(!format!("{pair:?}").contains(&server));
    assert_eq!(serde_json::from_str::<fairmines::PublicSeedPair>(&public).unwrap(), pair.public_part());

    let forged = state.replace(&server, &"0".repeat(64));
    assert_eq!(SeedPair::from_state_json(&forged).unwrap_err().argument(), Some("state"));
    assert_eq!(SeedPair::from_state_json("{").unwrap_err().code(), 15);
    // A state that forgets its open rounds, lists one it never played, or carries an unknown field.
    let round = r#"{"nonce":0,"mines":1,"rtp":"99/100","picks":[]}"#;
    for bad in [
        state.replace(&format!(r#","rounds":[{round}]"#), ""),
        state.replace(r#"[{"nonce":0,"#, r#"[{"nonce":1,"#),
        state.replace(round, &format!("{round},{round}")),
        state.replace(r#""nonce":1"#, r#""nonce":1,"revealed":true"#),
    ] {
        let err = SeedPair::from_state_json(&bad).unwrap_err();
        assert_eq!((err.code(), err.argument()), (15, Some("state")), "{bad}: {err}");
    }
}

/// The seed revealed under a round in play would give the player every mine.
#[test]
fn the_server_seed_is_not_revealed_while_a_round_is_in_play() {
    let (server, mut pair) = known_pair();
    let mines = MineCount::new(5).unwrap();
    let mut round = pair.start_round(mines, rtp()).unwrap();
    let mut other = pair.start_round(mines, rtp()).unwrap();
    assert_eq!(pair.open_rounds(), [0, 1]);
    let refused = pair.rotate(None).unwrap_err();
    assert_eq!(refused, Error::RoundsInPlay { nonces: vec![0, 1] });
    assert_eq!((refused.code(), refused.name(), refused.argument()), (16, "ROUNDS_IN_PLAY", None));
    assert!(refused.to_string().contains("nonce 0, 1"), "{refused}");
    assert_eq!(pair.set_client_seed("other").unwrap_err().code(), 16);
    assert_eq!(pair.public_part().client_seed, CLIENT, "a refused rotation changes nothing");

    // A round that finishes leaves the ledger; the other is voided.
    let safe = safe_tiles(&server, 0, 5);
    round.reveal(safe[0]).unwrap();
    round.cash_out().unwrap();
    assert_eq!(pair.open_rounds(), [1]);
    other.reveal(safe_tiles(&server, 1, 5)[0]).unwrap();
    assert_eq!(pair.void_open_rounds(), [1]);
    assert_eq!(pair.open_rounds(), Vec::<u64>::new());
    let revealed = pair.rotate(None).unwrap();
    assert_eq!(revealed.server_seed, server);

    // The voided round refuses every move, and its record says it was voided.
    for tile in 1..=25 {
        assert_eq!(other.reveal(tile).unwrap_err(), Error::RoundVoided);
    }
    assert_eq!(other.cash_out().unwrap_err(), Error::RoundVoided);
    assert_eq!(Error::RoundVoided.code(), 17);
    assert!(other.is_finished());
    assert_eq!((other.outcome(), other.multiplier(), other.safe_picks()), (Some(Outcome::Voided), None, 1));
    let record = other.record().unwrap();
    assert_eq!((record.outcome, record.multiplier), (Outcome::Voided, None));
    assert!(record.to_json().contains(r#""outcome":"voided""#));
    assert!(verify_round(&record, &server).unwrap().is_ok());
    // The finished round's record still verifies, and the voided one cannot claim a payout.
    assert!(verify_round(&round.record().unwrap(), &server).unwrap().is_ok());
    let mut claimed = record.clone();
    claimed.outcome = Outcome::CashedOut;
    assert!(!verify_round(&claimed, &server).unwrap().is_ok());
}

#[test]
fn a_restored_pair_keeps_its_open_rounds_until_they_are_voided() {
    let (_, mut pair) = known_pair();
    let round = pair.start_round(MineCount::new(3).unwrap(), rtp()).unwrap();
    let mut restored = SeedPair::from_state_json(&pair.to_state_json()).unwrap();
    drop((round, pair)); // a restart: the round itself is gone with the process
    assert_eq!(restored.rotate(None).unwrap_err(), Error::RoundsInPlay { nonces: vec![0] });
    assert_eq!(restored.void_open_rounds(), [0]);
    assert!(restored.to_state_json().ends_with(r#""rounds":[]}"#));
    restored.rotate(None).unwrap();
}

#[test]
fn voided_records_hold_only_where_a_void_could_happen() {
    let (server, mut pair) = known_pair();
    let mines = MineCount::new(20).unwrap();
    let round = pair.start_round(mines, rtp()).unwrap();
    pair.void_open_rounds();
    let record = round.record().unwrap();
    assert_eq!((record.outcome, record.picks.len()), (Outcome::Voided, 0));
    assert!(verify_round(&record, &server).unwrap().is_ok(), "a round voided before any pick");

    let mut every_safe = record.clone();
    every_safe.picks = safe_tiles(&server, 0, 20).iter().map(|&t| t as u8).collect();
    let verdict = verify_round(&every_safe, &server).unwrap();
    assert_eq!(verdict.expected_outcome, Outcome::CashedOut, "the last safe tile ends the round paid");
    assert!(!verdict.is_ok());

    let mut on_a_mine = record.clone();
    on_a_mine.picks = vec![mine_positions(&server, CLIENT, 0, 20).unwrap()[0]];
    let verdict = verify_round(&on_a_mine, &server).unwrap();
    assert_eq!(verdict.expected_outcome, Outcome::Lost);
    assert!(!verdict.is_ok());

    let mut paid = record;
    paid.multiplier = Some(multiplier(mines, 1, rtp()).unwrap());
    assert!(!verify_round(&paid, &server).unwrap().is_ok(), "a voided round pays nothing");
}

#[test]
fn records_round_trip_through_json() {
    let (server, mut pair) = known_pair();
    let mut round = pair.start_round(MineCount::new(2).unwrap(), rtp()).unwrap();
    round.reveal(safe_tiles(&server, 0, 2)[0]).unwrap();
    round.cash_out().unwrap();
    let record = round.record().unwrap();
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"outcome\":\"cashed_out\""), "{json}");
    assert!(json.contains("\"rtp\":\"99/100\""), "{json}");
    let back: fairmines::RoundRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    assert!(serde_json::from_str::<fairmines::RoundRecord>(&json.replace("99/100", "2")).is_err());
}

#[test]
fn records_and_public_pairs_round_trip_through_json() {
    let (server, mut pair) = known_pair();
    let public = pair.public_part();
    assert_eq!(fairmines::PublicSeedPair::from_json(&public.to_json()).unwrap(), public);
    let mut round = pair.start_round(MineCount::new(3).unwrap(), rtp()).unwrap();
    let safe = safe_tiles(&server, 0, 3);
    round.reveal(safe[0]).unwrap();
    assert_eq!(round.safe_picks(), 1);
    assert_eq!(round.multiplier(), Some(multiplier(MineCount::new(3).unwrap(), 1, rtp()).unwrap()));
    assert_eq!(round.outcome(), None);
    round.cash_out().unwrap();
    assert_eq!(round.outcome(), Some(Outcome::CashedOut));
    let record = round.record().unwrap();
    let json = record.to_json();
    assert!(json.contains(r#""outcome":"cashed_out""#), "{json}");
    assert!(json.contains(r#""rtp":"99/100""#), "{json}");
    assert_eq!(fairmines::RoundRecord::from_json(&json).unwrap(), record);
    let revealed = pair.rotate(None).unwrap();
    assert_eq!(fairmines::RevealedSeedPair::from_json(&revealed.to_json()).unwrap(), revealed);
    let bad = fairmines::RoundRecord::from_json(r#"{"nonce": -1}"#).unwrap_err();
    assert_eq!((bad.code(), bad.name(), bad.argument()), (15, "INVALID_STATE", Some("record")));
    // A misspelt field is refused, naming it, instead of being ignored.
    let typo = fairmines::RoundRecord::from_json(&json.replace("\"commitment\"", "\"commitmnet\"")).unwrap_err();
    assert!(typo.to_string().contains("commitmnet"), "{typo}");
    let extra = json.replace("{", r#"{"paid":true,"#);
    assert_eq!(fairmines::RoundRecord::from_json(&extra).unwrap_err().code(), 15);
}

#[test]
fn a_lost_round_has_no_multiplier() {
    let (server, mut pair) = known_pair();
    let mut round = pair.start_round(MineCount::new(24).unwrap(), rtp()).unwrap();
    let mine = mine_positions(&server, CLIENT, 0, 24).unwrap()[0];
    assert!(!round.reveal(mine).unwrap().safe);
    assert_eq!((round.safe_picks(), round.multiplier(), round.outcome()), (0, None, Some(Outcome::Lost)));
    assert_eq!(round.record().unwrap().multiplier, None);
}

/// Found by fuzzing: an RTP with an enormous denominator made multipliers overflow 128 bits, so a reveal
/// failed after recording its pick, and a cashed-out record with no multiplier verified.
#[test]
fn rtps_whose_multipliers_cannot_be_exact_are_refused_and_such_records_do_not_verify() {
    let huge = Rtp::parse("170141183460469231731687303715884105727/170141183460469231731687303715884105728").unwrap();
    let (server, mut pair) = known_pair();
    let refused = pair.start_round(MineCount::new(3).unwrap(), huge).unwrap_err();
    assert_eq!((refused.code(), refused.argument()), (12, Some("rtp")));
    assert_eq!(pair.public_part().nonce, 0, "a refused round uses no nonce");
    let safe = safe_tiles(&server, 0, 3)[0] as u8;
    let record = fairmines::RoundRecord {
        commitment: fairmines::commitment(&server),
        client_seed: CLIENT.to_owned(),
        nonce: 0,
        mines: 3,
        rtp: huge,
        picks: vec![safe],
        outcome: Outcome::CashedOut,
        multiplier: None,
    };
    let verdict = verify_round(&record, &server).unwrap();
    assert!(!verdict.is_ok());
    assert!(verdict.differences[0].starts_with("multiplier: "), "{:?}", verdict.differences);
}

/// Rules the bindings' game suites checked before the game was tested here only.
#[test]
fn server_seeds_from_storage_are_exactly_lowercase_hex() {
    let seed = "ab".repeat(32);
    assert!(ServerSeed::from_hex(&seed).is_ok());
    for bad in [seed.to_uppercase(), format!("{}g", &seed[..63]), seed[..62].to_owned(), String::new()] {
        let err = ServerSeed::from_hex(&bad).unwrap_err();
        assert_eq!((err.code(), err.argument()), (4, Some("server_seed")), "{bad}");
    }
    let state = SeedPair::from_parts(ServerSeed::from_hex(&seed).unwrap(), CLIENT, 0).unwrap().to_state_json();
    for bad in [state.replace(&seed, &seed.to_uppercase()), state.replace(r#""nonce":0"#, r#""nonce":-1"#)] {
        assert_eq!(SeedPair::from_state_json(&bad).unwrap_err().code(), 15, "{bad}");
    }
}

#[test]
fn nonce_2_64_minus_1_starts_no_round_by_one_rule_for_from_parts_and_start_round() {
    // A pair plays nonces 0 to 2^64 - 2; the last one played moves it to 2^64 - 1, where it starts nothing.
    let mut pair = SeedPair::from_parts(ServerSeed::from_bytes(&[3; 32]), CLIENT, u64::MAX - 1).unwrap();
    assert_eq!(pair.start_round(MineCount::new(3).unwrap(), rtp()).unwrap().nonce(), u64::MAX - 1);
    assert_eq!(pair.public_part().nonce, u64::MAX);
    let refused = pair.start_round(MineCount::new(3).unwrap(), rtp()).unwrap_err();
    assert_eq!((refused.code(), refused.argument()), (2, Some("nonce")));
    assert_eq!(
        refused.to_string(),
        "nonce: 18446744073709551615 starts no round: a seed pair plays nonces 0 to 18446744073709551614 (it \
         counts its rounds in 64 bits); rotate to a new seed pair"
    );
    // The refusal changes nothing: the same nonce, the round of nonce 2^64 - 2 still in play.
    assert_eq!((pair.public_part().nonce, pair.open_rounds()), (u64::MAX, vec![u64::MAX - 1]));
    // A pair made at that nonce would start nothing: from_parts refuses it with the same error.
    let made = SeedPair::from_parts(ServerSeed::from_bytes(&[3; 32]), CLIENT, u64::MAX).unwrap_err();
    assert_eq!(made, refused);
    // A stored state there (reached by play) restores: its rounds in play can still finish or be voided.
    let restored = SeedPair::from_state_json(&pair.to_state_json()).unwrap();
    assert_eq!((restored.public_part().nonce, restored.open_rounds()), (u64::MAX, vec![u64::MAX - 1]));
    assert_eq!(pair.rotate(None).unwrap_err().code(), 16);
    pair.void_open_rounds();
    assert_eq!(pair.rotate(None).unwrap().rounds, u64::MAX);
}

#[test]
fn public_and_revealed_pairs_refuse_unknown_fields() {
    let (_, mut pair) = known_pair();
    let public = pair.public_part().to_json();
    let revealed = pair.rotate(None).unwrap().to_json();
    for (json, parse) in [
        (
            public,
            &(|j: &str| fairmines::PublicSeedPair::from_json(j).map(|_| ())) as &dyn Fn(&str) -> Result<(), Error>,
        ),
        (revealed, &|j: &str| fairmines::RevealedSeedPair::from_json(j).map(|_| ())),
    ] {
        assert!(parse(&json).is_ok());
        let err = parse(&json.replacen('{', r#"{"commitmnet":"x","#, 1)).unwrap_err();
        assert_eq!(err.code(), 15);
        assert!(err.to_string().contains("commitmnet"), "{err}");
    }
}

#[test]
fn verify_round_says_what_is_wrong_in_each_kind_of_bad_record() {
    let (server, mut pair) = known_pair();
    let mines = MineCount::new(3).unwrap();
    let mut round = pair.start_round(mines, rtp()).unwrap();
    let safe = safe_tiles(&server, 0, 3);
    round.reveal(safe[0]).unwrap();
    round.reveal(safe[1]).unwrap();
    round.cash_out().unwrap();
    let record = round.record().unwrap();
    let mine = mine_positions(&server, CLIENT, 0, 3).unwrap()[0];
    let differences = |change: &dyn Fn(&mut fairmines::RoundRecord)| {
        let mut changed = record.clone();
        change(&mut changed);
        verify_round(&changed, &server).unwrap().differences
    };
    let starts = |d: Vec<String>, prefix: &str, words: &str| {
        assert!(d.iter().any(|d| d.starts_with(prefix) && d.contains(words)), "{prefix} {words}: {d:?}");
    };
    starts(differences(&|r| r.picks[1] = r.picks[0]), "picks:", "repeats an earlier pick");
    starts(
        differences(&|r| {
            r.picks = vec![mine, r.picks[0]];
            r.outcome = Outcome::Lost;
            r.multiplier = None;
        }),
        "picks:",
        "comes after the mine of pick 1",
    );
    starts(differences(&|r| r.picks.clear()), "picks:", "a cash-out needs at least one safe pick");
    starts(differences(&|r| r.rtp = Rtp::parse("0.97").unwrap()), "multiplier:", "the record says");
    starts(differences(&|r| r.outcome = Outcome::Voided), "multiplier:", "the picks give none");
    starts(differences(&|r| r.commitment = fairmines::commitment("other")), "commitment:", "the record says");
}

#[test]
fn states_and_records_that_cannot_be_parsed_are_invalid_state_naming_what() {
    let (_, pair) = known_pair();
    let state = pair.to_state_json();
    let fields: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&state).unwrap();
    let keys: Vec<&str> = fields.keys().map(String::as_str).collect();
    assert_eq!(keys, ["client_seed", "commitment", "nonce", "rounds", "server_seed", "version"], "the state's fields");
    for bad in ["{}", "not json", "[]", &state.replace(r#""rounds":[]"#, r#""rounds":[{"nonce":-1}]"#)] {
        let err = SeedPair::from_state_json(bad).unwrap_err();
        assert_eq!((err.code(), err.argument()), (15, Some("state")), "{bad}");
    }
    let record = r#"{"commitment":"0000000000000000000000000000000000000000000000000000000000000000","client_seed":"c","nonce":0,"mines":3,"rtp":"1","picks":[1],"outcome":"lost","multiplier":null}"#;
    assert!(fairmines::RoundRecord::from_json(record).is_ok());
    for bad in ["[]".to_owned(), record.replace(r#""lost""#, r#""won""#), record.replace("null", r#""x""#)] {
        let err = fairmines::RoundRecord::from_json(&bad).unwrap_err();
        assert_eq!((err.code(), err.argument()), (15, Some("record")), "{bad}");
    }
}

#[test]
fn verify_round_words_its_differences_exactly() {
    let (server, mut pair) = known_pair();
    let mines = MineCount::new(3).unwrap();
    let mut round = pair.start_round(mines, rtp()).unwrap();
    let safe = safe_tiles(&server, 0, 3);
    round.reveal(safe[0]).unwrap();
    round.cash_out().unwrap();
    let record = round.record().unwrap();
    let paid = record.multiplier.unwrap();
    let mine = mine_positions(&server, CLIENT, 0, 3).unwrap()[0];
    let differences = |change: &dyn Fn(&mut fairmines::RoundRecord)| {
        let mut changed = record.clone();
        change(&mut changed);
        verify_round(&changed, &server).unwrap().differences
    };
    let richer = multiplier(mines, 2, rtp()).unwrap();
    assert_eq!(
        differences(&|r| r.multiplier = Some(richer)),
        [format!("multiplier: the record says {richer}, the picks give {paid}")]
    );
    assert_eq!(
        differences(&|r| r.multiplier = None),
        [format!("multiplier: the record says none, the picks give {paid}")]
    );
    let s = safe[0] as u8;
    assert_eq!(
        differences(&|r| r.picks = vec![s, s]),
        [
            format!("picks: pick 2 (tile {s}) repeats an earlier pick"),
            format!("multiplier: the record says {paid}, the picks give {}", multiplier(mines, 2, rtp()).unwrap())
        ]
    );
    assert_eq!(
        differences(&|r| {
            r.picks = vec![mine, s];
            r.outcome = Outcome::Lost;
            r.multiplier = None;
        }),
        [format!("picks: pick 2 (tile {s}) comes after the mine of pick 1")]
    );
    assert_eq!(
        differences(&|r| r.outcome = Outcome::Lost),
        ["outcome: the record says lost, the picks give cashed_out".to_owned()]
    );
}

//! The binding's conversions, in Rust: the error mapping (every kind of the core), types in and out, and a
//! short game. The game's rules are tested in the core (`crates/fairmines/tests`).

use fairmines::ErrorKind;
use fairmines_uniffi::*;

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

/// The variant's name, as `Debug` starts with it.
fn variant(error: &FairminesError) -> String {
    format!("{error:?}").split(' ').next().unwrap().to_owned()
}

#[test]
fn every_error_kind_is_the_variant_of_the_same_name_and_code() {
    let kinds: Vec<String> = ErrorKind::ALL.iter().map(|kind| format!("{kind:?}")).collect();
    assert_eq!(FairminesError::VARIANTS, kinds, "one variant per kind, in code order");
    for kind in ErrorKind::ALL {
        let error = FairminesError::new(kind, Some("x".into()), "x: m".into());
        assert_eq!(variant(&error), format!("{kind:?}"));
        assert_eq!(error.parts(), (kind.code(), kind.name(), Some("x"), "x: m"));
        assert_eq!(ErrorKind::from_code(error.parts().0), Some(kind), "and back");
    }
}

#[test]
fn uniffi_toml_renames_the_message_of_every_variant_for_kotlin() {
    let toml = include_str!("../uniffi.toml");
    let renamed: Vec<&str> = toml
        .lines()
        .filter_map(|line| line.strip_prefix("\"FairminesError.")?.strip_suffix(".message\" = \"reason\""))
        .collect();
    let expected: Vec<&str> = FairminesError::VARIANTS.iter().copied().chain(["Other"]).collect();
    assert_eq!(renamed, expected);
}

#[test]
fn the_readme_error_table_lists_every_kind() {
    let readme = include_str!("../README.md");
    let rows: Vec<String> = readme
        .lines()
        .filter(|line| line.starts_with("| ") && line.contains("`Fairmines::Error::"))
        .map(str::to_owned)
        .collect();
    let expected: Vec<String> = ErrorKind::ALL
        .iter()
        .map(|kind| {
            format!(
                "| {} | `{}` | `FairminesException.{kind:?}` | `FairminesError.{kind:?}` | `Fairmines::Error::{kind:?}` |",
                kind.code(),
                kind.name()
            )
        })
        .collect();
    assert_eq!(rows, expected, "README.md's error table");
}

#[test]
fn core_errors_cross_with_their_code_name_argument_and_message() {
    for mines in [0, 25, -1, i32::MAX, i32::MIN] {
        let err = mine_positions(SERVER, CLIENT, U64(1), mines).unwrap_err();
        assert!(matches!(err, FairminesError::InvalidMines { code: U32(1), .. }), "{err:?}");
        assert_eq!(err.parts().1, "INVALID_MINES");
        assert_eq!(err.parts().2, Some("mines"));
        assert_eq!(err.to_string(), format!("mines: must be a whole number from 1 to 24, got {mines}"));
    }
    let err = verify(SERVER, CLIENT, U64(1), 3, Some("xyz".into()), None).unwrap_err();
    assert!(matches!(err, FairminesError::InvalidHex { code: U32(4), .. }), "{err:?}");
    assert_eq!(err.parts().2, Some("commitment"));
    let err = verify(SERVER, CLIENT, U64(1), 3, None, Some(vec![7, 26])).unwrap_err();
    assert!(matches!(err, FairminesError::InvalidTile { code: U32(3), .. }), "{err:?}");
    assert_eq!(err.to_string(), "positions: tile 26 at index 1 is not between 1 and 25");
    for picks in [0, 23, -1, 256, i32::MAX] {
        let err = multiplier(3, picks, "1").unwrap_err();
        assert!(matches!(err, FairminesError::InvalidPicks { code: U32(13), .. }), "{err:?}");
        assert_eq!(err.to_string(), format!("safe_picks: must be from 1 to 22 with 3 mines, got {picks}"));
    }
    let err = ratio_to_decimal(multiplier(1, 1, "1").unwrap(), 19).unwrap_err();
    assert_eq!((err.parts().0, err.parts().2), (14, Some("places")));
}

#[test]
fn worked_example_and_verification() {
    assert_eq!(mine_positions(SERVER, CLIENT, U64(1), 3).unwrap(), [7, 10, 19]);
    assert_eq!(draw_order(SERVER, CLIENT, U64(1), 3).unwrap(), [9, 6, 18]);
    assert_eq!(commitment(SERVER), "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42");
    assert_eq!(
        round_signature(SERVER, CLIENT, U64(1)),
        "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac"
    );
    let good =
        verify(SERVER, CLIENT, U64(1), 3, Some(commitment(SERVER).to_uppercase()), Some(vec![19, 7, 10])).unwrap();
    assert_eq!(
        good,
        Verification {
            commitment: commitment(SERVER),
            signature: round_signature(SERVER, CLIENT, U64(1)),
            positions: vec![7, 10, 19],
            draw_order: vec![9, 6, 18],
            words_used: U32(3),
            commitment_ok: Some(true),
            positions_ok: Some(true),
            verdict: Verdict::Ok,
            ok: true,
        }
    );
    let bad = verify(SERVER, CLIENT, U64(1), 3, None, Some(vec![7, 10, 20])).unwrap();
    assert_eq!(
        (bad.commitment_ok, bad.positions_ok, bad.verdict, bad.ok),
        (None, Some(false), Verdict::Mismatch, false)
    );
    let nothing = verify(SERVER, CLIENT, U64(1), 3, None, None).unwrap();
    assert_eq!((nothing.verdict, nothing.ok), (Verdict::Unchecked, false));
}

#[test]
fn secrets_stay_out_of_string_forms() {
    let seed = generate_server_seed().unwrap();
    assert_eq!(seed.commitment(), commitment(&seed.reveal()));
    let shown = format!("{seed} {seed:?}");
    assert!(!shown.contains(&seed.reveal()) && shown.contains(&seed.commitment()), "{shown}");
    let pair = SeedPair::from_parts(SERVER, CLIENT, U64(0)).unwrap();
    let shown = format!("{pair} {pair:?}");
    assert!(!shown.contains(SERVER) && shown.contains(&commitment(SERVER)), "{shown}");
}

fn ratio(numerator: &str, denominator: &str) -> Ratio {
    Ratio { numerator: numerator.into(), denominator: denominator.into(), decimal: String::new() }
}

#[test]
fn a_round_of_the_worked_example_and_its_record() {
    let pair = SeedPair::from_parts(SERVER, CLIENT, U64(1)).unwrap();
    let round = pair.start_round(3, "0.99").unwrap(); // mines at 7, 10 and 19
    assert_eq!((round.nonce(), round.mines(), round.commitment()), (U64(1), 3, commitment(SERVER)));
    let nine_eighths = Ratio { decimal: "1.12".into(), ..ratio("9", "8") };
    let first = round.reveal(1).unwrap();
    assert_eq!(first, Reveal { tile: 1, safe: true, safe_picks: 1, multiplier: Some(nine_eighths), finished: false });
    assert_eq!(first.multiplier.unwrap().to_string(), "9/8");
    let mine = round.reveal(10).unwrap();
    assert_eq!(mine, Reveal { tile: 10, safe: false, safe_picks: 1, multiplier: None, finished: true });
    assert_eq!(round.mine_positions(), Some(vec![7, 10, 19]));
    let record = round.record().unwrap();
    assert_eq!((record.picks.as_slice(), record.outcome), ([1, 10].as_slice(), Outcome::Lost));
    assert!(verify_round(record.clone(), SERVER).unwrap().ok);
    assert_eq!(round_record_from_json(&record.to_json().unwrap()).unwrap(), record);
    let err = round.reveal(2).unwrap_err();
    assert!(matches!(err, FairminesError::RoundFinished { code: U32(10), argument: None, .. }), "{err:?}");
}

#[test]
fn hand_made_records_are_checked_field_by_field() {
    let round = SeedPair::from_parts(SERVER, CLIENT, U64(1)).unwrap().start_round(3, "0.99").unwrap();
    round.reveal(1).unwrap();
    round.cash_out().unwrap();
    let record = round.record().unwrap();
    let refused = |record: RoundRecord| {
        let err = verify_round(record, SERVER).unwrap_err();
        (err.parts().0, err.parts().2.map(str::to_owned), err.to_string())
    };
    let (code, argument, message) = refused(RoundRecord { rtp: ratio("99", "0"), ..record.clone() });
    assert_eq!(
        (code, argument.as_deref(), message.as_str()),
        (14, Some("rtp.denominator"), "rtp.denominator: must not be 0")
    );
    let (_, argument, message) = refused(RoundRecord { multiplier: Some(ratio("-1", "2")), ..record.clone() });
    assert_eq!(argument.as_deref(), Some("multiplier.numerator"));
    assert!(message.starts_with("multiplier.numerator: "), "{message}");
    let wide = u128::MAX.to_string();
    assert_eq!(refused(RoundRecord { rtp: ratio(&wide, "0"), ..record.clone() }).1.as_deref(), Some("rtp.denominator"));
    assert_eq!(refused(RoundRecord { picks: vec![1, 300], ..record.clone() }).1.as_deref(), Some("picks"));
    assert_eq!(refused(RoundRecord { mines: 25, ..record.clone() }).1.as_deref(), Some("mines"));
    assert_eq!(refused(RoundRecord { commitment: "ab".into(), ..record.clone() }).1.as_deref(), Some("commitment"));
    assert_eq!(refused(RoundRecord { rtp: ratio("2", "1"), ..record.clone() }).0, 12);
    // A ratio beyond 2^127 in both parts is a fraction the core takes (here 1, so the RTP holds).
    let whole = RoundRecord { rtp: ratio(&wide, &wide), multiplier: Some(ratio("25", "22")), ..record.clone() };
    assert!(verify_round(whole, SERVER).unwrap().ok);
    assert_eq!(ratio_to_decimal(ratio(&wide, "1"), 0).unwrap(), wide);
}

/// The no-rotation-in-play sequence: no rotation while a round is in play, then a voided round refuses every move.
#[test]
fn no_rotation_while_a_round_is_in_play() {
    let pair = SeedPair::from_parts(SERVER, CLIENT, U64(1)).unwrap();
    let round = pair.start_round(5, "99/100").unwrap();
    let before = pair.public_part();
    for err in [pair.rotate(None).unwrap_err(), pair.set_client_seed("other").unwrap_err()] {
        assert!(matches!(err, FairminesError::RoundsInPlay { code: U32(16), argument: None, .. }), "{err:?}");
        assert!(err.to_string().contains("(nonce 1)"), "{err}");
    }
    assert_eq!(pair.public_part(), before);
    assert_eq!(pair.void_open_rounds(), [U64(1)]);
    let revealed = pair.rotate(None).unwrap();
    for err in [round.reveal(1).unwrap_err(), round.cash_out().unwrap_err()] {
        assert!(matches!(err, FairminesError::RoundVoided { code: U32(17), argument: None, .. }), "{err:?}");
    }
    let record = round.record().unwrap();
    assert_eq!((record.outcome, record.multiplier.as_ref()), (Outcome::Voided, None));
    assert!(record.to_json().unwrap().contains(r#""outcome":"voided""#));
    assert_eq!(verify_round(record, &revealed.server_seed).unwrap().expected_outcome, Outcome::Voided);
}

#[test]
fn payouts_cross_as_exact_ratios() {
    let table = payout_table("0.99").unwrap();
    assert_eq!(table.len(), 300);
    assert_eq!(table[0], TableEntry { mines: 1, safe_picks: 1, multiplier: multiplier(1, 1, "0.99").unwrap() });
    assert_eq!(max_safe_picks(3).unwrap(), 22);
    let m = multiplier(3, 22, "1").unwrap();
    assert_eq!((m.numerator.as_str(), m.denominator.as_str(), m.decimal.as_str()), ("2300", "1", "2300.00"));
    assert_eq!(ratio_to_decimal(multiplier(1, 1, "1").unwrap(), 4).unwrap(), "1.0416");
}

/// A round goes on after the pair is restored from its state, and `round(nonce)` refuses a nonce with no
/// round to go on with as `RoundNotInPlay`, argument `nonce`.
#[test]
fn a_round_resumes_from_the_state_and_round_not_in_play_crosses() {
    let pair = SeedPair::from_parts(SERVER, CLIENT, U64(1)).unwrap();
    let round = pair.start_round(3, "0.99").unwrap(); // mines at 7, 10 and 19
    round.reveal(1).unwrap();
    let err = pair.round(U64(1)).unwrap_err();
    assert!(matches!(err, FairminesError::RoundNotInPlay { code: U32(18), .. }), "{err:?}");
    assert_eq!(
        err.parts(),
        (
            18,
            "ROUND_NOT_IN_PLAY",
            Some("nonce"),
            "nonce: the round at nonce 1 is already handed out by this seed pair: go on with that round"
        )
    );
    let restored = SeedPair::from_state_json(&pair.to_state_json()).unwrap();
    let resumed = restored.round(U64(1)).unwrap();
    assert_eq!((resumed.nonce(), resumed.mines(), resumed.picks()), (U64(1), 3, vec![1]));
    assert_eq!(resumed.reveal(2).unwrap(), round.reveal(2).unwrap());
    assert_eq!(resumed.cash_out().unwrap(), round.cash_out().unwrap());
    assert_eq!(resumed.record(), round.record());
    let err = restored.round(U64(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nonce: no round of this seed pair is in play at nonce 1: it was never started, has finished or was voided"
    );
}

/// The JSON that `RoundRecord.toJson`'s doc comment (the KDoc, the Swift and Ruby comments) shows is what the core
/// writes for that round: a doc example with a wrong multiplier (once 1287/1000 for a 9/7 round) fails here.
#[test]
fn the_doc_example_of_a_record_is_the_cores_output() {
    let source = include_str!("../src/game.rs");
    let doc = source.split("pub fn to_json").find(|part| part.contains("the worked example's round")).unwrap();
    let shown = doc.rsplit("`{").next().unwrap().split("}`").next().unwrap();
    let pair = SeedPair::from_parts(SERVER, CLIENT, U64(1)).unwrap();
    let round = pair.start_round(3, "0.99").unwrap();
    round.reveal(1).unwrap();
    round.reveal(2).unwrap();
    round.cash_out().unwrap();
    assert_eq!(format!("{{{shown}}}"), round.record().unwrap().to_json().unwrap());
}

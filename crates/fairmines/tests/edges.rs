//! Boundary cases that random inputs practically never reach (each one catches a mutant of the core that
//! `make mutation-check`, cargo-mutants, would otherwise leave alive).

use fairmines::{Error, MineCount, Number, Published, Verdict, place_mines, verify};

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
const COMMITMENT: &str = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";

#[test]
fn the_largest_accepted_word_is_one_below_the_limit() {
    // P = 25: the limit is floor(2^32 / 25) × 25 = 4294967275, so 4294967274 is the last word accepted
    // (and lands on index 24), while 4294967275 is rejected.
    let placed = place_mines([4_294_967_274], MineCount::new(1).unwrap()).unwrap();
    assert_eq!((&*placed.draw_order(), placed.words_used()), (&[24u8][..], 1));
    assert_eq!(
        place_mines([4_294_967_275], MineCount::new(1).unwrap()).unwrap_err(),
        Error::StreamExhausted { words_read: 1 }
    );
}

#[test]
fn where_p_divides_2_pow_32_no_word_is_rejected() {
    // The tenth draw has P = 16, which divides 2^32: the limit is 2^32 itself, so even u32::MAX is taken
    // (a limit computed from 2^32 − 1 would reject it). Nine zero words take tiles 0..=8 first.
    let mut words = vec![0; 9];
    words.push(u32::MAX);
    let placed = place_mines(words, MineCount::new(10).unwrap()).unwrap();
    assert_eq!(&*placed.draw_order(), &[0, 1, 2, 3, 4, 5, 6, 7, 8, 24]);
    assert_eq!(placed.words_used(), 10);
}

#[test]
fn a_commitment_differing_only_in_its_last_character_fails() {
    let mut wrong = COMMITMENT.to_owned();
    wrong.replace_range(63.., "3");
    let check = |commitment: &str| {
        let published = Published::parse(SERVER, CLIENT, 1, 3, Some(commitment), None).unwrap();
        verify(&published).commitment_ok()
    };
    assert_eq!(check(COMMITMENT), Some(true));
    assert_eq!(check(&wrong), Some(false));
}

#[test]
fn a_verification_with_nothing_to_check_says_so_and_is_not_ok() {
    let verdict = |commitment: Option<&str>, positions: Option<&[i128]>| {
        let positions: Option<Vec<Number>> = positions.map(|p| p.iter().map(|&t| Number::Int(t)).collect());
        verify(&Published::parse(SERVER, CLIENT, 1, 3, commitment, positions.as_deref()).unwrap()).verdict()
    };
    assert_eq!(verdict(None, None), Verdict::Unchecked);
    assert!(!verify(&Published::parse(SERVER, CLIENT, 1, 3, None, None).unwrap()).is_ok());
    assert_eq!(verdict(Some(COMMITMENT), None), Verdict::Ok);
    assert_eq!(verdict(None, Some(&[19, 7, 10])), Verdict::Ok);
    assert_eq!(verdict(Some(COMMITMENT), Some(&[7, 10, 20])), Verdict::Mismatch);
    assert_eq!(verdict(Some(&"0".repeat(64)), Some(&[7, 10, 19])), Verdict::Mismatch);
    assert_eq!(
        [Verdict::Ok, Verdict::Mismatch, Verdict::Unchecked].map(Verdict::as_str),
        ["ok", "mismatch", "unchecked"]
    );
}

#[test]
fn doubts_name_a_seed_that_looks_mistyped_and_nothing_else() {
    const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    let doubts = |server: &str, client: &str| {
        let published = Published {
            server_seed: server,
            client_seed: client,
            nonce: 1,
            mines: MineCount::new(3).unwrap(),
            commitment: None,
            positions: None,
        };
        published.doubts().iter().map(|d| (d.argument, d.detail.clone())).collect::<Vec<_>>()
    };
    assert!(doubts(SERVER, "any client seed, even with: colons").is_empty());
    let only = |server: &str, client: &str| {
        let found = doubts(server, client);
        assert_eq!(found.len(), 1, "{found:?}");
        found[0].clone()
    };
    let trailing = only(&format!("{SERVER} "), "c");
    assert_eq!(trailing.0, "server_seed");
    assert!(trailing.1.starts_with("has white space at its start or end"), "{}", trailing.1);
    assert!(only(&format!("\n{SERVER}"), "c").1.starts_with("has white space"));
    assert_eq!(only("", "c"), ("server_seed", "is empty: paste the whole seed".to_owned()));
    assert!(only(&SERVER.to_uppercase(), "c").1.starts_with("has upper-case letters"));
    assert_eq!(
        only(&SERVER[..63], "c").1,
        "is not in the form of the operator's server seeds, 64 lowercase hex characters (63 characters)"
    );
    assert!(only("ünïcode", "c").1.ends_with("(7 characters, not all of them hex)"));
    assert_eq!(only(SERVER, "").0, "client_seed");
    assert!(only(SERVER, " c").1.starts_with("has white space"));
    // Upper-case and other forms of a client seed are the player's choice: no doubt.
    assert!(doubts(SERVER, "D0D5E06D ü").is_empty());
}

#[test]
fn doubts_are_shown_only_beside_checks_that_did_not_hold() {
    // The worked example's server seed in upper case: a doubt, but the seed hashed as written.
    const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    let server = "B6C230A9B1EE0FECE242600E3354F5B161258600401B469E9DC4F20CD862CA7A";
    let mines = MineCount::new(3).unwrap();
    let placed = fairmines::placement(server, CLIENT, 1, mines).positions();
    let held = Published {
        server_seed: server,
        client_seed: CLIENT,
        nonce: 1,
        mines,
        commitment: None,
        positions: Some(placed),
    };
    let checked = fairmines::verify(&held);
    assert!(checked.is_ok());
    assert_eq!(held.doubts().len(), 1);
    assert!(held.doubts_for(&checked).is_empty(), "checks that hold make the round the operator's");
    let wrong = fairmines::Tiles::declared([7, 10, 19], "positions").unwrap();
    let failed = Published { positions: Some(wrong), ..held };
    let checked = fairmines::verify(&failed);
    assert!(!checked.is_ok());
    let doubts = failed.doubts_for(&checked);
    assert_eq!(doubts.len(), 1);
    assert_eq!(doubts[0].argument, "server_seed");
}

//! Every case of the shared vectors (written by the reference JavaScript) through the core.

use fairmines::{
    Digest, MineCount, Published, Rejection, RoundHasher, Tiles, WordStream, commitment, draw_order, mine_positions,
    place_mines_observed, round_signature, verify,
};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vectors {
    count: usize,
    js_sha3_defects: Vec<Defect>,
    cases: Vec<Case>,
}

/// An input on which js-sha3 deviates from FIPS 202 (see vectors/README.md).
#[derive(Deserialize)]
struct Defect {
    id: String,
    server_seed: String,
    js_sha3_commitment: String,
    commitment: String,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    tags: Vec<String>,
    server_seed: String,
    client_seed: String,
    nonce: u64,
    mines: u32,
    commitment: String,
    signature: String,
    draw_order: Vec<u8>,
    positions: Vec<u8>,
    words_used: u32,
    rejected: Vec<Rejected>,
}

#[derive(Deserialize, PartialEq, Debug)]
struct Rejected {
    draw: u8,
    available: u8,
    word_index: u32,
    word: u32,
}

fn vectors() -> Vectors {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/vectors.json");
    let text = std::fs::read_to_string(path).expect("vectors/vectors.json is readable");
    let vectors: Vectors = serde_json::from_str(&text).expect("vectors/vectors.json parses");
    assert_eq!(vectors.count, vectors.cases.len());
    assert!(vectors.cases.len() >= 1000, "only {} cases", vectors.cases.len());
    vectors
}

#[test]
fn every_vector_matches() {
    let vectors = vectors();
    for case in &vectors.cases {
        let id = &case.id;
        assert_eq!(commitment(&case.server_seed).to_string(), case.commitment, "{id}: commitment");
        let signature = round_signature(&case.server_seed, &case.client_seed, case.nonce);
        assert_eq!(signature.to_string(), case.signature, "{id}: signature");
        assert_eq!(
            &*draw_order(&case.server_seed, &case.client_seed, case.nonce, case.mines).unwrap(),
            case.draw_order.as_slice(),
            "{id}: draw order"
        );
        assert_eq!(
            &*mine_positions(&case.server_seed, &case.client_seed, case.nonce, case.mines).unwrap(),
            case.positions.as_slice(),
            "{id}: positions"
        );

        let mines = MineCount::new(case.mines).unwrap();
        // The round's own path (which skips the rejection loop when no draw is rejected) and the
        // general sampler below must agree on everything.
        let direct = fairmines::placement(&case.server_seed, &case.client_seed, case.nonce, mines);
        assert_eq!(direct.words_used(), case.words_used, "{id}: words used (direct)");
        assert_eq!(&*direct.draw_order(), case.draw_order.as_slice(), "{id}: draw order (direct)");

        let mut rejected = Vec::new();
        let placement = place_mines_observed(WordStream::new(&signature), mines, |r: Rejection| {
            rejected.push(Rejected { draw: r.draw, available: r.available, word_index: r.word_index, word: r.word })
        })
        .unwrap();
        assert_eq!(placement.words_used(), case.words_used, "{id}: words used");
        assert_eq!(rejected, case.rejected, "{id}: rejected draws");
    }
}

#[test]
fn every_vector_verifies_and_a_tampered_one_does_not() {
    for case in &vectors().cases {
        let published = Published {
            server_seed: &case.server_seed,
            client_seed: &case.client_seed,
            nonce: case.nonce,
            mines: MineCount::new(case.mines).unwrap(),
            commitment: Some(case.commitment.parse::<Digest>().unwrap()),
            positions: Some(Tiles::declared(case.positions.iter().copied(), "positions").unwrap()),
        };
        let verdict = verify(&published);
        assert!(verdict.is_ok(), "{}: {verdict:?}", case.id);

        // Move one mine to a free tile: the positions check must fail and say what was expected.
        let free = (1..=25u8).find(|t| !case.positions.contains(t)).unwrap();
        let mut tampered = case.positions.clone();
        tampered[0] = free;
        let verdict = verify(&Published {
            positions: Some(Tiles::declared(tampered.iter().copied(), "positions").unwrap()),
            ..published
        });
        assert_eq!(verdict.positions_ok(), Some(false), "{}", case.id);
        assert_eq!(&*verdict.positions_check.unwrap().expected, case.positions.as_slice());
        assert_eq!(verdict.commitment_ok(), Some(true));
        assert!(!verdict.is_ok());
    }
}

#[test]
fn the_core_follows_fips_202_where_js_sha3_deviates() {
    let defects = vectors().js_sha3_defects;
    assert!(!defects.is_empty());
    for d in defects {
        let ours = commitment(&d.server_seed).to_string();
        assert_eq!(ours, d.commitment, "{}", d.id);
        assert_ne!(ours, d.js_sha3_commitment, "{}", d.id);
    }
}

#[test]
fn the_vectors_cover_what_they_must() {
    let cases = vectors().cases;
    let tagged = |tag: &str| cases.iter().filter(|c| c.tags.iter().any(|t| t == tag)).count();
    for mines in 1..=24 {
        assert!(cases.iter().any(|c| c.mines == mines), "mine count {mines}");
    }
    for nonce in [0, 1, 1 << 32, (1 << 53) - 1] {
        assert!(cases.iter().any(|c| c.nonce == nonce), "nonce {nonce}");
    }
    assert!(cases.iter().any(|c| c.client_seed.is_empty()));
    assert!(cases.iter().any(|c| c.client_seed.contains(':')));
    assert!(cases.iter().any(|c| !c.client_seed.is_ascii()));
    assert!(cases.iter().any(|c| c.client_seed.chars().any(|ch| ch as u32 > 0xFFFF)), "emoji");
    assert!(cases.iter().any(|c| c.client_seed.len() > 136));
    assert!(cases.iter().any(|c| c.server_seed.is_empty()));
    assert!(cases.iter().any(|c| c.server_seed.parse::<Digest>().is_err() && !c.server_seed.is_empty()));
    let rejected: Vec<&Case> = cases.iter().filter(|c| !c.rejected.is_empty()).collect();
    assert!(rejected.len() >= 20, "{} rounds with rejected draws", rejected.len());
    assert!(rejected.iter().filter(|c| c.rejected.iter().any(|r| r.draw == 0)).count() >= 3);
    assert!(rejected.iter().any(|c| c.rejected.iter().any(|r| r.draw > 0)));
    assert!(tagged("rejection") >= 20);
}

#[test]
fn every_vector_through_four_rounds_in_step() {
    // Each case as one of four rounds run side by side (its permutations in one 4-lane call), in
    // every lane, beside its neighbours; a group whose nonces differ in length runs one by one.
    for case in &vectors().cases {
        let rounds = RoundHasher::new(&case.server_seed, &case.client_seed);
        let mines = MineCount::new(case.mines).unwrap();
        for lane in 0..4u64 {
            let Some(first) = case.nonce.checked_sub(lane) else { continue };
            let Some(nonces) = [0, 1, 2, 3].map(|i| first.checked_add(i)).into_iter().collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            let nonces: [u64; 4] = nonces.try_into().unwrap();
            let placements = rounds.placements_x4(nonces, [mines; 4]);
            let id = &case.id;
            let mine = &placements[lane as usize];
            assert_eq!(&*mine.positions(), case.positions.as_slice(), "{id}: lane {lane}");
            assert_eq!(&*mine.draw_order(), case.draw_order.as_slice(), "{id}: lane {lane}");
            assert_eq!(mine.words_used(), case.words_used, "{id}: lane {lane}");
            for (nonce, placement) in nonces.iter().zip(&placements) {
                assert_eq!(*placement, rounds.placement(*nonce, mines), "{id}: nonce {nonce}");
            }
        }
    }
}

/// Every vector's grid as a game: a seed pair at the vector's nonce deals that grid, revealing every safe
/// tile pays out, and a mine loses; both records verify against the seed (moved here from the bindings'
/// game suites, which played the same rounds).
#[test]
fn every_hex_seeded_vector_plays_as_a_round() {
    use fairmines::{Outcome, Rtp, SeedPair, ServerSeed, verify_round};
    let rtp = Rtp::parse("0.99").unwrap();
    let mut played = 0;
    for case in vectors().cases {
        // Only seeds an operator could have (64 lowercase hex) make a seed pair; the nonce must leave room for one more.
        let Ok(seed) = ServerSeed::from_hex(&case.server_seed) else { continue };
        if case.nonce == u64::MAX {
            continue;
        }
        let mines = MineCount::new(case.mines).unwrap();
        let mut pair = SeedPair::from_parts(seed, &case.client_seed, case.nonce).unwrap();
        let mut round = pair.start_round(mines, rtp).unwrap();
        for tile in (1..=25u8).filter(|t| !case.positions.contains(t)) {
            let reveal = round.reveal(tile).unwrap();
            assert!(reveal.safe, "{}", case.id);
        }
        assert_eq!(round.outcome(), Some(Outcome::CashedOut), "{}", case.id);
        assert_eq!(&*round.mine_positions().unwrap(), &case.positions[..], "{}", case.id);
        assert!(verify_round(&round.record().unwrap(), &case.server_seed).unwrap().is_ok(), "{}", case.id);

        let mut lost = pair.start_round(mines, rtp).unwrap();
        let grid = mine_positions(&case.server_seed, &case.client_seed, case.nonce + 1, case.mines).unwrap();
        let reveal = lost.reveal(grid[0]).unwrap();
        assert!(!reveal.safe && reveal.finished && reveal.multiplier.is_none(), "{}", case.id);
        assert!(verify_round(&lost.record().unwrap(), &case.server_seed).unwrap().is_ok(), "{}", case.id);
        played += 1;
    }
    assert!(played > 1000, "only {played} vectors played");
}

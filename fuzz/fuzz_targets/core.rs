//! The core's round functions on any seeds, nonce and mine count, and its sampler on any words: no
//! panics, the invariants of a placement, and the same result as the reference implementation.
#![no_main]

use arbitrary::Arbitrary;
use fairmines::{
    Digest, MineCount, Nonces, Published, RoundHasher, WordStream, commitment, draw_order, mine_positions,
    mine_positions_batch, place_mines_observed, placement, round_signature, verify,
};
use fairmines_fuzz::{mine_count, reference, text};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    server: Vec<u8>,
    client: Vec<u8>,
    nonce: u64,
    mines_selector: u8,
    mines_any: u32,
    /// Rounds of a batch from `nonce` (0..=7), and how the batch's buffer is sized.
    batch: u8,
    buffer_delta: i8,
    /// Words for the sampler alone (rejections are rare in real streams, common here).
    words: Vec<u32>,
    /// Push each word towards the rejection limit of its draw (so rejections happen often).
    near_limit: bool,
}

fuzz_target!(|input: Input| {
    let server = text(&input.server);
    let client = text(&input.client);
    let nonce = input.nonce;
    let mines = mine_count(input.mines_selector, input.mines_any);

    // Steps 1 and 2 for any text, against the sha3 crate: the sponge's block boundaries included.
    let expected_sig = reference::signature(&server, &client, nonce);
    assert_eq!(commitment(&server).to_string(), reference::commitment(&server));
    assert_eq!(round_signature(&server, &client, nonce).to_string(), expected_sig);
    assert_eq!(RoundHasher::new(&server, &client).signature(nonce).to_string(), expected_sig);

    sampler_on_given_words(&input.words, mines, input.near_limit);

    let Ok(count) = MineCount::new(mines) else {
        // Only 1..=24 are mine counts, and the error says so.
        assert!(!(1..=24).contains(&mines), "{mines} refused");
        for err in [
            mine_positions(&server, &client, nonce, mines).unwrap_err(),
            draw_order(&server, &client, nonce, mines).unwrap_err(),
        ] {
            assert_eq!(err.code(), 1, "{err}");
            assert_eq!(err.name(), "INVALID_MINES");
            assert!(err.to_string().starts_with("mines"), "{err}");
        }
        return;
    };
    assert!((1..=24).contains(&mines));
    let m = mines as usize;

    let positions = mine_positions(&server, &client, nonce, mines).expect("valid mine count");
    let order = draw_order(&server, &client, nonce, mines).expect("valid mine count");
    let placed = placement(&server, &client, nonce, count);

    // Invariants, on the core's own output.
    assert_eq!(positions.len(), m);
    assert_eq!(order.len(), m);
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "sorted and unique: {positions:?}");
    assert!(positions.iter().all(|p| (1..=25).contains(p)), "{positions:?}");
    assert!(order.iter().all(|t| *t < 25), "{order:?}");
    let mut shifted: Vec<u8> = order.iter().map(|t| t + 1).collect();
    shifted.sort_unstable();
    assert_eq!(shifted.as_slice(), &*positions, "positions = sorted draw order + 1");
    assert_eq!(placed.positions(), positions);
    assert_eq!(placed.draw_order(), order);
    assert_eq!(usize::from(placed.mines()), m);
    assert!(placed.words_used() >= mines);
    for tile in 0..=26u8 {
        assert_eq!(placed.is_mine(tile), positions.contains(&tile), "tile {tile}");
    }

    // The same round as the reference.
    let expected = reference::placement(&server, &client, nonce, m);
    assert_eq!(&*positions, expected.positions.as_slice());
    assert_eq!(&*order, expected.draw_order.as_slice());
    assert_eq!(placed.words_used(), expected.words_used);

    // The word stream past the first Keccak block (34 words) and past the 48 pre-drawn ones.
    let signature: Digest = expected_sig.parse().expect("hex");
    let streamed: Vec<u32> = WordStream::new(&signature).take(80).collect();
    assert_eq!(streamed, reference::words_one_shot(&expected_sig, 80));

    // verify() with the genuine commitment and positions holds.
    let verdict = verify(&Published {
        server_seed: &server,
        client_seed: &client,
        nonce,
        mines: count,
        commitment: Some(commitment(&server)),
        positions: Some(positions),
    });
    assert!(verdict.is_ok());
    assert_eq!(verdict.signature.to_string(), expected_sig);

    batch(&server, &client, nonce, count, input.batch % 8, input.buffer_delta);
});

/// A batch of rounds equals the rounds one by one; a buffer too small or a range past 2^64 - 1 is refused.
fn batch(server: &str, client: &str, start: u64, mines: MineCount, count: u8, delta: i8) {
    let row = usize::from(mines.get());
    let count = usize::from(count);
    let needed = count * row;
    let size = needed.saturating_add_signed(isize::from(delta % 3));
    let mut out = vec![0u8; size];
    let result = mine_positions_batch(server, client, Nonces::Range { start, count }, mines, &mut out);
    let past_end = count > 0 && start.checked_add(count as u64 - 1).is_none();
    match result {
        Ok(()) => {
            // A larger buffer is allowed: only its first `needed` bytes are written.
            assert!(size >= needed);
            assert!(!past_end);
            assert!(out[needed..].iter().all(|&b| b == 0), "nothing written past the rows");
            for (i, row_out) in out[..needed].chunks_exact(row).enumerate() {
                let expected = reference::placement(server, client, start + i as u64, row);
                assert_eq!(row_out, expected.positions.as_slice(), "round {i} of the batch");
            }
        }
        Err(err) => {
            let code = if size < needed { 8 } else { 2 };
            assert!(size < needed || past_end, "{err}");
            assert_eq!(err.code(), code, "{err}");
            assert!(out.iter().all(|&b| b == 0), "nothing written on an error");
        }
    }
    // A list of nonces: the same rounds.
    let list: Vec<u64> = (0..count as u64).map(|i| start.wrapping_add(i)).collect();
    let mut out = vec![0u8; needed];
    mine_positions_batch(server, client, Nonces::List(&list), mines, &mut out).expect("a list cannot overflow");
    for (row_out, &nonce) in out.chunks_exact(row).zip(&list) {
        assert_eq!(row_out, &*mine_positions(server, client, nonce, u32::from(mines.get())).unwrap());
    }
}

/// The sampler alone on a finite list of words: the reference's result, its rejections, or the
/// exhausted stream at the same word.
fn sampler_on_given_words(words: &[u32], mines: u32, near_limit: bool) {
    let Ok(count) = MineCount::new(mines) else { return };
    let words: Vec<u32> = if near_limit {
        // Fold every word into the top 64 values below 2^32: the rejection zone for P = 25 is the top 21,
        // for P = 24 the top 16, and so on, so about half the draws land in it.
        words.iter().map(|w| u32::MAX - (w % 64)).collect()
    } else {
        words.to_vec()
    };
    let mut rejections = Vec::new();
    let got = place_mines_observed(words.iter().copied(), count, |r| {
        rejections.push((r.draw, r.available, r.word_index, r.word));
    });
    match (got, reference::place(words.iter().copied(), mines as usize)) {
        (Ok(got), Some(expected)) => {
            assert_eq!(&*got.draw_order(), expected.draw_order.as_slice());
            assert_eq!(&*got.positions(), expected.positions.as_slice());
            assert_eq!(got.words_used(), expected.words_used);
            assert_eq!(rejections, expected.rejected);
        }
        (Err(err), None) => {
            assert_eq!(err.code(), 6, "{err}");
            assert!(matches!(err, fairmines::Error::StreamExhausted { words_read } if words_read as usize == words.len()));
        }
        (got, expected) => panic!("core {got:?}, reference {expected:?}"),
    }
}

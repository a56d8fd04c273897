//! `Published::parse` on arbitrary strings and numbers, then `verify`: every input is either refused
//! with the right typed error or verified with exactly the verdict the reference implementation gives.
#![no_main]

use arbitrary::Arbitrary;
use fairmines::{Number, Published, verify};
use fairmines_fuzz::{reference, text};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Commitment {
    Skip,
    /// The real commitment, optionally in upper case (hex parses in either case).
    Genuine { upper: bool },
    /// The real commitment with one character replaced.
    Altered { index: u8, with: u8 },
    Any(Vec<u8>),
}

#[derive(Arbitrary, Debug)]
enum Positions {
    Skip,
    /// The real positions, rotated (order does not matter) and optionally with one changed.
    Genuine { rotate: u8, change: Option<(u8, i8)> },
    Small(Vec<u8>),
    Any(Vec<i128>),
}

#[derive(Arbitrary, Debug)]
struct Input {
    server: Vec<u8>,
    client: Vec<u8>,
    nonce: u64,
    mines_selector: u8,
    mines_any: i128,
    commitment: Commitment,
    positions: Positions,
}

fuzz_target!(|input: Input| {
    let server = text(&input.server);
    let client = text(&input.client);
    let mines: i128 = if input.mines_selector < 240 { i128::from(input.mines_selector % 26) } else { input.mines_any };
    let mines_ok = (1..=24).contains(&mines);
    // The genuine round, to build declared values that are right or nearly right.
    let genuine = mines_ok.then(|| reference::placement(&server, &client, input.nonce, mines as usize));
    let real_commitment = reference::commitment(&server);

    let commitment: Option<String> = match input.commitment {
        Commitment::Skip => None,
        Commitment::Genuine { upper } => {
            Some(if upper { real_commitment.to_uppercase() } else { real_commitment.clone() })
        }
        Commitment::Altered { index, with } => {
            let mut bytes = real_commitment.clone().into_bytes();
            bytes[usize::from(index) % 64] = with;
            Some(text(&bytes))
        }
        Commitment::Any(bytes) => Some(text(&bytes)),
    };
    let positions: Option<Vec<i128>> = match input.positions {
        Positions::Skip => None,
        Positions::Genuine { rotate, change } => {
            let mut p: Vec<i128> = genuine.as_ref().map_or(vec![], |g| g.positions.iter().map(|&t| t.into()).collect());
            if !p.is_empty() {
                let n = p.len();
                p.rotate_left(usize::from(rotate) % n);
                if let Some((at, by)) = change {
                    p[usize::from(at) % n] += i128::from(by);
                }
            }
            Some(p)
        }
        Positions::Small(v) => Some(v.into_iter().map(i128::from).collect()),
        Positions::Any(v) => Some(v),
    };

    let numbers: Option<Vec<Number>> = positions.as_ref().map(|p| p.iter().map(|&t| Number::Int(t)).collect());
    let parsed = Published::parse(&server, &client, input.nonce, mines, commitment.as_deref(), numbers.as_deref());

    // What parse must say: the mine count first, then the commitment, then the positions.
    let hex_ok = |c: &String| c.len() == 64 && c.bytes().all(|b| b.is_ascii_hexdigit());
    let tiles_ok = |p: &Vec<i128>| p.len() <= 25 && p.iter().all(|t| (1..=25).contains(t));
    let expected_error = if !mines_ok {
        Some((1, None))
    } else if !commitment.as_ref().is_none_or(hex_ok) {
        Some((4, Some("commitment")))
    } else if !positions.as_ref().is_none_or(tiles_ok) {
        Some((3, Some("positions")))
    } else {
        None
    };
    let published = match (parsed, expected_error) {
        (Ok(p), None) => p,
        (Err(err), Some((code, argument))) => {
            assert_eq!(err.code(), code, "{err}");
            if let Some(argument) = argument {
                assert_eq!(err.argument(), Some(argument));
                assert!(err.to_string().starts_with(argument), "{err}");
            }
            return;
        }
        (parsed, expected) => panic!("parse gave {parsed:?}, expected error {expected:?}"),
    };

    let genuine = genuine.expect("mines are valid here");
    let verdict = verify(&published);
    assert_eq!(verdict.commitment.to_string(), real_commitment);
    assert_eq!(verdict.signature.to_string(), reference::signature(&server, &client, input.nonce));
    assert_eq!(&*verdict.placement.positions(), genuine.positions.as_slice());
    assert_eq!(&*verdict.placement.draw_order(), genuine.draw_order.as_slice());

    let commitment_ok = commitment.map(|c| c.to_lowercase() == real_commitment);
    let positions_ok = positions.map(|p| {
        let mut p: Vec<u8> = p.into_iter().map(|t| t as u8).collect();
        p.sort_unstable();
        p == genuine.positions
    });
    assert_eq!(verdict.commitment_ok(), commitment_ok);
    assert_eq!(verdict.positions_ok(), positions_ok);
    // Ok needs at least one check asked for, and every one holding (nothing to check is "unchecked").
    let checked = commitment_ok.is_some() || positions_ok.is_some();
    assert_eq!(verdict.is_ok(), checked && commitment_ok != Some(false) && positions_ok != Some(false));
});

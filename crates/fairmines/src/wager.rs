//! Stakes and payouts: what a round pays back, from its exact multiplier, in whole minor units (cents).
//! The one rule every part of the project uses: the service that pays, and the history checker that audits.

use crate::{Error, MineCount, Number, Outcome, Ratio, RoundRecord, Rtp, max_safe_picks, multiplier};

/// The largest stake or payout: 2^53 − 1 minor units, so that every amount is exact in a JavaScript number
/// or a float64 column.
pub const MAX_AMOUNT: u64 = (1 << 53) - 1;

/// An amount of minor units (a stake, as a binding received it): an integer in 0..=[`MAX_AMOUNT`].
/// `argument` names it in the error ([`Error::InvalidNumber`]).
pub fn amount(value: impl Into<Number>, argument: &'static str) -> Result<u64, Error> {
    let value = value.into();
    value.integer().filter(|v| (0..=i128::from(MAX_AMOUNT)).contains(v)).map(|v| v as u64).ok_or_else(|| {
        Error::InvalidNumber {
            argument,
            detail: format!("must be a whole number of minor units from 0 to {MAX_AMOUNT} (2^53 - 1), got {value}"),
        }
    })
}

/// What a round pays back, stake included: 0 when lost, the stake when voided, `floor(stake × multiplier)`
/// when cashed out, computed exactly from the multiplier (no floating point).
///
/// Errors: [`Error::InvalidNumber`] naming `stake` outside 0..=[`MAX_AMOUNT`], or naming `multiplier` for a
/// cash-out without one.
///
/// ```
/// use fairmines::{Outcome, Ratio, payout};
/// let m = Ratio::new(1287, 1000).unwrap();
/// assert_eq!(payout(1000u64, Outcome::CashedOut, Some(m))?, 1287);
/// assert_eq!(payout(999u64, Outcome::CashedOut, Some(m))?, 1285); // 1285.713 rounded down
/// assert_eq!(payout(999u64, Outcome::Voided, None)?, 999);
/// assert_eq!(payout(999u64, Outcome::Lost, None)?, 0);
/// assert_eq!(payout(1u64 << 53, Outcome::Lost, None).unwrap_err().argument(), Some("stake"));
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn payout(stake: impl Into<Number>, outcome: Outcome, multiplier: Option<Ratio>) -> Result<u128, Error> {
    let stake = amount(stake, "stake")?;
    match (outcome, multiplier) {
        (Outcome::Lost, _) => Ok(0),
        (Outcome::Voided, _) => Ok(u128::from(stake)),
        (Outcome::CashedOut, Some(m)) => Ok(floor_mul(stake, m)),
        (Outcome::CashedOut, None) => Err(Error::InvalidNumber {
            argument: "multiplier",
            detail: "a cashed-out round pays by its multiplier, and none was given".to_owned(),
        }),
    }
}

/// A stake that a round of `mines` mines at `rtp` can pay in full: an amount in 0..=[`MAX_AMOUNT`] whose
/// largest payout (every safe tile picked) is at most [`MAX_AMOUNT`] too, so that no cash-out of the round
/// can owe an amount no history can write. Errors: [`Error::InvalidNumber`] naming `stake`.
pub fn check_stake(stake: impl Into<Number>, mines: MineCount, rtp: Rtp) -> Result<u64, Error> {
    let stake = amount(stake, "stake")?;
    let most = multiplier(mines, max_safe_picks(mines), rtp)?;
    let largest = floor_mul(stake, most);
    if largest > u128::from(MAX_AMOUNT) {
        return Err(Error::InvalidNumber {
            argument: "stake",
            detail: format!(
                "{stake} could win floor({stake} × {most}) = {largest} with {} mines at rtp {rtp}, above the \
                 largest payout, {MAX_AMOUNT} (2^53 - 1)",
                mines.get()
            ),
        });
    }
    Ok(stake)
}

impl RoundRecord {
    /// What this round pays back for `stake` ([`payout`] of its outcome and exact multiplier).
    pub fn payout(&self, stake: impl Into<Number>) -> Result<u128, Error> {
        payout(stake, self.outcome, self.multiplier)
    }
}

/// floor(stake × m) exactly, whatever m's size: stake × m's whole part, plus floor(stake × r / den) for the
/// remainder r < den, built bit by bit of the stake so that no product overflows (`saturating` only where a
/// multiplier above 2^75, which no round reaches, would need more than 128 bits).
fn floor_mul(stake: u64, m: Ratio) -> u128 {
    let (den, whole, rem) = (m.denom(), m.numer() / m.denom(), m.numer() % m.denom());
    let (mut q, mut acc) = (0u128, 0u128); // stake's leading bits × rem = q × den + acc, acc < den
    for bit in (0..64).rev() {
        // Double: acc + acc, carried into q past den (written without overflow: acc < den).
        q = q.saturating_mul(2);
        if acc >= den - acc {
            acc -= den - acc;
            q += 1;
        } else {
            acc += acc;
        }
        if stake >> bit & 1 == 1 {
            if acc >= den - rem {
                acc -= den - rem;
                q += 1;
            } else {
                acc += rem;
            }
        }
    }
    u128::from(stake).saturating_mul(whole).saturating_add(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(num: u128, den: u128) -> Ratio {
        Ratio::new(num, den).unwrap()
    }

    #[test]
    fn payouts_are_the_stake_times_the_exact_multiplier_rounded_down() {
        assert_eq!(payout(1000u64, Outcome::CashedOut, Some(ratio(1287, 1000))).unwrap(), 1287);
        assert_eq!(payout(999u64, Outcome::CashedOut, Some(ratio(1287, 1000))).unwrap(), 1285);
        assert_eq!(payout(3u64, Outcome::CashedOut, Some(ratio(2, 3))).unwrap(), 2);
        assert_eq!(payout(2u64, Outcome::CashedOut, Some(ratio(2, 3))).unwrap(), 1);
        assert_eq!(payout(0u64, Outcome::CashedOut, Some(ratio(25, 1))).unwrap(), 0);
        assert_eq!(payout(MAX_AMOUNT, Outcome::CashedOut, Some(ratio(1, 1))).unwrap(), u128::from(MAX_AMOUNT));
        // The losing and voided rounds ignore any multiplier.
        assert_eq!(payout(500u64, Outcome::Lost, Some(ratio(9, 8))).unwrap(), 0);
        assert_eq!(payout(500u64, Outcome::Voided, None).unwrap(), 500);
        assert_eq!(payout(MAX_AMOUNT, Outcome::Voided, None).unwrap(), u128::from(MAX_AMOUNT));
    }

    #[test]
    fn the_bit_by_bit_product_agrees_with_the_plain_one_and_survives_huge_denominators() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            state
        };
        for _ in 0..10_000 {
            let stake = next() >> 11; // below 2^53
            let (num, den) = (u128::from(next() >> 40) + 1, u128::from(next() >> 44) + 1);
            let m = ratio(num, den);
            assert_eq!(floor_mul(stake, m), u128::from(stake) * m.numer() / m.denom(), "{stake} × {m}");
        }
        // A remainder near 2^128: stake × rem alone would overflow.
        let m = ratio(u128::MAX - 1, u128::MAX);
        assert_eq!(floor_mul(MAX_AMOUNT, m), u128::from(MAX_AMOUNT) - 1);
        assert_eq!(floor_mul(1, m), 0);
    }

    #[test]
    fn amounts_outside_the_exact_range_are_refused_naming_the_argument() {
        assert_eq!(amount(Number::Float(MAX_AMOUNT as f64), "stake").unwrap(), MAX_AMOUNT);
        assert_eq!(amount(Number::Float(0.0), "stake").unwrap(), 0);
        for bad in [Number::Int(-1), Number::Float(1.5), Number::Int(1 << 53), Number::Float(f64::NAN)] {
            let e = payout(bad, Outcome::Lost, None).unwrap_err();
            assert_eq!((e.code(), e.argument()), (14, Some("stake")), "{bad}");
            assert!(
                e.to_string().starts_with("stake: must be a whole number of minor units from 0 to 9007199254740991")
            );
        }
        let e = payout(5u64, Outcome::CashedOut, None).unwrap_err();
        assert_eq!((e.code(), e.argument()), (14, Some("multiplier")));
    }

    #[test]
    fn a_stake_must_be_payable_in_full_by_its_round() {
        let rtp = Rtp::parse("0.99").unwrap();
        let mines = |m| MineCount::new(m).unwrap();
        // 24 mines: at most 25 × 0.99 = 24.75 times the stake.
        let most = MAX_AMOUNT * 100 / 2475;
        assert_eq!(check_stake(most, mines(24), rtp).unwrap(), most);
        let e = check_stake(most + 1, mines(24), rtp).unwrap_err();
        assert_eq!((e.code(), e.argument()), (14, Some("stake")));
        assert!(e.to_string().contains("above the largest payout"), "{e}");
        assert_eq!(check_stake(1_000_000u64, mines(3), rtp).unwrap(), 1_000_000);
        assert_eq!(check_stake(-1i64, mines(3), rtp).unwrap_err().argument(), Some("stake"));
    }

    #[test]
    fn a_record_pays_by_its_own_outcome_and_multiplier() {
        let seed = crate::ServerSeed::from_bytes(&[7; 32]);
        let mine = crate::mine_positions(seed.reveal(), "c", 0, 1).unwrap()[0];
        let mut pair = crate::SeedPair::from_parts(seed, "c", 0).unwrap();
        let rtp = Rtp::parse("0.99").unwrap();
        let mut round = pair.start_round(MineCount::new(1).unwrap(), rtp).unwrap();
        let safe = if mine == 1 { 2 } else { 1 };
        round.reveal(safe).unwrap();
        round.cash_out().unwrap();
        let record = round.record().unwrap();
        // One mine, one safe pick: 25/24 × 99/100 = 33/32.
        assert_eq!(record.payout(3200u64).unwrap(), 3300);
        assert_eq!(record.payout(1u64 << 53).unwrap_err().argument(), Some("stake"));
    }
}

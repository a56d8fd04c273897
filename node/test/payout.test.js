'use strict';
// Payouts through the package: the conversion of a stake (number or bigint) and of the bigint answer, and the
// core's refusals with their code and argument. The rule itself is tested in the core (crates/fairmines/src/wager.rs).
const test = require('node:test');
const assert = require('node:assert/strict');
const { SeedPair, minePositions, payout, checkStake } = require('fairmines');
const { expectError } = require('./helpers');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';

/** A round with one mine, cashed out after one safe pick: multiplier 25/24 × 99/100 = 33/32. */
function finishedRound() {
  const mine = minePositions(S, C, 0, 1)[0];
  const round = SeedPair.fromParts(S, C, 0).startRound(1, '0.99');
  round.reveal(mine === 1 ? 2 : 1);
  round.cashOut();
  return round;
}

/** finishedRound's record. */
function cashedOut() {
  return finishedRound().record();
}

test('payout: floor(stake × the exact multiplier) as a bigint, for number and bigint stakes', () => {
  const record = cashedOut();
  assert.equal(record.multiplier.text, '33/32');
  assert.equal(payout(record, 3200), 3300n);
  assert.equal(payout(record, 3199n), 3298n); // 3298.96… rounded down
  assert.equal(payout(record, 0), 0n);
  // The largest stake: exact, no float on the way.
  assert.equal(payout(record, Number.MAX_SAFE_INTEGER), (2n ** 53n - 1n) * 33n / 32n);
  assert.equal(payout({ ...record, outcome: 'lost', multiplier: null }, 500), 0n);
  assert.equal(payout({ ...record, outcome: 'voided', multiplier: null }, 500n), 500n);
  // From the round itself: the same rule, without the record in between.
  assert.equal(finishedRound().payout(3199n), 3298n);
  assert.equal(finishedRound().payout(Number.MAX_SAFE_INTEGER), (2n ** 53n - 1n) * 33n / 32n);
});

test('payout: a stake outside 0..=2^53 − 1 is a RangeError naming stake, a wrong type a TypeError', () => {
  const record = cashedOut();
  for (const bad of [-1, 1.5, 2 ** 53, 2n ** 53n, NaN]) {
    const e = expectError(() => payout(record, bad), RangeError, 'FAIRMINES_INVALID_NUMBER', 'stake');
    assert.match(e.message, /^stake: must be a whole number of minor units from 0 to 9007199254740991/);
  }
  expectError(() => payout(record, '100'), TypeError, 'ERR_INVALID_ARG_TYPE', 'stake');
  // The same from the round, whether or not it has finished.
  for (const round of [SeedPair.fromParts(S, C, 0).startRound(1, '0.99'), finishedRound()]) {
    expectError(() => round.payout(-1), RangeError, 'FAIRMINES_INVALID_NUMBER', 'stake');
    expectError(() => round.payout('100'), TypeError, 'ERR_INVALID_ARG_TYPE', 'stake');
  }
  expectError(() => payout({}, 100), TypeError, 'ERR_INVALID_ARG_TYPE', 'record', 'record.commitment');
});

test('checkStake: a stake the round can pay in full, as a number', () => {
  assert.equal(checkStake(1000, 3, '0.99'), 1000);
  assert.equal(checkStake(1000n, 3, '0.99'), 1000);
  // 24 mines pay at most 24.75 times the stake.
  const most = Number((2n ** 53n - 1n) * 100n / 2475n);
  assert.equal(checkStake(most, 24, '99/100'), most);
  const e = expectError(() => checkStake(most + 1, 24, '0.99'), RangeError, 'FAIRMINES_INVALID_NUMBER', 'stake');
  assert.match(e.message, /above the largest payout/);
  expectError(() => checkStake(1, 25, '0.99'), RangeError, 'FAIRMINES_INVALID_MINES', 'mines');
});

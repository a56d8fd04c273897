'use strict';
// Payouts against BigInt arithmetic done here, independently: the whole table, single multipliers,
// the rounding down of the shown decimal, and the expected return of every fixed-pick strategy.
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');
const model = require('./model');

const RTPS = ['0.99', '0.97', '1', '987/1000', '0.5', '1/3', '0.000001', '999999/1000000'];

test('payoutTable: 300 entries, every (mines, safePicks), each exactly C(25,k)/C(25-m,k) × RTP', () => {
  for (const rtpText of RTPS) {
    const rtp = model.parseRatio(rtpText);
    const table = fm.payoutTable(rtpText);
    assert.equal(table.length, 300, rtpText); // Σ_{m=1}^{24} (25 − m)
    let i = 0;
    for (let mines = 1; mines <= 24; mines++) {
      assert.equal(fm.maxSafePicks(mines), 25 - mines);
      for (let k = 1; k <= 25 - mines; k++, i++) {
        const entry = table[i];
        const at = `rtp ${rtpText}, ${mines} mines, ${k} picks`;
        assert.deepEqual(Object.keys(entry), ['mines', 'safePicks', 'multiplier'], at);
        assert.deepEqual([entry.mines, entry.safePicks], [mines, k], at);
        const expected = model.multiplier(mines, k, rtp);
        model.sameRatio(assert, entry.multiplier, expected, at);
        model.sameRatio(assert, fm.multiplier(mines, k, rtpText), expected, at);
      }
    }
    // An RTP given as a Ratio is the same as its text.
    const viaRatio = fm.payoutTable(fm.Ratio.parse(rtpText)).map((e) => e.multiplier.text);
    assert.deepEqual(viaRatio, table.map((e) => e.multiplier.text), rtpText);
  }
});

test('every fixed-pick strategy returns exactly the RTP: P(survive k picks) × multiplier = RTP', () => {
  for (const rtpText of RTPS) {
    const rtp = model.parseRatio(rtpText);
    for (const entry of fm.payoutTable(rtpText)) {
      const p = model.survival(entry.mines, entry.safePicks);
      const ret = model.fraction(p.num * entry.multiplier.numerator, p.den * entry.multiplier.denominator);
      assert.deepEqual(ret, rtp, `${rtpText}: ${entry.mines} mines, ${entry.safePicks} picks`);
    }
  }
});

test('known multipliers and the rounding down of the shown decimal', () => {
  assert.equal(fm.multiplier(1, 1, '1').text, '25/24');
  assert.equal(fm.multiplier(24, 1, '1').text, '25');
  assert.equal(fm.multiplier(3, 22, '1').text, '2300'); // C(25,22) / C(22,22)
  assert.equal(fm.multiplier(3, 1, '0.99').text, '9/8');
  assert.equal(fm.multiplier(3, 1, '0.99').toDecimal(2), '1.12'); // 1.125 shown as 1.12: never more than owed
  assert.equal(fm.multiplier(24, 1, '0.99').toDecimal(2), '24.75');
  for (const rtpText of ['0.99', '1/3']) {
    for (const entry of fm.payoutTable(rtpText)) {
      const exact = { num: entry.multiplier.numerator, den: entry.multiplier.denominator };
      for (const places of [0, 1, 2, 4, 8, 18]) {
        assert.equal(entry.multiplier.toDecimal(places), model.decimalDown(exact, places), `${entry.multiplier.text} at ${places}`);
      }
    }
  }
  // Multipliers grow with every safe pick and with every extra mine.
  const table = fm.payoutTable('0.99');
  const at = (m, k) => table.find((e) => e.mines === m && e.safePicks === k).multiplier;
  const less = (a, b) => a.numerator * b.denominator < b.numerator * a.denominator;
  for (let m = 1; m <= 24; m++) {
    for (let k = 1; k < 25 - m; k++) assert.ok(less(at(m, k), at(m, k + 1)), `${m} mines, ${k} → ${k + 1}`);
    if (m < 24) assert.ok(less(at(m, 1), at(m + 1, 1)), `${m} → ${m + 1} mines`);
  }
});

test('the multipliers a round reaches are the table\'s', () => {
  const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
  const table = fm.payoutTable('97/100');
  for (let mines = 1; mines <= 24; mines++) {
    const grid = fm.minePositions(S, 'table', mines, mines);
    const round = fm.SeedPair.fromParts(S, 'table', mines).startRound(mines, '0.97');
    let k = 0;
    for (let tile = 1; tile <= 25; tile++) {
      if (grid.includes(tile)) continue;
      k += 1;
      const { multiplier } = round.reveal(tile);
      assert.equal(multiplier.text, table.find((e) => e.mines === mines && e.safePicks === k).multiplier.text);
    }
    assert.equal(round.outcome, 'cashed_out');
  }
});

// Fractions whose denominator × 10^places passes 2^128 (no game multiplier comes near) still get exact digits.
test('toDecimal of fractions with very large denominators', () => {
  const r = new fm.Ratio(2n ** 128n - 1n, 2n ** 127n); // 1.99999…
  assert.equal(r.toDecimal(2), model.decimalDown({ num: r.numerator, den: r.denominator }, 2));
  const q = fm.Ratio.parse(`0.${'3'.repeat(30)}`);
  assert.equal(q.toDecimal(18), '0.333333333333333333');
});

// Payouts and exact ratios: multiplier, payoutTable, maxSafePicks and Ratio, their results and the conversion
// of every argument (a wrong type a TypeError naming it, an out-of-range value the core's error).
import test from 'node:test';
import assert from 'node:assert/strict';
import util from 'node:util';
import { R, T, TYPE, WRONG_TYPES, errorModel } from './check.mjs';

export function payoutTests(fm) {
  const { expectError } = errorModel(fm);
  const { Ratio } = fm;

  test('payouts: the table as { mines, safePicks, multiplier } entries, the same as multiplier(); an RTP as text or a Ratio', () => {
    const table = fm.payoutTable('0.99');
    assert.equal(table.length, 300);
    assert.deepEqual(Object.keys(table[0]), ['mines', 'safePicks', 'multiplier']);
    for (const { mines, safePicks, multiplier } of table) {
      assert.ok(multiplier instanceof Ratio);
      assert.equal(multiplier.text, fm.multiplier(mines, safePicks, '99/100').text);
    }
    assert.deepEqual(fm.payoutTable(Ratio.parse('0.99')).map((e) => e.multiplier.text), table.map((e) => e.multiplier.text));
    assert.deepEqual([table[0].mines, table[0].safePicks, table[0].multiplier.text, table[299].mines], [1, 1, '33/32', 24]);
    assert.deepEqual([fm.multiplier(1, 1, '1').text, fm.multiplier(24, 1, '1').text, fm.multiplier(3, 22, '1').text], ['25/24', '25', '2300']);
    assert.equal(fm.multiplier(24, 1, new Ratio(99, 100)).toDecimal(2), '24.75');
    assert.deepEqual([fm.maxSafePicks(1), fm.maxSafePicks(24)], [24, 1]);
  });

  test('multiplier, payoutTable, maxSafePicks: mines, safePicks, rtp', () => {
    for (const mines of [0, 25, 3.5, NaN]) {
      expectError(() => fm.multiplier(mines, 1, '1'), R, 'FAIRMINES_INVALID_MINES', 'mines');
      expectError(() => fm.maxSafePicks(mines), R, 'FAIRMINES_INVALID_MINES', 'mines');
    }
    for (const mines of ['3', null, undefined]) {
      expectError(() => fm.multiplier(mines, 1, '1'), T, TYPE, 'mines');
      expectError(() => fm.maxSafePicks(mines), T, TYPE, 'mines');
    }
    for (const [mines, picks] of [[3, 0], [3, 23], [24, 2], [1, 25], [3, 1.5], [3, -1], [3, 300], [3, NaN], [3, Infinity], [3, 23n], [3, 2n ** 130n]]) {
      const e = expectError(() => fm.multiplier(mines, picks, '1'), R, 'FAIRMINES_INVALID_PICKS', 'safePicks');
      assert.match(e.message, new RegExp(`^safePicks: must be from 1 to ${25 - mines} with ${mines} mines, got `));
    }
    for (const picks of ['1', null, undefined, {}]) expectError(() => fm.multiplier(3, picks, '1'), T, TYPE, 'safePicks');
    assert.equal(fm.multiplier(3n, 1n, '0.99').text, fm.multiplier(3, 1, Ratio.parse('99/100')).text);
    assert.equal(fm.maxSafePicks(3n), 22);
    for (const rtp of [0.99, null, undefined, 1n]) {
      expectError(() => fm.multiplier(3, 1, rtp), T, TYPE, 'rtp');
      expectError(() => fm.payoutTable(rtp), T, TYPE, 'rtp');
    }
    assert.match(expectError(() => fm.payoutTable(0.99), T, TYPE, 'rtp').message, /binary floating point/);
    for (const rtp of ['0', '1.5', 'x', new Ratio(3, 2)]) {
      expectError(() => fm.multiplier(3, 1, rtp), R, 'FAIRMINES_INVALID_RTP', 'rtp');
      expectError(() => fm.payoutTable(rtp), R, 'FAIRMINES_INVALID_RTP', 'rtp');
    }
  });

  test('Ratio: exact parts as bigints, text, rounding down, equality; no float conversion by accident', () => {
    const r = new Ratio(2475n, 100);
    assert.deepEqual([r.numerator, r.denominator, r.text, String(r), `${r}`, JSON.stringify(r)], [99n, 4n, '99/4', '99/4', '99/4', '"99/4"']);
    assert.equal(JSON.stringify({ r: new Ratio(99, 100) }), '{"r":"99/100"}');
    assert.deepEqual([r.toDecimal(2), r.toDecimal(0), new Ratio(2, 3).toDecimal(2), new Ratio(5, 1).text, new Ratio(0, 7).text], ['24.75', '24', '0.66', '5', '0']);
    // The parts of a ratio span u128: its text holds them all (a bigint part goes in as an i128).
    const big = Ratio.parse(`${2n ** 128n - 1n}/${2n ** 127n}`);
    assert.deepEqual([big.numerator, big.denominator, big.toDecimal(2)], [2n ** 128n - 1n, 2n ** 127n, '1.99']);
    assert.equal(Ratio.parse(`0.${'3'.repeat(30)}`).toDecimal(18), '0.333333333333333333');
    assert.equal(Ratio.parse('0.99').text, '99/100');
    assert.ok(Ratio.parse('0.99').equals('99/100'));
    assert.ok(Ratio.parse('0.99').equals(new Ratio(198, 200)));
    assert.ok(!Ratio.parse('0.99').equals('0.98'));
    assert.equal(new Ratio(9, 8).toNumber(), 1.125);
    assert.equal(util.inspect(new Ratio(9, 8)), 'Ratio(9/8)');
    assert.ok(Number.isNaN(+new Ratio(9, 8)), 'no valueOf: arithmetic on a Ratio is NaN, never a rounded float');
  });

  test('Ratio: numerator, denominator, text, places, other', () => {
    for (const bad of [-1, 1.5, 2 ** 53, NaN, -1n, 2n ** 128n]) {
      expectError(() => new Ratio(bad, 1), R, 'FAIRMINES_INVALID_NUMBER', 'numerator');
      expectError(() => new Ratio(1, bad), R, 'FAIRMINES_INVALID_NUMBER', 'denominator');
    }
    assert.equal(new Ratio(2n ** 127n - 1n, 2 ** 53 - 1).numerator, 2n ** 127n - 1n);
    assert.equal(new Ratio(2n ** 128n - 1n, 2n ** 127n).text, `${2n ** 128n - 1n}/${2n ** 127n}`);
    for (const bad of ['1', null, undefined, {}]) {
      expectError(() => new Ratio(bad, 1), T, TYPE, 'numerator');
      expectError(() => new Ratio(1, bad), T, TYPE, 'denominator');
    }
    expectError(() => new Ratio(1, 0), R, 'FAIRMINES_INVALID_NUMBER', 'denominator');
    expectError(() => new Ratio(0n, 0n), R, 'FAIRMINES_INVALID_NUMBER', 'denominator');
    for (const bad of ['', 'x', '1/0', '0.', '-1', '1.2.3', '1/-2', '1e3', `${2n ** 128n}`]) {
      expectError(() => Ratio.parse(bad), R, 'FAIRMINES_INVALID_NUMBER', 'text');
      expectError(() => new Ratio(1, 2).equals(bad), R, 'FAIRMINES_INVALID_NUMBER', 'other');
    }
    for (const bad of WRONG_TYPES) expectError(() => Ratio.parse(bad), T, TYPE, 'text');
    for (const bad of [0.5, null, undefined, 1n, {}]) expectError(() => new Ratio(1, 2).equals(bad), T, TYPE, 'other');
    for (const bad of [-1, 19, 1.5, NaN, Infinity, 19n, -1n]) {
      expectError(() => new Ratio(1, 3).toDecimal(bad), R, 'FAIRMINES_INVALID_NUMBER', 'places');
    }
    for (const bad of ['2', null, undefined, {}]) expectError(() => new Ratio(1, 3).toDecimal(bad), T, TYPE, 'places');
    assert.equal(new Ratio(1, 3).toDecimal(2n), '0.33');
  });

  test('Ratio called without new throws a TypeError naming the class', () => {
    for (const call of [() => Ratio(1, 2), () => Ratio.call(fm, 1, 2), () => Ratio.apply({}, [1, 2])]) {
      const caught = (() => { try { call(); } catch (e) { return e; } return undefined; })();
      assert.ok(caught instanceof TypeError, `${caught}`);
      assert.match(caught.message, /^Class constructor Ratio cannot be invoked without 'new'/);
    }
    assert.equal(Ratio.name, 'Ratio');
    assert.ok(new Ratio(1, 2) instanceof Ratio && Ratio.parse('1/2') instanceof Ratio);
  });
}

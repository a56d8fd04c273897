'use strict';
// An independent model of the payouts and of a round's replay, in BigInt, written from SPEC.md and the
// issue (multiplier after k safe picks with m mines = C(25, k) / C(25 − m, k) × RTP), not from the
// binding. The tests compare the package with it.

const gcd = (a, b) => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/** `{ num, den }` in lowest terms. */
function fraction(num, den) {
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}

/** `'0.99'`, `'99/100'`, `'1'` as an exact fraction (the test's own parser). */
function parseRatio(text) {
  if (text.includes('/')) {
    const [n, d] = text.split('/');
    return fraction(BigInt(n), BigInt(d));
  }
  if (text.includes('.')) {
    const [whole, frac] = text.split('.');
    const scale = 10n ** BigInt(frac.length);
    return fraction(BigInt(whole || '0') * scale + BigInt(frac), scale);
  }
  return fraction(BigInt(text), 1n);
}

/** C(n, k) as a product of k factors over k!, both computed separately. */
function binomial(n, k) {
  if (k < 0n || k > n) return 0n;
  let top = 1n;
  let bottom = 1n;
  for (let i = 0n; i < k; i++) {
    top *= n - i;
    bottom *= i + 1n;
  }
  return top / bottom;
}

/** The multiplier after `k` safe picks with `mines` mines at `rtp` (`{num, den}`). */
function multiplier(mines, k, rtp) {
  const m = BigInt(mines);
  const picks = BigInt(k);
  return fraction(binomial(25n, picks) * rtp.num, binomial(25n - m, picks) * rtp.den);
}

/** The chance of surviving `k` picks, pick by pick: Π (25 − m − i) / (25 − i). */
function survival(mines, k) {
  let p = fraction(1n, 1n);
  for (let i = 0; i < k; i++) p = fraction(p.num * BigInt(25 - mines - i), p.den * BigInt(25 - i));
  return p;
}

/** `{num, den}` rounded down to `places` decimals, as text. */
function decimalDown({ num, den }, places) {
  const whole = num / den;
  if (places === 0) return whole.toString();
  const frac = ((num % den) * 10n ** BigInt(places)) / den;
  return `${whole}.${frac.toString().padStart(places, '0')}`;
}

/** `'num/den'`, or `'num'` for a whole number: the core's text form. */
const text = ({ num, den }) => (den === 1n ? `${num}` : `${num}/${den}`);

/** Asserts that a package `Ratio` is exactly `expected` (`{num, den}`). */
function sameRatio(assert, ratio, expected, message) {
  assert.equal(ratio.numerator, expected.num, message);
  assert.equal(ratio.denominator, expected.den, message);
  assert.equal(ratio.text, text(expected), message);
}

/**
 * The verdict the test expects for `record` with `serverSeed`, from the grid of `minePositions` (the
 * vector-tested function) and this model: whether the record is exactly what the seeds and picks give.
 */
function replay(fm, record, serverSeed) {
  const grid = fm.minePositions(serverSeed, record.clientSeed, record.nonce, record.mines);
  let hit = -1;
  const seen = new Set();
  let ok = fm.commitment(serverSeed) === record.commitment.toLowerCase();
  record.picks.forEach((tile, i) => {
    if (seen.has(tile) || hit >= 0) ok = false;
    seen.add(tile);
    if (hit < 0 && grid.includes(tile)) hit = i;
  });
  const safePicks = hit >= 0 ? hit : record.picks.length;
  // Picks with no mine end in a cash-out, or in a void that left a safe tile closed (the rule:
  // the last safe tile pays out by itself, so such a round cannot have been voided).
  const voided = hit < 0 && record.outcome === 'voided' && safePicks < 25 - record.mines;
  const outcome = hit >= 0 ? 'lost' : voided ? 'voided' : 'cashed_out';
  if (outcome === 'cashed_out' && safePicks === 0) ok = false;
  const rtp = parseRatio(String(record.rtp));
  // No multiplier exists for no safe pick, or for more than 25 − mines of them (only repeats get there).
  const payable = outcome === 'cashed_out' && safePicks >= 1 && safePicks <= 25 - record.mines;
  const expected = payable ? text(multiplier(record.mines, safePicks, rtp)) : null;
  const given = record.multiplier === null ? null : text(parseRatio(String(record.multiplier)));
  if (record.outcome !== outcome || given !== expected) ok = false;
  return { ok, outcome, multiplier: expected, grid };
}

module.exports = { fraction, parseRatio, binomial, multiplier, survival, decimalDown, text, sameRatio, replay };

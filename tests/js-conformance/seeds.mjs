// generateServerSeed: a fresh seed from the package's CSPRNG with its commitment, which no log shows.
import test from 'node:test';
import assert from 'node:assert/strict';
import util from 'node:util';

export function seedTests(fm) {
  test('generateServerSeed: 64 hex characters, its commitment, distinct, hidden from inspection', () => {
    const a = fm.generateServerSeed();
    const b = fm.generateServerSeed();
    assert.match(a.serverSeed, /^[0-9a-f]{64}$/);
    assert.equal(a.commitment, fm.commitment(a.serverSeed));
    assert.notEqual(a.serverSeed, b.serverSeed);
    assert.deepEqual(Object.keys(a), ['commitment']);
    const { serverSeed, commitment } = a;
    assert.equal(serverSeed, a.serverSeed);
    assert.equal(commitment, a.commitment);
    for (const shown of [util.inspect(a), util.format('%o', a), util.format('%O', a), String(a), `${a}`]) {
      assert.ok(!shown.includes(a.serverSeed), `the seed shows in ${shown}`);
    }
    assert.ok(util.inspect(a).includes(a.commitment));
  });

  test('generateServerSeed: JSON.stringify and a spread write the commitment only, serverSeed still reads', () => {
    const a = fm.generateServerSeed();
    const seed = a.serverSeed;
    assert.match(seed, /^[0-9a-f]{64}$/);
    assert.equal(JSON.stringify(a), `{"commitment":"${a.commitment}"}`);
    assert.equal(JSON.stringify({ a }), `{"a":{"commitment":"${a.commitment}"}}`);
    for (const text of [JSON.stringify({ ...a }), util.inspect(a, { showHidden: true }), util.inspect({ a }, { depth: 5 })]) {
      assert.ok(!text.includes(seed), `the seed shows in ${text}`);
    }
    assert.equal(fm.commitment(seed), a.commitment);
  });
}

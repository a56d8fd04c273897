// node scripts/server-round.mjs URL API_KEY PLAYER: one round through the service's HTTP API, then a rotation and the
// export; prints what it saw as one JSON line. The only place the dist scripts call the service's routes.
import assert from 'node:assert/strict';

const [url, key, player] = process.argv.slice(2);
const call = async (method, route, body) => {
  const res = await fetch(`${url}${route}`, {
    method, headers: { authorization: `Bearer ${key}`, ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body), signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${route}: ${res.status} ${text}`);
  return route.startsWith('/v1/history') ? text : JSON.parse(text);
};

const start = await call('POST', `/v1/players/${player}/rounds`, { mines: 3, stake: 1000, currency: 'EUR' });
const round = `/v1/players/${player}/rounds/${start.round}`;
let move = 0, last;
for (const tile of [1, 2, 3, 4, 5, 6]) {
  last = await call('POST', `${round}/reveal`, { tile, move: ++move });
  if (last.finished) break;
}
if (!last.finished) last = await call('POST', `${round}/cash-out`, { move: ++move });
assert.ok(last.finished && last.record, 'the round finished with its record');
assert.ok(Number.isSafeInteger(last.payout), 'the round paid by the core\'s rule');
const rotated = await call('POST', `/v1/players/${player}/rotate`);
assert.match(rotated.revealed.serverSeed, /^[0-9a-f]{64}$/);
const history = await call('GET', '/v1/history?format=jsonl');
const revealed = await call('GET', '/v1/history/revealed');
console.log(JSON.stringify({ round: start.round, outcome: last.outcome, moves: move, history, revealed }));

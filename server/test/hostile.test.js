// Thousands of malformed requests over a real socket: every answer is a 4xx with an error code, and the
// service still plays a round afterwards.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { API_KEY, rng, startApp, startDatabase } from './helpers.js';

let db;
let svc;
let base;
before(async () => {
  db = await startDatabase();
  svc = await startApp(db);
  base = await svc.app.listen({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await svc.close();
  await db.close();
});

const VALUES = ['0', '26', '1e309', '-1e309', '-0', '1.5', '"7"', 'null', 'true', '[]', '{}', '[1,2]', '"\\u0000"',
  '9007199254740993', '-1', '1e-400', '"💣"', '{"__proto__":1}', '"' + 'x'.repeat(300) + '"'];
const FIELDS = ['tile', 'move', 'mines', 'rtp', 'clientSeed', 'void', 'extra', '__proto__', 'constructor', ''];

function malformed(rand, round, player) {
  const pick = (xs) => xs[rand(xs.length)];
  const routes = [['POST', `/v1/players/${player}/rounds`], ['POST', `/v1/rounds/${round}/reveal`],
    ['POST', `/v1/rounds/${round}/cash-out`], ['POST', `/v1/players/${player}/rotate`],
    ['POST', `/v1/rounds/${pick(['1', 'x'.repeat(40), '00000000-0000-4000-8000-000000000000', '%2e%2e', round.toUpperCase()])}/reveal`],
    ['POST', `/v1/players/${pick(['', '%00', 'a/b', '..', 'é', 'x'.repeat(100), '%F0%9F%92%A3'])}/rounds`],
    ['GET', `/v1/rounds/${pick(['nope', '%ff', round + 'x'])}`], ['GET', `/v1/history?format=${pick(['', 'xml', 'csv&x=1', '%00'])}`],
    ['PUT', `/v1/rounds/${round}/reveal`], ['GET', `/v1/rounds/${round}/reveal`]];
  const [method, url] = pick(routes);
  let body;
  switch (rand(7)) {
    case 0: body = pick(['{', '{"tile":', '{"tile": 7,}', 'nul', '"', '{"a":1}{"b":2}', '\u0000', '{"tile":07}']); break;
    case 1: body = `{${FIELDS.slice(0, 1 + rand(4)).map((f) => `"${pick(FIELDS)}": ${pick(VALUES)}`).join(',')}}`; break;
    case 2: body = `{"tile": ${pick(VALUES)}, "move": ${pick(VALUES)}}`; break;
    case 3: body = JSON.stringify({ mines: 3, rtp: 'x'.repeat(2000 + rand(200000)) }); break;
    case 4: body = `${'['.repeat(1 + rand(5000))}${']'.repeat(rand(5000))}`; break;
    case 5: body = `{"tile": ${1 + rand(25)}, "move": ${pick([0, 3, 7, 100000, 1001])}}`; break;
    default: body = pick(['[1]', '7', '"text"', 'null', '{"mines": 3, "mines": "3"}']);
  }
  const type = pick(['application/json', 'application/json', 'application/json', 'text/plain', 'application/xml',
    'application/json; charset=latin1', '']);
  return { method, url, body: method === 'GET' ? undefined : body, type };
}

test('thousands of malformed requests get only 4xx, and the service still serves', async () => {
  const auth = { authorization: `Bearer ${API_KEY}` };
  const post = (url, body) => fetch(base + url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: await r.json() }));
  // A round of another player, with one move made, to aim moves out of order at.
  const { json: r } = await post('/v1/players/victim/rounds', { mines: 3 });
  const rand = rng(Number(process.env.FAIRMINES_TEST_SEED ?? 7));
  const statuses = new Map();
  const total = 3000;
  let next = 0;
  async function worker() {
    while (next < total) {
      next += 1;
      const q = malformed(rand, r.round, 'mallory');
      const headers = { ...(rand(20) === 0 ? {} : auth), ...(q.type ? { 'content-type': q.type } : {}) };
      const res = await fetch(base + q.url, { method: q.method, headers, body: q.body });
      const text = await res.text();
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} for ${q.method} ${q.url} ${q.body?.slice(0, 200)}: ${text}`);
      const parsed = JSON.parse(text);
      assert.match(String(parsed.error?.code), /^FAIRMINES_[A-Z_]+$/, `${res.status} for ${q.method} ${q.url}: ${text}`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker));
  assert.deepEqual([...statuses.keys()].sort(), [400, 401, 404, 409]);

  // Not HTTP at all, on raw sockets: the server answers 400 or closes, and lives on.
  for (const junk of ['GARBAGE\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n', '\u0000'.repeat(10000),
    `POST /v1/players/p/rounds HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`]) {
    const reply = await new Promise((resolve) => {
      const { port } = new URL(base);
      const s = net.connect(port, '127.0.0.1', () => s.end(junk));
      let got = '';
      s.on('data', (d) => { got += d; });
      s.on('close', () => resolve(got));
      s.on('error', () => resolve(got));
    });
    assert.ok(reply === '' || /^HTTP\/1\.1 4\d\d/.test(reply), reply.slice(0, 100));
  }

  // Still serving: a whole round plays.
  const fresh = await post('/v1/players/after-storm/rounds', { mines: 24 });
  assert.equal(fresh.status, 201);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  const { rows } = await svc.pool.query('SELECT count(*)::int AS n FROM moves');
  assert.equal(rows[0].n, 0, 'no malformed request made a move');
});

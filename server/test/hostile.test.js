// Thousands of malformed requests over a real socket: every answer is a 4xx in the error shape, and the
// service still plays a round afterwards. Then each refusal one by one, Fastify's and Node's own included
// (404, 413, 415, 431, the drain's 503), duplicate JSON keys, RTPs not offered, the cap on rounds in play.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { API_KEY, call, rng, serviceForFile, startApp } from './helpers.js';

let base;
const svc = serviceForFile(async (s) => { base = await s.app.listen({ host: '127.0.0.1', port: 0 }); });

/** `text` is {"error": {"code": "FAIRMINES_…", "message": "…", "argument": "…" | null}}, nothing more. */
function assertErrorShape(text, what) {
  const parsed = JSON.parse(text);
  assert.deepEqual(Object.keys(parsed), ['error'], `${what}: ${text}`);
  assert.deepEqual(Object.keys(parsed.error), ['code', 'message', 'argument'], `${what}: ${text}`);
  assert.match(parsed.error.code, /^FAIRMINES_[A-Z_]+$/, `${what}: ${text}`);
  assert.equal(typeof parsed.error.message, 'string', `${what}: ${text}`);
  assert.ok(parsed.error.argument === null || typeof parsed.error.argument === 'string', `${what}: ${text}`);
  return parsed.error;
}

/** Writes `text` on a new connection to the service and resolves with all it answers before closing. */
function exchange(text, { hold = null } = {}) {
  return new Promise((resolve) => {
    const { port } = new URL(base);
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    let got = '';
    s.on('data', (d) => { got += d; });
    s.on('close', () => resolve(got));
    s.on('error', () => resolve(got));
    hold?.(s);
  });
}

/** The answers of a raw exchange: [{ status, headers (lower-case names), body }]. */
function answers(raw) {
  return raw.split(/(?=HTTP\/1\.1 \d{3} )/).filter(Boolean).map((one) => {
    const [head, body] = one.split('\r\n\r\n');
    const [line, ...fields] = head.split('\r\n');
    return { status: Number(line.split(' ')[1]), body,
      headers: Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()])) };
  });
}

const VALUES = ['0', '26', '1e309', '-1e309', '-0', '1.5', '"7"', 'null', 'true', '[]', '{}', '[1,2]', '"\\u0000"',
  '9007199254740993', '-1', '1e-400', '"💣"', '{"__proto__":1}', '"' + 'x'.repeat(300) + '"'];
const FIELDS = ['tile', 'move', 'mines', 'rtp', 'clientSeed', 'void', 'extra', '__proto__', 'constructor', ''];

function malformed(rand, round, owner, player) {
  const pick = (xs) => xs[rand(xs.length)];
  const mine = `/v1/players/${owner}/rounds/${round}`;
  const routes = [['POST', `/v1/players/${player}/rounds`], ['POST', `${mine}/reveal`],
    ['POST', `${mine}/cash-out`], ['POST', `/v1/players/${player}/rotate`],
    ['POST', `/v1/players/${player}/rounds/${pick(['1', 'x'.repeat(40), '00000000-0000-4000-8000-000000000000', '%2e%2e',
      round.toUpperCase()])}/reveal`],
    // Another player's round, and a round under a malformed player.
    ['POST', `/v1/players/${pick(['someone-else', '%00', 'a/b'])}/rounds/${round}/reveal`],
    ['POST', `/v1/players/${pick(['', '%00', 'a/b', '..', 'é', 'x'.repeat(100), '%F0%9F%92%A3'])}/rounds`],
    ['GET', `/v1/players/${player}/rounds/${pick(['nope', '%ff', round + 'x'])}`],
    ['GET', `/v1/players/${player}/rounds?${pick(['limit=0', 'limit=1001', 'limit=x', 'status=lost', 'cursor=%00', 'cursor=abc'])}`],
    ['GET', `/v1/history?${pick(['format=', 'format=xml', 'format=csv&x=1', 'format=%00', 'limit=0', 'limit=10001',
      'since=yesterday', 'until=2026-13-01T00:00:00Z', 'cursor=!!', 'cursor=eA', 'player=%00'])}`],
    ['PUT', `${mine}/reveal`], ['GET', `${mine}/reveal`], ['GET', `/v1/rounds/${round}`]];
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
      const q = malformed(rand, r.round, 'victim', 'mallory');
      const headers = { ...(rand(20) === 0 ? {} : auth), ...(q.type ? { 'content-type': q.type } : {}) };
      const res = await fetch(base + q.url, { method: q.method, headers, body: q.body });
      const text = await res.text();
      assert.ok(res.status >= 400 && res.status < 500, `${res.status} for ${q.method} ${q.url} ${q.body?.slice(0, 200)}: ${text}`);
      assertErrorShape(text, `${res.status} for ${q.method} ${q.url}`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker));
  assert.deepEqual([...statuses.keys()].sort(), [400, 401, 404, 409, 413, 415]);

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
    if (reply !== '') assertErrorShape(reply.slice(reply.indexOf('\r\n\r\n') + 4), junk.slice(0, 20));
  }

  // Still serving: a whole round plays.
  const fresh = await post('/v1/players/after-storm/rounds', { mines: 24 });
  assert.equal(fresh.status, 201);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);
  const { rows } = await svc.pool.query('SELECT count(*)::int AS n FROM moves');
  assert.equal(rows[0].n, 0, 'no malformed request made a move');
});

test('each refusal in one shape: 404, 413, 415, 431, bad URLs, duplicate keys, RTPs not offered', async () => {
  const auth = { authorization: `Bearer ${API_KEY}` };
  const send = async (method, url, body, type = 'application/json', headers = auth) => {
    const res = await fetch(base + url, { method, body, headers: { ...headers, ...(body ? { 'content-type': type } : {}) } });
    const text = await res.text();
    return { status: res.status, error: res.status >= 400 ? assertErrorShape(text, `${method} ${url}`) : null,
      json: res.status < 400 ? JSON.parse(text) : null };
  };
  const expect = (res, status, code, argument) => {
    assert.equal(res.status, status, JSON.stringify(res));
    assert.equal(res.error.code, code, JSON.stringify(res));
    if (argument !== undefined) assert.equal(res.error.argument, argument, JSON.stringify(res));
  };
  const rounds = '/v1/players/edgy/rounds';

  expect(await send('GET', '/v1/nowhere'), 404, 'FAIRMINES_NOT_FOUND');
  expect(await send('DELETE', rounds), 404, 'FAIRMINES_NOT_FOUND');
  expect(await send('GET', '/v1/players/edgy/rounds/%ff'), 400, 'FAIRMINES_INVALID_REQUEST', 'url');
  expect(await send('POST', rounds, JSON.stringify({ mines: 3, rtp: 'x'.repeat(3000) })), 413, 'FAIRMINES_BODY_TOO_LARGE', 'body');
  expect(await send('POST', rounds, '{"mines": 3}', 'text/plain'), 415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE', 'body');
  expect(await send('POST', rounds, '{"mines": 3}', 'text/plain; charset=utf-8'), 415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE');
  expect(await send('POST', rounds, '<mines>3</mines>', 'application/xml'), 415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE');
  expect(await send('POST', rounds, 'mines=3', 'application/x-www-form-urlencoded'), 415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE');

  // A key twice in one object is refused, naming it, however it is spelled; the same key in two objects is not.
  expect(await send('POST', rounds, '{"mines": 3, "mines": 4}'), 400, 'FAIRMINES_DUPLICATE_KEY', 'mines');
  expect(await send('POST', rounds, '{"mines": 3, "rtp": "0.99", "mi\\u006ees": 3}'), 400, 'FAIRMINES_DUPLICATE_KEY', 'mines');
  expect(await send('POST', '/v1/players/edgy/rotate', '{"void": true, "clientSeed": "a,b", "void": false}'), 400,
    'FAIRMINES_DUPLICATE_KEY', 'void');
  expect(await send('POST', rounds, '{"mines": {"a": [1, {"a": 2}], "b": {"a": 1, "a": 1}}}'), 400, 'FAIRMINES_DUPLICATE_KEY', 'a');
  expect(await send('POST', rounds, '{"mines": [{"a": 1}, {"a": 1}], "x\\"y": "mines"}'), 400, 'FAIRMINES_INVALID_REQUEST');
  expect(await send('POST', rounds, '{"__proto__": {"mines": 3}}'), 400, 'FAIRMINES_INVALID_JSON', 'body');

  // Only the RTPs of the configuration (the tests offer 0.99, 0.97 and 1), however written; 0.99 when none is named.
  expect(await send('POST', rounds, '{"mines": 3, "rtp": "1/3"}'), 400, 'FAIRMINES_RTP_NOT_OFFERED', 'rtp');
  expect(await send('POST', rounds, '{"mines": 3, "rtp": "0.98"}'), 400, 'FAIRMINES_RTP_NOT_OFFERED', 'rtp');
  expect(await send('POST', rounds, '{"mines": 3, "rtp": "2"}'), 400, 'FAIRMINES_INVALID_RTP', 'rtp');
  for (const [rtp, text] of [['0.970', '97/100'], ['99/100', '99/100'], ['1', '1'], [undefined, '99/100']]) {
    const res = await send('POST', rounds, JSON.stringify({ mines: 3, rtp }));
    assert.equal(res.status, 201, JSON.stringify(res));
    assert.equal(res.json.rtp, text);
  }

  // A request line and headers over 16 KiB are refused by Node's parser, before Fastify: 431, same shape.
  for (const request of [`GET /v1/players/edgy/rounds/${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20000)}\r\n\r\n`]) {
    const [answer] = answers(await exchange(request));
    assert.equal(answer.status, 431);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(assertErrorShape(answer.body, '431').code, 'FAIRMINES_HEADERS_TOO_LARGE');
  }

  // Liveness and readiness: no key, any query string.
  for (const url of ['/healthz', '/healthz?x=1', '/readyz', '/readyz?probe=lb&x=%ff']) {
    const res = await fetch(base + url);
    assert.equal(res.status, 200, url);
    assert.deepEqual(await res.json(), { ok: true });
  }
  const metrics = await (await fetch(`${base}/metrics`, { headers: auth })).text();
  for (const code of [404, 413, 415, 431]) assert.match(metrics, new RegExp(`^fairmines_responses_total\\{code="${code}"\\} [1-9]`, 'm'));
});

test('a player may hold at most FAIRMINES_MAX_ROUNDS_IN_PLAY rounds in play (409 past it)', async () => {
  const capped = await startApp(svc.db, 4, { maxRoundsInPlay: 3 });
  try {
    const start = () => call(capped.app, 'POST', '/v1/players/hoarder/rounds', { mines: 24 });
    const first = await Promise.all([start(), start(), start(), start(), start()]);
    assert.deepEqual(first.map((r) => r.status).sort(), [201, 201, 201, 409, 409], 'parallel starts cannot pass the cap');
    const refused = first.find((r) => r.status === 409);
    assert.equal(refused.json.error.code, 'FAIRMINES_TOO_MANY_ROUNDS_IN_PLAY');
    assert.equal(refused.json.error.argument, 'player');
    // A finished round makes room (24 mines: the first reveal ends the round whatever it finds).
    const played = first.find((r) => r.status === 201).json.round;
    const move = await call(capped.app, 'POST', `/v1/players/hoarder/rounds/${played}/reveal`, { tile: 1, move: 1 });
    assert.equal(move.json.finished, true, move.body);
    assert.equal((await start()).status, 201);
    assert.equal((await start()).status, 409);
    // Another player is not held by this one's rounds.
    assert.equal((await call(capped.app, 'POST', '/v1/players/other/rounds', { mines: 3 })).status, 201);
  } finally {
    await capped.close();
  }
});

test('a request that arrives while the process drains gets 503 in the error shape, with Retry-After', async () => {
  const draining = await startApp(svc.db, 4);
  const url = new URL(await draining.app.listen({ host: '127.0.0.1', port: 0 }));
  const headers = `Host: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\n`;
  // A request held in flight: the player's pair row is locked by another transaction.
  assert.equal((await call(draining.app, 'POST', '/v1/players/drainer/rounds', { mines: 3 })).status, 201);
  const lock = await draining.pool.connect();
  await lock.query("BEGIN; SELECT 1 FROM seed_pairs WHERE player_id = 'drainer' FOR UPDATE");
  let socket;
  const got = new Promise((resolve) => {
    const s = net.connect(Number(url.port), '127.0.0.1', () => s.write(
      `POST /v1/players/drainer/rounds HTTP/1.1\r\n${headers}Content-Length: 12\r\n\r\n{"mines": 3}`));
    let text = '';
    s.on('data', (d) => { text += d; });
    s.on('close', () => resolve(text));
    s.on('error', () => resolve(text));
    socket = s;
  });
  await new Promise((r) => setTimeout(r, 200));
  const closed = draining.app.close();
  await new Promise((r) => setTimeout(r, 100));
  // The next request on that very connection (pipelined: the first is not answered yet).
  socket.write(`GET /v1/players/drainer/seeds HTTP/1.1\r\n${headers}\r\n`);
  await new Promise((r) => setTimeout(r, 200));
  await lock.query('COMMIT');
  lock.release();
  await closed;
  await draining.pool.end();
  const [first, second] = answers(await got);
  assert.equal(first.status, 201, 'the request in flight is answered');
  assert.equal(second.status, 503);
  assert.equal(second.headers['retry-after'], '1');
  assert.equal(second.headers.connection, 'close');
  assert.equal(assertErrorShape(second.body, 'drain').code, 'FAIRMINES_UNAVAILABLE');
});

test('a connection idle after its answer is closed during the drain: the drain does not wait for an idle client', async () => {
  const draining = await startApp(svc.db, 4);
  const url = new URL(await draining.app.listen({ host: '127.0.0.1', port: 0 }));
  assert.equal((await call(draining.app, 'POST', '/v1/players/idler/rounds', { mines: 3 })).status, 201);
  const lock = await draining.pool.connect();
  await lock.query("BEGIN; SELECT 1 FROM seed_pairs WHERE player_id = 'idler' FOR UPDATE");
  // A keep-alive client whose request is in flight when the drain begins, and which sends nothing after it.
  let closedByServer = false;
  const got = new Promise((resolve) => {
    const s = net.connect(Number(url.port), '127.0.0.1', () => s.write(`POST /v1/players/idler/rounds HTTP/1.1\r\n`
      + `Host: x\r\nAuthorization: Bearer ${API_KEY}\r\nContent-Type: application/json\r\nConnection: keep-alive\r\n`
      + 'Content-Length: 12\r\n\r\n{"mines": 3}'));
    let text = '';
    s.on('data', (d) => { text += d; });
    s.on('end', () => { closedByServer = true; });
    s.on('close', () => resolve(text));
    s.on('error', () => resolve(text));
  });
  await new Promise((r) => setTimeout(r, 200));
  const closed = draining.app.close();
  await new Promise((r) => setTimeout(r, 100));
  await lock.query('COMMIT');
  lock.release();
  // Without the close, the server would wait for the client's keep-alive to end (Fastify's timeout: 72 s).
  let timer;
  const stuck = new Promise((resolve) => { timer = setTimeout(() => resolve('still open after 20 s'), 20_000); });
  assert.equal(await Promise.race([closed.then(() => 'stopped'), stuck]), 'stopped');
  clearTimeout(timer);
  await draining.pool.end();
  const [first] = answers(await got);
  assert.equal(first.status, 201, 'the request in flight is answered');
  assert.ok(closedByServer, 'the server ended the connection');
});

// The OpenAPI document: served without a key, the same as the checked-in openapi.json, and covering every
// route with an answer for each status the route gives (the fuzzer, scripts/test-server-api.sh, checks
// the answers themselves against it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AUTH, SERVER_DIR, call, serviceForFile } from './helpers.js';

const svc = serviceForFile();
const checkedIn = () => JSON.parse(fs.readFileSync(path.join(SERVER_DIR, 'openapi.json'), 'utf8'));

test('GET /v1/openapi.json needs no key and is the checked-in document', async () => {
  const r = await call(svc.app, 'GET', '/v1/openapi.json', undefined, {});
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^application\/json/);
  assert.deepEqual(r.json, checkedIn());
  assert.equal(r.json.openapi, '3.1.0');
  assert.match(r.json.info['x-generated-by'], /scripts\/openapi\.js/);
  assert.deepEqual(r.json.security, [{ bearer: [] }]);
  assert.deepEqual(r.json.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer',
    description: r.json.components.securitySchemes.bearer.description });
});

// The plugin lists every route the app has (one without a schema as a bare 200): each must carry its answers.
test('every route is documented, with its error statuses and the Bearer scheme where a key is needed', async () => {
  const doc = checkedIn();
  const routes = Object.entries(doc.paths).flatMap(([url, methods]) => Object.entries(methods)
    .map(([method, op]) => [method.toUpperCase(), url, op]));
  assert.ok(routes.length >= 12);
  for (const [method, url, op] of routes) {
    const name = `${method} ${url}`;
    assert.ok(svc.app.hasRoute({ method, url: url.replace(/\{(\w+)\}/g, ':$1') }), `${name}: a route of the app`);
    assert.ok(op.operationId && op.summary && op.tags?.length, `${name}: operationId, summary, tags`);
    const statuses = Object.keys(op.responses);
    assert.ok(statuses.some((s) => s.startsWith('2')), `${name}: a 2xx`);
    for (const s of ['400', '500', '503']) assert.ok(statuses.includes(s), `${name}: ${s}`);
    const isPublic = Array.isArray(op.security) && op.security.length === 0;
    assert.equal(statuses.includes('401'), !isPublic, `${name}: 401 exactly when a key is needed`);
    if (op.requestBody) for (const s of ['413', '415']) assert.ok(statuses.includes(s), `${name}: ${s}`);
    assert.equal(op.responses['503'].headers['retry-after'].required, true, `${name}: Retry-After on 503`);
    for (const [status, response] of Object.entries(op.responses)) {
      if (status < '400') continue;
      const { error } = response.content['application/json'].schema.properties;
      assert.ok(error.properties.code.enum.every((c) => c.startsWith('FAIRMINES_')), `${name} ${status}: codes`);
    }
  }
});

test('an error answer has the documented shape and a code its status lists', async () => {
  const doc = checkedIn();
  const r = await call(svc.app, 'POST', '/v1/players/alice/rounds', { mines: 99 });
  assert.equal(r.status, 400);
  const codes = doc.paths['/v1/players/{player}/rounds'].post.responses['400'].content['application/json']
    .schema.properties.error.properties.code.enum;
  assert.ok(codes.includes(r.json.error.code), r.json.error.code);
  assert.deepEqual(Object.keys(r.json.error), ['code', 'message', 'argument']);
});

// Found by the fuzzer: a rotation's body `null` was taken for no body (and rotated the pair).
test('a rotation with the body null is refused; with no body it rotates', async () => {
  await call(svc.app, 'POST', '/v1/players/nullbody/rounds', { mines: 3 });
  const refused = await svc.app.inject({ method: 'POST', url: '/v1/players/nullbody/rotate', payload: 'null',
    headers: { ...AUTH, 'content-type': 'application/json' } });
  assert.equal(refused.statusCode, 400);
  assert.equal(JSON.parse(refused.body).error.code, 'FAIRMINES_INVALID_REQUEST');
  const kept = await call(svc.app, 'GET', '/v1/players/nullbody/seeds');
  assert.equal(kept.json.roundsInPlay.length, 1, 'nothing was rotated');
  const rotated = await call(svc.app, 'POST', '/v1/players/nullbody/rotate', undefined);
  assert.equal(rotated.status, 409);
  assert.equal(rotated.json.error.code, 'FAIRMINES_ROUNDS_IN_PLAY');
});

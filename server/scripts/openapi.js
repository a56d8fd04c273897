#!/usr/bin/env node
// Writes the service's OpenAPI document (src/openapi.js) to server/openapi.json, or to the path given:
// `node scripts/openapi.js [FILE]`. The app is built with a pool that never connects: the document needs
// the routes only.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { Database } from '../src/database.js';

const out = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'openapi.json');
const pool = new pg.Pool({ connectionString: 'postgres://unused@127.0.0.1:1/unused' });
const app = buildApp({ pool, stateKeys: [Buffer.alloc(32)], apiKeys: ['unused'], database: new Database(pool, { ready: true }) });
await app.ready();
fs.writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await pool.end();

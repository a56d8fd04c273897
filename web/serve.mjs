// A small static server for web/dist (tests, the benchmark, or a look at the page): only GET/HEAD of
// files under the folder, the right MIME types (application/wasm for the .wasm), no directory listing,
// and the page's Content-Security-Policy as a header too (so the module worker has it).
//
//   node web/serve.mjs [folder] [--port N]     prints `serving http://127.0.0.1:N/` (N = 0: any free port)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.d.ts': 'text/plain; charset=utf-8',
};

/** Starts a server for `root`; resolves with `{ server, url }`. */
export async function serve(root, port = 0, { csp = null } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      const body = await readFile(file);
      const headers = {
        'content-type': TYPES[extname(file)] || 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      };
      // The single file carries its own policy (hashes, blob:): the served page's would block its inline script.
      if (csp && !file.endsWith('fairmines-verifier.html')) headers['content-security-policy'] = csp;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const p = args.indexOf('--port');
  const port = p >= 0 ? Number(args.splice(p, 2)[1]) : 8000;
  const root = args[0] || join(fileURLToPath(new URL('.', import.meta.url)), 'dist');
  let csp = null;
  try {
    csp = JSON.parse(await readFile(join(root, 'csp.json'), 'utf8')).served;
  } catch {
    // no csp.json: serve without the header
  }
  const { url } = await serve(root, port, { csp });
  console.log(`serving ${url} (${root}); Ctrl-C stops`);
}

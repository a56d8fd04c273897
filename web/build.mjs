// Builds the verifier page into web/dist/ (run by `make web`; plain Node, no bundler, no dependency):
//
//   dist/index.html, style.css, app.js, worker.js   the page, as ES modules (serve the folder; any static server)
//   dist/fairmines.js, dist/fairmines-wasm/         the fairmines-wasm package the page imports (its files as built)
//   dist/fairmines-verifier.html                    one self-contained file: the package (its .wasm as base64), the
//                                                   scripts and the styles inlined; works opened from disk, offline
//   dist/fairmines-verifier.html.sha256             its SHA-256, as `sha256sum` writes it
//   dist/csp.json                                   the two Content-Security-Policies (serve.mjs sends `served`)
//
//   node web/build.mjs [--package DIR] [--out DIR]  (DIR defaults: wasm/ built, web/dist)
//
// The single file cannot use ES modules: Chromium refuses module scripts and module workers from a page
// opened from file:// (an opaque origin). So the build links the package's ES modules and the page's
// into classic scripts (`link()` below: each module becomes an async function returning its exports;
// enough for the package's and the page's own modules, which it checks), and the page's one inline
// script, allowed by its hash in the CSP, runs them from blob: URLs. The worker is a classic worker from
// a blob: URL. Nothing is fetched: the .wasm is decoded from base64 and compiled from bytes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? resolve(args[i + 1]) : fallback;
};
const packageDir = option('--package', join(root, 'wasm'));
const out = option('--out', join(here, 'dist'));
const src = join(here, 'src');

const sha256 = (data) => createHash('sha256').update(data).digest();
const cspHash = (text) => `'sha256-${sha256(Buffer.from(text, 'utf8')).toString('base64')}'`;
const read = (path) => readFileSync(path, 'utf8');

// ------------------------------------------------------------------------------------------------
// The package: its entry module, every module it imports, its .wasm files.

function packageEntry(dir) {
  const pkg = JSON.parse(read(join(dir, 'package.json')));
  const pick = (e) => {
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object') {
      for (const key of ['browser', 'import', 'default']) {
        const found = pick(e[key]);
        if (found) return found;
      }
    }
    return null;
  };
  const exp = pkg.exports && (typeof pkg.exports === 'string' || pkg.exports.import || pkg.exports.browser || pkg.exports.default ? pkg.exports : pkg.exports['.']);
  const entry = pick(pkg.browser && typeof pkg.browser === 'string' ? pkg.browser : exp) || pkg.module || pkg.main;
  if (!entry) throw new Error(`${dir}/package.json names no entry module`);
  // `fairmines-wasm/init`: the same functions without loading the .wasm (for a page that holds its bytes).
  const init = pick(pkg.exports && pkg.exports['./init']);
  if (!init) throw new Error(`${dir}/package.json has no './init' export (the entry that takes the .wasm's bytes)`);
  const clean = (p) => posix.normalize(p).replace(/^\.\//, '');
  return { pkg, entry: clean(entry), initEntry: clean(init) };
}

const IMPORT_RE = /^\s*(?:import|export)\s[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Every module of the package reachable from its entry (relative imports), as { path: source }. */
function moduleGraph(dir, entry) {
  const modules = new Map();
  const visit = (path) => {
    if (modules.has(path)) return;
    const file = join(dir, path);
    if (!existsSync(file)) throw new Error(`the package imports ${path}, which is not in ${dir}`);
    const text = read(file);
    modules.set(path, text);
    for (const m of text.matchAll(IMPORT_RE)) visit(posix.normalize(posix.join(posix.dirname(path), m[1] || m[2])));
  };
  visit(entry);
  return modules;
}

function wasmFiles(dir) {
  const found = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.wasm')) found.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return found;
}

// ------------------------------------------------------------------------------------------------
// A small linker: ES modules → one classic script. Supports what the package and the page use:
// `import * as x from`, `import { a, b as c } from`, `import d from`, `export function|class|const|let|var|async
// function`, `export { a, b as c }`, `export { a } from`, `export * from`, `export default`, top-level await and
// `import.meta.url` (replaced by a given expression). Anything else is refused, so nothing is linked wrongly.

function link(modules, entry, { importMetaUrl = "'about:blank'", external = {} } = {}) {
  const parts = [];
  for (const [path, text] of modules) parts.push(`__def(${JSON.stringify(path)}, async (__export, __import) => {\n${linkOne(path, text, importMetaUrl, external)}\n});`);
  return `(() => {
const __modules = new Map(), __loaded = new Map();
function __def(path, body) { __modules.set(path, body); }
function __import(path) {
  if (!__loaded.has(path)) {
    const exports = Object.create(null);
    __loaded.set(path, __modules.get(path)((name, get) => Object.defineProperty(exports, name, { get, enumerable: true }), __import).then(() => exports));
  }
  return __loaded.get(path);
}
${parts.join('\n')}
return __import(${JSON.stringify(entry)});
})()`;
}

function linkOne(path, text, importMetaUrl, external) {
  const resolveSpec = (spec) => {
    if (spec in external) return { external: external[spec] };
    if (!spec.startsWith('.')) throw new Error(`${path}: cannot link the bare import '${spec}'`);
    return { path: posix.normalize(posix.join(posix.dirname(path), spec)) };
  };
  const load = (spec) => {
    const r = resolveSpec(spec);
    return r.external ?? `(await __import(${JSON.stringify(r.path)}))`;
  };
  const names = (list) =>
    list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
      const m = s.match(/^([\w$]+)(?:\s+as\s+([\w$]+))?$/);
      if (!m) throw new Error(`${path}: cannot link '${s}'`);
      return [m[1], m[2] || m[1]];
    });
  const exported = [];
  let body = text
    .replace(/^\s*import\s+\*\s+as\s+([\w$]+)\s+from\s+['"]([^'"]+)['"];?/gm, (_, ns, spec) => `const ${ns} = ${load(spec)};`)
    .replace(/^\s*import\s+([\w$]+)\s*,?\s*\{([^}]*)\}\s*from\s+['"]([^'"]+)['"];?/gm, (_, def, list, spec) =>
      `const { default: ${def}, ${names(list).map(([a, b]) => `${a}: ${b}`).join(', ')} } = ${load(spec)};`)
    .replace(/^\s*import\s*\{([^}]*)\}\s*from\s+['"]([^'"]+)['"];?/gm, (_, list, spec) =>
      `const { ${names(list).map(([a, b]) => `${a}: ${b}`).join(', ')} } = ${load(spec)};`)
    .replace(/^\s*import\s+([\w$]+)\s+from\s+['"]([^'"]+)['"];?/gm, (_, def, spec) => `const ${def} = ${load(spec)}.default;`)
    .replace(/^\s*export\s+\*\s+from\s+['"]([^'"]+)['"];?/gm, (_, spec) =>
      `{ const __ns = ${load(spec)}; for (const k of Object.keys(__ns)) if (k !== 'default') __export(k, () => __ns[k]); }`)
    .replace(/^\s*export\s*\{([^}]*)\}\s*from\s+['"]([^'"]+)['"];?/gm, (_, list, spec) =>
      `{ const __ns = ${load(spec)}; ${names(list).map(([a, b]) => `__export(${JSON.stringify(b)}, () => __ns.${a});`).join(' ')} }`)
    .replace(/^\s*export\s*\{([^}]*)\};?/gm, (_, list) => {
      for (const [a, b] of names(list)) exported.push([a, b]);
      return '';
    })
    .replace(/^(\s*)export\s+default\s+(async\s+function\b|function\b|class\b)\s*([\w$]*)/gm, (_, ws, kw, name) => {
      const n = name || '__default';
      exported.push([n, 'default']);
      return `${ws}${kw} ${n}`;
    })
    .replace(/^(\s*)export\s+default\s+/gm, (_, ws) => {
      exported.push(['__default', 'default']);
      return `${ws}const __default = `;
    })
    .replace(/^(\s*)export\s+(const|let|var)\s*\{([^}]*)\}(\s*=)/gm, (_, ws, kw, list, eq) => {
      // `export const { a, b: c } = x`: exports a and c.
      for (const item of list.split(',').map((t) => t.trim()).filter(Boolean)) {
        const m = item.match(/^(?:[\w$]+\s*:\s*)?([\w$]+)$/);
        if (!m) throw new Error(`${path}: cannot link the destructured export '${item}'`);
        exported.push([m[1], m[1]]);
      }
      return `${ws}${kw} {${list}}${eq}`;
    })
    .replace(/^(\s*)export\s+(async\s+function\*?|function\*?|class|const|let|var)\s+([\w$]+)/gm, (_, ws, kw, name) => {
      exported.push([name, name]);
      return `${ws}${kw} ${name}`;
    })
    .replaceAll('import.meta.url', importMetaUrl);
  if (/^\s*export\s/m.test(body) || /^\s*import[\s{*]/m.test(body) || /\bimport\.meta\b/.test(body)) {
    throw new Error(`${path}: an import/export form the linker does not know`);
  }
  const exports = exported.map(([local, name]) => `__export(${JSON.stringify(name)}, () => ${local});`).join('\n');
  // Exports are registered first (as getters), so a module that awaits at top level still exposes them.
  return `${exports}\n${body}`;
}

// ------------------------------------------------------------------------------------------------

function csp({ single, inlineScripts = [], inlineStyles = [] }) {
  if (!single) {
    return [
      "default-src 'none'",
      "script-src 'self' 'wasm-unsafe-eval'",
      "style-src 'self'",
      "connect-src 'self'",
      "worker-src 'self'",
      "img-src 'self' data:",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
  }
  return [
    "default-src 'none'",
    `script-src ${inlineScripts.map(cspHash).join(' ')} blob: 'wasm-unsafe-eval'`,
    `style-src ${inlineStyles.map(cspHash).join(' ')}`,
    "worker-src blob:",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Text that may stand inside a <script> element: `</script` and `<!--` would change how the HTML parser reads
 * it, so they are written `<\/script` and `<\!--` (the same characters to JavaScript: `\/` and `\!` are the
 * characters themselves in a string, a template or a regular expression; in a comment they do not matter).
 */
function scriptText(text) {
  const out = text.replaceAll(/<\/(script)/gi, '<\\/$1').replaceAll('<!--', '<\\!--');
  if (/<\/script|<!--/i.test(out)) throw new Error('cannot inline a script: it still holds </script or <!--');
  return out;
}

const FAVICON = '<link rel="icon" href="data:,">';

function build() {
  if (!existsSync(join(packageDir, 'package.json'))) {
    throw new Error(`no fairmines-wasm package in ${packageDir}: build it first (make wasm)`);
  }
  const { pkg, entry, initEntry } = packageEntry(packageDir);
  const modules = moduleGraph(packageDir, entry);
  for (const [path, text] of moduleGraph(packageDir, initEntry)) modules.set(path, text);
  const wasm = wasmFiles(packageDir).filter((f) => !f.startsWith('test') && !f.includes('/test'));
  if (wasm.length !== 1) throw new Error(`expected one .wasm file in ${packageDir}, found: ${wasm.join(', ') || 'none'}`);
  const wasmBytes = readFileSync(join(packageDir, wasm[0]));

  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'fairmines-wasm'), { recursive: true });

  // The served page: the package's files as they are, beside the page's modules.
  for (const path of [...modules.keys(), ...wasm, 'package.json']) {
    mkdirSync(dirname(join(out, 'fairmines-wasm', path)), { recursive: true });
    copyFileSync(join(packageDir, path), join(out, 'fairmines-wasm', path));
  }
  for (const extra of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    if (existsSync(join(root, extra))) copyFileSync(join(root, extra), join(out, extra));
  }
  const banner = `// Built by web/build.mjs from the fairmines-wasm package ${pkg.version}: do not edit.\n`;
  writeFileSync(join(out, 'fairmines.js'), `${banner}export * from './fairmines-wasm/${entry}';\n`);
  const app = read(join(src, 'app.js'));
  const worker = read(join(src, 'worker.js'));
  const style = read(join(src, 'style.css'));
  copyFileSync(join(src, 'app.js'), join(out, 'app.js'));
  copyFileSync(join(src, 'worker.js'), join(out, 'worker.js'));
  copyFileSync(join(src, 'style.css'), join(out, 'style.css'));
  copyFileSync(join(src, 'startup.js'), join(out, 'startup.js'));
  // The footer's version: the package's, written in at build time.
  const version = String(pkg.version ?? '').replace(/[^0-9A-Za-z.+-]/g, '');
  const page = read(join(src, 'index.html')).replace('<span id="version"></span>', `<span id="version">${version}</span>`);
  const servedCsp = csp({ single: false });
  writeFileSync(
    join(out, 'index.html'),
    page
      .replace('<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${servedCsp}">`)
      .replace('<!--STYLE-->', `${FAVICON}\n<link rel="stylesheet" href="style.css">`)
      .replace('<!--SCRIPTS-->', '<script src="startup.js"></script>\n<script type="module" src="app.js"></script>'),
  );

  // The single file. The package's modules and the page's, linked into classic scripts (the page's
  // `./fairmines.js` import is the package's entry); kept as text in non-executed <script type="text/plain">
  // blocks and started from blob: URLs by the one inline script below.
  // The page's `./fairmines.js` is the package's `init` entry, given the bytes the inline script decoded.
  const initModules = moduleGraph(packageDir, initEntry);
  const pageModules = (name, text) =>
    new Map([
      ...[...initModules].map(([p, t]) => [`pkg/${p}`, t]),
      ['fairmines.js', `import { init } from './pkg/${initEntry}';\nawait init(self.__fairminesWasmBytes);\nexport * from './pkg/${initEntry}';\n`],
      [name, text],
    ]);
  // `import.meta.url` only names where the .wasm would be fetched from; given its bytes, the package never uses it.
  const noUrl = "'about:blank'";
  const linkedApp = link(pageModules('app.js', app), 'app.js', { importMetaUrl: noUrl });
  const linkedWorker = link(pageModules('worker.js', worker), 'worker.js', { importMetaUrl: noUrl });
  const bootstrap = read(join(src, 'single-file.js'));
  const blocks = [
    ['fm-wasm', 'application/octet-stream;base64', wasmBytes.toString('base64')],
    ['fm-app', 'text/plain', linkedApp],
    ['fm-worker', 'text/plain', linkedWorker],
  ]
    .map(([id, type, text]) => `<script id="${id}" type="${type}">${scriptText(text)}</script>`)
    .join('\n');
  const singleCsp = csp({ single: true, inlineScripts: [bootstrap], inlineStyles: [style] });
  const single = page
    .replace('<!--CSP-->', `<meta http-equiv="Content-Security-Policy" content="${singleCsp}">`)
    .replace('<!--STYLE-->', `${FAVICON}\n<style>${style}</style>`)
    .replace('<!--SCRIPTS-->', `${blocks}\n<script>${bootstrap}</script>`)
    .replace('<html lang="en">', `<html lang="en" data-single-file="true">`);
  writeFileSync(join(out, 'fairmines-verifier.html'), single);
  const digest = sha256(Buffer.from(single, 'utf8')).toString('hex');
  writeFileSync(join(out, 'fairmines-verifier.html.sha256'), `${digest}  fairmines-verifier.html\n`);
  writeFileSync(join(out, 'csp.json'), JSON.stringify({ served: servedCsp, single: singleCsp }, null, 2) + '\n');

  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`web/dist built from fairmines-wasm ${pkg.version} (${relative(root, packageDir)}/${entry}, ${wasm[0]} ${kib(wasmBytes.length)})`);
  console.log(`  index.html + modules: open through any static server (node web/serve.mjs)`);
  console.log(`  fairmines-verifier.html: ${kib(Buffer.byteLength(single))}, sha256 ${digest}`);
}

try {
  build();
} catch (error) {
  console.error(`web/build.mjs: ${error.message}`);
  process.exit(1);
}

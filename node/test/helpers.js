'use strict';
// Shared by the tests: where the repository's shared files are, and the package under test.
const path = require('node:path');
const fs = require('node:fs');

const repoRoot = path.resolve(__dirname, '..', '..');

/** The shared vectors, read from the repository (never copied). */
function loadVectors() {
  const file = path.join(repoRoot, 'vectors', 'vectors.json');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The reference JavaScript implementation of `vectors/` (js-sha3), loaded in this process. */
function loadReference() {
  return require(path.join(repoRoot, 'vectors', 'reference.js'));
}

module.exports = { repoRoot, loadVectors, loadReference };

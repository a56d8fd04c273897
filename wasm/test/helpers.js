// Shared by the tests: the repository, the CLI, and the error model of the package (the shared suite's).
import path from 'node:path';
import * as fm from 'fairmines-wasm';
import { errorModel, repoRoot } from '../../tests/js-conformance/check.mjs';

export { repoRoot };

/** The CLI built by scripts/test-wasm.sh (`cargo build --release -p fairmines-cli`). */
export const CLI = process.env.FAIRMINES_CLI ?? path.join(repoRoot, 'target', 'release', 'fairmines');

/**
 * The error `fn` throws, checked against the error model of the Node package: its exact class, `code`,
 * `errno` (the core's number; absent for a TypeError), `argument`, and a message starting with `label: `.
 */
export const { expectError } = errorModel(fm);

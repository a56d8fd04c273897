// The JavaScript conformance suite: what the Node package (node/) and the WebAssembly package (wasm/) share,
// tested once here and run against each (node/test/conformance.test.js, wasm/test/conformance.test.js).
// The rules are the core's to test (crates/fairmines); here, that each package converts alike: argument
// types and names, error classes, codes and numbers, results, and every shared vector. What only one package
// has (the game, the batches and workers of Node; histories and init of WASM) stays in its own tests.
import { errorTests } from './errors.mjs';
import { payoutTests } from './payouts.mjs';
import { recordTests } from './records.mjs';
import { roundTests } from './rounds.mjs';
import { seedTests } from './seeds.mjs';
import { vectorTests } from './vectors.mjs';

/**
 * Registers every shared test (node:test) against `fm`, the package under test as its users import it.
 * `profile` says what differs between the packages:
 * - `verifyFields`: the fields its verify adds to a verification that raises no doubt (WASM: `inputDoubts: []`);
 * - `raise`: a call for each error kind only its own API causes (the game's, in Node);
 * - `unreachable`: the error kinds none of its calls causes (the game's, in WASM).
 */
export function conformance(fm, profile) {
  const full = { verifyFields: {}, raise: {}, unreachable: [], ...profile };
  vectorTests(fm, full);
  roundTests(fm, full);
  errorTests(fm, full);
  payoutTests(fm, full);
  recordTests(fm, full);
  seedTests(fm, full);
}

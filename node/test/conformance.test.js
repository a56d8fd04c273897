'use strict';
// The JavaScript conformance suite (tests/js-conformance), shared with the WebAssembly package, run against
// this package; with the calls that cause the game's error kinds, which only this package plays.
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const fm = require('fairmines');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const pair = () => fm.SeedPair.fromParts(S, C, 1);

const raise = {
  FAIRMINES_TILE_ALREADY_REVEALED: () => {
    const r = pair().startRound(3, '0.99');
    r.reveal(1);
    r.reveal(1);
  },
  FAIRMINES_ROUND_FINISHED: () => {
    const r = pair().startRound(3, '0.99');
    r.reveal(7); // a mine
    r.cashOut();
  },
  FAIRMINES_NOTHING_TO_CASH_OUT: () => pair().startRound(3, '0.99').cashOut(),
  FAIRMINES_ROUNDS_IN_PLAY: () => {
    const p = pair();
    p.startRound(3, '0.99');
    p.rotate();
  },
  FAIRMINES_ROUND_VOIDED: () => {
    const p = pair();
    const r = p.startRound(3, '0.99');
    p.voidOpenRounds();
    r.cashOut();
  },
  FAIRMINES_ROUND_NOT_IN_PLAY: () => pair().round(0), // never started: the pair's first nonce is 1
};

const suite = path.join(__dirname, '..', '..', 'tests', 'js-conformance', 'index.mjs');
import(pathToFileURL(suite).href).then(({ conformance }) => conformance(fm, { raise }));

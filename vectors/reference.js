'use strict';
// The operator's published Mines verifier (shared/seeds/004_*), reproduced step for step on js-sha3 so
// that it can be called as a module. Same behaviour: 48 pre-drawn words that throw when exhausted, the
// same rejection sampling, splice, sort and +1. Added only: the draw order before sorting, the number of
// words read and every rejected draw are reported, so the vectors can show them.

const { sha3_256, shake256 } = require('js-sha3');

const GRID_SIZE = 25;
const WORDS_PRE_DRAWN = 24 * 2;

/** SHA3-256 of the server seed's text (UTF-8), as lowercase hex. */
function commitment(serverSeed) {
  return sha3_256(serverSeed);
}

/** SHA3-256 of `${serverSeed}:${clientSeed}:${nonce}`, as lowercase hex. */
function roundSignature(serverSeed, clientSeed, nonce) {
  return sha3_256(`${serverSeed}:${clientSeed}:${nonce}`);
}

/** The verifier's word source: `count` big-endian u32 words of SHAKE256(signature), then an error. */
function* wordSequence(count, signature) {
  const xof = shake256.create(8 * 4 * count); // js-sha3 takes the output length in bits
  xof.update(signature);
  const bytes = Buffer.from(xof.digest());
  for (let i = 0; i < count; i++) {
    yield bytes.readUInt32BE(i * 4);
  }
  throw new Error('No more numbers in the random number sequence!');
}

/** Rejection sampling of an index below `available`; `onWord(word, accepted)` sees every word read. */
function sample(available, words, onWord) {
  const limit = Math.floor(0x100000000 / available) * available;
  let word;
  do {
    word = words.next().value;
    onWord(word, word < limit);
  } while (word >= limit);
  return word % available;
}

/**
 * The full round: everything the verifier prints plus what the vectors record.
 * Returns { commitment, signature, drawOrder, positions, wordsUsed, rejected }.
 */
function round(serverSeed, clientSeed, nonce, mines) {
  const signature = roundSignature(serverSeed, clientSeed, nonce);
  const words = wordSequence(WORDS_PRE_DRAWN, signature);
  const available = Array.from({ length: GRID_SIZE }, (_, i) => i);
  const drawOrder = [];
  const rejected = [];
  let wordsUsed = 0;
  for (let draw = 0; draw < mines; ++draw) {
    const P = available.length;
    const index = sample(P, words, (word, accepted) => {
      if (!accepted) rejected.push({ draw, available: P, word_index: wordsUsed, word });
      wordsUsed += 1;
    });
    drawOrder.push(available[index]);
    available.splice(index, 1);
  }
  const positions = drawOrder.slice().sort((a, b) => a - b).map((tile) => tile + 1);
  return { commitment: commitment(serverSeed), signature, drawOrder, positions, wordsUsed, rejected };
}

/** Sorted, 1-based mine positions, as the verifier prints them. */
function minePositions(serverSeed, clientSeed, nonce, mines) {
  return round(serverSeed, clientSeed, nonce, mines).positions;
}

/** 0-based tile indices in the order they were drawn. */
function drawOrder(serverSeed, clientSeed, nonce, mines) {
  return round(serverSeed, clientSeed, nonce, mines).drawOrder;
}

module.exports = { GRID_SIZE, WORDS_PRE_DRAWN, commitment, roundSignature, wordSequence, round, minePositions, drawOrder };

// The JavaScript conformance suite (tests/js-conformance), shared with the Node package, run against this
// package. It has no game: the game's error kinds are none of its calls'; its verify says inputDoubts.
import * as fm from 'fairmines-wasm';
import { conformance } from '../../tests/js-conformance/index.mjs';

conformance(fm, {
  verifyFields: { inputDoubts: [] },
  unreachable: ['FAIRMINES_TILE_ALREADY_REVEALED', 'FAIRMINES_ROUND_FINISHED', 'FAIRMINES_NOTHING_TO_CASH_OUT',
    'FAIRMINES_ROUNDS_IN_PLAY', 'FAIRMINES_ROUND_VOIDED', 'FAIRMINES_ROUND_NOT_IN_PLAY'],
});

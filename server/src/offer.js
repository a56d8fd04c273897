// What this operator offers its players, from the settings: the RTPs a round may be started with (the first
// one when the caller names none) and how many rounds one player may have in play at once.
import { Ratio, multiplier } from 'fairmines';
import { ApiError, fromAddon } from './errors.js';

export const DEFAULT_RTPS = '0.99';
export const DEFAULT_MAX_ROUNDS_IN_PLAY = 100;

/** `text` as the core reads an RTP (exact, in lowest terms: "99/100"); the core's error when it is not one. */
function canonicalRtp(text) {
  try {
    // The cheapest call that judges an RTP as a round start does (1 mine, 1 safe pick: always valid).
    multiplier(1, 1, text);
    return Ratio.parse(text).text;
  } catch (err) {
    throw fromAddon(err) ?? err;
  }
}

/** The RTPs of a setting: comma-separated, each one a valid RTP ("0.99, 0.97" or "99/100"). */
export function parseRtps(setting, name = 'FAIRMINES_RTPS') {
  const rtps = setting.split(',').map((t) => t.trim()).filter((t) => t !== '');
  if (rtps.length === 0) throw new Error(`${name}: name at least one RTP (e.g. 0.99)`);
  for (const t of rtps) {
    try {
      canonicalRtp(t);
    } catch (err) {
      throw new Error(`${name}: ${err.message}`, { cause: err });
    }
  }
  return rtps;
}

export class Offer {
  constructor({ rtps = [DEFAULT_RTPS], maxRoundsInPlay = DEFAULT_MAX_ROUNDS_IN_PLAY } = {}) {
    this.rtps = rtps;
    // The texts known to be offered as they are sent (as configured, or canonical), each with its canonical
    // text: most requests skip the parse.
    const configured = rtps.map((t) => [t, canonicalRtp(t)]);
    this.canonical = new Set(configured.map(([, c]) => c));
    this.known = new Map([...configured, ...[...this.canonical].map((c) => [c, c])]);
    this.maxRoundsInPlay = maxRoundsInPlay;
  }

  /**
   * The RTP a new round is started with, as its canonical text (a round's `rtp.text`): the one asked for
   * (`text`) when offered, the first offered one when none is asked for. Not an RTP at all: the core's 400
   * (FAIRMINES_INVALID_RTP); an RTP that is not offered: 400 FAIRMINES_RTP_NOT_OFFERED.
   */
  rtp(text) {
    if (text === undefined) return this.known.get(this.rtps[0]);
    const known = this.known.get(text);
    if (known !== undefined) return known;
    const canonical = canonicalRtp(text);
    if (this.canonical.has(canonical)) return canonical;
    throw new ApiError(400, 'FAIRMINES_RTP_NOT_OFFERED',
      `rtp: ${JSON.stringify(text)} is not offered here (offered: ${this.rtps.join(', ')})`, 'rtp');
  }

  /** Refuses (409) a new round to a player who has `inPlay` rounds in play already, when that is the cap. */
  checkRoundsInPlay(inPlay) {
    if (inPlay < this.maxRoundsInPlay) return;
    throw new ApiError(409, 'FAIRMINES_TOO_MANY_ROUNDS_IN_PLAY',
      `player: ${inPlay} rounds are in play, the most allowed here (${this.maxRoundsInPlay}): finish one first`, 'player');
  }
}

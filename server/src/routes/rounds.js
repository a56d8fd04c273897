// A player's rounds: start one, list them, make a move, read one. Every round route names its player, and a
// round of another player is not found (404), as an unknown one: the API key alone moves no one's round.
import { CURRENCY, CURSOR, DOCS, IDEMPOTENT, LIMIT, MOVE, PLAYER, ROUND_ID, STAKE, limitOf, obj } from '../schemas.js';
import { idempotencyOf } from '../idempotency.js';

const OF_PLAYER = obj({ player: PLAYER }, ['player']);
const OF_ROUND = obj({ player: PLAYER, round: ROUND_ID }, ['player', 'round']);

const SCHEMAS = {
  newRound: { ...DOCS.newRound, params: OF_PLAYER, headers: IDEMPOTENT,
    body: { ...obj({ mines: { type: 'number' }, rtp: { type: 'string', maxLength: 64 }, stake: STAKE, currency: CURRENCY },
      ['mines']), dependencies: { stake: ['currency'], currency: ['stake'] } } },
  rounds: { ...DOCS.rounds, params: OF_PLAYER,
    querystring: obj({ status: { type: 'string', enum: ['in_play', 'finished'] }, limit: LIMIT(1000), cursor: CURSOR }) },
  reveal: { ...DOCS.reveal, params: OF_ROUND, body: obj({ tile: { type: 'number' }, move: MOVE }, ['tile', 'move']) },
  cashOut: { ...DOCS.cashOut, params: OF_ROUND, body: obj({ move: MOVE }, ['move']) },
  round: { ...DOCS.round, params: OF_ROUND },
};

export function roundRoutes(app, { game, offer, metrics }) {
  app.post('/v1/players/:player/rounds', { schema: SCHEMAS.newRound }, async (req, reply) => {
    const { mines, rtp, stake, currency } = req.body;
    const wager = stake === undefined ? null : { stake, currency };
    const { answer, replay } = await game.newRound(req.params.player, mines, offer.rtp(rtp), wager, idempotencyOf(req));
    if (replay) reply.header('idempotent-replayed', 'true');
    else metrics.move('start');
    return reply.code(201).send(answer);
  });

  app.get('/v1/players/:player/rounds', { schema: SCHEMAS.rounds }, async (req) => {
    const { status, limit, cursor } = req.query;
    return game.listRounds(req.params.player, { status, limit: limitOf(limit, 1000), cursor });
  });

  app.post('/v1/players/:player/rounds/:round/reveal', { schema: SCHEMAS.reveal }, async (req) => {
    const { answer, replay } = await game.move(req.params.player, req.params.round, req.body.move, 'reveal', req.body.tile);
    if (!replay) metrics.move('reveal');
    return answer;
  });

  app.post('/v1/players/:player/rounds/:round/cash-out', { schema: SCHEMAS.cashOut }, async (req) => {
    const { answer, replay } = await game.move(req.params.player, req.params.round, req.body.move, 'cash_out');
    if (!replay) metrics.move('cash_out');
    return answer;
  });

  app.get('/v1/players/:player/rounds/:round', { schema: SCHEMAS.round },
    async (req) => game.getRound(req.params.player, req.params.round));
}

# frozen_string_literal: true

# Ruby tests of the game API of the UniFFI bindings: seed pairs, rounds, records, replay, payouts and the
# game errors. Run by scripts/test-uniffi.sh like test_fairmines.rb (FAIRMINES_RUBY_DIR, FAIRMINES_VECTORS).

require 'json'
require 'minitest/autorun'

ruby_dir = ENV.fetch('FAIRMINES_RUBY_DIR') do
  abort 'FAIRMINES_RUBY_DIR is not set: run scripts/test-uniffi.sh'
end
require File.join(ruby_dir, 'fairmines')

VECTORS_PATH = ENV.fetch('FAIRMINES_VECTORS', File.expand_path('../../../../vectors/vectors.json', __dir__))
VECTORS = JSON.parse(File.read(VECTORS_PATH, encoding: 'UTF-8'))
# The rounds whose server seed can be a SeedPair's: 64 lowercase hex characters, as generated.
PLAYABLE = VECTORS['cases'].select { |c| c['server_seed'].match?(/\A[0-9a-f]{64}\z/) }

SERVER = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a'
CLIENT = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817'
FE = Fairmines::FairminesError # (not `E`: Minitest::Assertions has an `E`)

# The ratio a/b in lowest terms, its decimal rounded down to 2 places: computed here with Rational.
def ratio(value)
  value = Rational(value)
  cents = (value * 100).floor
  Fairmines::Ratio.new(numerator: value.numerator.to_s, denominator: value.denominator.to_s,
                       decimal: format('%<whole>d.%<cents>02d', whole: cents / 100, cents: cents % 100))
end

# A copy of a round record with some fields changed (records are immutable value objects).
def changed(record, **changes)
  fields = %i[commitment client_seed nonce mines rtp picks outcome multiplier].to_h { |f| [f, record.public_send(f)] }
  Fairmines::RoundRecord.new(**fields, **changes)
end

module ErrorAssertions
  # Runs the block, expects the error class, and checks its code, name, argument and message.
  def assert_error(klass, code, name, argument, &block)
    error = assert_raises(klass, &block)
    assert_kind_of StandardError, error
    assert_equal code, error.code, error.to_s
    assert_equal name, error.name, error.to_s
    if argument.nil?
      assert_nil error.argument, error.to_s
    else
      assert_equal argument, error.argument, error.to_s
      assert error.message.start_with?("#{argument}: "), error.message
    end
    error
  end
end

# A round on every playable vector: some safe tiles (the vector says where the mines are), then a
# cash-out or a mine; every result checked against the vector and the payout functions.
class TestGameVectors < Minitest::Test
  def test_most_vector_cases_are_playable
    assert_operator PLAYABLE.length, :>, 1000
    assert(PLAYABLE.any? { |c| !c['rejected'].empty? }, 'no rejection case to play')
  end

  PLAYABLE.each_with_index do |c, index|
    define_method("test_round_#{c['id']}") do
      positions = c['positions']
      mines = c['mines']
      safe = (1..25).reject { |t| positions.include?(t) }
      safe = safe.reverse if index % 3 == 1
      rtp = ['0.99', '1', '97/100'][index % 3]
      pair = Fairmines::SeedPair.from_parts(c['server_seed'], c['client_seed'], c['nonce'])
      round = pair.start_round(mines, rtp)
      assert_equal c['nonce'] + 1, pair.public.nonce
      assert_equal [c['nonce'], mines, c['commitment'], c['client_seed']],
                   [round.nonce, round.mines, round.commitment, round.client_seed]
      assert_nil round.mine_positions
      assert_nil round.record

      picks = 1 + (index % safe.length)
      (1..picks).each do |k|
        assert_equal Fairmines::Reveal.new(safe: true, safe_picks: k, multiplier: Fairmines.multiplier(mines, k, rtp)),
                     round.reveal(safe[k - 1])
      end
      if picks == safe.length
        outcome = Fairmines::Outcome::CASHED_OUT # every safe tile open: paid out by itself
        paid = Fairmines.multiplier(mines, picks, rtp)
      elsif index.even?
        outcome = Fairmines::Outcome::CASHED_OUT
        paid = round.cash_out
        assert_equal Fairmines.multiplier(mines, picks, rtp), paid
      else
        assert_equal Fairmines::Reveal.new(safe: false, safe_picks: picks, multiplier: nil),
                     round.reveal(positions[index % positions.length])
        outcome = Fairmines::Outcome::LOST
        paid = nil
      end
      assert round.is_finished
      assert_equal outcome, round.outcome
      paid.nil? ? assert_nil(round.multiplier) : assert_equal(paid, round.multiplier)
      assert_equal positions, round.mine_positions

      record = round.record
      assert_equal round.picks, record.picks
      assert_equal record, Fairmines.round_record_from_json(record.to_json)
      verdict = Fairmines.verify_round(record, c['server_seed'])
      assert verdict.ok, verdict.differences.inspect
      assert_equal [true, positions, outcome, paid],
                   [verdict.commitment_ok, verdict.mine_positions, verdict.expected_outcome, verdict.expected_multiplier]
    end
  end
end

class TestGame < Minitest::Test
  include ErrorAssertions

  # The worked example's round (nonce 1, mines at 7, 10 and 19), cashed out after 12 safe picks.
  def played_record
    round = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1).start_round(3, '0.99')
    [1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 13, 14].each { |t| assert round.reveal(t).safe }
    round.cash_out
    round.record
  end

  def test_worked_example_round
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    round = pair.start_round(3, '0.99')
    first = round.reveal(1)
    assert_equal ratio(Rational(9, 8)), first.multiplier # 25/22 × 99/100
    assert_equal '1.12', first.multiplier.decimal
    assert_equal '9/8', first.multiplier.to_s
    assert_equal 1, round.safe_picks
    assert_equal ratio(Rational(99, 100)), round.rtp
    assert_equal Fairmines::Reveal.new(safe: false, safe_picks: 1, multiplier: nil), round.reveal(19)
    assert_equal [1, 19], round.picks
    assert_equal [7, 10, 19], round.mine_positions
    assert_equal Fairmines::Outcome::LOST, round.outcome
    assert_nil round.multiplier
    revealed = pair.rotate(nil)
    assert_equal [SERVER, Fairmines.commitment(SERVER), CLIENT, 2],
                 [revealed.server_seed, revealed.commitment, revealed.client_seed, revealed.rounds]
    assert Fairmines.verify_round(round.record, revealed.server_seed).ok
  end

  def test_seed_pairs_count_nonces_rotate_and_keep_their_state
    pair = Fairmines::SeedPair.new('player seed')
    first = pair.public
    assert_match(/\A[0-9a-f]{64}\z/, first.commitment)
    assert_equal ['player seed', 0], [first.client_seed, first.nonce]
    # Each round ends (a mine or a cash-out after one safe tile): the pair can rotate only then.
    3.times do
      round = pair.start_round(1, '1')
      round.cash_out if round.reveal(1).safe
    end
    assert_equal 3, pair.public.nonce
    assert_equal [], pair.open_rounds

    state = pair.to_state_json
    restored = Fairmines::SeedPair.from_state_json(state)
    assert_equal pair.public, restored.public
    assert_equal state, restored.to_state_json

    revealed = pair.rotate(nil)
    assert_equal first.commitment, revealed.commitment
    assert_equal Fairmines.commitment(revealed.server_seed), revealed.commitment
    assert_equal 3, revealed.rounds
    assert_equal 0, pair.public.nonce
    refute_equal first.commitment, pair.public.commitment

    # The restored pair still plays with the revealed seed.
    round = restored.start_round(3, '0.99')
    mines = Fairmines.mine_positions(revealed.server_seed, 'player seed', 3, 3)
    round.reveal(((1..25).to_a - mines).first)
    round.cash_out
    assert_equal mines, round.mine_positions
    assert Fairmines.verify_round(round.record, revealed.server_seed).ok

    before = pair.public.commitment
    changed = pair.set_client_seed('new seed')
    assert_equal [before, 'player seed', 0], [changed.commitment, changed.client_seed, changed.rounds]
    assert_equal 'new seed', pair.public.client_seed
    refute_equal before, pair.public.commitment
    assert_equal 'new seed', pair.rotate('third').client_seed
    assert_equal 'third', pair.public.client_seed
  end

  # The issue's sequence: a round in play holds its seed pair's server seed back until it is voided, and a
  # voided round refuses every move, even for a player who now knows the grid.
  def test_no_rotation_while_a_round_is_in_play
    pair = Fairmines::SeedPair.new('player seed')
    round = pair.start_round(5, '99/100')
    before = pair.public
    rotate = assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { pair.rotate(nil) }
    assert_includes rotate.message, '(nonce 0)'
    change = assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { pair.set_client_seed('other') }
    assert_includes change.message, '(nonce 0)'
    assert_equal before, pair.public, 'a refused rotation changes nothing'
    refute round.is_finished
    assert_equal [0], pair.open_rounds

    assert_equal [0], pair.void_open_rounds
    assert_equal [], pair.open_rounds
    assert_equal [], pair.void_open_rounds
    revealed = pair.rotate(nil)
    assert_equal [before.commitment, 1], [revealed.commitment, revealed.rounds]

    mines = Fairmines.mine_positions(revealed.server_seed, 'player seed', 0, 5)
    ((1..25).to_a - mines).each do |tile|
      assert_error(FE::RoundVoided, 17, 'ROUND_VOIDED', nil) { round.reveal(tile) }
    end
    assert_error(FE::RoundVoided, 17, 'ROUND_VOIDED', nil) { round.cash_out }
    assert round.is_finished
    assert_equal Fairmines::Outcome::VOIDED, round.outcome
    assert_nil round.multiplier
    assert_equal [0, [], mines], [round.safe_picks, round.picks, round.mine_positions]

    record = round.record
    assert_equal Fairmines::Outcome::VOIDED, record.outcome
    assert_nil record.multiplier
    assert_equal 'voided', JSON.parse(record.to_json)['outcome']
    assert_equal record, Fairmines.round_record_from_json(record.to_json)
    verdict = Fairmines.verify_round(record, revealed.server_seed)
    assert verdict.ok, verdict.differences.inspect
    assert_equal [true, Fairmines::Outcome::VOIDED, nil],
                 [verdict.commitment_ok, verdict.expected_outcome, verdict.expected_multiplier]
  end

  def test_a_round_voided_after_safe_picks_keeps_them_in_its_record
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    round = pair.start_round(3, '0.99') # nonce 1: mines at 7, 10 and 19
    round.reveal(1)
    round.reveal(2)
    assert_equal [1], pair.void_open_rounds
    assert_error(FE::RoundVoided, 17, 'ROUND_VOIDED', nil) { round.reveal(3) }
    assert_error(FE::RoundVoided, 17, 'ROUND_VOIDED', nil) { round.cash_out }
    assert_equal 2, round.safe_picks
    assert_nil round.multiplier
    record = round.record
    assert_equal [[1, 2], Fairmines::Outcome::VOIDED, nil], [record.picks, record.outcome, record.multiplier]
    assert_equal SERVER, pair.rotate(nil).server_seed
    assert Fairmines.verify_round(record, SERVER).ok
    refute Fairmines.verify_round(changed(record, outcome: Fairmines::Outcome::CASHED_OUT), SERVER).ok
    refute Fairmines.verify_round(changed(record, picks: [1, 7]), SERVER).ok
  end

  def test_the_state_keeps_rounds_in_play
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 0)
    first = pair.start_round(3, '0.99')
    second = pair.start_round(3, '0.99')
    third = pair.start_round(3, '0.99')
    second.reveal(Fairmines.mine_positions(SERVER, CLIENT, 1, 3).first) # nonce 1 ends: lost
    assert_equal [0, 2], pair.open_rounds
    state = pair.to_state_json
    assert_equal [0, 2], JSON.parse(state)['open_rounds']

    restored = Fairmines::SeedPair.from_state_json(state)
    assert_equal [0, 2], restored.open_rounds
    assert_equal state, restored.to_state_json
    assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { restored.rotate(nil) }
    assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { restored.set_client_seed('x') }
    assert_equal [0, 2], restored.void_open_rounds
    assert_equal SERVER, restored.rotate(nil).server_seed

    # The restored pair is a new value: the original's rounds are still its own, in play.
    refute first.is_finished
    refute third.is_finished
    assert_equal [0, 2], pair.void_open_rounds
    assert_equal [Fairmines::Outcome::VOIDED, Fairmines::Outcome::LOST], [first.outcome, second.outcome]

    unused = JSON.parse(state).merge('open_rounds' => [3]).to_json
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'state') { Fairmines::SeedPair.from_state_json(unused) }
  end

  def test_json_with_a_misspelt_field_is_refused
    record = played_record
    # "multipler" for "multiplier": read as a record with no multiplier, it would be a silent wrong answer.
    json = JSON.parse(record.to_json)
    json['multipler'] = json.delete('multiplier')
    error = assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'record') { Fairmines.round_record_from_json(json.to_json) }
    assert_includes error.message, 'unknown field `multipler`'

    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 5)
    public = JSON.parse(pair.public.to_json).merge('nonse' => 5).to_json
    state = JSON.parse(pair.to_state_json).merge('open_round' => []).to_json
    revealed = JSON.parse(pair.rotate(nil).to_json).merge('round' => 0).to_json
    {
      'public' => -> { Fairmines.public_seed_pair_from_json(public) },
      'state' => -> { Fairmines::SeedPair.from_state_json(state) },
      'revealed' => -> { Fairmines.revealed_seed_pair_from_json(revealed) }
    }.each do |argument, call|
      refused = assert_error(FE::InvalidState, 15, 'INVALID_STATE', argument, &call)
      assert_includes refused.message, 'unknown field'
    end
  end

  def test_public_and_revealed_pairs_survive_json
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 5)
    public = pair.public
    assert_equal({ 'commitment' => Fairmines.commitment(SERVER), 'client_seed' => CLIENT, 'nonce' => 5 },
                 JSON.parse(public.to_json))
    assert_equal public, Fairmines.public_seed_pair_from_json(public.to_json)
    revealed = pair.rotate(nil)
    assert_equal SERVER, JSON.parse(revealed.to_json)['server_seed']
    assert_equal revealed, Fairmines.revealed_seed_pair_from_json(revealed.to_json)
  end

  def test_the_server_seed_never_shows
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 0)
    [pair.to_s, pair.inspect, "#{pair}", [pair].inspect].each do |shown|
      refute_includes shown, SERVER
      assert_includes shown, Fairmines.commitment(SERVER)
    end
    assert_equal "SeedPair(commitment=#{Fairmines.commitment(SERVER)}, client_seed=\"#{CLIENT}\", nonce=0, " \
                 'server_seed=<hidden>)', pair.to_s
    round = pair.start_round(3, '0.99')
    assert round.inspect.start_with?('Round {'), round.inspect
    refute_includes round.inspect, 'placement'
  end

  def test_every_game_error_names_its_argument
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    [0, 25, -1].each { |m| assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { pair.start_round(m, '0.99') } }
    ['0', '1.01', 'abc', '', '1/0', '-1'].each do |rtp|
      assert_error(FE::InvalidRtp, 12, 'INVALID_RTP', 'rtp') { pair.start_round(3, rtp) }
    end
    assert_equal 1, pair.public.nonce, 'a failed start does not use a nonce'
    assert_error(FE::InvalidHex, 4, 'INVALID_HEX', 'server_seed') { Fairmines::SeedPair.from_parts('abc', CLIENT, 0) }
    assert_error(FE::InvalidHex, 4, 'INVALID_HEX', 'server_seed') { Fairmines::SeedPair.from_parts(SERVER.upcase, CLIENT, 0) }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'state') { Fairmines::SeedPair.from_state_json('{"nonce": 1}') }
    bad_state = JSON.parse(pair.to_state_json).merge('commitment' => '00' * 32).to_json
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'state') { Fairmines::SeedPair.from_state_json(bad_state) }
    last = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 2**64 - 1)
    assert_error(FE::InvalidNonce, 2, 'INVALID_NONCE', 'nonce') { last.start_round(3, '0.99') }

    round = pair.start_round(3, '0.99') # nonce 1: mines at 7, 10 and 19
    assert_error(FE::NothingToCashOut, 11, 'NOTHING_TO_CASH_OUT', nil) { round.cash_out }
    [0, 26, -1, 2**31 - 1, -2**31].each do |tile|
      assert_error(FE::InvalidTile, 3, 'INVALID_TILE', 'tile') { round.reveal(tile) }
    end
    round.reveal(1)
    twice = assert_error(FE::TileAlreadyRevealed, 9, 'TILE_ALREADY_REVEALED', 'tile') { round.reveal(1) }
    assert_equal 'tile: tile 1 was already revealed in this round', twice.message
    assert_equal [1], round.picks
    round.cash_out
    assert_error(FE::RoundFinished, 10, 'ROUND_FINISHED', nil) { round.reveal(2) }
    assert_error(FE::RoundFinished, 10, 'ROUND_FINISHED', nil) { round.cash_out }

    [0, 23, -1, 256].each do |k|
      assert_error(FE::InvalidPicks, 13, 'INVALID_PICKS', 'safe_picks') { Fairmines.multiplier(3, k, '0.99') }
    end
    assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { Fairmines.multiplier(0, 1, '0.99') }
    assert_error(FE::InvalidRtp, 12, 'INVALID_RTP', 'rtp') { Fairmines.payout_table('2') }
    assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { Fairmines.max_safe_picks(25) }
    broken = Fairmines::Ratio.new(numerator: '1', denominator: '0', decimal: '')
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'ratio') { Fairmines.ratio_to_decimal(broken, 2) }
    # More places than 18 are refused, not clamped.
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'places') { Fairmines.ratio_to_decimal(Fairmines::Ratio.new(numerator: '9', denominator: '8', decimal: ''), 19) }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'record') { Fairmines.round_record_from_json('{}') }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'public') { Fairmines.public_seed_pair_from_json('[]') }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'revealed') { Fairmines.revealed_seed_pair_from_json('') }
    # Integers outside the FFI types fail in Ruby before Rust is called.
    assert_raises(RangeError) { round.reveal(2**31) }
    assert_raises(TypeError) { pair.start_round(3, 0.99) }
  end

  def test_hand_made_records_are_errors_naming_the_field
    record = played_record
    assert_error(FE::InvalidHex, 4, 'INVALID_HEX', 'commitment') do
      Fairmines.verify_round(changed(record, commitment: 'f5ec'), SERVER)
    end
    assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { Fairmines.verify_round(changed(record, mines: 0), SERVER) }
    assert_error(FE::InvalidTile, 3, 'INVALID_TILE', 'picks') { changed(record, picks: [1, 26]).to_json }
    zero = Fairmines::Ratio.new(numerator: '99', denominator: '0', decimal: '')
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'rtp') { Fairmines.verify_round(changed(record, rtp: zero), SERVER) }
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'multiplier') { changed(record, multiplier: zero).to_json }
    assert_error(FE::InvalidRtp, 12, 'INVALID_RTP', 'rtp') do
      Fairmines.verify_round(changed(record, rtp: ratio(Rational(3, 2))), SERVER)
    end
  end

  def test_records_survive_json_exactly
    record = played_record
    json = JSON.parse(record.to_json)
    assert_equal({ 'commitment' => Fairmines.commitment(SERVER), 'client_seed' => CLIENT, 'nonce' => 1, 'mines' => 3,
                   'rtp' => '99/100', 'picks' => record.picks, 'outcome' => 'cashed_out',
                   'multiplier' => record.multiplier.to_s }, json)
    assert_equal record, Fairmines.round_record_from_json(record.to_json)
    lost = changed(record, picks: record.picks + [7], outcome: Fairmines::Outcome::LOST, multiplier: nil)
    assert_equal 'lost', JSON.parse(lost.to_json)['outcome']
    assert_nil JSON.parse(lost.to_json)['multiplier']
    assert_equal lost, Fairmines.round_record_from_json(lost.to_json)
    assert Fairmines.verify_round(lost, SERVER).ok
  end

  def test_verify_round_fails_when_any_field_is_changed
    record = played_record
    verdict = Fairmines.verify_round(record, SERVER)
    assert verdict.ok
    assert_empty verdict.differences
    assert_equal [7, 10, 19], verdict.mine_positions

    other_client = "#{CLIENT}x"
    assert(Fairmines.mine_positions(SERVER, other_client, 1, 3).any? { |t| record.picks.include?(t) })
    assert(Fairmines.mine_positions(SERVER, CLIENT, 2, 3).any? { |t| record.picks.include?(t) })
    {
      'commitment' => changed(record, commitment: Fairmines.commitment("#{SERVER}x")),
      'client_seed' => changed(record, client_seed: other_client),
      'nonce' => changed(record, nonce: 2),
      'mines' => changed(record, mines: 2),
      'rtp' => changed(record, rtp: ratio(Rational(97, 100))),
      'picks (a mine instead)' => changed(record, picks: record.picks[0..-2] + [7]),
      'picks (one more)' => changed(record, picks: record.picks + [15]),
      'outcome' => changed(record, outcome: Fairmines::Outcome::LOST),
      'multiplier' => changed(record, multiplier: ratio(2)),
      'multiplier (none)' => changed(record, multiplier: nil)
    }.each do |field, bad|
      result = Fairmines.verify_round(bad, SERVER)
      refute result.ok, field
      refute_empty result.differences, field
    end
    wrong_seed = Fairmines.verify_round(record, "c#{SERVER[1..]}")
    refute wrong_seed.ok
    refute wrong_seed.commitment_ok
    assert wrong_seed.differences.first.start_with?('commitment: ')
  end

  def test_payouts_are_exact
    assert_equal 22, Fairmines.max_safe_picks(3)
    assert_equal ratio(Rational(9, 8)), Fairmines.multiplier(3, 1, '0.99')
    assert_equal ratio(2300), Fairmines.multiplier(3, 22, '1')
    assert_equal '2300', Fairmines.multiplier(3, 22, '1').to_s
    assert_equal '24.75', Fairmines.multiplier(24, 1, '0.99').decimal
    m = Fairmines.multiplier(1, 1, '1') # 25/24
    assert_equal ['1.04', '1.0416', '1'], [m.decimal, Fairmines.ratio_to_decimal(m, 4), Fairmines.ratio_to_decimal(m, 0)]

    table = Fairmines.payout_table('97/100')
    expected = (1..24).flat_map { |mines| (1..25 - mines).map { |k| [mines, k] } }
    assert_equal expected, table.map { |e| [e.mines, e.safe_picks] }
    table.each do |e|
      assert_equal Fairmines.multiplier(e.mines, e.safe_picks, '97/100'), e.multiplier
      survival = (0...e.safe_picks).map { |j| Rational(25 - e.mines - j, 25 - j) }.reduce(:*)
      assert_equal Rational(97, 100), survival * Rational(e.multiplier.numerator.to_i, e.multiplier.denominator.to_i)
    end
    # Wider than 64 bits and still exact.
    wide = Fairmines.multiplier(1, 1, '0.999999999999999999999999999999')
    assert_equal ratio(Rational(25, 24) * Rational(10**30 - 1, 10**30)), wide
  end
end

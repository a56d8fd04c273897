# frozen_string_literal: true

# Ruby tests of the game API of the UniFFI bindings: conversion of every type in and out, every argument's
# error naming it, the game's errors crossing with their code and name, a short game (the no-rotation-in-play
# sequence included), and rounds resumed from the pair's state (in this process and in another ruby). The
# rules of the game are tested once, in the core (crates/fairmines/tests). Run by scripts/test-uniffi.sh (see
# helper.rb).

require 'rbconfig'
require 'tmpdir'
require_relative 'helper'

FE = Fairmines::Error # (not `E`: Minitest::Assertions has an `E`)

# The ratio a/b in lowest terms, its decimal rounded down to 2 places: computed here with Rational.
def ratio(value)
  value = Rational(value)
  cents = (value * 100).floor
  Fairmines::Ratio.new(numerator: value.numerator.to_s, denominator: value.denominator.to_s,
                       decimal: format('%<whole>d.%<cents>02d', whole: cents / 100, cents: cents % 100))
end

def parts(numerator, denominator)
  Fairmines::Ratio.new(numerator: numerator, denominator: denominator, decimal: '')
end

# A copy of a round record with some fields changed (records are immutable value objects).
def changed(record, **changes)
  fields = %i[commitment client_seed nonce mines rtp picks outcome multiplier].to_h { |f| [f, record.public_send(f)] }
  Fairmines::RoundRecord.new(**fields, **changes)
end

def reveal(tile, safe, safe_picks, multiplier, finished)
  Fairmines::Reveal.new(tile: tile, safe: safe, safe_picks: safe_picks, multiplier: multiplier, finished: finished)
end

# One round of the worked example's pair at nonce 1 (with 3 mines: at 7, 10 and 19), played move by move. With
# `restart`, after every move the pair's state is written and everything else let go, as a service that stops
# between any two moves: the pair comes back from the text, and the round from the pair by its nonce while it is
# in play (a finished round has left the state, and its object is kept for its record).
class Table
  attr_reader :round, :answers, :restarts

  def initialize(test, mines, restart:)
    @test = test
    @pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    @round = @pair.start_round(mines, '0.99')
    @restart = restart
    @answers = []
    @restarts = 0
  end

  def reveal(tile)
    move { @round.reveal(tile) }
  end

  def cash_out
    move { @round.cash_out }
  end

  def void
    move { @pair.void_open_rounds }
  end

  private

  # What the move answered, comparable between two runs (its result, or the error's class and message); then
  # the restart.
  def move
    @answers << begin
      yield
    rescue StandardError => e
      "#{e.class.name}: #{e.message}"
    end
    return unless @restart

    state = @pair.to_state_json
    picks = @round.picks
    @pair = Fairmines::SeedPair.from_state_json(state)
    @test.assert_equal state, @pair.to_state_json
    if @round.finished?
      @test.assert_equal [], @pair.open_rounds, 'a finished round leaves the state'
    else
      @round = @pair.round(1)
      @test.assert_equal picks, @round.picks, 'the state held every pick'
      @test.assert_nil @round.mine_positions
    end
    @restarts += 1
  end
end

class TestGame < Minitest::Test
  # Runs the block, expects the error class, and checks its code, name, argument and message.
  def assert_error(klass, code, name, argument, &block)
    error = assert_raises(klass, &block)
    assert_kind_of StandardError, error
    assert_equal [code, name, argument], [error.code, error.name, error.argument], error.to_s
    assert error.message.start_with?("#{argument}: "), error.message unless argument.nil?
    error
  end

  # The worked example's round (nonce 1, mines at 7, 10 and 19), cashed out after 3 safe picks.
  def played_record
    round = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1).start_round(3, '0.99')
    [1, 2, 3].each { |t| round.reveal(t) }
    round.cash_out
    round.record
  end

  def test_a_short_game_maps_every_result_field_for_field
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    round = pair.start_round(3, '0.99')
    assert_equal [2, [1]], [pair.public_part.nonce, pair.open_rounds]
    assert_equal [1, 3, Fairmines.commitment(SERVER), CLIENT, ratio(Rational(99, 100))],
                 [round.nonce, round.mines, round.commitment, round.client_seed, round.rtp]
    assert_nil round.mine_positions
    assert_nil round.record
    assert_equal reveal(1, true, 1, ratio(Rational(9, 8)), false), round.reveal(1) # 25/22 × 99/100
    assert_equal '9/8', round.multiplier.to_s
    assert_equal reveal(2, true, 2, Fairmines.multiplier(3, 2, '0.99'), false), round.reveal(2)
    assert_equal [[1, 2], 2, false], [round.picks, round.safe_picks, round.finished?]
    assert_equal reveal(19, false, 2, nil, true), round.reveal(19)
    assert_equal [Fairmines::Outcome::LOST, [7, 10, 19], nil], [round.outcome, round.mine_positions, round.multiplier]
    assert_equal %i[lost cashed_out voided], [Fairmines::Outcome::LOST, Fairmines::Outcome::CASHED_OUT, Fairmines::Outcome::VOIDED]

    record = round.record
    assert_equal Fairmines::RoundRecord.new(commitment: Fairmines.commitment(SERVER), client_seed: CLIENT, nonce: 1,
                                            mines: 3, rtp: ratio(Rational(99, 100)), picks: [1, 2, 19],
                                            outcome: Fairmines::Outcome::LOST, multiplier: nil), record
    verdict = Fairmines.verify_round(record, SERVER)
    assert_equal [true, true, [7, 10, 19], Fairmines::Outcome::LOST, nil, []],
                 [verdict.ok, verdict.commitment_ok, verdict.mine_positions, verdict.expected_outcome,
                  verdict.expected_multiplier, verdict.differences]
    tampered = Fairmines.verify_round(changed(record, outcome: Fairmines::Outcome::CASHED_OUT), SERVER)
    refute tampered.ok
    assert(tampered.differences.any? { |d| d.start_with?('outcome: ') }, tampered.differences.inspect)

    # The last safe tile pays out by itself: finished, with the multiplier paid.
    one = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1).start_round(24, '1')
    safe = ((1..25).to_a - Fairmines.mine_positions(SERVER, CLIENT, 1, 24)).first
    assert_equal reveal(safe, true, 1, ratio(25), true), one.reveal(safe)
  end

  # A round in play holds its seed pair's server seed back until it is voided, and a
  # voided round refuses every move, even for a player who now knows the grid.
  def test_no_rotation_while_a_round_is_in_play
    pair = Fairmines::SeedPair.new('player seed')
    round = pair.start_round(5, '99/100')
    before = pair.public_part
    rotate = assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { pair.rotate(nil) }
    assert_includes rotate.message, '(nonce 0)'
    change = assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { pair.set_client_seed('other') }
    assert_includes change.message, '(nonce 0)'
    assert_equal before, pair.public_part, 'a refused rotation changes nothing'
    refute round.finished?
    assert_equal [0], pair.open_rounds

    assert_equal [0], pair.void_open_rounds
    assert_equal [], pair.open_rounds
    revealed = pair.rotate(nil)
    assert_equal [before.commitment, 1], [revealed.commitment, revealed.rounds]

    mines = Fairmines.mine_positions(revealed.server_seed, 'player seed', 0, 5)
    ((1..25).to_a - mines).each do |tile|
      assert_error(FE::RoundVoided, 17, 'ROUND_VOIDED', nil) { round.reveal(tile) }
    end
    assert_error(FE::RoundVoided, 17, 'ROUND_VOIDED', nil) { round.cash_out }
    assert round.finished?
    assert_equal Fairmines::Outcome::VOIDED, round.outcome
    assert_nil round.multiplier
    assert_equal mines, round.mine_positions

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

  # Plays the moves uninterrupted and with a restart after every move; both must answer the same.
  def both_ways(mines, &moves)
    straight = Table.new(self, mines, restart: false).tap { |t| t.instance_eval(&moves) }
    resumed = Table.new(self, mines, restart: true).tap { |t| t.instance_eval(&moves) }
    assert_equal straight.answers.length, resumed.restarts
    assert_equal straight.answers, resumed.answers
    record = straight.round.record
    assert_equal record, resumed.round.record
    assert_equal [straight.round.outcome, straight.round.multiplier, straight.round.mine_positions],
                 [resumed.round.outcome, resumed.round.multiplier, resumed.round.mine_positions]
    assert Fairmines.verify_round(record, SERVER).ok
    [straight.answers, record]
  end

  def test_a_round_resumed_after_every_move_answers_as_an_uninterrupted_one
    safe = (1..25).to_a - [7, 10, 19]
    finished = ->(answer) { answer.is_a?(String) && answer.start_with?("#{FE::RoundFinished.name}: ") }

    lost, record = both_ways(3) { [1, 2, 10, 3].each { |t| reveal(t) }; cash_out }
    assert_equal reveal(10, false, 2, nil, true), lost[2]
    assert(lost[3..].all?(&finished), lost.inspect)
    assert_equal [Fairmines::Outcome::LOST, [1, 2, 10], nil], [record.outcome, record.picks, record.multiplier]

    cashed, record = both_ways(3) { [1, 2, 3].each { |t| reveal(t) }; cash_out; reveal(4) }
    assert_equal Fairmines.multiplier(3, 3, '0.99'), cashed[3]
    assert finished.call(cashed[4]), cashed.inspect
    assert_equal [Fairmines::Outcome::CASHED_OUT, Fairmines.multiplier(3, 3, '0.99')], [record.outcome, record.multiplier]

    cleared, record = both_ways(3) { safe.each { |t| reveal(t) }; cash_out }
    assert_equal reveal(safe.last, true, 22, Fairmines.multiplier(3, 22, '0.99'), true), cleared[21]
    assert(cleared[0...21].all? { |a| a.is_a?(Fairmines::Reveal) && !a.finished }, cleared.inspect)
    assert finished.call(cleared[22]), cleared.inspect
    assert_equal [Fairmines::Outcome::CASHED_OUT, safe, Fairmines.multiplier(3, 22, '0.99')],
                 [record.outcome, record.picks, record.multiplier]

    voided, record = both_ways(3) { reveal(1); reveal(2); void; reveal(3); cash_out }
    assert_equal [1], voided[2]
    assert(voided[3..].all? { |a| a.start_with?("#{FE::RoundVoided.name}: ") }, voided.inspect)
    assert_equal [Fairmines::Outcome::VOIDED, [1, 2], nil], [record.outcome, record.picks, record.multiplier]
  end

  def test_the_state_holds_each_round_in_play_whole_written_by_every_move
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    round = pair.start_round(3, '99/100') # nonce 1: mines at 7, 10 and 19
    state = JSON.parse(pair.to_state_json)
    assert_equal({ 'version' => 2, 'server_seed' => SERVER, 'commitment' => Fairmines.commitment(SERVER),
                   'client_seed' => CLIENT, 'nonce' => 2,
                   'rounds' => [{ 'nonce' => 1, 'mines' => 3, 'rtp' => '99/100', 'picks' => [] }] }, state)
    rounds = -> { JSON.parse(pair.to_state_json)['rounds'] }
    round.reveal(1)
    assert_equal [1], rounds.call[0]['picks']
    round.reveal(2)
    assert_equal [1, 2], rounds.call[0]['picks']
    round.cash_out
    assert_equal [], rounds.call, 'a finished round leaves the state'
  end

  def test_round_refuses_a_nonce_with_no_round_to_go_on_with_as_round_not_in_play_naming_the_nonce
    not_in_play = lambda do |pair, nonce, reason|
      error = assert_error(FE::RoundNotInPlay, 18, 'ROUND_NOT_IN_PLAY', 'nonce') { pair.round(nonce) }
      assert_equal "nonce: #{reason}", error.message
    end
    none = ->(n) { "no round of this seed pair is in play at nonce #{n}: it was never started, has finished or was voided" }
    handed_out = ->(n) { "the round at nonce #{n} is already handed out by this seed pair: go on with that round" }
    void_only = lambda do |n|
      "the round at nonce #{n} was saved by a version that kept only its nonce, without its picks: it can only be voided"
    end

    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    [0, 1, 2, 2**64 - 1].each { |n| not_in_play.call(pair, n, none.call(n)) } # never started
    pair.start_round(3, '0.99').reveal(7) # nonce 1: mines at 7, 10 and 19
    cashed = pair.start_round(3, '0.99')  # nonce 2: mines at 12, 20 and 23
    cashed.reveal(1)
    cashed.cash_out
    voided = pair.start_round(3, '0.99')  # nonce 3
    assert_equal [3], pair.void_open_rounds
    assert voided.finished?
    restored = Fairmines::SeedPair.from_state_json(pair.to_state_json)
    (1..3).each do |n| # finished, finished, voided
      not_in_play.call(pair, n, none.call(n))
      not_in_play.call(restored, n, none.call(n))
    end

    # Handed out already, by start_round or by round(nonce), while that Round lives (here: while it is referenced).
    safe = ((1..25).to_a - Fairmines.mine_positions(SERVER, CLIENT, 4, 3)).first
    round = pair.start_round(3, '0.99') # nonce 4
    round.reveal(safe)
    not_in_play.call(pair, 4, handed_out.call(4))
    from_state = Fairmines::SeedPair.from_state_json(pair.to_state_json)
    resumed = from_state.round(4)
    assert_equal [safe], resumed.picks
    not_in_play.call(from_state, 4, handed_out.call(4))
    assert_equal [round.picks, round.mines, round.rtp], [resumed.picks, resumed.mines, resumed.rtp]

    # A state written before rounds were saved whole (no version, bare nonces): its rounds can only be voided.
    v1 = JSON.generate('server_seed' => SERVER, 'commitment' => Fairmines.commitment(SERVER), 'client_seed' => CLIENT,
                       'nonce' => 4, 'open_rounds' => [1, 3])
    old = Fairmines::SeedPair.from_state_json(v1)
    assert_equal [1, 3], old.open_rounds
    not_in_play.call(old, 1, void_only.call(1))
    not_in_play.call(old, 3, void_only.call(3))
    not_in_play.call(old, 2, none.call(2))
    rewritten = JSON.parse(old.to_state_json)
    assert_equal [2, [{ 'nonce' => 1 }, { 'nonce' => 3 }]], [rewritten['version'], rewritten['rounds']]
    not_in_play.call(Fairmines::SeedPair.from_state_json(old.to_state_json), 3, void_only.call(3))
    assert_error(FE::RoundsInPlay, 16, 'ROUNDS_IN_PLAY', nil) { old.rotate(nil) }
    assert_equal [1, 3], old.void_open_rounds
    assert_equal 4, old.rotate(nil).rounds

    # Nonces outside u64, and wrong types, fail in Ruby before Rust is called.
    assert_raises(RangeError) { pair.round(-1) }
    assert_raises(RangeError) { pair.round(2**64) }
    assert_raises(TypeError) { pair.round('4') }
  end

  def test_a_state_that_does_not_hold_together_is_refused_naming_the_field
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    pair.start_round(3, '0.99').reveal(1) # nonce 1: mines at 7, 10 and 19
    refused = lambda do |change|
      state = JSON.parse(pair.to_state_json)
      state['rounds'][0].merge!(change)
      assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'state') do
        Fairmines::SeedPair.from_state_json(JSON.generate(state))
      end.message
    end
    assert_equal 'state: rounds[0].picks[1]: tile 1 is picked twice', refused.call('picks' => [1, 1])
    assert_equal 'state: rounds[0].picks[1]: tile 7 is a mine, so the round would have finished',
                 refused.call('picks' => [1, 7])
    assert_equal "state: rounds[0].nonce: 2 is not below the pair's next nonce 2", refused.call('nonce' => 2)
  end

  # One side of the two-process test, run by a ruby of its own so that nothing but the state file passes from the
  # process that starts a round to the one that ends it (here, not in a file of its own, so that this file alone
  # carries the test, as scripts/test-dist-uniffi.sh copies it):
  #
  #   start STATE_FILE SERVER CLIENT NONCE MINES TILE   a pair from its parts starts a round (RTP 0.99) at NONCE,
  #                                                      reveals TILE, and writes its state to STATE_FILE
  #   resume STATE_FILE NONCE TILE                      the pair restored from STATE_FILE gives back the round at
  #                                                      NONCE, which reveals TILE and cashes out; the pair's state
  #                                                      is written back, and the round's record printed as JSON
  RESUME_PROCESS = <<~'RUBY'
    require File.join(ENV.fetch('FAIRMINES_RUBY_DIR'), 'fairmines')
    step, file, *rest = ARGV
    case step
    when 'start'
      server, client, nonce, mines, tile = rest
      pair = Fairmines::SeedPair.from_parts(server, client, Integer(nonce))
      pair.start_round(Integer(mines), '0.99').reveal(Integer(tile))
      File.write(file, pair.to_state_json)
    when 'resume'
      nonce, tile = rest
      pair = Fairmines::SeedPair.from_state_json(File.read(file))
      round = pair.round(Integer(nonce))
      round.reveal(Integer(tile))
      round.cash_out
      File.write(file, pair.to_state_json)
      puts round.record.to_json
    else
      abort "unknown step #{step.inspect}"
    end
  RUBY

  # Runs RESUME_PROCESS in a ruby of its own, with this one's load path and environment (FAIRMINES_RUBY_DIR among
  # it); what it printed.
  def ruby_process(*args)
    command = [RbConfig.ruby, *$LOAD_PATH.map { |dir| "-I#{dir}" }, '-e', RESUME_PROCESS, '--', *args]
    output = IO.popen(command, &:read)
    assert Process.last_status.success?, "#{args.inspect} failed (#{Process.last_status.inspect}); it printed: #{output}"
    output
  end

  def test_a_round_started_in_one_process_and_resumed_in_another_ends_as_an_uninterrupted_one
    Dir.mktmpdir do |dir|
      state_file = File.join(dir, 'state.json')
      # Nonce 1 of the worked example's pair, 3 mines at 7, 10 and 19: tile 1 in the first ruby, tile 2 in the second.
      assert_equal '', ruby_process('start', state_file, SERVER, CLIENT, '1', '3', '1')
      assert_equal [1], JSON.parse(File.read(state_file))['rounds'][0]['picks']
      printed = ruby_process('resume', state_file, '1', '2').chomp

      straight = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1).start_round(3, '0.99')
      straight.reveal(1)
      straight.reveal(2)
      assert_equal Fairmines.multiplier(3, 2, '0.99'), straight.cash_out
      assert_equal straight.record.to_json, printed

      # The second process stored the pair after the cash-out: no round in play, so it rotates, and the record
      # verifies against the server seed it reveals.
      after = Fairmines::SeedPair.from_state_json(File.read(state_file))
      assert_equal [], after.open_rounds
      record = Fairmines.round_record_from_json(printed)
      revealed = after.rotate(nil)
      assert_equal [SERVER, record.commitment, 2], [revealed.server_seed, revealed.commitment, revealed.rounds]
      verdict = Fairmines.verify_round(record, revealed.server_seed)
      assert_equal [true, true, [7, 10, 19], Fairmines::Outcome::CASHED_OUT, Fairmines.multiplier(3, 2, '0.99'), []],
                   [verdict.ok, verdict.commitment_ok, verdict.mine_positions, verdict.expected_outcome,
                    verdict.expected_multiplier, verdict.differences]
    end
  end

  def test_records_and_seed_pairs_cross_json_and_the_boundary_exactly
    record = played_record
    assert_equal({ 'commitment' => Fairmines.commitment(SERVER), 'client_seed' => CLIENT, 'nonce' => 1, 'mines' => 3,
                   'rtp' => '99/100', 'picks' => [1, 2, 3], 'outcome' => 'cashed_out',
                   'multiplier' => record.multiplier.to_s }, JSON.parse(record.to_json))
    assert_equal record, Fairmines.round_record_from_json(record.to_json)
    lost = changed(record, picks: record.picks + [7], outcome: Fairmines::Outcome::LOST, multiplier: nil)
    assert_nil JSON.parse(lost.to_json)['multiplier']
    assert_equal lost, Fairmines.round_record_from_json(lost.to_json)
    assert Fairmines.verify_round(lost, SERVER).ok

    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 5)
    state = pair.to_state_json
    assert_equal state, Fairmines::SeedPair.from_state_json(state).to_state_json
    public = pair.public_part
    assert_equal({ 'commitment' => Fairmines.commitment(SERVER), 'client_seed' => CLIENT, 'nonce' => 5 },
                 JSON.parse(public.to_json))
    assert_equal public, Fairmines.public_seed_pair_from_json(public.to_json)
    revealed = pair.rotate('next seed')
    assert_equal [SERVER, Fairmines.commitment(SERVER), CLIENT, 5],
                 [revealed.server_seed, revealed.commitment, revealed.client_seed, revealed.rounds]
    assert_equal revealed, Fairmines.revealed_seed_pair_from_json(revealed.to_json)
    assert_equal 'next seed', pair.set_client_seed('third').client_seed
    assert_equal 'third', pair.public_part.client_seed
  end

  def test_every_argument_error_names_it
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1)
    [0, 25, -1, 2**31 - 1, -2**31].each do |m|
      assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { pair.start_round(m, '0.99') }
      assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { Fairmines.multiplier(m, 1, '0.99') }
      assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { Fairmines.max_safe_picks(m) }
    end
    %w[0 abc].each do |rtp|
      assert_error(FE::InvalidRtp, 12, 'INVALID_RTP', 'rtp') { pair.start_round(3, rtp) }
      assert_error(FE::InvalidRtp, 12, 'INVALID_RTP', 'rtp') { Fairmines.payout_table(rtp) }
    end
    assert_equal 1, pair.public_part.nonce, 'a refused start uses no nonce'
    round = pair.start_round(3, '0.99') # nonce 1: mines at 7, 10 and 19
    [0, 26, -1, 2**31 - 1, -2**31].each do |tile|
      error = assert_error(FE::InvalidTile, 3, 'INVALID_TILE', 'tile') { round.reveal(tile) }
      assert_equal "tile: must be from 1 to 25, got #{tile}", error.message
    end
    [0, 23, -1, 256].each do |k|
      error = assert_error(FE::InvalidPicks, 13, 'INVALID_PICKS', 'safe_picks') { Fairmines.multiplier(3, k, '0.99') }
      assert_equal "safe_picks: must be from 1 to 22 with 3 mines, got #{k}", error.message
    end
    # More places than 18 are refused, not clamped.
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'places') { Fairmines.ratio_to_decimal(ratio(2), 19) }
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'ratio.denominator') do
      Fairmines.ratio_to_decimal(parts('1', '0'), 2)
    end
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'ratio.numerator') do
      Fairmines.ratio_to_decimal(parts('1.5', '1'), 2)
    end
    assert_error(FE::InvalidHex, 4, 'INVALID_HEX', 'server_seed') { Fairmines::SeedPair.from_parts('abc', CLIENT, 0) }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'state') { Fairmines::SeedPair.from_state_json('{"nonce": 1}') }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'record') { Fairmines.round_record_from_json('{}') }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'public') { Fairmines.public_seed_pair_from_json('[]') }
    assert_error(FE::InvalidState, 15, 'INVALID_STATE', 'revealed') { Fairmines.revealed_seed_pair_from_json('') }
    bad = Fairmines::PublicSeedPair.new(commitment: 'abc', client_seed: CLIENT, nonce: 0)
    assert_error(FE::InvalidHex, 4, 'INVALID_HEX', 'commitment') { bad.to_json }
    # Integers outside the FFI types, and wrong types, fail in Ruby before Rust is called.
    assert_raises(RangeError) { round.reveal(2**31) }
    assert_raises(TypeError) { pair.start_round(3, 0.99) }
  end

  def test_the_errors_of_the_game_cross_with_their_code_and_name
    round = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 1).start_round(3, '0.99') # mines at 7, 10 and 19
    assert_error(FE::NothingToCashOut, 11, 'NOTHING_TO_CASH_OUT', nil) { round.cash_out }
    round.reveal(1)
    twice = assert_error(FE::TileAlreadyRevealed, 9, 'TILE_ALREADY_REVEALED', 'tile') { round.reveal(1) }
    assert_equal 'tile: tile 1 was already revealed in this round', twice.message
    round.cash_out
    assert_error(FE::RoundFinished, 10, 'ROUND_FINISHED', nil) { round.reveal(2) }
    # Nonce 2^64 - 1 starts no round, by one rule: start_round there and from_parts with it.
    last = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 2**64 - 2)
    assert_equal 2**64 - 2, last.start_round(3, '0.99').nonce
    there = assert_error(FE::InvalidNonce, 2, 'INVALID_NONCE', 'nonce') { last.start_round(3, '0.99') }
    assert_equal 'nonce: 18446744073709551615 starts no round: a seed pair plays nonces 0 to 18446744073709551614 (it counts its rounds in 64 bits); rotate to a new seed pair', there.message
    made = assert_error(FE::InvalidNonce, 2, 'INVALID_NONCE', 'nonce') { Fairmines::SeedPair.from_parts(SERVER, CLIENT, 2**64 - 1) }
    assert_equal there.message, made.message
  end

  def test_hand_made_records_are_errors_naming_the_field
    record = played_record
    assert_error(FE::InvalidHex, 4, 'INVALID_HEX', 'commitment') do
      Fairmines.verify_round(changed(record, commitment: 'f5ec'), SERVER)
    end
    assert_error(FE::InvalidMines, 1, 'INVALID_MINES', 'mines') { Fairmines.verify_round(changed(record, mines: 0), SERVER) }
    assert_error(FE::InvalidTile, 3, 'INVALID_TILE', 'picks') { changed(record, picks: [1, 26]).to_json }
    zero = assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'rtp.denominator') do
      Fairmines.verify_round(changed(record, rtp: parts('99', '0')), SERVER)
    end
    assert_equal 'rtp.denominator: must not be 0', zero.message
    assert_error(FE::InvalidNumber, 14, 'INVALID_NUMBER', 'multiplier.numerator') do
      changed(record, multiplier: parts('-1', '2')).to_json
    end
    assert_error(FE::InvalidRtp, 12, 'INVALID_RTP', 'rtp') do
      Fairmines.verify_round(changed(record, rtp: ratio(Rational(3, 2))), SERVER)
    end
    # A hand-made ratio is reduced, its decimal ignored; parts beyond 2^127 are taken exactly.
    assert Fairmines.verify_round(changed(record, rtp: parts('198', '200')), SERVER).ok
    max = (2**128 - 1).to_s
    assert_equal max, Fairmines.ratio_to_decimal(parts(max, '1'), 0)
  end

  def test_payouts_cross_as_exact_ratios
    assert_equal 22, Fairmines.max_safe_picks(3)
    assert_equal ratio(Rational(9, 8)), Fairmines.multiplier(3, 1, '0.99')
    assert_equal '2300', Fairmines.multiplier(3, 22, '1').to_s
    m = Fairmines.multiplier(1, 1, '1') # 25/24
    assert_equal ['1.04', '1.0416', '1', '25/24'],
                 [m.decimal, Fairmines.ratio_to_decimal(m, 4), Fairmines.ratio_to_decimal(m, 0), m.to_s]
    table = Fairmines.payout_table('97/100')
    assert_equal 300, table.length
    assert_equal [1, 1, Fairmines.multiplier(1, 1, '97/100')],
                 [table.first.mines, table.first.safe_picks, table.first.multiplier]
    # Wider than 64 bits and still exact.
    wide = Fairmines.multiplier(1, 1, '0.999999999999999999999999999999')
    assert_equal ratio(Rational(25, 24) * Rational(10**30 - 1, 10**30)), wide
  end

  def test_the_server_seed_never_shows
    pair = Fairmines::SeedPair.from_parts(SERVER, CLIENT, 0)
    [pair.to_s, pair.inspect, "#{pair}", [pair].inspect].each do |shown|
      refute_includes shown, SERVER
      assert_includes shown, Fairmines.commitment(SERVER)
    end
    assert_equal "#<Fairmines::SeedPair commitment=#{Fairmines.commitment(SERVER)} nonce=0>", pair.to_s
    round = pair.start_round(3, '0.99')
    assert_equal '#<Fairmines::Round nonce=0 mines=3 rtp=99/100 picks=[] status=:in_play>', round.inspect
    refute_includes round.to_s, SERVER
  end
end

# frozen_string_literal: true

# What the gem's hand-written layer (bindings/uniffi/ruby/lib/fairmines.rb) adds to the generated binding: Ruby
# types refused by name, one error class tree, symbols, predicates, printing without seeds, the message on a
# platform without a library; and two rules of every language seen from Ruby (an RTP with white space around it,
# rotate without an argument). Run by scripts/test-uniffi.sh (see helper.rb) and on the installed gem.

require 'open3'
require 'rbconfig'
require 'tmpdir'
require_relative 'helper'

class TestRubyLayer < Minitest::Test
  def pair(nonce = 1)
    Fairmines::SeedPair.from_parts(SERVER, CLIENT, nonce)
  end

  def assert_type_error(message, &call)
    assert_equal message, assert_raises(TypeError, &call).message
  end

  # No Float is truncated, no nil or String converted: every Integer argument, named as Python and Node name it.
  def test_integers_are_integers
    fresh = pair
    round = fresh.start_round(3, '0.99')
    [[3.99, 'Float'], [nil, 'nil'], ['3', 'String'], [true, 'TrueClass'], [Rational(3), 'Rational']].each do |bad, type|
      assert_type_error("mines: must be an Integer, not #{type}") { fresh.start_round(bad, '0.99') }
      assert_type_error("tile: must be an Integer, not #{type}") { round.reveal(bad) }
      assert_type_error("nonce: must be an Integer, not #{type}") { fresh.round(bad) }
      assert_type_error("nonce: must be an Integer, not #{type}") do
        Fairmines::SeedPair.from_parts(SERVER, CLIENT, bad)
      end
      assert_type_error("mines: must be an Integer, not #{type}") { Fairmines.mine_positions(SERVER, CLIENT, 1, bad) }
      assert_type_error("nonce: must be an Integer, not #{type}") { Fairmines.round_signature(SERVER, CLIENT, bad) }
      assert_type_error("safe_picks: must be an Integer, not #{type}") { Fairmines.multiplier(3, bad, '0.99') }
      assert_type_error("places: must be an Integer, not #{type}") do
        Fairmines.ratio_to_decimal(Fairmines.multiplier(3, 1, '0.99'), bad)
      end
      assert_type_error("positions: must be an Integer, not #{type}") do
        Fairmines.verify(SERVER, CLIENT, 1, 3, nil, [7, bad, 19])
      end
    end
    # Nothing moved: no round started, no tile revealed.
    assert_equal [2, [1], [], :in_play], [fresh.public_part.nonce, fresh.open_rounds, round.picks, round.status]
  end

  def test_text_is_a_string
    fresh = pair
    [[0.99, 'Float'], [nil, 'nil'], [:x, 'Symbol'], [Rational(99, 100), 'Rational']].each do |bad, type|
      assert_type_error("rtp: must be a String, not #{type}") { fresh.start_round(3, bad) }
      assert_type_error("rtp: must be a String, not #{type}") { Fairmines.payout_table(bad) }
      assert_type_error("server_seed: must be a String, not #{type}") { Fairmines.commitment(bad) }
      assert_type_error("client_seed: must be a String, not #{type}") { fresh.set_client_seed(bad) }
    end
    assert_equal 1, fresh.public_part.nonce
  end

  # One base class: `rescue Fairmines::Error` (or its old name, Fairmines::FairminesError) catches every kind.
  def test_every_error_is_a_fairmines_error
    assert_operator Fairmines::Error, :<, StandardError
    assert_same Fairmines::Error, Fairmines::FairminesError
    variants = Fairmines::Error.constants.map { |c| Fairmines::Error.const_get(c) }
    assert_equal 19, variants.length # the core's 18 kinds and Other (README's error table)
    variants.each { |variant| assert_operator variant, :<, Fairmines::Error }

    round = pair.start_round(3, '0.99')
    round.reveal(7)
    caught = begin
      round.reveal(1)
    rescue Fairmines::Error => e
      e
    end
    assert_instance_of Fairmines::Error::RoundFinished, caught
    assert_equal [10, 'ROUND_FINISHED', nil], [caught.code, caught.name, caught.argument]
    assert_equal caught.message, caught.to_s
    assert_equal "#<Fairmines::Error::RoundFinished: #{caught.message}>", caught.inspect

    mines = assert_raises(Fairmines::Error) { Fairmines.mine_positions(SERVER, CLIENT, 1, 25) }
    assert_equal [1, 'INVALID_MINES', 'mines', 'mines: must be a whole number from 1 to 24, got 25'],
                 [mines.code, mines.name, mines.argument, mines.message]
  end

  def test_enums_are_symbols_and_predicates_end_in_a_question_mark
    round = pair.start_round(3, '0.99')
    assert_equal [:in_play, nil, false], [round.status, round.outcome, round.finished?]
    refute_respond_to round, :is_finished
    safe = round.reveal(1)
    assert_equal [true, false], [safe.safe?, safe.finished?]
    assert_equal Fairmines.multiplier(3, 1, '0.99'), round.cash_out
    assert_equal [:cashed_out, :cashed_out, true], [round.status, round.outcome, round.finished?]
    record = round.record
    assert_equal :cashed_out, record.outcome
    assert_equal 'cashed_out', JSON.parse(record.to_json)['outcome']
    assert Fairmines.verify_round(record, SERVER).ok?

    lost = pair(2).start_round(3, '0.99')
    refute lost.reveal(Fairmines.mine_positions(SERVER, CLIENT, 2, 3).first).safe?
    assert_equal [:lost, :lost], [lost.status, lost.record.outcome]
    # A symbol goes in as it comes out: a record said to be lost is checked as lost.
    tampered = record.class.new(**%i[commitment client_seed nonce mines rtp picks multiplier]
      .to_h { |f| [f, record.public_send(f)] }, outcome: :lost)
    refute Fairmines.verify_round(tampered, SERVER).ok?
    [1, :won, 'lost', nil].each do |bad|
      odd = record.class.new(**%i[commitment client_seed nonce mines rtp picks multiplier]
        .to_h { |f| [f, record.public_send(f)] }, outcome: bad)
      assert_type_error("outcome: must be one of :lost, :cashed_out, :voided, not #{bad.inspect}") do
        Fairmines.verify_round(odd, SERVER)
      end
    end

    assert_equal %i[ok unchecked], [Fairmines.verify(SERVER, CLIENT, 1, 3, Fairmines.commitment(SERVER)).verdict,
                                     Fairmines.verify(SERVER, CLIENT, 1, 3).verdict]
    assert Fairmines.verify(SERVER, CLIENT, 1, 3, Fairmines.commitment(SERVER)).ok?
  end

  # Ruby's own forms, without Rust's debug text and without a seed.
  def test_printing_shows_no_seed
    shown_pair = pair
    round = shown_pair.start_round(3, '0.99')
    round.reveal(1)
    seed = Fairmines.generate_server_seed
    assert_equal "#<Fairmines::SeedPair commitment=#{Fairmines.commitment(SERVER)} nonce=2>", shown_pair.inspect
    assert_equal '#<Fairmines::Round nonce=1 mines=3 rtp=99/100 picks=[1] status=:in_play>', round.inspect
    assert_equal "#<Fairmines::ServerSeed commitment=#{seed.commitment}>", seed.inspect
    [shown_pair, round, seed].each do |object|
      [object.inspect, object.to_s, "#{object}", [object].inspect].each do |text|
        [SERVER, CLIENT, seed.reveal, '{', 'Mutex'].each { |secret| refute_includes text, secret }
      end
    end
  end

  # An RTP is refused with white space around it, as in every language (the core's rule).
  def test_an_rtp_with_white_space_around_it_is_refused
    ['0.99 ', ' 0.99', "99/100\n", "\t1"].each do |rtp|
      error = assert_raises(Fairmines::Error::InvalidRtp) { pair.start_round(3, rtp) }
      assert_equal [12, 'rtp', "rtp: #{rtp.inspect} is not a fraction like 99/100 or a decimal like 0.99"],
                   [error.code, error.argument, error.message]
      assert_raises(Fairmines::Error::InvalidRtp) { Fairmines.payout_table(rtp) }
    end
  end

  def test_rotate_without_an_argument_keeps_the_client_seed
    rotating = pair
    old = rotating.rotate
    assert_equal [SERVER, CLIENT, 1], [old.server_seed, old.client_seed, old.rounds]
    assert_equal [CLIENT, 0], [rotating.public_part.client_seed, rotating.public_part.nonce]
    refute_equal Fairmines.commitment(SERVER), rotating.public_part.commitment
    assert_equal 'other', (rotating.rotate('other') && rotating.public_part.client_seed)
  end

  # The layer and the generated file without the library beside them, as on a platform the gem was not built for.
  def test_a_missing_library_is_one_line_naming_the_platform
    Dir.mktmpdir do |dir|
      source = ENV.fetch('FAIRMINES_RUBY_DIR')
      FileUtils.mkdir_p(File.join(dir, 'fairmines'))
      FileUtils.cp(File.join(source, 'fairmines.rb'), dir)
      FileUtils.cp(File.join(source, 'fairmines', 'uniffi.rb'), File.join(dir, 'fairmines'))
      script = 'begin; require ARGV[0]; rescue LoadError => e; print e.message; end'
      out, status = Open3.capture2e(RbConfig.ruby, '-e', script, File.join(dir, 'fairmines'))
      assert status.success?, out
      assert_equal 1, out.lines.length, out
      platform = Gem::Platform.local
      assert out.start_with?("fairmines has no native library for #{platform} in this gem: it holds no library"), out
    end
  end
end

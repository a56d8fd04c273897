# frozen_string_literal: true

# Ruby tests of the UniFFI bindings of fairmines, on Debian's ruby and ruby-ffi: the shared vectors, the
# verification API and its errors. Run by scripts/test-uniffi.sh (see helper.rb). FAIRMINES_VECTORS may name
# another vector file of the same format; the default is vectors/vectors.json at the repository root.

require_relative 'helper'

VECTORS_PATH = ENV.fetch('FAIRMINES_VECTORS', File.expand_path('../../../../vectors/vectors.json', __dir__))
VECTORS = JSON.parse(File.read(VECTORS_PATH, encoding: 'UTF-8'))

# One test per case of the vector file.
class TestVectors < Minitest::Test
  def test_the_vector_file_is_complete
    assert_equal VECTORS['count'], VECTORS['cases'].length
    assert_operator VECTORS['cases'].length, :>, 0
    ids = VECTORS['cases'].map { |c| c['id'] }
    assert_equal ids.uniq.length, ids.length, 'vector ids are not unique'
  end

  VECTORS['cases'].each do |c|
    define_method("test_vector_#{c['id']}") do
      server = c['server_seed']
      client = c['client_seed']
      nonce = c['nonce']
      mines = c['mines']

      assert_equal c['commitment'], Fairmines.commitment(server)
      assert_equal c['signature'], Fairmines.round_signature(server, client, nonce)
      assert_equal c['draw_order'], Fairmines.draw_order(server, client, nonce, mines)
      assert_equal c['positions'], Fairmines.mine_positions(server, client, nonce, mines)

      verdict = Fairmines.verify(server, client, nonce, mines, c['commitment'], c['positions'].reverse)
      assert_equal true, verdict.commitment_ok
      assert_equal true, verdict.positions_ok
      assert_equal Fairmines::Verdict::OK, verdict.verdict
      assert_equal true, verdict.ok
      assert_equal c['signature'], verdict.signature
      assert_equal c['positions'], verdict.positions
      assert_equal c['draw_order'], verdict.draw_order
      assert_equal c['words_used'], verdict.words_used
    end
  end
end

# The API beyond the vectors: worked example, errors, seeds.
class TestApi < Minitest::Test
  def test_worked_example
    assert_equal [7, 10, 19], Fairmines.mine_positions(SERVER, CLIENT, 1, 3)
    assert_equal [9, 6, 18], Fairmines.draw_order(SERVER, CLIENT, 1, 3)
    assert_equal 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42', Fairmines.commitment(SERVER)
    assert_equal '90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac',
                 Fairmines.round_signature(SERVER, CLIENT, 1)
  end

  # verify's arguments are (server seed, client seed, nonce, mines, commitment, positions), as in every binding.
  def test_verify_takes_its_arguments_in_order_and_maps_every_field
    v = Fairmines.verify(SERVER, CLIENT, 1, 3, Fairmines.commitment(SERVER), [19, 7, 10])
    assert_equal [Fairmines.commitment(SERVER), Fairmines.round_signature(SERVER, CLIENT, 1), [7, 10, 19], [9, 6, 18], 3,
                  true, true, Fairmines::Verdict::OK, true],
                 [v.commitment, v.signature, v.positions, v.draw_order, v.words_used, v.commitment_ok, v.positions_ok,
                  v.verdict, v.ok]
  end

  def test_verify_reports_each_check
    wrong = Fairmines.verify(SERVER, CLIENT, 1, 3, Fairmines.round_signature(SERVER, CLIENT, 1), [7, 10, 20])
    assert_equal false, wrong.commitment_ok
    assert_equal false, wrong.positions_ok
    assert_equal Fairmines::Verdict::MISMATCH, wrong.verdict
    assert_equal false, wrong.ok
    assert_equal [7, 10, 19], wrong.positions
    half = Fairmines.verify(SERVER, CLIENT, 1, 3, Fairmines.commitment(SERVER), [7, 10, 20])
    assert_equal [true, false, Fairmines::Verdict::MISMATCH, false],
                 [half.commitment_ok, half.positions_ok, half.verdict, half.ok]

    # Nothing to check: the round is recomputed, and the verdict says nothing was checked (not ok).
    only = Fairmines.verify(SERVER, CLIENT, 1, 3)
    assert_nil only.commitment_ok
    assert_nil only.positions_ok
    assert_equal Fairmines::Verdict::UNCHECKED, only.verdict
    assert_equal false, only.ok
    assert_equal [7, 10, 19], only.positions
    assert_equal %i[ok mismatch unchecked], [Fairmines::Verdict::OK, Fairmines::Verdict::MISMATCH, Fairmines::Verdict::UNCHECKED]

    upper = Fairmines.verify(SERVER, CLIENT, 1, 3, Fairmines.commitment(SERVER).upcase)
    assert_equal [true, Fairmines::Verdict::OK, true], [upper.commitment_ok, upper.verdict, upper.ok]
  end

  # verify takes positional arguments only: keywords (a misspelt commitment: among them) arrive as one Hash
  # in place of the commitment, which is refused with a TypeError that shows it, never ignored.
  def test_verify_refuses_keywords
    error = assert_raises(TypeError) do
      Fairmines.verify(SERVER, CLIENT, 1, 3, commitmnet: Fairmines.commitment(SERVER))
    end
    assert_includes error.message, 'commitmnet', error.message
    error = assert_raises(TypeError) { Fairmines.verify(SERVER, CLIENT, 1, 3, nil, position: [7, 10, 19]) }
    assert_includes error.message, 'position', error.message
  end

  [0, 25, -1, 26, 2**31 - 1, -2**31].each do |mines|
    define_method("test_mines_#{mines}_raises_invalid_mines") do
      [
        -> { Fairmines.mine_positions(SERVER, CLIENT, 1, mines) },
        -> { Fairmines.draw_order(SERVER, CLIENT, 1, mines) },
        -> { Fairmines.verify(SERVER, CLIENT, 1, mines) }
      ].each do |call|
        error = assert_raises(Fairmines::Error::InvalidMines, &call)
        assert_kind_of StandardError, error
        assert error.message.start_with?('mines: '), error.message
        assert error.message.end_with?("got #{mines}"), error.message
      end
    end
  end

  # The FFI types' own bounds, before the core is called: a RangeError naming the argument.
  def test_integers_outside_the_ffi_types_raise_range_error
    [[-> { Fairmines.mine_positions(SERVER, CLIENT, 1, 2**31) }, 'mines: 2147483648 does not fit in i32'],
     [-> { Fairmines.mine_positions(SERVER, CLIENT, -1, 3) }, 'nonce: -1 does not fit in u64'],
     [-> { Fairmines.round_signature(SERVER, CLIENT, 2**64) }, 'nonce: 18446744073709551616 does not fit in u64']]
      .each { |call, message| assert_equal message, assert_raises(RangeError, &call).message }
    error = assert_raises(TypeError) { Fairmines.mine_positions(SERVER, CLIENT, 1, '3') }
    assert_equal 'mines: must be an Integer, not String', error.message
  end

  def test_malformed_published_values_name_the_argument
    error = assert_raises(Fairmines::Error::InvalidHex) { Fairmines.verify(SERVER, CLIENT, 1, 3, 'f5ec') }
    assert error.message.start_with?('commitment: '), error.message
    [[0], [26], [7, -3], [1] * 26].each do |bad|
      error = assert_raises(Fairmines::Error::InvalidTile) { Fairmines.verify(SERVER, CLIENT, 1, 3, nil, bad) }
      assert error.message.start_with?('positions: '), error.message
    end
  end

  def test_the_whole_u64_nonce_range
    top = Fairmines.round_signature(SERVER, CLIENT, 2**64 - 1)
    assert_match(/\A[0-9a-f]{64}\z/, top)
    refute_equal top, Fairmines.round_signature(SERVER, CLIENT, 2**63 - 1)
    assert_equal 3, Fairmines.mine_positions(SERVER, CLIENT, 2**64 - 1, 3).length
  end

  def test_generated_server_seeds_are_fresh_and_never_printed
    seed = Fairmines.generate_server_seed
    other = Fairmines.generate_server_seed
    text = seed.reveal
    assert_match(/\A[0-9a-f]{64}\z/, text)
    refute_equal text, other.reveal
    assert_equal Fairmines.commitment(text), seed.commitment
    [seed.to_s, seed.inspect, "#{seed}", [seed].inspect].each do |shown|
      refute_includes shown, text
    end
    assert_includes seed.to_s, seed.commitment
  end
end

# frozen_string_literal: true

# The README's Ruby example (example.rb; FAIRMINES_RUBY_EXAMPLE names another copy, the README's block inside the
# installed gem), run with `require 'fairmines'` finding the package in FAIRMINES_RUBY_DIR (the gem's lib/), as a
# user would have it: it prints what its comments say (`# => value`, and the message after `puts e.message  #`).
# Run by scripts/test-uniffi.sh and scripts/test-dist-uniffi.sh.

require_relative 'helper'

class TestReadmeExample < Minitest::Test
  def test_the_example_prints_what_its_comments_say
    example = ENV.fetch('FAIRMINES_RUBY_EXAMPLE', File.join(__dir__, 'example.rb'))
    expected = File.readlines(example).filter_map { |l| l[/# => (.*)$/, 1] || l[/^ *puts e.message *# (.*)$/, 1] }
    refute_empty expected
    actual = IO.popen(['ruby', '-I', ENV.fetch('FAIRMINES_RUBY_DIR'), example], &:read)
    assert_equal expected.join("\n"), actual.chomp
  end
end

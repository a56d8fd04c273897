# frozen_string_literal: true

# The README's Ruby example (example.rb), run beside the generated fairmines.rb as a user would have it: it prints
# what its comments say (`# => value`, and the message after `puts e.message  #`). Run by scripts/test-uniffi.sh.

require_relative 'helper'
require 'fileutils'

class TestReadmeExample < Minitest::Test
  def test_the_example_prints_what_its_comments_say
    example = File.join(__dir__, 'example.rb')
    FileUtils.cp(example, ENV.fetch('FAIRMINES_RUBY_DIR'))
    expected = File.readlines(example).filter_map { |l| l[/# => (.*)$/, 1] || l[/^ *puts e.message *# (.*)$/, 1] }
    actual = IO.popen(['ruby', File.join(ENV.fetch('FAIRMINES_RUBY_DIR'), 'example.rb')], &:read)
    assert_equal expected.join("\n"), actual.chomp
  end
end

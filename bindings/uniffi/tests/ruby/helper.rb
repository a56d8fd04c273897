# frozen_string_literal: true

# What both Ruby suites (test_fairmines.rb, test_game.rb) load: minitest, the generated binding and the seeds of
# the worked example. scripts/test-uniffi.sh puts the generated fairmines.rb next to libfairmines_uniffi in a
# staging directory and passes it as FAIRMINES_RUBY_DIR.

require 'json'
require 'minitest/autorun'

ruby_dir = ENV.fetch('FAIRMINES_RUBY_DIR') do
  abort 'FAIRMINES_RUBY_DIR is not set: run scripts/test-uniffi.sh'
end
require File.join(ruby_dir, 'fairmines')

SERVER = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a'
CLIENT = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817'

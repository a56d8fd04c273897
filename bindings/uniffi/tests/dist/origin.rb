# frozen_string_literal: true

# The released gem's origin (scripts/test-dist-uniffi.sh): run outside the source tree with the gem installed
# into GEM_HOME, `require 'fairmines'` must load the gem's lib/fairmines.rb and its library.
#   ruby origin.rb VERSION

require 'fairmines'

version = ARGV.fetch(0)
def check(cond, what)
  raise "FAILED: #{what}" unless cond
end

spec = Gem.loaded_specs.fetch('fairmines')
check spec.version.to_s == version && spec.platform.to_s == 'x86_64-linux', "the gem is #{spec.full_name}"
home = File.realpath(ENV.fetch('GEM_HOME'))
loaded = $LOADED_FEATURES.grep(%r{/fairmines\.rb\z})
check loaded.length == 1 && File.realpath(loaded[0]).start_with?("#{home}/"), "fairmines.rb loaded from #{loaded}"
lib = File.join(spec.full_gem_path, 'lib', 'fairmines', 'libfairmines_uniffi.so')
maps = File.read('/proc/self/maps').lines.grep(/libfairmines_uniffi/).map { |l| l.split.last }.uniq
check maps == [File.realpath(lib)], "the library mapped is #{maps}, not #{lib}"

# The worked example of ALGORITHM.md, through the gem as a user requires it; every vector runs in the package's
# own test_fairmines.rb, which the script runs on the installed gem next.
positions = Fairmines.mine_positions('b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a',
                                     'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817', 1, 3)
check positions == [7, 10, 19], "the worked example gives #{positions}"
puts "ruby: require 'fairmines' loads the gem #{spec.full_name} and its library (#{lib})"

# frozen_string_literal: true

# The vector test of the released gem (scripts/test-dist-uniffi.sh): run outside the source tree with the gem
# installed into GEM_HOME, `require 'fairmines'` must load the gem's lib/fairmines.rb and its library; every case
# of the vector file (first argument) through every function; prints how many were checked.
#   ruby vectors.rb VECTORS.json VERSION

require 'json'
require 'fairmines'

path, version = ARGV
def check(cond, what)
  raise "FAILED: #{what}" unless cond
end

spec = Gem.loaded_specs.fetch('fairmines')
check spec.version.to_s == version && spec.platform.to_s == 'x86_64-linux', "the gem is #{spec.full_name}"
home = File.realpath(ENV.fetch('GEM_HOME'))
loaded = $LOADED_FEATURES.grep(%r{/fairmines\.rb\z})
check loaded.length == 1 && File.realpath(loaded[0]).start_with?("#{home}/"), "fairmines.rb loaded from #{loaded}"
lib = File.join(spec.full_gem_path, 'lib', 'libfairmines_uniffi.so')
maps = File.read('/proc/self/maps').lines.grep(/libfairmines_uniffi/).map { |l| l.split.last }.uniq
check maps == [File.realpath(lib)], "the library mapped is #{maps}, not #{lib}"

document = JSON.parse(File.read(path, encoding: 'UTF-8'))
checked = 0
document['cases'].each do |c|
  id = c['id']
  server = c['server_seed']
  client = c['client_seed']
  nonce = c['nonce']
  mines = c['mines']
  check Fairmines.commitment(server) == c['commitment'], "#{id}: commitment"
  check Fairmines.round_signature(server, client, nonce) == c['signature'], "#{id}: signature"
  check Fairmines.draw_order(server, client, nonce, mines) == c['draw_order'], "#{id}: draw order"
  check Fairmines.mine_positions(server, client, nonce, mines) == c['positions'], "#{id}: positions"
  v = Fairmines.verify(server, client, nonce, mines, c['commitment'], c['positions'].reverse)
  check [v.verdict, v.ok, v.commitment_ok, v.positions_ok] == [Fairmines::Verdict::OK, true, true, true], "#{id}: verdict"
  check [v.positions, v.draw_order, v.words_used] == [c['positions'], c['draw_order'], c['words_used']], "#{id}: fields"
  wrong = c['positions'][0...-1] + [((1..25).to_a - c['positions']).first]
  check Fairmines.verify(server, client, nonce, mines, nil, wrong).verdict == Fairmines::Verdict::MISMATCH, "#{id}: wrong"
  checked += 1
end
check checked == document['count'] && checked > 1000, "#{checked} vectors of #{document['count']}"
puts "ruby: #{checked} vectors checked through the gem #{spec.full_name} (#{lib})"

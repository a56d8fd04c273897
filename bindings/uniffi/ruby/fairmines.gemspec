# frozen_string_literal: true

# The Ruby gem of fairmines, one per platform: lib/fairmines.rb (the hand-written layer, bindings/uniffi/ruby/lib)
# over lib/fairmines/uniffi.rb (the generated UniFFI binding: bindings/uniffi/generate.sh's fairmines.rb, which
# loads the library from its own folder: uniffi.toml's cdylib_path) with the native library beside it.
# scripts/dist-uniffi.sh builds it from a staging folder holding this file, lib/ and the licences, with
# SOURCE_DATE_EPOCH (reproducible). The version is the
# workspace's (Cargo.toml): scripts/check-versions.sh checks it and scripts/set-version.sh rewrites it.
# FAIRMINES_GEM_PLATFORM names another platform (arm64-darwin, ...) for a gem built with that platform's library.
Gem::Specification.new do |s|
  s.name = 'fairmines'
  s.version = '0.1.0'
  s.platform = ENV.fetch('FAIRMINES_GEM_PLATFORM', 'x86_64-linux')
  s.summary = 'Provably fair Mines (Cloudbet): round verification and the game, from the Rust reference implementation'
  s.description = 'Verifies Cloudbet Mines rounds (commitment, signature, mine positions) and plays the game, ' \
                  'through the Rust core of fairmines (UniFFI bindings, ruby-ffi). The native library is inside the gem.'
  s.authors = ['The fairmines authors']
  s.homepage = 'https://github.com/fairmines/fairmines'
  s.licenses = ['MIT', 'Apache-2.0']
  s.metadata = {
    'source_code_uri' => 'https://github.com/fairmines/fairmines',
    'changelog_uri' => 'https://github.com/fairmines/fairmines/blob/main/CHANGELOG.md'
  }
  s.required_ruby_version = '>= 3.1'
  s.files = Dir['lib/**/*', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'].select { |f| File.file?(f) }.sort
  # The README (bindings/uniffi/README.md): Kotlin, Java and Ruby examples, and how to install without network.
  s.extra_rdoc_files = ['README.md']
  s.require_paths = ['lib']
  # ffi 1.15 (Debian 12's ruby-ffi) is the oldest the generated code is tested with; 2.x may break its API.
  s.add_dependency 'ffi', '>= 1.15', '< 2'
end

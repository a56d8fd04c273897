# frozen_string_literal: true

# Fairmines for Ruby: the binding UniFFI generates (fairmines/uniffi.rb, with the native library beside it), made
# the way Rubyists expect. Only Ruby's side is decided here: argument types, the error class tree, symbols and
# predicates, printing. Every rule, range and message of the game is the Rust core's.

require 'ffi'

begin
  require_relative 'fairmines/uniffi'
rescue LoadError => e
  # A library that is there but does not load keeps FFI's own message; a missing one is a gem of another platform.
  library = File.join(__dir__, 'fairmines', FFI.map_library_name('fairmines_uniffi'))
  raise if !e.message.include?('fairmines_uniffi') || File.exist?(library)

  held = Dir[File.join(__dir__, 'fairmines', '*fairmines_uniffi*')].map { |path| File.basename(path) }
  built = Gem.loaded_specs['fairmines']&.platform&.to_s
  supported = built ? "it supports #{built}" : "it holds #{held.empty? ? 'no library' : held.join(', ')}"
  raise LoadError, "fairmines has no native library for #{Gem::Platform.local} in this gem: #{supported} " \
                   '(install the gem built for your platform)', cause: nil
end

module Fairmines
  # The base class of every error the core raises: `rescue Fairmines::Error` catches them all. Each kind is a
  # subclass named as in the core (Fairmines::Error::InvalidMines, …) with the core's `code` (1, 2, …),
  # `name` ("INVALID_MINES") and `argument` ("mines", or nil); `message` is the core's message.
  class Error < StandardError
    attr_reader :code, :name, :argument

    def initialize(code:, name:, argument:, message:)
      @code = code
      @name = name
      @argument = argument
      super(message)
    end
  end

  # The generated module of the same variants, each a bare StandardError, gives way to Error: the generated code
  # looks its classes up by this name when it raises, so it raises Error's.
  generated = FairminesError
  generated.constants.sort.each { |variant| Error.const_set(variant, Class.new(Error)) }
  readers = const_get(:ERROR_MODULE_TO_READER_METHOD)
  readers[Error] = readers.fetch(generated)
  remove_const(:FairminesError)
  FairminesError = Error

  # Enums are symbols (:lost, :cashed_out, :voided; :ok, :mismatch, :unchecked), in and out.
  enums = [Outcome, Verdict].to_h do |enum|
    values = enum.constants.sort_by { |value| enum.const_get(value) }.map do |value|
      enum.send(:remove_const, value)
      enum.const_set(value, value.to_s.downcase.to_sym)
    end
    [enum, values]
  end

  # Ruby types at the boundary: an Integer where the core takes a number (no Float truncated, no nil or String
  # converted), a String where it takes text, each refused with a TypeError naming the argument.
  module Arguments
    @sources = {}

    # The argument the generated code was checking (UniFFI passes no name): the variable it assigns on that line
    # (`mines = …`), or the record field it checks (`check_lower_TypeOutcome(v.outcome)`). uniffi-bindgen is
    # pinned exactly, and test_ruby.rb checks the names given for each kind of argument.
    def self.name(location)
      lines = (@sources[location.path] ||= File.readlines(location.path))
      line = lines[location.lineno - 1].to_s
      name = line[/\A\s*(\w+) = /, 1] || line[/check_lower_\w+\(v\.(\w+)\)/, 1]
      name unless name.nil? || %w[v item].include?(name)
    end

    # Keywords where positions are expected arrive as one Hash: its keys show the misspelt one.
    def self.shown(value)
      return 'nil' if value.nil?

      value.is_a?(Hash) ? "Hash #{value.keys.inspect}" : value.class.name
    end

    def self.refuse(error, location, text)
      name = self.name(location)
      raise error, name ? "#{name}: #{text}" : text
    end

    # The caller's line is read only on the way to an error: the checks themselves cost two comparisons.
    def uniffi_in_range(value, type_name, min, max)
      unless value.is_a?(Integer)
        Arguments.refuse(TypeError, caller_locations(1, 1).first, "must be an Integer, not #{Arguments.shown(value)}")
      end
      unless min <= value && value < max
        Arguments.refuse(RangeError, caller_locations(1, 1).first, "#{value} does not fit in #{type_name}")
      end
      value
    end

    def uniffi_utf8(value)
      unless value.is_a?(String)
        Arguments.refuse(TypeError, caller_locations(1, 1).first, "must be a String, not #{Arguments.shown(value)}")
      end
      super
    end
  end
  private_constant :Arguments
  singleton_class.prepend(Arguments)

  # A symbol that is not one of the enum's (or an Integer, as the generated code had) is refused by name, where
  # the generated code would write nothing and Rust would fail on the record.
  RustBuffer.singleton_class.prepend(Module.new do
    { Outcome => :check_lower_TypeOutcome, Verdict => :check_lower_TypeVerdict }.each do |enum, check|
      define_method(check) do |value|
        unless enums[enum].include?(value)
          expected = enums[enum].map(&:inspect).join(', ')
          Arguments.refuse(TypeError, caller_locations(1, 1).first, "must be one of #{expected}, not #{value.inspect}")
        end
        super(value)
      end
    end
  end)

  # A seed pair shows its commitment and next nonce, never a seed.
  class SeedPair
    remove_method :inspect, :to_s # the Rust side's Debug and Display

    def inspect
      shown = public_part
      "#<Fairmines::SeedPair commitment=#{shown.commitment} nonce=#{shown.nonce}>"
    end
    alias to_s inspect
  end

  class ServerSeed
    remove_method :inspect, :to_s # the Rust side's Debug and Display

    def inspect
      "#<Fairmines::ServerSeed commitment=#{commitment}>"
    end
    alias to_s inspect
  end

  class Round
    alias_method :finished?, :is_finished
    undef_method :is_finished

    # :in_play, or the outcome once the round has finished (:lost, :cashed_out, :voided).
    def status
      outcome || :in_play
    end

    remove_method :inspect # the Rust side's Debug

    def inspect
      "#<Fairmines::Round nonce=#{nonce} mines=#{mines} rtp=#{rtp} picks=#{picks} status=#{status.inspect}>"
    end
    alias to_s inspect
  end

  class Reveal
    def safe?
      safe
    end

    def finished?
      finished
    end
  end

  class Verification
    def ok?
      ok
    end
  end

  class RoundVerification
    def ok?
      ok
    end
  end
end

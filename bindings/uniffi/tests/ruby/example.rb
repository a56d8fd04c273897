require_relative 'fairmines'   # with libfairmines_uniffi.so in the same directory
server = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a'
client = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817'
p Fairmines.mine_positions(server, client, 1, 3)           # => [7, 10, 19]
p Fairmines.verify(server, client, 1, 3, nil, [7, 10, 20]).positions_ok   # => false
begin
  Fairmines.mine_positions(server, client, 1, 0)
rescue Fairmines::FairminesError::InvalidMines => e
  puts e.message   # mines: must be an integer in 1..=24, got 0
end

pair = Fairmines::SeedPair.from_parts(server, client, 1)
round = pair.start_round(3, '0.99')                        # nonce 1: mines at 7, 10 and 19
puts round.reveal(1).multiplier.decimal                    # => 1.12
puts round.cash_out                                        # => 9/8
record = round.record
puts record.to_json                                        # => {"commitment":"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42","client_seed":"d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817","nonce":1,"mines":3,"rtp":"99/100","picks":[1],"outcome":"cashed_out","multiplier":"9/8"}
in_play = pair.start_round(3, '0.99')                      # nonce 2: its mines hang on the secret seed
begin
  pair.rotate(nil)
rescue Fairmines::FairminesError::RoundsInPlay => e
  puts e.message   # the seed pair has 1 round(s) in play (nonce 2): finish or void them before its server seed is revealed
end
p pair.void_open_rounds                                    # => [2]
p Fairmines.verify_round(record, pair.rotate(nil).server_seed).ok   # => true
begin
  round.reveal(2)
rescue Fairmines::FairminesError::RoundFinished => e
  puts e.code   # => 10
end
begin
  in_play.reveal(2)
rescue Fairmines::FairminesError::RoundVoided => e
  puts e.code   # => 17
end

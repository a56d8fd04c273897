require 'fairmines'
server = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a'
client = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817'
p Fairmines.mine_positions(server, client, 1, 3)           # => [7, 10, 19]
p Fairmines.verify(server, client, 1, 3, nil, [7, 10, 20]).positions_ok   # => false
begin
  Fairmines.mine_positions(server, client, 1, 0)
rescue Fairmines::Error::InvalidMines => e
  puts e.message   # mines: must be a whole number from 1 to 24, got 0
end

pair = Fairmines::SeedPair.from_parts(server, client, 1)
round = pair.start_round(3, '0.99')                        # nonce 1: mines at 7, 10 and 19
puts round.reveal(1).multiplier.decimal                    # => 1.12
puts round.cash_out                                        # => 9/8
record = round.record
puts record.to_json                                        # => {"commitment":"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42","client_seed":"d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817","nonce":1,"mines":3,"rtp":"99/100","picks":[1],"outcome":"cashed_out","multiplier":"9/8"}
in_play = pair.start_round(3, '0.99')                      # nonce 2, in play: mines at 12, 20 and 23
in_play.reveal(1)
stored = pair.to_state_json                                # store it after every move: it holds the picks (and the secret seed)

# After a restart only the stored text is left: the pair comes back from it, and the round by its nonce.
restored = Fairmines::SeedPair.from_state_json(stored)
resumed = restored.round(2)
p resumed.picks                                            # => [1]
p resumed.reveal(2).safe_picks                             # => 2
begin
  restored.round(1)
rescue Fairmines::Error::RoundNotInPlay => e
  puts e.message   # nonce: no round of this seed pair is in play at nonce 1: it was never started, has finished or was voided
end
begin
  restored.rotate
rescue Fairmines::Error::RoundsInPlay => e
  puts e.message   # the seed pair has 1 round(s) in play (nonce 2): finish or void them before its server seed is revealed
end
p restored.void_open_rounds                                # => [2]
p Fairmines.verify_round(record, restored.rotate.server_seed).ok   # => true
begin
  round.reveal(2)
rescue Fairmines::Error::RoundFinished => e
  puts e.code   # => 10
end
begin
  resumed.reveal(3)
rescue Fairmines::Error::RoundVoided => e
  puts e.code   # => 17
end

import io.github.fairmines.*;
import java.util.Arrays;

public class ReadmeExample {
    public static void main(String[] args) throws FairminesException {
        String server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
        String client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
        System.out.println(Fairmines.minePositions(server, client, 1, 3));
        Verification verdict = Fairmines.verify(server, client, 1, 3,
            "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42", Arrays.asList(7, 10, 19));
        System.out.println("verdict " + verdict.getVerdict() + ", ok " + verdict.getOk());
        try {
            Fairmines.minePositions(server, client, 1, 25);
        } catch (FairminesException.InvalidMines e) {
            System.out.println(e.getCode() + " " + e.getReason());
        }

        // The game (an operator would use new SeedPair(clientSeed); a known seed shows the worked example's round).
        SeedPair pair = SeedPair.fromParts(server, client, 1);
        String commitment = pair.publicPart().getCommitment();  // shown to the player before play
        Round round = pair.startRound(3, "0.99");               // nonce 1: mines at 7, 10 and 19
        Reveal first = round.reveal(1);
        System.out.println("tile " + first.getTile() + ": safe=" + first.getSafe() + ", x" + first.getMultiplier().getDecimal());
        System.out.println("cashed out at " + round.cashOut());
        RoundRecord record = round.record();
        System.out.println(record.toJson());                     // published
        Round next = pair.startRound(3, "0.99");                // nonce 2, in play: mines at 12, 20 and 23
        next.reveal(1);
        String stored = pair.toStateJson();                      // store it after every move (it holds the secret seed)

        // After a restart only the stored text is left: the pair comes back from it, and the round by its nonce.
        SeedPair restored = SeedPair.fromStateJson(stored);
        Round resumed = restored.round(2);
        System.out.println("nonce " + resumed.nonce() + ": picks " + resumed.picks());
        Reveal second = resumed.reveal(2);                       // goes on as if the process had never stopped
        System.out.println("tile " + second.getTile() + ": safe=" + second.getSafe() + ", safe picks " + second.getSafePicks());
        System.out.println("cashed out at " + resumed.cashOut());
        try {
            restored.round(2);
        } catch (FairminesException.RoundNotInPlay e) {
            System.out.println(e.getCode() + " " + e.getReason());
        }
        RevealedSeedPair revealed = restored.rotate(null);       // no round in play: the old server seed may be published
        System.out.println(revealed.getCommitment().equals(commitment));
        System.out.println(Fairmines.verifyRound(record, revealed.getServerSeed()).getOk());
        System.out.println(Fairmines.verifyRound(resumed.record(), revealed.getServerSeed()).getOk());
    }
}

package org.elastras.master.client;

import java.util.List;
import java.util.Map;
import org.elastras.client.ElasTrasClient;

/** The README's example of the routing client, verbatim; {@link ClientRoutesRequestsToTheRightPartitionTest} runs it. */
public class ReadmeExample {

    public static void main(String[] args) {
        // One client per application: it finds partitions through ZooKeeper and hides moves and failovers.
        try (ElasTrasClient client = ElasTrasClient.connect(args[0])) {
            // A stored procedure, run on the partition that holds account 42.
            Object total = client.call("LEDGER", "increment", List.of(42), List.of(42));

            // An interactive transaction on that partition; re-run on conflicts and failovers.
            long newTotal = client.runInTransaction("LEDGER", List.of(42), txn -> {
                Map<String, Object> account = txn.get("ACCOUNT", List.of(42)).orElseThrow();
                long t = (Long) account.get("TOTAL") + 10;
                txn.put("ACCOUNT", Map.of("A_ID", 42, "TOTAL", t));
                txn.put("RECEIPT", Map.of("A_ID", 42, "R_ID", "deposit-1", "TOTAL", t));
                return t;
            });

            // Session consistency: this read sees both writes above, whichever OTM serves it.
            Object reread = client.call("LEDGER", "total", List.of(42), List.of(42));
            System.out.println("total " + total + ", after deposit " + newTotal + ", read back " + reread);
        }
    }
}

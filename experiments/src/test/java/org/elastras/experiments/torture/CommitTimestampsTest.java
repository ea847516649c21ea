package org.elastras.experiments.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A commit timestamp acknowledged to two writers is reported, with both of them. */
class CommitTimestampsTest {

    @Test
    void aCtsGivenToTwoWritersIsADuplicate() {
        CommitTimestamps timestamps = new CommitTimestamps();
        timestamps.record(10, "list-append transaction 1");
        timestamps.record(11, "bank-transfer-0 transfer 1");
        timestamps.record(10, "bank-transfer-1 transfer 7");

        assertEquals(1, timestamps.duplicateCount());
        assertEquals(List.of("CTS 10 acknowledged to both list-append transaction 1 and bank-transfer-1 transfer 7"),
                timestamps.duplicates());
        assertEquals(2, timestamps.recorded());
    }

    @Test
    void distinctTimestampsAreNoDuplicates() {
        CommitTimestamps timestamps = new CommitTimestamps();
        for (long cts = 1; cts <= 1_000; cts++) {
            timestamps.record(cts, "writer " + cts);
        }
        assertEquals(0, timestamps.duplicateCount());
    }
}

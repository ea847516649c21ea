package org.elastras.master.timestamp;

import org.elastras.client.protocol.WithheldReason;
import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.CtsRange;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reports and replies round-trip through JSON; impossible values are refused when read. */
class TimestampMessagesTravelInJsonTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void reportAndReplyRoundTrip() throws Exception {
        TimestampReport report = new TimestampReport(new CtsRange(11, 20), 4, List.of(new CtsRange(11, 13)),
                List.of(CtsRange.single(14)), List.of(new CtsRange(11, 20)));
        assertEquals(report, json.readValue(json.writeValueAsString(report), TimestampReport.class));
        TimestampReply reply = new TimestampReply(new CtsRange(21, 40), 10, null);
        assertEquals(reply, json.readValue(json.writeValueAsString(reply), TimestampReply.class));
        TimestampReply withheld = new TimestampReply(null, 10, WithheldReason.FENCED);
        assertEquals(withheld, json.readValue(json.writeValueAsString(withheld), TimestampReply.class));
        assertEquals(TimestampReport.first(), json.readValue("{\"latestRangeReceived\":null,\"takenCount\":0}", TimestampReport.class));
    }

    @Test
    void impossibleValuesAreRefusedWhenRead() {
        assertThrows(Exception.class, () -> json.readValue("{\"firstCts\":5,\"lastCts\":4}", CtsRange.class));
        assertThrows(Exception.class, () -> json.readValue(
                "{\"latestRangeReceived\":{\"firstCts\":1,\"lastCts\":2},\"takenCount\":3}", TimestampReport.class));
    }
}

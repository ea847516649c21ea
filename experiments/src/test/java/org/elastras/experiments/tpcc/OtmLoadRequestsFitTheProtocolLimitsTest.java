package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.ProtocolLimits;
import org.elastras.client.protocol.WireFormat;
import org.elastras.otm.txn.TransactionLimits;
import org.junit.jupiter.api.Test;

/**
 * The loader's {@code loadRows} calls stay within the request body limit, the procedure argument
 * limit and the OTM's write-set limits for every table, with the widest rows the generator makes;
 * and the spec's ITEM table goes in {@code loadGlobalTable} chunks that each fit the body limit.
 */
class OtmLoadRequestsFitTheProtocolLimitsTest {

    private static final ProtocolCodec CODEC = new ProtocolCodec();

    @Test
    void everyLoadBatchFitsTheBodyArgumentAndWriteSetLimits() throws Exception {
        TpccScale scale = TpccScale.scaledDown(1, 1_000, 600);
        Map<String, List<List<Object>>> rows = new HashMap<>();
        new TpccDataGenerator(scale, 3, 0).warehouse(1, (table, row) -> rows.computeIfAbsent(table, t -> new ArrayList<>()).add(row));
        int batch = OtmTpccTarget.LOAD_BATCH_ROWS;
        assertTrue(batch + 1 <= ProtocolLimits.PROCEDURE_ARGS_MAX && batch <= TpccProcedures.LOAD_ROWS_MAX);
        assertTrue(batch <= TransactionLimits.DEFAULT.writeSetKeysMax());
        for (Map.Entry<String, List<List<Object>>> e : rows.entrySet()) {
            List<List<Object>> all = e.getValue();
            List<Object> args = new ArrayList<>();
            args.add(e.getKey());
            for (int i = 0; i < Math.min(batch, all.size()); i++) {
                args.add(all.get(i));
            }
            int bytes = CODEC.encode(new CallRequest(TpccSchema.DATABASE, 1, "loadRows", args, Isolation.SERIALIZABLE, 0),
                    WireFormat.SMILE).length;
            // The write set holds about the same bytes as the request (keys plus values); a quarter
            // of the body limit leaves room for wider rows than this sample drew.
            assertTrue(bytes < ProtocolCodec.BODY_BYTES_MAX_DEFAULT / 4, e.getKey() + " batch is " + bytes + " bytes");
            assertTrue(bytes < TransactionLimits.DEFAULT.writeSetBytesMax() / 4);
        }
    }

    @Test
    void theSpecsHundredThousandItemsGoInChunksThatFitTheBodyLimit() {
        List<List<Object>> items = new TpccDataGenerator(TpccScale.spec(1), 5, 0).items();
        assertEquals(100_000, items.size());
        List<LoadGlobalTableRequest> chunks = OtmTpccTarget.itemRequests(items);
        assertEquals((100_000 + OtmTpccTarget.ITEMS_PER_CHUNK - 1) / OtmTpccTarget.ITEMS_PER_CHUNK, chunks.size());
        long rows = 0;
        for (int c = 0; c < chunks.size(); c++) {
            LoadGlobalTableRequest chunk = chunks.get(c);
            assertEquals(c, chunk.chunk());
            assertEquals(OtmTpccTarget.ITEM_LOAD_ID, chunk.loadId());
            assertEquals(c == chunks.size() - 1, chunk.publish(), "only the last chunk publishes");
            rows += chunk.rows().size();
            int bytes = CODEC.encode(chunk, WireFormat.SMILE).length;
            // Half the limit: I_DATA is 26..50 characters, and this sample's mean may be below another's.
            assertTrue(bytes < ProtocolCodec.BODY_BYTES_MAX_DEFAULT / 2, "ITEM chunk " + c + " is " + bytes + " bytes");
        }
        assertEquals(100_000, rows);
        // The whole table in one request would not fit: why it is chunked.
        int whole = CODEC.encode(new LoadGlobalTableRequest(TpccSchema.DATABASE, TpccSchema.ITEM,
                chunks.stream().flatMap(c -> c.rows().stream()).toList()), WireFormat.SMILE).length;
        assertTrue(whole > ProtocolCodec.BODY_BYTES_MAX_DEFAULT, "ITEM of 100,000 rows in one request is " + whole + " bytes");
    }
}

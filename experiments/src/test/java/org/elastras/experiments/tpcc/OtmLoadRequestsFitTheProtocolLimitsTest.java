package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.ProtocolLimits;
import org.elastras.client.protocol.WireFormat;
import org.elastras.otm.txn.TransactionLimits;
import org.junit.jupiter.api.Test;

/**
 * The loader's {@code loadRows} calls stay within the request body limit, the procedure argument
 * limit and the OTM's write-set limits for every table, with the widest rows the generator makes;
 * and the ITEM table fits one {@code loadGlobalTable} request only up to a size this test pins.
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
    void itemFitsOneGlobalLoadUpToTheDocumentedSizeButNotAtSpecScale() {
        int fits = OtmTpccTarget.itemRequestBytes(TpccScale.scaledDown(1, OtmTpccTarget.ITEMS_PER_GLOBAL_LOAD_MAX, 30), 5);
        // 45,000 items already exceed the limit, so the spec's 100,000 do too.
        int tooMany = OtmTpccTarget.itemRequestBytes(TpccScale.scaledDown(1, 45_000, 30), 5);
        assertTrue(fits < ProtocolCodec.BODY_BYTES_MAX_DEFAULT * 0.9, "ITEM of " + OtmTpccTarget.ITEMS_PER_GLOBAL_LOAD_MAX
                + " rows is " + fits + " bytes");
        assertTrue(tooMany > ProtocolCodec.BODY_BYTES_MAX_DEFAULT, "ITEM of 45,000 rows is " + tooMany + " bytes");
    }
}

package org.elastras.otm.http;

import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AbortResponse;
import org.elastras.client.protocol.AddRequest;
import org.elastras.client.protocol.AddResponse;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CallBatchRequest;
import org.elastras.client.protocol.CallBatchResponse;
import org.elastras.client.protocol.CallOutcome;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CallResponse;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.DropIncomingRequest;
import org.elastras.client.protocol.DropIncomingResponse;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.FinishIncomingResponse;
import org.elastras.client.protocol.ReceivePartitionRequest;
import org.elastras.client.protocol.ReceivePartitionResponse;
import org.elastras.client.protocol.ShipVersionsRequest;
import org.elastras.client.protocol.ShipVersionsResponse;
import org.elastras.client.protocol.ClosePartitionResponse;
import org.elastras.client.protocol.CloseReport;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.CommitResponse;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.DeleteResponse;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.FlushPartitionResponse;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.LoadGlobalTableResponse;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.OpenPartitionResponse;
import org.elastras.client.protocol.PartitionStatus;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.PutResponse;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.RegisterDatabaseResponse;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.ResolveCommitRequest;
import org.elastras.client.protocol.ResolveCommitResponse;
import org.elastras.client.protocol.StatusRequest;
import org.elastras.client.protocol.StatusResponse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scripted {@link OtmService} for the HTTP tests: answers are functions of the request, so a test
 * can check that every field crossed the wire, and some names trigger errors. Thread-safe.
 *
 * <ul>
 *   <li>a table or procedure named after an {@link ErrorCode} (e.g. {@code CONFLICT}) throws that code;</li>
 *   <li>table {@code BOOM} throws an IllegalStateException (an unmeant failure);</li>
 *   <li>table {@code SLOW} sleeps {@link #slowMs} before answering;</li>
 *   <li>table {@code BLOCK} waits until {@link #release} opens (bounded by 10 s).</li>
 * </ul>
 */
public final class FakeOtmService implements OtmService {

    final AtomicBoolean serving = new AtomicBoolean(true);
    final AtomicLong nextTxnId = new AtomicLong(1);
    /** Every request decoded, in arrival order. */
    public final ConcurrentLinkedQueue<Object> received = new ConcurrentLinkedQueue<>();
    volatile long slowMs = 0;
    /** callBatch requests received. */
    final AtomicLong batches = new AtomicLong();
    volatile CountDownLatch release = new CountDownLatch(0);

    @Override
    public boolean serving() {
        return serving.get();
    }

    private void script(String name) {
        for (ErrorCode c : ErrorCode.values()) {
            if (c.name().equals(name)) {
                throw new ElasTrasException(c, "scripted " + c + " for " + name);
            }
        }
        if ("BOOM".equals(name)) {
            throw new IllegalStateException("scripted bug");
        }
        if ("SLOW".equals(name)) {
            sleep(slowMs);
        }
        if ("BLOCK".equals(name)) {
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public BeginResponse begin(BeginRequest r, String client) {
        received.add(r);
        script(r.database());
        return new BeginResponse(nextTxnId.getAndIncrement(), r.afterCts() + 100);
    }

    /**
     * Answers a row echoing the key: {K0: key[0], K1: key[1], ..., TABLE: table, TXN: txnId}, and
     * COLUMNS: the columns asked for, as text, when some were.
     */
    @Override
    public GetResponse get(GetRequest r) {
        received.add(r);
        script(r.table());
        if ("MISSING".equals(r.table())) {
            return GetResponse.notFound();
        }
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < r.key().size(); i++) {
            row.put("K" + i, r.key().get(i));
        }
        row.put("TABLE", r.table());
        row.put("TXN", r.txnId());
        if (r.columns() != null) {
            row.put("COLUMNS", r.columns().toString());
        }
        return GetResponse.of(row);
    }

    @Override
    public PutResponse put(PutRequest r) {
        received.add(r);
        script(r.table());
        return new PutResponse();
    }

    @Override
    public DeleteResponse delete(DeleteRequest r) {
        received.add(r);
        script(r.table());
        return new DeleteResponse();
    }

    @Override
    public AddResponse add(AddRequest r) {
        received.add(r);
        script(r.table());
        return new AddResponse();
    }

    /** Answers {@code limit} rows numbered from 0, with more = true, and the bounds echoed in row 0. */
    @Override
    public ScanResponse scan(ScanRequest r) {
        received.add(r);
        script(r.table());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < r.limit(); i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("N", i);
            if (i == 0) {
                row.put("FROM", r.fromKey() == null ? null : r.fromKey().toString());
                row.put("TO", r.toKey() == null ? null : r.toKey().toString());
            }
            rows.add(row);
        }
        return new ScanResponse(rows, true);
    }

    @Override
    public CommitResponse commit(CommitRequest r) {
        received.add(r);
        if (r.txnId() == 404) {
            throw new ElasTrasException(ErrorCode.UNKNOWN_TRANSACTION, "txn 404 is unknown; begin a new one");
        }
        return new CommitResponse(r.txnId() * 10);
    }

    @Override
    public org.elastras.client.protocol.AggregateResponse aggregate(org.elastras.client.protocol.AggregateRequest r,
            String client) {
        received.add(r);
        return new org.elastras.client.protocol.AggregateResponse(r.snapshotCts(), 0, List.of(0L));
    }

    @Override
    public org.elastras.client.protocol.PrepareBranchResponse prepareBranch(
            org.elastras.client.protocol.PrepareBranchRequest r) {
        received.add(r);
        return new org.elastras.client.protocol.PrepareBranchResponse(r.txnId(), false, false);
    }

    @Override
    public org.elastras.client.protocol.VoteBranchResponse voteBranch(org.elastras.client.protocol.VoteBranchRequest r) {
        received.add(r);
        return new org.elastras.client.protocol.VoteBranchResponse();
    }

    @Override
    public org.elastras.client.protocol.DecideBranchResponse decideBranch(
            org.elastras.client.protocol.DecideBranchRequest r) {
        received.add(r);
        return new org.elastras.client.protocol.DecideBranchResponse(true);
    }

    @Override
    public AbortResponse abort(AbortRequest r) {
        received.add(r);
        return new AbortResponse();
    }

    /** Answers {procedure, args, isolation} as the result, cts = afterCts + 1, attempts = 2. */
    @Override
    public CallResponse call(CallRequest r, String client) {
        received.add(r);
        script(r.procedure());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("procedure", r.procedure());
        result.put("args", r.args());
        result.put("isolation", r.isolation().name());
        return new CallResponse(result, r.afterCts() + 1, 2);
    }

    /** Every call answered as {@link #call} would, each with its own outcome; counts the batches. */
    @Override
    public CallBatchResponse callBatch(CallBatchRequest r, String client) {
        batches.incrementAndGet();
        List<CallOutcome> outcomes = new ArrayList<>();
        for (CallRequest call : r.calls()) {
            try {
                outcomes.add(CallOutcome.of(call(call, client)));
            } catch (ElasTrasException e) {
                outcomes.add(CallOutcome.failed(e));
            }
        }
        return new CallBatchResponse(outcomes);
    }

    @Override
    public RegisterDatabaseResponse registerDatabase(RegisterDatabaseRequest r) {
        received.add(r);
        r.schema().toSchema();
        return new RegisterDatabaseResponse();
    }

    @Override
    public LoadGlobalTableResponse loadGlobalTable(LoadGlobalTableRequest r) {
        received.add(r);
        script(r.database());
        return new LoadGlobalTableResponse(r.rows().size());
    }

    @Override
    public OpenPartitionResponse openPartition(OpenPartitionRequest r) {
        received.add(r);
        script(r.database());
        return new OpenPartitionResponse();
    }

    @Override
    public ReceivePartitionResponse receivePartition(ReceivePartitionRequest r) {
        received.add(r);
        return new ReceivePartitionResponse();
    }

    @Override
    public ShipVersionsResponse shipVersions(ShipVersionsRequest r) {
        received.add(r);
        return new ShipVersionsResponse(r.commits().size());
    }

    @Override
    public FinishIncomingResponse finishIncoming(FinishIncomingRequest r) {
        received.add(r);
        return new FinishIncomingResponse(1);
    }

    @Override
    public DropIncomingResponse dropIncoming(DropIncomingRequest r) {
        received.add(r);
        return new DropIncomingResponse(false);
    }

    @Override
    public ClosePartitionResponse closePartition(ClosePartitionRequest r) {
        received.add(r);
        return new ClosePartitionResponse(new CloseReport(0, System.currentTimeMillis(), 0));
    }

    @Override
    public FlushPartitionResponse flushPartition(FlushPartitionRequest r) {
        received.add(r);
        return new FlushPartitionResponse();
    }

    @Override
    public StatusResponse status(StatusRequest r) {
        received.add(r);
        return new StatusResponse("otm-test", serving.get(),
                List.of(new PartitionStatus("TPCC", 7, List.of(1), List.of(5), "SERVING", 3)));
    }

    @Override
    public ResolveCommitResponse resolveCommit(ResolveCommitRequest r) {
        received.add(r);
        return new ResolveCommitResponse(true, 42, List.of("kept"), true);
    }
}

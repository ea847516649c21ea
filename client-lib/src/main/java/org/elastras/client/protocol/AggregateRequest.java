package org.elastras.client.protocol;

import java.util.List;

/**
 * A read-only aggregate over one partition's rows of a table, evaluated at the OTM
 * ({@code POST /v1/aggregate}): the rows whose keys lie between two key prefixes (as
 * {@link ScanRequest}), kept by every condition of {@code where}, reduced by each function of
 * {@code select}. The client sends it to every partition the key range touches, all at one
 * snapshot, and merges the answers ({@code ElasTrasClient.aggregate}). Immutable.
 *
 * @param database the database
 * @param partitionId the partition
 * @param table a ROOT, CHILD or PLAIN table
 * @param fromKey key prefix, inclusive; null or empty for the first key
 * @param toKey key prefix, inclusive; null or empty for the last key
 * @param where conditions, all of which a row must meet; null or empty for none
 * @param select the aggregates to compute, at least one
 * @param snapshotCts the snapshot to read at; 0 for the OTM's current one (the answer says which)
 */
public record AggregateRequest(String database, long partitionId, String table, List<Object> fromKey, List<Object> toKey,
        List<Condition> where, List<Aggregate> select, long snapshotCts) {

    /** Most conditions and aggregates in one request. */
    public static final int TERMS_MAX = 64;

    public AggregateRequest {
        Fields.requireName("aggregate", "database", database, ProtocolLimits.NAME_LENGTH_MAX);
        Fields.requirePartitionId("aggregate", partitionId);
        Fields.requireName("aggregate", "table", table, ProtocolLimits.NAME_LENGTH_MAX);
        fromKey = Fields.values("aggregate", "fromKey", fromKey, false, ProtocolLimits.KEY_VALUES_MAX);
        toKey = Fields.values("aggregate", "toKey", toKey, false, ProtocolLimits.KEY_VALUES_MAX);
        where = where == null ? List.of() : List.copyOf(where);
        select = select == null ? List.of() : List.copyOf(select);
        if (select.isEmpty() || select.size() > TERMS_MAX || where.size() > TERMS_MAX) {
            throw Fields.malformed("aggregate", "select needs 1 to " + TERMS_MAX + " aggregates and where at most "
                    + TERMS_MAX + " conditions");
        }
        Fields.requireCts("aggregate", "snapshotCts", snapshotCts);
    }

    /**
     * A row's {@code column} compared with {@code value}.
     *
     * @param op one of {@code = != < <= > >=}
     */
    public record Condition(String column, String op, Object value) {
        public Condition {
            Fields.requireName("aggregate", "where.column", column, ProtocolLimits.NAME_LENGTH_MAX);
            if (op == null || !List.of("=", "!=", "<", "<=", ">", ">=").contains(op)) {
                throw Fields.malformed("aggregate", "where.op must be one of = != < <= > >=, got " + op);
            }
        }
    }

    /**
     * One aggregate: {@code COUNT} (rows; column null) or the {@code COUNT}, {@code SUM},
     * {@code MIN} or {@code MAX} of a column's non-null values.
     */
    public record Aggregate(String function, String column) {
        public Aggregate {
            if (function == null || !List.of("COUNT", "SUM", "MIN", "MAX").contains(function)) {
                throw Fields.malformed("aggregate", "select.function must be COUNT, SUM, MIN or MAX, got " + function);
            }
            if (column == null && !function.equals("COUNT")) {
                throw Fields.malformed("aggregate", function + " needs a column");
            }
        }
    }
}

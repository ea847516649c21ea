package org.elastras.client;

import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.WireValues;

/**
 * Encodes an application's root-key values into the byte string partitions are ranged over
 * ({@link KeyCodec#forPartitionKey}). Stateless and thread-safe.
 */
final class RootKeys {

    private static final byte[] TENANT_KEY = new byte[0];

    private RootKeys() {
    }

    /**
     * The encoded root key of {@code values} in {@code schema}: for a tree database, one value per
     * root-key column in key order (values are accepted as the wire accepts them, see
     * {@link WireValues}); for a single-partition database, no values (its one partition covers
     * every key, and it is looked up with the empty key).
     *
     * @throws ElasTrasException {@code TYPE_MISMATCH} naming the columns and what was wrong
     */
    static byte[] encode(DatabaseSchema schema, List<?> values) {
        if (schema.partitioning() != PartitioningKind.TREE) {
            if (values != null && !values.isEmpty()) {
                throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "database " + schema.name()
                        + " is single-partition and has no root key; pass no root-key values (List.of()), got " + values);
            }
            return TENANT_KEY;
        }
        List<Column> columns = schema.partitionKeyColumns();
        if (values == null || values.size() != columns.size()) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "database " + schema.name() + " is partitioned by "
                    + describe(columns) + "; give " + columns.size() + " root-key value(s) in that order, got "
                    + (values == null ? "none" : values.size() + ": " + values));
        }
        String owner = "root key of database " + schema.name();
        List<Object> normalized = new ArrayList<>(columns.size());
        try {
            for (int i = 0; i < columns.size(); i++) {
                normalized.add(WireValues.toColumnValue(owner, columns.get(i), values.get(i)));
            }
            return KeyCodec.forPartitionKey(schema).encode(normalized);
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, e.getMessage() + "; the root key is "
                    + describe(columns), e);
        }
    }

    private static String describe(List<Column> columns) {
        return columns.stream().map(c -> c.name() + " " + c.type()).toList().toString();
    }
}

package org.elastras.client.protocol;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * The versions one commit wrote on a partition, as a live move ships them: encoded storage keys
 * and values at one commit timestamp (a null value is a deletion). Immutable.
 *
 * @param cts the commit timestamp
 * @param keys the encoded keys
 * @param values the encoded values, one per key, null for a deletion
 */
public record ShippedCommit(long cts, @JsonSerialize(typing = JsonSerialize.Typing.STATIC) List<byte[]> keys,
        @JsonSerialize(typing = JsonSerialize.Typing.STATIC) List<byte[]> values) {

    public ShippedCommit {
        Fields.requireCts("shipVersions", "cts", cts);
        if (cts == 0) {
            throw Fields.malformed("shipVersions", "a shipped commit needs its commit timestamp");
        }
        if (keys == null || values == null || keys.size() != values.size() || keys.isEmpty()) {
            throw Fields.malformed("shipVersions", "a shipped commit needs as many values as keys, at least one");
        }
        for (byte[] k : keys) {
            if (k == null) {
                throw Fields.malformed("shipVersions", "a shipped key is null");
            }
        }
        keys = List.copyOf(keys);
        values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }
}

package org.elastras.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.MetaRowCodec;
import org.elastras.catalog.schema.DatabaseSchema;

/**
 * Everything one catalog read returned about one database: its schema, the catalog rows of all
 * its partitions (sorted by encoded row key, as {@link org.elastras.catalog.meta.MetaLookup} needs
 * them) and the addresses of the OTMs alive at the time. Immutable.
 *
 * @param schema the database's schema
 * @param rows one row per partition of the database, sorted by encoded catalog key
 * @param liveOtms address of every registered (live) OTM, by id
 */
record CatalogSnapshot(DatabaseSchema schema, List<MetaRow> rows, Map<String, OtmAddress> liveOtms) {

    CatalogSnapshot {
        Objects.requireNonNull(schema, "schema");
        List<MetaRow> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> KeyBytes.compare(MetaRowCodec.encodeKey(a), MetaRowCodec.encodeKey(b)));
        for (MetaRow row : sorted) {
            if (!row.partition().database().equals(org.elastras.catalog.schema.Names.canonical(schema.name()))) {
                throw new IllegalArgumentException("a catalog snapshot of " + schema.name() + " holds a row of "
                        + row.partition().database());
            }
        }
        rows = List.copyOf(sorted);
        liveOtms = Map.copyOf(liveOtms);
    }
}

package org.elastras.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elastras.catalog.meta.MetaLookup;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;

/**
 * The client's cache of partition locations: per database, the catalog rows of its partitions as
 * last read (a whole database is loaded at once, the "neighbouring rows" prefetch) and the OTM
 * addresses seen with them. Lookups use {@link MetaLookup}, the same reverse seek the served META
 * catalog answers. Pure logic, no IO. Thread-safe: every method is synchronized and short.
 *
 * <p>Bounded by {@code locationsMax} rows in all: loading a database evicts the least recently used
 * other databases until the total fits. A database with more partitions than the bound is kept
 * alone (its rows arrived in one read; dropping some would only force the same read again).
 *
 * <p>{@link #invalidate} removes one partition's row only if the cache still holds exactly the
 * stale location (same epoch and owner), so a late invalidation never drops a newer entry.
 */
final class LocationCache {

    /** A lookup's answer: a location, or why there is none in the cache. */
    record Result(PartitionLocation location, String missReason) {

        boolean found() {
            return location != null;
        }
    }

    private record Entry(DatabaseSchema schema, MetaLookup lookup, Map<String, OtmAddress> liveOtms) {
    }

    private final int locationsMax;
    /** Guarded by this; by canonical database name, in access order (least recently used first). */
    private final LinkedHashMap<String, Entry> byDatabase = new LinkedHashMap<>(16, 0.75f, true);
    /** Guarded by this: rows held over all entries. */
    private int locations;

    LocationCache(int locationsMax) {
        if (locationsMax < 1 || locationsMax > 10_000_000) {
            throw new IllegalArgumentException("locationsMax must be 1 to 10000000, got " + locationsMax);
        }
        this.locationsMax = locationsMax;
    }

    /** Replaces what is cached of the snapshot's database with the snapshot. */
    synchronized void put(CatalogSnapshot snapshot) {
        String name = Names.canonical(snapshot.schema().name());
        Entry previous = byDatabase.remove(name);
        if (previous != null) {
            locations -= previous.lookup().rows().size();
        }
        byDatabase.put(name, new Entry(snapshot.schema(), new MetaLookup(snapshot.rows()), snapshot.liveOtms()));
        locations += snapshot.rows().size();
        Iterator<Map.Entry<String, Entry>> eldest = byDatabase.entrySet().iterator();
        while (locations > locationsMax && byDatabase.size() > 1) {
            Map.Entry<String, Entry> e = eldest.next();
            if (e.getKey().equals(name)) {
                continue;
            }
            locations -= e.getValue().lookup().rows().size();
            eldest.remove();
        }
    }

    /** The cached schema of {@code database}, if it is cached. */
    synchronized Optional<DatabaseSchema> schema(String database) {
        Entry e = byDatabase.get(Names.canonical(database));
        return e == null ? Optional.empty() : Optional.of(e.schema());
    }

    /**
     * Where the partition of {@code database} holding the encoded root key {@code rootKey} is
     * served, if the cache knows a live owner for it.
     */
    synchronized Result find(String database, byte[] rootKey) {
        Entry e = byDatabase.get(Names.canonical(database));
        if (e == null) {
            return new Result(null, "database " + database + " is not cached");
        }
        Optional<MetaRow> row = e.lookup().locate(database, rootKey);
        if (row.isEmpty()) {
            return new Result(null, "no cached partition of " + database + " covers the key");
        }
        MetaRow r = row.get();
        if (!r.state().hasOwner()) {
            return new Result(null, "partition " + r.partition().id().value() + " of " + database + " is " + r.state());
        }
        OtmAddress address = e.liveOtms().get(r.owner());
        if (address == null) {
            return new Result(null, "partition " + r.partition().id().value() + " of " + database + " is owned by OTM "
                    + r.owner() + ", which is not registered (failed, or not started yet)");
        }
        return new Result(new PartitionLocation(r.partition().database(), r.partition().id().value(),
                r.partition().epoch(), r.partition().range(), r.owner(), address.host(), address.port()), null);
    }

    /**
     * Drops the cached row of {@code stale}'s partition if it still says exactly what {@code stale}
     * says (same epoch and owner). Returns whether it dropped it.
     */
    synchronized boolean invalidate(PartitionLocation stale) {
        String name = Names.canonical(stale.database());
        Entry e = byDatabase.get(name);
        if (e == null) {
            return false;
        }
        List<MetaRow> kept = new ArrayList<>(e.lookup().rows().size());
        boolean dropped = false;
        for (MetaRow r : e.lookup().rows()) {
            boolean same = r.partition().id().value() == stale.partitionId() && r.partition().epoch() == stale.epoch()
                    && stale.otmId().equals(r.owner());
            if (same) {
                dropped = true;
            } else {
                kept.add(r);
            }
        }
        if (!dropped) {
            return false;
        }
        locations -= e.lookup().rows().size() - kept.size();
        if (kept.isEmpty()) {
            byDatabase.remove(name);
        } else {
            byDatabase.put(name, new Entry(e.schema(), new MetaLookup(kept), e.liveOtms()));
        }
        return true;
    }

    /**
     * Follows a live move's hand-over: replaces the cached row of {@code stale}'s partition, if it
     * still says exactly what {@code stale} says (same epoch and owner), with the row {@code next}
     * describes (its owner, epoch and address), so that this client's other requests for the
     * partition go to the new owner without reading the catalog. A wrong hint costs one routing
     * failure there, whose {@link #invalidate} drops the row again. Returns whether it replaced it.
     *
     * @throws IllegalArgumentException if {@code next} is not a later epoch of the same partition
     */
    synchronized boolean handedOver(PartitionLocation stale, PartitionLocation next) {
        if (next.partitionId() != stale.partitionId() || next.epoch() <= stale.epoch()
                || !Names.same(next.database(), stale.database())) {
            throw new IllegalArgumentException("a hand-over goes to a later epoch of the same partition: " + stale
                    + " -> " + next);
        }
        Entry e = byDatabase.get(Names.canonical(stale.database()));
        if (e == null) {
            return false;
        }
        List<MetaRow> rows = new ArrayList<>(e.lookup().rows());
        for (int i = 0; i < rows.size(); i++) {
            MetaRow r = rows.get(i);
            if (r.partition().id().value() == stale.partitionId() && r.partition().epoch() == stale.epoch()
                    && stale.otmId().equals(r.owner())) {
                PartitionDescriptor p = r.partition();
                rows.set(i, new MetaRow(new PartitionDescriptor(p.database(), p.id(), p.range(), next.epoch()),
                        next.otmId(), r.state()));
                Map<String, OtmAddress> live = new HashMap<>(e.liveOtms());
                live.put(next.otmId(), new OtmAddress(next.host(), next.port()));
                byDatabase.put(Names.canonical(stale.database()), new Entry(e.schema(), new MetaLookup(rows),
                        Map.copyOf(live)));
                return true;
            }
        }
        return false;
    }

    /** Rows cached over all databases. */
    synchronized int size() {
        return locations;
    }

    /** Whether anything of {@code database} is cached. */
    synchronized boolean holds(String database) {
        return byDatabase.containsKey(Names.canonical(database));
    }
}

package org.elastras.catalog.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.elastras.catalog.key.CorruptEncodingException;
import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.junit.jupiter.api.Test;

/** Catalog rows round-trip, sort by (database, start key, id), and corrupt values are caught. */
class MetaRowCodecTest {

    private static MetaRow row(String db, byte[] start, byte[] end, long id, String owner, PartitionState state, long epoch) {
        return new MetaRow(new PartitionDescriptor(db, new PartitionId(id), new KeyRange(start, end), epoch), owner, state);
    }

    @Test
    void rowsRoundTrip() {
        for (MetaRow r : List.of(
                row("tpcc", new byte[0], new byte[] {(byte) 0x80, 0, 0, 4}, 1, "otm-1", PartitionState.OPEN, 7),
                row("acme", new byte[0], new byte[0], Long.MAX_VALUE, null, PartitionState.UNASSIGNED, 0),
                row("x", new byte[] {0, 0, (byte) 0xFF}, new byte[0], 3, "o", PartitionState.MOVING, Long.MAX_VALUE))) {
            assertEquals(r, MetaRowCodec.decode(MetaRowCodec.encodeKey(r), MetaRowCodec.encodeValue(r)));
        }
    }

    @Test
    void keysSortByDatabaseThenStartKeyThenId() {
        byte[] a = MetaRowCodec.encodeKey(row("A", new byte[] {9}, new byte[0], 5, null, PartitionState.OFFLINE, 0));
        byte[] aLonger = MetaRowCodec.encodeKey(row("A", new byte[] {9, 0}, new byte[0], 1, null, PartitionState.OFFLINE, 0));
        byte[] aHigherId = MetaRowCodec.encodeKey(row("A", new byte[] {9}, new byte[0], 6, null, PartitionState.OFFLINE, 0));
        byte[] ab = MetaRowCodec.encodeKey(row("AB", new byte[0], new byte[0], 1, null, PartitionState.OFFLINE, 0));
        assertTrue(KeyBytes.compare(a, aHigherId) < 0);
        assertTrue(KeyBytes.compare(aHigherId, aLonger) < 0);
        assertTrue(KeyBytes.compare(aLonger, ab) < 0, "every row of A before any row of AB");
    }

    @Test
    void ownerMustMatchState() {
        PartitionDescriptor p = new PartitionDescriptor("D", new PartitionId(1), KeyRange.ALL, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MetaRow(p, null, PartitionState.OPEN));
        assertTrue(e.getMessage().contains("needs an owner OTM"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MetaRow(p, "otm-1", PartitionState.UNASSIGNED));
        assertThrows(IllegalArgumentException.class, () -> new MetaRow(p, "bad/id", PartitionState.OPEN));
        assertEquals(PartitionState.CLOSING, PartitionState.fromCode(3));
        assertThrows(IllegalArgumentException.class, () -> PartitionState.fromCode(99));
    }

    @Test
    void corruptValuesAreRefused() {
        MetaRow r = row("tpcc", new byte[0], new byte[] {1}, 1, "otm-1", PartitionState.OPEN, 7);
        byte[] key = MetaRowCodec.encodeKey(r);
        byte[] good = MetaRowCodec.encodeValue(r);
        assertCorrupt(key, new byte[0], "empty");
        byte[] version = good.clone();
        version[0] = 9;
        assertCorrupt(key, version, "format version 9");
        assertCorrupt(key, Arrays.copyOf(good, good.length - 1), "bytes remain");
        byte[] endLength = good.clone();
        endLength[4] = 100;
        assertCorrupt(key, endLength, "end key length 100");
        byte[] state = good.clone();
        state[good.length - 9] = 42;
        assertCorrupt(key, state, "no partition state has code 42");
        byte[] ownerless = good.clone();
        ownerless[good.length - 9] = (byte) PartitionState.UNASSIGNED.code();
        assertCorrupt(key, ownerless, "has no owner");
    }

    private static void assertCorrupt(byte[] key, byte[] value, String fragment) {
        CorruptEncodingException e = assertThrows(CorruptEncodingException.class, () -> MetaRowCodec.decode(key, value));
        assertTrue(e.getMessage().contains("catalog row value") && e.getMessage().contains(fragment),
                "message '" + e.getMessage() + "' should contain '" + fragment + "'");
    }
}

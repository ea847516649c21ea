package org.elastras.storage.store;
import java.lang.reflect.*;
public class Probe {
    static final class H extends HolderTable.Entry { H(byte[] k) { super(k); } }
    static byte[] key(int id) { return new byte[] {0, 1, 1, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id}; }
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        HolderTable<H> t = new HolderTable<>();
        for (int i = 0; i < n; i++) { byte[] k = key(i * 2); t.getOrInsert(k, HolderTable.hash(k), H::new); }
        Field f = HolderTable.class.getDeclaredField("slots"); f.setAccessible(true);
        Object s = f.get(t);
        Field hf = s.getClass().getDeclaredField("hashes"); hf.setAccessible(true);
        int[] hashes = (int[]) hf.get(s); int mask = hashes.length - 1;
        long probes = 0, missProbes = 0; int maxp = 0;
        for (int i = 0; i < n; i++) {
            byte[] k = key(i * 2); int h = HolderTable.hash(k); int p = 1;
            for (int j = h & mask; hashes[j] != h; j = (j + 1) & mask) p++;
            probes += p; maxp = Math.max(maxp, p);
            byte[] m = key(i * 2 + 1); int hm = HolderTable.hash(m); int q = 1;
            for (int j = hm & mask; hashes[j] != 0; j = (j + 1) & mask) q++;
            missProbes += q;
        }
        System.out.printf("n=%d capacity=%d load=%.2f hit probes avg %.2f max %d, miss probes avg %.2f%n", n, hashes.length, n/(double)hashes.length, probes/(double)n, maxp, missProbes/(double)n);
    }
}

package org.elastras.storage.store;
import java.util.*;
public class Probe2 {
    static final class H extends HolderTable.Entry { long x; H(byte[] k) { super(k); } }
    static byte[] key(int id) { return new byte[] {0, 1, 1, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id}; }
    static volatile long sink;
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        HolderTable<H> t = new HolderTable<>();
        for (int i = 0; i < n; i++) { byte[] k = key(i * 2); t.getOrInsert(k, HolderTable.hash(k), H::new); }
        System.gc();
        SplittableRandom r = new SplittableRandom(1);
        byte[][] ks = new byte[65536][]; int[] hs = new int[65536];
        for (int round = 0; round < 8; round++) {
            long nanos = 0, nanosHash = 0; long s = 0;
            for (int b = 0; b < 30; b++) {
                for (int i = 0; i < ks.length; i++) { ks[i] = key(r.nextInt(n) * 2); }
                long t0 = System.nanoTime();
                for (int i = 0; i < ks.length; i++) { hs[i] = HolderTable.hash(ks[i]); }
                long t1 = System.nanoTime();
                for (int i = 0; i < ks.length; i++) { H h = t.get(ks[i], hs[i]); s += h.x; }
                nanos += System.nanoTime() - t1; nanosHash += t1 - t0;
            }
            sink = s;
            System.out.printf("round %d: hash %.1f ns, get hit %.1f ns%n", round, nanosHash / (30.0 * ks.length), nanos / (30.0 * ks.length));
        }
    }
}

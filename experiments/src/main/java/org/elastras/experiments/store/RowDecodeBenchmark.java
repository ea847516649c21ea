package org.elastras.experiments.store;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.elastras.catalog.row.RowCodec;
import org.elastras.experiments.tpcc.TpccDataGenerator;
import org.elastras.experiments.tpcc.TpccScale;
import org.elastras.experiments.tpcc.TpccSchema;

/**
 * How fast stored rows decode, on TPC-C's STOCK and CUSTOMER rows as the loader makes them (their
 * a-strings are half Latin-1 letters, two bytes of UTF-8 each), and what the strings' strict UTF-8
 * decoding costs: a new {@code CharsetDecoder} with {@code REPORT} per string (what the row and key
 * codecs do), one decoder reused, and {@code new String(bytes, UTF_8)}, which is not strict (it
 * replaces malformed input) and shows the ceiling; and what a partial read of one column costs
 * against the full row ({@code RowCodec.decodeColumns}); and New-Order's read-modify-write of a
 * STOCK row whole against {@code decodeColumns} and {@code RowCodec.patchValue}. (Session 22 tried a one-pass strict
 * decoder of our own here: 189 ns a string against the JDK's 180, and dropped it.)
 *
 * <p>Single-threaded; each case runs for the given seconds after a warm-up of the same length
 * and reports nanoseconds per row or per string. Usage: {@code RowDecodeBenchmark [--seconds S]
 * [--out DIR]}; writes {@code row-decode.csv} and {@code row-decode.json} to DIR (default
 * {@code experiments/results/row-decode}).
 */
public final class RowDecodeBenchmark {

    private RowDecodeBenchmark() {
    }

    /** Keeps results alive so the JIT cannot drop the work. */
    private static volatile long sink;

    public static void main(String[] args) throws Exception {
        double seconds = 3;
        Path out = Path.of("experiments/results/row-decode");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: RowDecodeBenchmark [--seconds S] [--out DIR]");
            }
        }
        if (!(seconds > 0 && seconds <= 600)) {
            throw new IllegalArgumentException("--seconds must be in (0, 600], got " + seconds);
        }
        List<Encoded> stock = new ArrayList<>();
        List<Encoded> customer = new ArrayList<>();
        RowCodec stockCodec = new RowCodec(TpccSchema.table(TpccSchema.STOCK));
        RowCodec customerCodec = new RowCodec(TpccSchema.table(TpccSchema.CUSTOMER));
        List<byte[]> strings = new ArrayList<>();
        new TpccDataGenerator(TpccScale.scaledDown(1, 20_000, 300), 22, 1_700_000_000_000_000L).warehouse(1, (table, row) -> {
            if (table.equals(TpccSchema.STOCK) || table.equals(TpccSchema.CUSTOMER)) {
                RowCodec codec = table.equals(TpccSchema.STOCK) ? stockCodec : customerCodec;
                (table.equals(TpccSchema.STOCK) ? stock : customer).add(new Encoded(codec.encodeKey(row), codec.encodeValue(row)));
                for (Object v : row) {
                    if (v instanceof String s) {
                        strings.add(s.getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
        });
        long nonAscii = strings.stream().filter(b -> !isAscii(b)).count();
        System.out.printf(Locale.ROOT, "%,d STOCK rows, %,d CUSTOMER rows, %,d strings (%.0f%% not ASCII), %.1f s a case%n",
                stock.size(), customer.size(), strings.size(), 100.0 * nonAscii / strings.size(), seconds);

        Map<String, Double> nanos = new LinkedHashMap<>();
        int[] quantity = {TpccSchema.table(TpccSchema.STOCK).columnIndex("S_QUANTITY")};
        int[] stockRead = {TpccSchema.S_QUANTITY, TpccSchema.S_YTD, TpccSchema.S_ORDER_CNT, TpccSchema.S_REMOTE_CNT,
            TpccSchema.S_DIST_01 + 2, TpccSchema.S_DATA};
        int[] stockChanged = {TpccSchema.S_QUANTITY, TpccSchema.S_YTD, TpccSchema.S_ORDER_CNT};
        byte[][] text = strings.toArray(new byte[0][]);
        java.nio.charset.CharsetDecoder reused = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        for (int round = 0; round < 2; round++) { // the second round is reported: every case has run once before it
            nanos.put("STOCK row decode", time(seconds, stock.size(), () -> {
                long a = 0;
                for (Encoded e : stock) {
                    a += stockCodec.decode(e.key, e.value).size();
                }
                return a;
            }));
            nanos.put("STOCK row, S_QUANTITY alone (decodeColumns)", time(seconds, stock.size(), () -> {
                long a = 0;
                for (Encoded e : stock) {
                    a += (Integer) stockCodec.decodeColumns(e.key, e.value, quantity).get(0);
                }
                return a;
            }));
            // New-Order's change of a STOCK row: the whole row decoded, changed and encoded (before
            // session 23), against its six columns decoded and three numbers patched in.
            nanos.put("STOCK read-modify-write: decode, encode the row", time(seconds, stock.size(), () -> {
                long a = 0;
                for (Encoded e : stock) {
                    List<Object> row = new ArrayList<>(stockCodec.decode(e.key, e.value));
                    row.set(TpccSchema.S_QUANTITY, (Integer) row.get(TpccSchema.S_QUANTITY) + 1);
                    row.set(TpccSchema.S_YTD, (Integer) row.get(TpccSchema.S_YTD) + 5);
                    row.set(TpccSchema.S_ORDER_CNT, (Integer) row.get(TpccSchema.S_ORDER_CNT) + 1);
                    a += stockCodec.encode(row).value().length;
                }
                return a;
            }));
            nanos.put("STOCK read-modify-write: 6 columns, patch 3", time(seconds, stock.size(), () -> {
                long a = 0;
                for (Encoded e : stock) {
                    List<Object> read = stockCodec.decodeColumns(e.key, e.value, stockRead);
                    a += stockCodec.patchValue(e.value, stockChanged, List.of((Integer) read.get(0) + 1,
                            (Integer) read.get(1) + 5, (Integer) read.get(2) + 1)).length;
                }
                return a;
            }));
            nanos.put("CUSTOMER row decode", time(seconds, customer.size(), () -> {
                long a = 0;
                for (Encoded e : customer) {
                    a += customerCodec.decode(e.key, e.value).size();
                }
                return a;
            }));
            nanos.put("string: JDK CharsetDecoder, new per string (the codecs)", time(seconds, text.length, () -> {
                long a = 0;
                for (byte[] b : text) {
                    a += jdkStrict(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT), b).length();
                }
                return a;
            }));
            nanos.put("string: JDK CharsetDecoder, reused", time(seconds, text.length, () -> {
                long a = 0;
                for (byte[] b : text) {
                    a += jdkStrict(reused.reset(), b).length();
                }
                return a;
            }));
            nanos.put("string: new String(UTF_8), not strict", time(seconds, text.length, () -> {
                long a = 0;
                for (byte[] b : text) {
                    a += new String(b, StandardCharsets.UTF_8).length();
                }
                return a;
            }));
        }

        Files.createDirectories(out);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("row-decode.csv"), StandardCharsets.UTF_8));
                PrintWriter json = new PrintWriter(Files.newBufferedWriter(out.resolve("row-decode.json"), StandardCharsets.UTF_8))) {
            csv.println("case,nanos_each");
            json.println("{\"seconds_per_case\": " + seconds + ", \"strings\": " + strings.size() + ", \"strings_not_ascii\": "
                    + nonAscii + ", \"nanos_each\": {");
            int k = 0;
            for (Map.Entry<String, Double> e : nanos.entrySet()) {
                System.out.printf(Locale.ROOT, "  %-52s %8.1f ns%n", e.getKey(), e.getValue());
                csv.printf(Locale.ROOT, "\"%s\",%.1f%n", e.getKey(), e.getValue());
                json.printf(Locale.ROOT, "  \"%s\": %.1f%s%n", e.getKey(), e.getValue(), ++k < nanos.size() ? "," : "");
            }
            json.println("}}");
        }
        System.out.println("wrote " + out.resolve("row-decode.csv") + " and row-decode.json");
    }

    private record Encoded(byte[] key, byte[] value) {
    }

    /** One pass of a case over all its n inputs; the loop is inside, so each case's call site sees one type. */
    private interface Case {
        long runAll();
    }

    /** Runs {@code c} pass after pass: a warm-up, then the measured time; nanoseconds per input. */
    private static double time(double seconds, int n, Case c) {
        for (int pass = 0; pass < 2; pass++) {
            long end = System.nanoTime() + (long) (seconds * 1e9);
            long calls = 0;
            long acc = 0;
            long began = System.nanoTime();
            while (System.nanoTime() < end) {
                acc += c.runAll();
                calls += n;
            }
            sink += acc;
            if (pass == 1) {
                return (System.nanoTime() - began) / (double) calls;
            }
        }
        throw new AssertionError();
    }

    private static String jdkStrict(java.nio.charset.CharsetDecoder decoder, byte[] b) {
        try {
            return decoder.decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isAscii(byte[] b) {
        for (byte x : b) {
            if (x < 0) {
                return false;
            }
        }
        return true;
    }
}

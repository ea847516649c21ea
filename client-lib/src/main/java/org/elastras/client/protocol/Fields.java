package org.elastras.client.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elastras.catalog.schema.Names;

/**
 * The checks the protocol records run in their constructors, so that a decoded request is known to
 * be well-formed. Stateless.
 *
 * <p>Every failure is an {@link ElasTrasException} with {@link ErrorCode#MALFORMED_REQUEST} (or
 * {@link ErrorCode#LIMIT_EXCEEDED}) naming the operation and the field, because the records are
 * built from client input.
 */
final class Fields {

    private Fields() {
    }

    static String requireName(String op, String field, String value, int lengthMax) {
        if (value == null || value.isEmpty()) {
            throw malformed(op, field + " is missing; give a non-empty name");
        }
        if (value.length() > lengthMax) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op + ": " + field + " is " + value.length()
                    + " characters long; the limit is " + lengthMax);
        }
        return value;
    }

    /** A list of names (OTM ids); null reads as empty. */
    static List<String> names(String op, String field, List<String> names) {
        if (names == null) {
            return List.of();
        }
        for (String name : names) {
            requireName(op, field + "[]", name, ProtocolLimits.NAME_LENGTH_MAX);
        }
        return List.copyOf(names);
    }

    /**
     * Column names to read, or null for all of them: at most {@link ProtocolLimits#ROW_COLUMNS_MAX},
     * none empty, none twice (ignoring case, as the server compares names).
     */
    static List<String> columnNames(String op, String field, List<String> names) {
        if (names == null) {
            return null;
        }
        if (names.size() > ProtocolLimits.ROW_COLUMNS_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op + ": " + field + " has " + names.size()
                    + " names; the limit is " + ProtocolLimits.ROW_COLUMNS_MAX + " (leave it out to read the whole row)");
        }
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            requireName(op, field + "[]", name, ProtocolLimits.NAME_LENGTH_MAX);
            if (!seen.add(Names.canonical(name))) {
                throw malformed(op, field + " names " + name + " twice; name each column once");
            }
        }
        return List.copyOf(names);
    }

    static long requireTxnId(String op, long txnId) {
        if (txnId <= 0) {
            throw malformed(op, "txnId is " + txnId + "; give the positive id that begin returned");
        }
        return txnId;
    }

    static long requirePartitionId(String op, long partitionId) {
        if (partitionId < 0) {
            throw malformed(op, "partitionId is " + partitionId + "; partition ids are not negative");
        }
        return partitionId;
    }

    static long requireCts(String op, String field, long cts) {
        if (cts < 0) {
            throw malformed(op, field + " is " + cts + "; timestamps are not negative (0 means none)");
        }
        return cts;
    }

    /** A list of scalars; nulls allowed (the server reports them against the schema). */
    static List<Object> values(String op, String field, List<Object> values, boolean required, int sizeMax) {
        if (values == null) {
            if (required) {
                throw malformed(op, field + " is missing; give a list of values");
            }
            return null;
        }
        if (values.size() > sizeMax) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op + ": " + field + " has " + values.size()
                    + " values; the limit is " + sizeMax);
        }
        for (Object v : values) {
            requireScalar(op, field, v);
        }
        return Collections.unmodifiableList(new ArrayList<>(values));
    }

    static Map<String, Object> row(String op, String field, Map<String, Object> row) {
        if (row == null) {
            throw malformed(op, field + " is missing; give an object of column: value");
        }
        if (row.size() > ProtocolLimits.ROW_COLUMNS_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op + ": " + field + " has " + row.size()
                    + " columns; the limit is " + ProtocolLimits.ROW_COLUMNS_MAX);
        }
        for (Map.Entry<String, Object> e : row.entrySet()) {
            if (e.getKey() == null || e.getKey().isEmpty()) {
                throw malformed(op, field + " has an empty column name");
            }
            requireScalar(op, field + "." + e.getKey(), e.getValue());
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(row));
    }

    /** Rows as sent by a server: checked for shape only. */
    static List<Map<String, Object>> rows(String op, String field, List<Map<String, Object>> rows) {
        if (rows == null) {
            throw malformed(op, field + " is missing");
        }
        List<Map<String, Object>> copy = new ArrayList<>(rows.size());
        for (Map<String, Object> r : rows) {
            copy.add(row(op, field + "[]", r));
        }
        return Collections.unmodifiableList(copy);
    }

    /** Procedure arguments: scalars, or lists of scalars (one level), for repeated groups like order lines. */
    static List<Object> args(String op, String field, List<Object> args) {
        if (args == null) {
            return List.of();
        }
        if (args.size() > ProtocolLimits.PROCEDURE_ARGS_MAX) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op + ": " + field + " has " + args.size()
                    + " values; the limit is " + ProtocolLimits.PROCEDURE_ARGS_MAX);
        }
        List<Object> copy = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a instanceof List<?> list) {
                @SuppressWarnings("unchecked")
                List<Object> inner = (List<Object>) list;
                copy.add(values(op, field + "[" + i + "]", inner, true, ProtocolLimits.PROCEDURE_ARGS_MAX));
            } else {
                requireScalar(op, field + "[" + i + "]", a);
                copy.add(a);
            }
        }
        return Collections.unmodifiableList(copy);
    }

    /** One scalar that must be given (not null); {@code what} says what to give ("the number to add"). */
    static Object requireValue(String op, String field, Object value, String what) {
        if (value == null) {
            throw malformed(op, field + " is missing; give " + what);
        }
        requireScalar(op, field, value);
        return value;
    }

    private static void requireScalar(String op, String field, Object v) {
        if (v instanceof Map || v instanceof List) {
            throw malformed(op, field + " holds a nested " + (v instanceof Map ? "object" : "array")
                    + "; values are numbers, strings, booleans, binary or null");
        }
    }

    static ElasTrasException malformed(String op, String message) {
        return new ElasTrasException(ErrorCode.MALFORMED_REQUEST, op + ": " + message);
    }
}

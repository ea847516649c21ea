package org.elastras.client.protocol;

import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.SchemaException;
import org.elastras.catalog.schema.TypeKind;

import java.util.Locale;

/**
 * The wire form of a catalog {@link Column}. Immutable.
 *
 * <p>The type is written as SQL writes it: {@code BOOLEAN}, {@code INT}, {@code BIGINT},
 * {@code DOUBLE}, {@code TIMESTAMP}, {@code VARCHAR(n)}, {@code BYTES(n)},
 * {@code DECIMAL(precision,scale)} (case-insensitive on the wire; spaces ignored). It is exactly
 * what {@link ColumnType#toString()} prints, so a column survives a round trip.
 *
 * @param name the column name
 * @param type the type, as above
 * @param nullable whether the column admits NULL (false when absent)
 */
public record ColumnSpec(String name, String type, boolean nullable) {

    /** The spec of a catalog column. */
    public static ColumnSpec of(Column column) {
        return new ColumnSpec(column.name(), column.type().toString(), column.nullable());
    }

    /**
     * The catalog column this spec describes.
     *
     * @throws SchemaException if the name or type is not valid, saying what was wrong
     */
    public Column toColumn() {
        return new Column(name, parseType(name, type), nullable);
    }

    /**
     * Parses a type as written in a spec.
     *
     * @param column the column it belongs to, for messages
     * @throws SchemaException naming the text and the accepted forms
     */
    static ColumnType parseType(String column, String type) {
        if (type == null || type.isBlank()) {
            throw new SchemaException("column " + column + " has no type; give one of " + FORMS);
        }
        String t = type.replace(" ", "").toUpperCase(Locale.ROOT);
        int open = t.indexOf('(');
        String kindName = open < 0 ? t : t.substring(0, open);
        TypeKind kind;
        try {
            kind = TypeKind.valueOf(kindName);
        } catch (IllegalArgumentException e) {
            throw new SchemaException("column " + column + " has unknown type '" + type + "'; use one of " + FORMS);
        }
        int[] params = open < 0 ? new int[0] : parseParams(column, type, t.substring(open));
        return switch (kind) {
            case VARCHAR, BYTES -> {
                requireCount(column, type, params, 1);
                yield new ColumnType(kind, params[0], 0, 0);
            }
            case DECIMAL -> {
                requireCount(column, type, params, 2);
                yield ColumnType.decimal(params[0], params[1]);
            }
            default -> {
                requireCount(column, type, params, 0);
                yield new ColumnType(kind, 0, 0, 0);
            }
        };
    }

    private static final String FORMS =
            "BOOLEAN, INT, BIGINT, DOUBLE, TIMESTAMP, VARCHAR(n), BYTES(n), DECIMAL(precision,scale)";

    private static int[] parseParams(String column, String type, String parens) {
        if (!parens.endsWith(")") || parens.length() < 3) {
            throw new SchemaException("column " + column + " type '" + type + "' has unbalanced parentheses; use one of " + FORMS);
        }
        String[] parts = parens.substring(1, parens.length() - 1).split(",", -1);
        if (parts.length > 2) {
            throw new SchemaException("column " + column + " type '" + type + "' has too many parameters; use one of " + FORMS);
        }
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 9 || !p.chars().allMatch(Character::isDigit)) {
                throw new SchemaException("column " + column + " type '" + type + "' has parameter '" + p
                        + "', which is not a whole number; use one of " + FORMS);
            }
            out[i] = Integer.parseInt(p);
        }
        return out;
    }

    private static void requireCount(String column, String type, int[] params, int count) {
        if (params.length != count) {
            throw new SchemaException("column " + column + " type '" + type + "' takes " + count
                    + " parameter(s), got " + params.length + "; use one of " + FORMS);
        }
    }
}

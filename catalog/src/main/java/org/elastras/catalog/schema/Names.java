package org.elastras.catalog.schema;

import java.util.Locale;

/**
 * The identifier rules for database, table and column names, and their case-insensitive
 * comparison. Stateless.
 *
 * <p>A name is an ASCII letter or underscore followed by ASCII letters, digits and underscores, at
 * most {@link SchemaLimits#NAME_LENGTH_MAX} characters. Names keep the case they were written in,
 * but two names that differ only in case are the same name.
 */
public final class Names {

    private Names() {
    }

    /**
     * Checks that {@code name} is a valid identifier.
     *
     * @param what what the name names, for the message ("table name", "column name in table X")
     * @throws SchemaException if it is not
     */
    public static void check(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new SchemaException(what + " is missing; give a name of 1 to "
                    + SchemaLimits.NAME_LENGTH_MAX + " characters");
        }
        if (name.length() > SchemaLimits.NAME_LENGTH_MAX) {
            throw new SchemaException(what + " '" + name + "' is " + name.length()
                    + " characters long; the limit is " + SchemaLimits.NAME_LENGTH_MAX);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
            boolean digit = c >= '0' && c <= '9';
            if (!(letter || (digit && i > 0))) {
                throw new SchemaException(what + " '" + name + "' has '" + c + "' at position " + i
                        + "; a name starts with a letter or '_' and continues with letters, digits or '_'");
            }
        }
    }

    /** The form two names are compared in: upper case, locale-independent. */
    public static String canonical(String name) {
        return name.toUpperCase(Locale.ROOT);
    }

    /** Whether two names are the same name, ignoring case. */
    public static boolean same(String a, String b) {
        return a.equalsIgnoreCase(b);
    }
}

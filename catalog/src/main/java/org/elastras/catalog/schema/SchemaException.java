package org.elastras.catalog.schema;

/**
 * A schema definition broke a rule of the catalog: a bad name, an unknown or nullable key column, a
 * child table whose key does not start with the root key, a limit. A user can cause it, so the
 * message says what was wrong and what to do. Thrown before any schema object exists.
 */
public final class SchemaException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public SchemaException(String message) {
        super(message);
    }
}

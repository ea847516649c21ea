package org.elastras.catalog.schema;

/**
 * A column of a table: its name, type and whether it admits NULL. Immutable.
 *
 * @param name the column name (see {@link Names})
 * @param type the type
 * @param nullable whether the column admits NULL; primary key columns never do
 */
public record Column(String name, ColumnType type, boolean nullable) {

    public Column {
        Names.check("column name", name);
        if (type == null) {
            throw new SchemaException("column '" + name + "' has no type; give it one of the ColumnType types");
        }
    }

    /** A NOT NULL column. */
    public static Column notNull(String name, ColumnType type) {
        return new Column(name, type, false);
    }

    /** A column that admits NULL. */
    public static Column nullable(String name, ColumnType type) {
        return new Column(name, type, true);
    }

    /**
     * Checks a value for this column and returns its canonical form.
     *
     * @param owner what the column belongs to, for messages ("table WAREHOUSE")
     * @throws IllegalArgumentException naming the owner, the column, the expected type and what was wrong
     */
    public Object normalize(String owner, Object value) {
        if (value == null) {
            if (!nullable) {
                throw new IllegalArgumentException(owner + " column " + name + " is " + type
                        + " NOT NULL but got null; supply a value");
            }
            return null;
        }
        try {
            return type.normalize(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(owner + " column " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return name + " " + type + (nullable ? "" : " NOT NULL");
    }
}

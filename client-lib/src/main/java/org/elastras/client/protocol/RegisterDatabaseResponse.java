package org.elastras.client.protocol;

/**
 * The answer to {@link RegisterDatabaseRequest}: the database is known to the OTM. Immutable; no fields.
 */
public record RegisterDatabaseResponse() {
}

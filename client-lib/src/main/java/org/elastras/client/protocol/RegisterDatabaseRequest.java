package org.elastras.client.protocol;

/**
 * Admin: registers a database's schema with the OTM ({@code POST /v1/registerDatabase}). Immutable.
 *
 * @param schema the schema, already checked against the catalog's rules
 */
public record RegisterDatabaseRequest(SchemaSpec schema) {

    public RegisterDatabaseRequest {
        if (schema == null) {
            throw Fields.malformed("registerDatabase", "schema is missing; give {name, partitioning, tables}");
        }
    }
}

package org.elastras.otm.catalog;

import java.util.Map;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.otm.server.ProcedureLibrary;
import org.elastras.otm.txn.Procedure;

/**
 * The stored procedures of the catalog databases, one library per database (ROOT holds the META
 * partitions' rows, META the user partitions'; both tables have the same layout): so far only
 * {@link PartitionRowSwap}. Every OTM loads them through
 * {@code META-INF/services/org.elastras.otm.server.ProcedureLibrary}, so whichever OTM serves a
 * catalog partition can run them. Immutable.
 */
public final class CatalogProcedures {

    private static final Procedure SWAP = new PartitionRowSwap();

    private CatalogProcedures() {
    }

    /** The ROOT database's procedures. */
    public static final class Root implements ProcedureLibrary {
        @Override
        public String database() {
            return CatalogSchemas.ROOT_DATABASE;
        }

        @Override
        public Map<String, Procedure> procedures() {
            return Map.of(PartitionRowSwap.NAME, SWAP);
        }
    }

    /** The META database's procedures. */
    public static final class Meta implements ProcedureLibrary {
        @Override
        public String database() {
            return CatalogSchemas.META_DATABASE;
        }

        @Override
        public Map<String, Procedure> procedures() {
            return Map.of(PartitionRowSwap.NAME, SWAP);
        }
    }
}

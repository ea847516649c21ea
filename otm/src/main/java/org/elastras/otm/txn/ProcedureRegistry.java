package org.elastras.otm.txn;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.elastras.catalog.schema.Names;
import org.elastras.otm.txn.TransactionException.Reason;

/**
 * The stored procedures of each database, by name. Database names match ignoring case; procedure
 * names match exactly. Thread-safe.
 */
public final class ProcedureRegistry {

    private final int proceduresPerDatabaseMax;
    /** Canonical database name -> procedure name -> procedure. */
    private final ConcurrentHashMap<String, ConcurrentHashMap<String, Procedure>> byDatabase = new ConcurrentHashMap<>();

    public ProcedureRegistry(int proceduresPerDatabaseMax) {
        if (proceduresPerDatabaseMax < 1 || proceduresPerDatabaseMax > 100_000) {
            throw new IllegalArgumentException("proceduresPerDatabaseMax must be in [1, 100000], got "
                    + proceduresPerDatabaseMax);
        }
        this.proceduresPerDatabaseMax = proceduresPerDatabaseMax;
    }

    /** Registers (or replaces) a procedure of a database. */
    public void register(String database, String name, Procedure procedure) {
        if (name == null || name.isEmpty() || name.length() > 128 || procedure == null) {
            throw new IllegalArgumentException("a procedure needs a name of 1 to 128 characters and an implementation");
        }
        Names.check("database name", database);
        Map<String, Procedure> procedures = byDatabase.computeIfAbsent(Names.canonical(database),
                d -> new ConcurrentHashMap<>());
        synchronized (procedures) {
            if (!procedures.containsKey(name) && procedures.size() >= proceduresPerDatabaseMax) {
                throw new TransactionException(Reason.LIMIT_EXCEEDED, false, "database " + database + " already has "
                        + procedures.size() + " procedures (proceduresPerDatabaseMax)");
            }
            procedures.put(name, procedure);
        }
    }

    /** @throws TransactionException UNKNOWN_PROCEDURE */
    public Procedure find(String database, String name) {
        Map<String, Procedure> procedures = database == null ? null : byDatabase.get(Names.canonical(database));
        Procedure p = procedures == null || name == null ? null : procedures.get(name);
        if (p == null) {
            throw new TransactionException(Reason.UNKNOWN_PROCEDURE, false, "database " + database
                    + " has no stored procedure '" + name + "'");
        }
        return p;
    }
}

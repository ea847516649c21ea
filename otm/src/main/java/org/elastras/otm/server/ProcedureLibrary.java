package org.elastras.otm.server;

import java.util.Map;
import org.elastras.otm.txn.Procedure;

/**
 * A set of stored procedures for one database, found on the OTM's class path with
 * {@link java.util.ServiceLoader} (list the implementing class in
 * {@code META-INF/services/org.elastras.otm.server.ProcedureLibrary}). Every OTM loads every
 * library at start, so any OTM can serve any partition of the database.
 *
 * <p>Implementations have a public no-argument constructor and are immutable.
 */
public interface ProcedureLibrary {

    /** The database the procedures belong to. */
    String database();

    /** Procedure name -> implementation. */
    Map<String, Procedure> procedures();
}

/**
 * The TPC-C workload (TPC-C v5.11) on ElasTraS (an in-process OTM, or a local cluster through the
 * routing client) and on the baselines: embedded Apache Derby and PostgreSQL (interactive JDBC and
 * PL/pgSQL functions).
 *
 * <p>Pieces, each in its own file: {@link org.elastras.experiments.tpcc.TpccSchema} (the tables as a
 * tree schema rooted at WAREHOUSE, ITEM global, and as Derby DDL; the renames and the two index
 * tables are listed there); {@link org.elastras.experiments.tpcc.TpccRandom},
 * {@link org.elastras.experiments.tpcc.NuRandConstants} and
 * {@link org.elastras.experiments.tpcc.TpccDataGenerator} (clause 4.3 population, deterministic by
 * seed); {@link org.elastras.experiments.tpcc.TpccLoader} (parallel per warehouse, one transaction
 * per batch); {@link org.elastras.experiments.tpcc.TpccInputGenerator} and
 * {@link org.elastras.experiments.tpcc.TransactionMix} (terminal inputs, clauses 2.4.1-2.8.1, and the
 * 45/43/4/4/4 deck); the five transactions as stored procedures
 * ({@link org.elastras.experiments.tpcc.TpccProcedures}), as JDBC
 * ({@link org.elastras.experiments.tpcc.JdbcTpccSession}) and as PL/pgSQL functions
 * ({@code tpcc/postgres-functions.sql}, {@link org.elastras.experiments.tpcc.PlpgsqlTpccSession}), sharing
 * {@link org.elastras.experiments.tpcc.TpccRules}; the clause 3.3.2 consistency checks as a Java
 * audit inside the OTM ({@link org.elastras.experiments.tpcc.DistrictAudit}) and as SQL
 * ({@link org.elastras.experiments.tpcc.SqlConsistencyQueries}); the targets
 * ({@link org.elastras.experiments.tpcc.TpccTarget}: {@link org.elastras.experiments.tpcc.DerbyTpccTarget},
 * {@link org.elastras.experiments.tpcc.PostgresTpccTarget} on a
 * {@link org.elastras.experiments.tpcc.PostgresServer}, {@link org.elastras.experiments.tpcc.OtmTpccTarget}
 * and {@link org.elastras.experiments.tpcc.ClusterTpccTarget} with
 * {@link org.elastras.experiments.tpcc.WarehouseRouter}; opened by name by
 * {@link org.elastras.experiments.tpcc.TpccTargets}); the closed-loop
 * {@link org.elastras.experiments.tpcc.TpccDriver} with its per-second
 * {@link org.elastras.experiments.tpcc.TpccTimeline} and {@link org.elastras.experiments.tpcc.TpccPlot};
 * the {@link org.elastras.experiments.tpcc.TpccBenchmark} main and its front
 * {@link org.elastras.experiments.tpcc.TpccCommand} ({@code bin/elastras tpcc}).
 *
 * <p>Remote warehouse accesses are as the spec says by default (1% of New-Order lines, 15% of
 * Payments; cross-partition transactions on ElasTraS), or made local for comparison
 * ({@link org.elastras.experiments.tpcc.RemoteWarehouses}). What keeps the figures from being TPC-C
 * results (the benchmark prints and records these flags): there are no keying or think times; Delivery is not deferred;
 * the default database of {@code bench tpcc} is scaled down
 * ({@link org.elastras.experiments.tpcc.TpccScale#scaledDown}, marked NOT SPEC-COMPLIANT). ElasTraS
 * loads ITEM, a global table, in {@code loadGlobalTable} chunks that one OTM publishes to the DFS
 * for every OTM ({@link org.elastras.experiments.tpcc.OtmTpccTarget#itemRequests}).
 */
package org.elastras.experiments.tpcc;

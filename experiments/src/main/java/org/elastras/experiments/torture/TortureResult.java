package org.elastras.experiments.torture;

import java.util.List;
import java.util.Map;

/**
 * The figures and verdict of one torture run. Immutable (a value for the report and the JSON file).
 *
 * @param seed                 the run's seed
 * @param otms                 OTM processes kept running
 * @param partitions           partitions of each database
 * @param workloadSeconds      how long the workloads ran
 * @param listOk               list-append transactions acknowledged
 * @param listFail             list-append transactions that definitely did not commit
 * @param listUnknown          list-append transactions of unknown outcome
 * @param listLatencyMs        latency of acknowledged list-append transactions, retries included: p50, p99, max (ms)
 * @param listFailures         list-append failures by kind (error code)
 * @param checkerVerdict       VALID or INVALID, for the isolation level claimed
 * @param isolation            the level claimed (SERIALIZABLE)
 * @param anomaliesByClass     every anomaly class the checker found, with its count (allowed ones included)
 * @param forbiddenAnomalies   anomalies of classes the level forbids
 * @param checkerReport        the checker's report (its anomalies explained)
 * @param lostCommits          acknowledged appends missing from the final reads
 * @param lostCommitExamples   up to 20 of them
 * @param partialCommits       transactions only some of whose appends are visible in the final reads (atomicity)
 * @param partialCommitExamples up to 20 of them
 * @param unknownCommitted     UNKNOWN list-append transactions wholly visible in the final reads
 * @param keysRead             keys in the final read
 * @param transfersOk          bank transfers acknowledged
 * @param transfersFail        bank transfers that did not commit
 * @param transfersUnknown     bank transfers of unknown outcome
 * @param crossPartitionPercent the share of transfers drawn between two partitions, in percent
 * @param crossPartitionCoordinator which of its two partitions such a transfer was begun on ({@link CrossPartitionCoordinator})
 * @param crossPartitionTransfers the cross-partition transfers among them: OK, FAIL, UNKNOWN
 * @param bankTotalsRead       partition totals read during the run (only without cross-partition transfers)
 * @param bankGrandTotalsRead  grand totals read during the run, each in one transaction across every partition
 * @param bankFailures         bank failures by kind
 * @param expectedPartitionTotal what each bank partition must hold
 * @param finalPartitionTotals the bank partitions' totals after the run
 * @param expectedGrandTotal   what all bank partitions must hold together
 * @param finalGrandTotal      what they held after the run
 * @param wrongBankTotals      totals read (during or after) that broke the invariant
 * @param wrongBankTotalExamples up to 100 of them
 * @param ledger               the bank's ledger check ({@link BankLedger}): acknowledged transfers lost, transfers
 *                             visible in part or though aborted, balances that disagree with their entries
 * @param faults               the faults injected, in order
 * @param faultsByKind         how many of each kind
 * @param commitsAfterFault    per fault: list-append transactions begun after the fault's repair
 *                             and acknowledged before the next fault (progress)
 * @param writerCtsRecorded    commit timestamps of acknowledged writers recorded (both workloads)
 * @param duplicateCts         acknowledged writers that got a CTS another writer already had (invariant 4)
 * @param duplicateCtsExamples up to 100 of them
 * @param zombieProbes         writes that resumed zombie OTMs were asked to commit
 * @param zombieViolations     of those, acknowledged, or refused yet visible in the final read
 * @param zombieProbeAnswers   what the zombies answered
 * @param otmsExitedUnplanned  OTMs lost without a fault aimed at them (exited, or their ZooKeeper session
 *                             expired on a loaded machine), replaced before the next fault: not an anomaly, worth a look
 * @param harnessErrors        problems of the harness itself (a fault could not be injected, ...)
 * @param historyFile          the history as JSON lines
 * @param logDirectory         the processes' logs
 */
record TortureResult(long seed, int otms, int partitions, double workloadSeconds, long listOk, long listFail, long listUnknown,
        List<Long> listLatencyMs, Map<String, Long> listFailures, String checkerVerdict, String isolation, Map<String, Integer> anomaliesByClass,
        long forbiddenAnomalies, String checkerReport, long lostCommits, List<String> lostCommitExamples, long partialCommits,
        List<String> partialCommitExamples, long unknownCommitted, int keysRead, long transfersOk,
        long transfersFail, long transfersUnknown, int crossPartitionPercent,
        String crossPartitionCoordinator, List<Long> crossPartitionTransfers, long bankTotalsRead,
        long bankGrandTotalsRead, Map<String, Long> bankFailures, long expectedPartitionTotal,
        Map<Integer, Long> finalPartitionTotals, long expectedGrandTotal, long finalGrandTotal, long wrongBankTotals,
        List<String> wrongBankTotalExamples, BankLedger.Verdict ledger, List<FaultEvent> faults, Map<String, Long> faultsByKind, List<Long> commitsAfterFault,
        long writerCtsRecorded, long duplicateCts, List<String> duplicateCtsExamples, long zombieProbes, long zombieViolations, List<String> zombieProbeAnswers, List<String> otmsExitedUnplanned,
        List<String> harnessErrors, String historyFile,
        String logDirectory) {

    /**
     * Anomalies of any kind: forbidden by the checker, wrong bank totals, a wrong grand total,
     * zombie commits, commit timestamps issued twice, transactions visible in part (list-append or
     * bank), aborted transfers visible, ledger entries no transfer wrote, balances that disagree
     * with their ledger.
     */
    long anomalies() {
        boolean grandTotalWrong = ledger.checked() && finalGrandTotal != expectedGrandTotal;
        return forbiddenAnomalies + wrongBankTotals + (grandTotalWrong ? 1 : 0) + zombieViolations
                + duplicateCts + partialCommits + ledger.anomalies();
    }

    /** Acknowledged commits lost: list-append appends and bank transfers. */
    long lostCommitsAll() {
        return lostCommits + ledger.lost();
    }

    /** True if the run found nothing wrong with the system and the harness did its job. */
    boolean passed() {
        return anomalies() == 0 && lostCommitsAll() == 0 && harnessErrors.isEmpty();
    }

    long faultsInjected() {
        return faults.size();
    }

    /** A summary for people. */
    String render() {
        StringBuilder text = new StringBuilder();
        text.append(passed() ? "PASSED" : "FAILED").append(": torture seed ").append(seed).append(", ").append(otms).append(" OTMs, ")
                .append(partitions).append(" partitions per database, workloads ran ").append(String.format("%.1f", workloadSeconds))
                .append(" s\n");
        text.append(String.format("list-append: %d OK, %d FAIL, %d UNKNOWN; checker %s for %s; anomalies by class %s;"
                + " acknowledged appends lost: %d (of %d keys read back); partly visible transactions: %d;"
                + " UNKNOWN ones visible in full: %d%n", listOk, listFail, listUnknown, checkerVerdict, isolation, anomaliesByClass,
                lostCommits, keysRead, partialCommits, unknownCommitted));
        text.append("list-append latency (ms, retries included) p50/p99/max: ").append(listLatencyMs).append('\n');
        text.append(String.format("bank: %d transfers OK, %d FAIL, %d UNKNOWN (%d%% drawn across partitions, begun on the %s partition: %d OK, %d FAIL, %d UNKNOWN);"
                + " %d grand totals and %d partition totals read, %d wrong;"
                + " final totals %s (%s); grand total %d (must be %d)%n", transfersOk, transfersFail, transfersUnknown,
                crossPartitionPercent, crossPartitionCoordinator.toLowerCase(java.util.Locale.ROOT), crossPartitionTransfers.get(0), crossPartitionTransfers.get(1), crossPartitionTransfers.get(2),
                bankGrandTotalsRead, bankTotalsRead, wrongBankTotals, finalPartitionTotals,
                crossPartitionPercent == 0 ? "each must be " + expectedPartitionTotal : "not invariant with cross-partition transfers",
                finalGrandTotal, expectedGrandTotal));
        text.append(String.format("bank ledger: %d transfers checked; acknowledged transfers lost: %d; visible in part: %d;"
                + " aborted but visible: %d; entries no transfer wrote: %d; balances not matching their entries: %d;"
                + " UNKNOWN ones committed: %d%n", ledger.transfersChecked(), ledger.lost(), ledger.partial(), ledger.abortedVisible(),
                ledger.garbage(), ledger.wrongBalances(), ledger.unknownCommitted()));
        text.append("faults: ").append(faults.size()).append(' ').append(faultsByKind).append("; list-append commits after each: ")
                .append(commitsAfterFault).append('\n');
        for (FaultEvent f : faults) {
            text.append(String.format("  %d %s %s -> %s (%d ms)%n", f.index(), f.kind(), f.target(), f.replacement(), f.recoveryMs()));
        }
        text.append("commit timestamps: ").append(writerCtsRecorded).append(" acknowledged writers, ").append(duplicateCts)
                .append(" given a CTS already issued\n");
        duplicateCtsExamples.forEach(d -> text.append("  DUPLICATE CTS: ").append(d).append('\n'));
        text.append("zombie probes: ").append(zombieProbes).append(" writes asked of resumed zombies, ").append(zombieViolations)
                .append(" acknowledged or visible; answers ").append(zombieProbeAnswers).append('\n');
        if (!otmsExitedUnplanned.isEmpty()) {
            text.append("OTMs lost without a fault aimed at them (replaced): ").append(otmsExitedUnplanned).append('\n');
        }
        text.append("failures seen by clients: list ").append(listFailures).append(", bank ").append(bankFailures).append('\n');
        lostCommitExamples.forEach(l -> text.append("  LOST: ").append(l).append('\n'));
        partialCommitExamples.forEach(p -> text.append("  PARTIAL: ").append(p).append('\n'));
        wrongBankTotalExamples.forEach(w -> text.append("  WRONG TOTAL: ").append(w).append('\n'));
        ledger.examples().forEach(l -> text.append("  BANK ").append(l).append('\n'));
        harnessErrors.forEach(h -> text.append("  HARNESS ERROR: ").append(h).append('\n'));
        if (forbiddenAnomalies > 0) {
            text.append(checkerReport);
        }
        text.append("history: ").append(historyFile).append("\nlogs: ").append(logDirectory).append('\n');
        return text.toString();
    }
}

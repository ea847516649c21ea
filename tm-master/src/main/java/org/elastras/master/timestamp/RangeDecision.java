package org.elastras.master.timestamp;

import org.elastras.client.protocol.WithheldReason;
import org.elastras.client.protocol.CtsRange;
import java.util.Objects;

/** What the {@link CommitSequencer} decided for one OTM's exchange. Immutable values. */
public sealed interface RangeDecision {

    /** Hand {@code range}, fresh, to the OTM. */
    record Issue(CtsRange range) implements RangeDecision {
        public Issue {
            Objects.requireNonNull(range, "range");
        }
    }

    /**
     * Hand {@code range} to the OTM again: it was issued to this OTM before, but the OTM's report
     * shows the reply carrying it never arrived. Nothing new is issued.
     */
    record Resend(CtsRange range) implements RangeDecision {
        public Resend {
            Objects.requireNonNull(range, "range");
        }
    }

    /** Hand nothing new; the OTM keeps its current range. */
    record Withhold(WithheldReason reason) implements RangeDecision {
        public Withhold {
            Objects.requireNonNull(reason, "reason");
        }
    }
}

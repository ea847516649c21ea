package org.elastras.otm.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Label values written escaped and read back as they were. */
class PrometheusLabelsTest {

    @Test
    void escapedValuesParseBackUnchanged() {
        String odd = "a \"quoted\" back\\slash and\nline";
        assertEquals("a \\\"quoted\\\" back\\\\slash and\\nline", PrometheusLabels.escape(odd));
        Map<String, String> labels = PrometheusLabels.parse("otm=\"" + PrometheusLabels.escape(odd) + "\",reason=\"CONFLICT\"");
        assertEquals(List.of("otm", "reason"), List.copyOf(labels.keySet()));
        assertEquals(odd, labels.get("otm"));
        assertEquals("CONFLICT", labels.get("reason"));
        assertEquals(Map.of(), PrometheusLabels.parse(""));
    }
}

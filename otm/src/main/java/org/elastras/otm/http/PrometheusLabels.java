package org.elastras.otm.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Label values of the Prometheus text format (version 0.0.4) that {@code GET /metrics} answers,
 * the OTM's and the master's: written escaped, and read back by tools that scrape them.
 */
public final class PrometheusLabels {

    /** One label: name="value" with backslash, double quote and line feed escaped. */
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private PrometheusLabels() {
    }

    /** A label value with backslash, double quote and line feed escaped, as the format requires. */
    public static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /**
     * The labels of one sample, by name, in order, values unescaped; {@code labels} is the text
     * between the braces, e.g. {@code otm="otm-1",reason="CONFLICT"}.
     */
    public static Map<String, String> parse(String labels) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = LABEL.matcher(labels);
        while (m.find()) {
            out.put(m.group(1), unescape(m.group(2)));
        }
        return out;
    }

    private static String unescape(String escaped) {
        StringBuilder b = new StringBuilder(escaped.length());
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c == '\\' && i + 1 < escaped.length()) {
                char next = escaped.charAt(++i);
                b.append(next == 'n' ? '\n' : next);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}

package org.elastras.storage.util;

import java.util.Iterator;

/** An iterator over resources that must be released; {@link #close()} does not throw. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();
}

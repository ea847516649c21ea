package org.elastras.storage.dfs;

import java.io.IOException;

/** For test DFSes that change one call of an output (e.g. a slow or stalled sync): forwards every call to {@code out}. */
public class ForwardingDfsOutput implements DfsOutput {

    private final DfsOutput out;

    public ForwardingDfsOutput(DfsOutput out) {
        this.out = out;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    @Override
    public long position() {
        return out.position();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void sync() throws IOException {
        out.sync();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

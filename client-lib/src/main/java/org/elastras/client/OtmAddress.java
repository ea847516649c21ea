package org.elastras.client;

/**
 * Where an OTM listens, as it registered itself in ZooKeeper. Immutable.
 *
 * @param host host name or address
 * @param port TCP port
 */
record OtmAddress(String host, int port) {

    OtmAddress {
        if (host == null || host.isBlank() || port < 1 || port > 65_535) {
            throw new IllegalArgumentException("an OTM address needs a host and a port 1 to 65535, got " + host + ":" + port);
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}

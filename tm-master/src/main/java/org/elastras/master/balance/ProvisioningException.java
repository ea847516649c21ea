package org.elastras.master.balance;

/**
 * A {@link Provisioner} could not carry out a request: refused (too many under way, unknown OTM,
 * closed) or failed (the OTM did not start, or could not be stopped). An operating error: the
 * master logs it and decides again on its next plan.
 */
public final class ProvisioningException extends Exception {

    public ProvisioningException(String message) {
        super(message);
    }

    public ProvisioningException(String message, Throwable cause) {
        super(message, cause);
    }
}

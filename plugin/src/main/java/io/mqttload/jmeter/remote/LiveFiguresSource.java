package io.mqttload.jmeter.remote;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * A jmeter-server engine's live figures, for the Run Report panel of a controller started from the GUI: bound in the
 * engine's own RMI registry (JMeter's {@code server_port}) under {@link #NAME} while the engine runs a test.
 */
public interface LiveFiguresSource extends Remote {
    String NAME = "mqttload-live";

    /** The engine's {@code LiveFigures} of its last second as JSON, or null before its first second. */
    String liveFiguresJson() throws RemoteException;
}

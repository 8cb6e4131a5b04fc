package io.mqttload.jmeter.remote;

import java.rmi.NotBoundException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;

import org.apache.jmeter.rmi.RmiUtils;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.client.Errors;
import io.mqttload.common.InvalidSettingException;
import io.mqttload.engine.EngineRuntime;
import io.mqttload.jmeter.run.JvmRun;
import io.mqttload.jmeter.run.MqttElements;
import io.mqttload.live.LiveFeed;
import io.mqttload.live.LiveFigures;

/**
 * The engine side of {@link LiveFiguresSource}: exported with JMeter's own RMI socket factories (SSL when JMeter's
 * RMI uses it) on {@code mqttload.liveRmiPort} (any free port by default; fix it where a firewall stands between
 * controller and engines) and bound in the engine's registry at test start, unbound at test end. The feed
 * is attached on the first call only: a headless controller never asks, and its engines never walk their ledgers
 * for it.
 */
public final class EngineLiveSource implements LiveFiguresSource, AutoCloseable {
    /** The engine port the live figures are served on; 0, the default, lets the system pick one. */
    static final String PORT_PROPERTY = "mqttload.liveRmiPort";
    private static final Logger log = LoggerFactory.getLogger(EngineLiveSource.class);

    private final EngineRuntime runtime;
    private volatile LiveFeed feed;

    private EngineLiveSource(EngineRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public String liveFiguresJson() {
        LiveFeed f = feed;
        if (f == null) {
            synchronized (this) {
                if (feed == null) {
                    feed = LiveFeed.attach(runtime);
                }
                f = feed;
            }
        }
        LiveFigures latest = f.latest();
        return latest == null ? null : latest.toJson();
    }

    /** On a jmeter-server engine at test start, once per run, held by the run; a failure is logged, never the test's. */
    public static void startFor(EngineRuntime runtime) {
        JvmRun.current().resource(EngineLiveSource.class, () -> offer(runtime));
    }

    /** At test end: unbound and unexported, so that nothing of it keeps the engine's JVM up. */
    public static void stop() {
        JvmRun.current().close(EngineLiveSource.class);
    }

    private static EngineLiveSource offer(EngineRuntime runtime) {
        EngineLiveSource source = new EngineLiveSource(runtime);
        int port;
        try {
            port = Integer.parseInt(JMeterUtils.getPropDefault(PORT_PROPERTY, "0").trim());
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65_535) {
            MqttElements.reportInvalid("engine properties", new InvalidSettingException(PORT_PROPERTY,
                    JMeterUtils.getPropDefault(PORT_PROPERTY, ""), "must be a port, 1 to 65535, or 0 for any free port;"
                    + " the controller's GUI gets no live figures from this engine"));
            return null;
        }
        try {
            LiveFiguresSource stub = (LiveFiguresSource) UnicastRemoteObject.exportObject(source, port,
                    RmiUtils.createClientSocketFactory(), RmiUtils.createServerSocketFactory());
            registry().rebind(NAME, stub);
            return source;
        } catch (RemoteException | RuntimeException e) {
            unexport(source);
            log.warn("MQTT live figures not offered to the controller's GUI: {}", Errors.describe(e));
            return null;
        }
    }

    /** Unbound and unexported. */
    @Override
    public void close() {
        try {
            registry().unbind(NAME);
        } catch (RemoteException | NotBoundException | RuntimeException e) {
            log.debug("MQTT live figures were not bound any more: {}", e.toString());
        }
        unexport(this);
    }

    private static Registry registry() throws RemoteException {
        return LocateRegistry.getRegistry(RmiUtils.getRmiHost().getHostAddress(), RmiUtils.getRmiRegistryPort(),
                RmiUtils.createClientSocketFactory());
    }

    private static void unexport(EngineLiveSource source) {
        try {
            UnicastRemoteObject.unexportObject(source, true);
        } catch (RemoteException e) {
            log.debug("MQTT live figures not unexported: {}", e.toString());
        }
    }
}

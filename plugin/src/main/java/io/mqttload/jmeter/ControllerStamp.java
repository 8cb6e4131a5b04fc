package io.mqttload.jmeter;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.WeakHashMap;

import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.engine.RunConfig;

/**
 * What a controller gives each engine of one start with the plan it sends: one run id, the engine's number and how many
 * engines it starts. Every MQTT element holds one in a field (a field, not a property: SaveService writes properties
 * into the .jmx, never fields), and the first to start the run on the engine hands it to {@link RunConfig}, where a
 * property given on purpose still wins.
 *
 * <p>The values are put in as the plan is sent, not before: JMeter's controller (headless {@code jmeter -n -R} and the
 * GUI's Remote Start alike) runs no plugin code between loading the plan and sending it, but sends it by Java
 * serialisation, once per engine ({@code ClientJMeterEngine.runTest}, one engine after the other under a static lock),
 * and that calls {@link #writeObject} here. Every element of one engine's copy is written through the same stream, so
 * the engine number is counted per stream: 1 for the first engine the plan is sent to, 2 for the next. JMeter
 * serialises a plan nowhere else on a headless controller (.jmx files go through XStream's converters); in the GUI,
 * copy and paste does, so there the values are put in only between the start and the end of a Remote Start
 * ({@link RemoteStartRunId}).
 */
final class ControllerStamp implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ControllerStamp.class);
    /** What the elements of a plan hold until a controller sends it: nothing. */
    static final ControllerStamp NONE = new ControllerStamp(null, 0, 0);

    private static final Object LOCK = new Object();
    /** The start being sent (GUI: one Remote Start; headless: the controller's one test); null: none. */
    private static Start current;

    private String runId;
    private int engineNumber;
    private int engines;

    private ControllerStamp(String runId, int engineNumber, int engines) {
        this.runId = runId;
        this.engineNumber = engineNumber;
        this.engines = engines;
    }

    /** What this engine was given, for {@link RunConfig}. */
    RunConfig.FromController given() {
        return new RunConfig.FromController(runId, engineNumber, engines);
    }

    @Override
    public String toString() {
        return "run id " + runId + ", engine " + engineNumber + " of " + engines;
    }

    /**
     * Starts sending one start's plans: run id {@code runId} for {@code engines} engines (0: not known), numbered from
     * 1 in the order the plan is sent. Ends the start before it, if any.
     */
    static void begin(String runId, int engines) {
        synchronized (LOCK) {
            current = new Start(runId, engines);
        }
    }

    /** Ends the start being sent: the plan is written as it is until the next one. */
    static void end() {
        synchronized (LOCK) {
            current = null;
        }
    }

    /**
     * The stamp for the engine whose copy of the plan {@code out} writes, or null when no start is being sent (in the
     * GUI outside a Remote Start). A headless controller starts one test in its life: its start begins with the first
     * plan it sends, its engines counted from its command line.
     */
    private static ControllerStamp stampFor(ObjectOutputStream out) {
        synchronized (LOCK) {
            if (current == null) {
                if (GuiPackage.getInstance() != null) {
                    return null;
                }
                current = new Start(RunConfig.newRunId(), RemoteHosts.count(RemoteHosts.commandLine(),
                        JMeterUtils::getProperty));
                String line = "MQTT: this controller gives its engines run id " + current.runId + ", "
                        + (current.engines > 0 ? current.engines + " engine(s)" : "the number of engines unknown")
                        + ", numbered in the order it sends them the plan";
                log.info(line);
                System.out.println(line);
            }
            return current.stampFor(out);
        }
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        ControllerStamp stamp = stampFor(out);
        ControllerStamp written = stamp == null ? this : stamp;
        ObjectOutputStream.PutField fields = out.putFields();
        fields.put("runId", written.runId);
        fields.put("engineNumber", written.engineNumber);
        fields.put("engines", written.engines);
        out.writeFields();
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        ObjectInputStream.GetField fields = in.readFields();
        runId = (String) fields.get("runId", null);
        engineNumber = fields.get("engineNumber", 0);
        engines = fields.get("engines", 0);
    }

    /** One start: its run id, its engine count, and the number given to each stream that wrote the plan. */
    private static final class Start {
        final String runId;
        final int engines;
        /** Weak: a stream is done with once its plan is sent. ObjectOutputStream keeps Object's identity equality. */
        final Map<ObjectOutputStream, ControllerStamp> byStream = new WeakHashMap<>();
        int sent;

        Start(String runId, int engines) {
            this.runId = runId;
            this.engines = engines;
        }

        ControllerStamp stampFor(ObjectOutputStream out) {
            return byStream.computeIfAbsent(out, o -> new ControllerStamp(runId, ++sent, engines));
        }
    }
}

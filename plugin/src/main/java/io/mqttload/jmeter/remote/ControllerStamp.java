package io.mqttload.jmeter.remote;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;

import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.engine.RunConfig;
import io.mqttload.jmeter.run.ControllerStart;
import io.mqttload.jmeter.run.JvmRun;

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
 * ({@code gui.RemoteStartRunId}).
 */
public final class ControllerStamp implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ControllerStamp.class);
    private static final Object LOCK = new Object();

    private String runId;
    private int engineNumber;
    private int engines;

    /** What the elements of a plan hold until a controller sends it: nothing. */
    public ControllerStamp() {
    }

    /** What this engine was given, for {@link RunConfig}. */
    public RunConfig.FromController given() {
        return new RunConfig.FromController(runId, engineNumber, engines);
    }

    @Override
    public String toString() {
        return "run id " + runId + ", engine " + engineNumber + " of " + engines;
    }

    /**
     * Starts sending one start's plans, a new run of this JVM: run id {@code runId} for {@code engines} engines (0: not
     * known), numbered from 1 in the order the plan is sent.
     */
    public static void begin(String runId, int engines) {
        synchronized (LOCK) {
            JvmRun.beginNew().sending(new ControllerStart(runId, engines));
        }
    }

    /** Ends the start being sent: the plan is written as it is until the next one. */
    public static void end() {
        synchronized (LOCK) {
            JvmRun.current().sending(null);
        }
    }

    /**
     * What the engine whose copy of the plan {@code out} writes is given, or null when no start is being sent (in the
     * GUI outside a Remote Start). A headless controller starts one test in its life: its start begins with the first
     * plan it sends, its engines counted from its command line.
     */
    private static RunConfig.FromController givenTo(ObjectOutputStream out) {
        synchronized (LOCK) {
            ControllerStart start = JvmRun.current().sending();
            if (start == null) {
                if (GuiPackage.getInstance() != null) {
                    return null;
                }
                start = new ControllerStart(RunConfig.newRunId(), RemoteHosts.count(RemoteHosts.commandLine(),
                        JMeterUtils::getProperty));
                JvmRun.beginOrJoin().sending(start);
                String line = "MQTT: this controller gives its engines run id " + start.runId() + ", "
                        + (start.engines() > 0 ? start.engines() + " engine(s)" : "the number of engines unknown")
                        + ", numbered in the order it sends them the plan";
                log.info(line);
                System.out.println(line);
            }
            return start.givenTo(out);
        }
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        RunConfig.FromController given = givenTo(out);
        ObjectOutputStream.PutField fields = out.putFields();
        fields.put("runId", given == null ? runId : given.runId);
        fields.put("engineNumber", given == null ? engineNumber : given.engineNumber);
        fields.put("engines", given == null ? engines : given.engines);
        out.writeFields();
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        ObjectInputStream.GetField fields = in.readFields();
        runId = (String) fields.get("runId", null);
        engineNumber = fields.get("engineNumber", 0);
        engines = fields.get("engines", 0);
    }
}

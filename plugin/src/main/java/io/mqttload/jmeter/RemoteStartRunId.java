package io.mqttload.jmeter;

import java.awt.event.ActionEvent;
import java.util.Set;

import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.action.ActionRouter;
import org.apache.jmeter.gui.action.Command;
import org.apache.jmeter.gui.action.RemoteStart;
import org.apache.jmeter.gui.action.Start;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.engine.RunConfig;

/**
 * Gives the engines of a run started with the GUI's Run &gt; Remote Start (All) one run id. That action sends the
 * engines the plan and no {@code -G} properties, so without it each engine made up an id of its own and their
 * barriers never met.
 *
 * <p>JMeter's GUI finds this class as a {@link Command} (META-INF/services) when it starts, and its constructor asks
 * the {@link ActionRouter} to call it just before and just after {@link RemoteStart} acts, as JMeter's own CheckDirty
 * does for Exit. Before a Remote Start, every MQTT element of the GUI's plan gets one fresh id in a field;
 * RemoteStart then clones the plan (JMeter's clone copies properties only, so the elements copy the field
 * themselves) and sends the clones to every engine, where the first MQTT element to start the run reads it. A field
 * is never written by SaveService, so the id cannot end up in the user's .jmx, not even when the Remote Start saves
 * the plan first. After the action, and before a local Start, the fields are emptied again.
 */
public final class RemoteStartRunId implements Command {
    private static final Logger log = LoggerFactory.getLogger(RemoteStartRunId.class);
    private static final Set<String> STARTS = Set.of(ActionNames.REMOTE_START, ActionNames.REMOTE_START_ALL);

    /** Called once by the GUI's ActionRouter as it collects its commands. */
    public RemoteStartRunId() {
        ActionRouter router = ActionRouter.getInstance();
        router.addPreActionListener(RemoteStart.class, this::beforeRemoteAction);
        router.addPostActionListener(RemoteStart.class, this::afterRemoteAction);
        // A Remote Start that failed half-way skips the post-action listeners: a local run must not inherit its id.
        router.addPreActionListener(Start.class, e -> give(null));
    }

    private void beforeRemoteAction(ActionEvent e) {
        if (STARTS.contains(e.getActionCommand())) {
            String runId = RunConfig.newRunId();
            int elements = give(runId);
            log.info("MQTT: {} gives run id {} to the engines ({} MQTT elements carry it)", e.getActionCommand(), runId,
                    elements);
        }
    }

    private void afterRemoteAction(ActionEvent e) {
        if (STARTS.contains(e.getActionCommand())) {
            give(null);
        }
    }

    /** Sets {@code runId} (null: none) on every MQTT element of the GUI's plan; returns how many there are. */
    static int give(String runId) {
        GuiPackage gui = GuiPackage.getInstance();
        if (gui == null) {
            return 0;
        }
        int n = 0;
        for (JMeterTreeNode node : gui.getTreeModel().getNodesOfType(MqttTestStateListener.class)) {
            ((MqttTestStateListener) node.getUserObject()).runIdFromController(runId);
            n++;
        }
        return n;
    }

    /** It has no action of its own: it only listens to RemoteStart and Start. */
    @Override
    public void doAction(ActionEvent e) {
        log.debug("MQTT: {} is not an action of {}", e.getActionCommand(), getClass().getSimpleName());
    }

    @Override
    public Set<String> getActionNames() {
        return Set.of();
    }
}

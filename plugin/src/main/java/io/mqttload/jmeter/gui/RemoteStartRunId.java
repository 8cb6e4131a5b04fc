package io.mqttload.jmeter.gui;

import java.awt.event.ActionEvent;
import java.util.Set;

import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.action.ActionRouter;
import org.apache.jmeter.gui.action.Command;
import org.apache.jmeter.gui.action.RemoteStart;
import org.apache.jmeter.gui.action.Start;
import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.engine.RunConfig;
import io.mqttload.jmeter.remote.ControllerStamp;
import io.mqttload.jmeter.remote.RemoteHosts;

/**
 * Gives the engines of a run started with the GUI's Run &gt; Remote Start (All) one run id, their numbers and their
 * count. That action sends the engines the plan and no {@code -G} properties, so without it each engine made up an id
 * of its own and their barriers never met.
 *
 * <p>JMeter's GUI finds this class as a {@link Command} (META-INF/services) when it starts, and its constructor asks
 * the {@link ActionRouter} to call it just before and just after {@link RemoteStart} acts, as JMeter's own CheckDirty
 * does for Exit. Before a Remote Start it begins one start of the {@link ControllerStamp}: a fresh run id, and as many
 * engines as the action starts (every engine of {@code remote_hosts} for Remote Start All, one for Remote Start of one
 * engine); RemoteStart then sends the plan to each engine, which is when the stamp is written into its copy. After the
 * action, and before a local Start, the start is ended, so that copy and paste in the GUI carries no stamp.
 */
public final class RemoteStartRunId implements Command {
    private static final Logger log = LoggerFactory.getLogger(RemoteStartRunId.class);

    /** Called once by the GUI's ActionRouter as it collects its commands. */
    public RemoteStartRunId() {
        ActionRouter router = ActionRouter.getInstance();
        router.addPreActionListener(RemoteStart.class, this::beforeRemoteAction);
        router.addPostActionListener(RemoteStart.class, this::afterRemoteAction);
        // A Remote Start that failed half-way skips the post-action listeners: its start must not outlive it.
        router.addPreActionListener(Start.class, e -> ControllerStamp.end());
    }

    private void beforeRemoteAction(ActionEvent e) {
        if (isStart(e.getActionCommand())) {
            String runId = RunConfig.newRunId();
            int engines = ActionNames.REMOTE_START_ALL.equals(e.getActionCommand())
                    ? RemoteHosts.count(JMeterUtils.getPropDefault(RemoteHosts.PROPERTY, "127.0.0.1")) : 1;
            ControllerStamp.begin(runId, engines);
            log.info("MQTT: {} gives run id {} to the engines ({} engine(s), numbered in the order the plan is sent)",
                    e.getActionCommand(), runId, engines);
        }
    }

    private void afterRemoteAction(ActionEvent e) {
        if (isStart(e.getActionCommand())) {
            ControllerStamp.end();
        }
    }

    private static boolean isStart(String command) {
        return ActionNames.REMOTE_START.equals(command) || ActionNames.REMOTE_START_ALL.equals(command);
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

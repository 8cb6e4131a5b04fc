package io.mqttload.jmeter.run;

import java.lang.management.ManagementFactory;
import java.util.function.Function;

import org.apache.jmeter.util.JMeterUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mqttload.common.InvalidSettingException;
import io.mqttload.engine.RunConfig;
import io.mqttload.rendezvous.FleetClaim;

/**
 * Engines started with the same properties ({@code mqttload.engineNumber=auto}) claim their numbers and one run id
 * through the broker before the run starts: what a hosted JMeter service or N copies of a Kubernetes Job need, where no
 * controller gives each engine its own properties.
 */
final class FleetStart {
    private static final Logger log = LoggerFactory.getLogger(FleetStart.class);

    private FleetStart() {
    }

    /** The claim, once every engine of the fleet announced itself; null when the properties do not ask for one. */
    static FleetClaim claimIfAsked(Function<String, String> property, String scenario) {
        if (!RunConfig.claimsEngineNumber(property)) {
            return null;
        }
        RunConfig.Fleet fleet = RunConfig.fleet(property, scenario);
        String self = JMeterUtils.getLocalHostName() + " pid " + ManagementFactory.getRuntimeMXBean().getPid();
        say("MQTT fleet '" + fleet.name + "': waiting for its " + fleet.engines + " engine(s) on " + fleet.broker()
                + " (at most " + fleet.timeoutMillis / 1000 + " s)");
        try {
            FleetClaim claim = FleetClaim.claim(fleet.brokerHost, fleet.brokerPort, fleet.name, fleet.engines,
                    fleet.timeoutMillis, self);
            say("MQTT fleet '" + fleet.name + "': this engine is number " + claim.claimed().engineNumber + " of "
                    + fleet.engines + ", run " + claim.claimed().runId + " (" + String.join(", ", claim.claimed().engines)
                    + ")");
            return claim;
        } catch (IllegalStateException e) {
            throw new InvalidSettingException(RunConfig.ENGINE_NUMBER, RunConfig.CLAIM, e.getMessage(), e);
        }
    }

    private static void say(String line) {
        log.info(line);
        System.out.println(line);
    }
}

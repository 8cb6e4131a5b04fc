package io.mqttload;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import io.mqttload.jmeter.internals.JMeterInternals;

/**
 * The package tree is the architecture: no package cycles, each package uses only those below it (as its
 * package-info says), JMeter types appear only in the elements and the MQTT client library (with its Netty and
 * RxJava) only in the transport.
 */
class ArchitectureTest {
    private static final JavaClasses PLUGIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.mqttload");

    @Test
    void packages_haveNoCycles() {
        slices().matching("io.mqttload.(**)").should().beFreeOfCycles().check(PLUGIN);
    }

    @Test
    void jmeterTypes_appearOnlyInTheElements() {
        noClasses().that().resideOutsideOfPackage("io.mqttload.jmeter..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.jmeter..", "org.apache.jorphan..")
                .check(PLUGIN);
    }

    @Test
    void jmetersPrivateState_isReadInOneClass() {
        noClasses().that().doNotHaveFullyQualifiedName(JMeterInternals.class.getName())
                .should().callMethod(AccessibleObject.class, "setAccessible", boolean.class)
                .orShould().callMethod(Field.class, "setAccessible", boolean.class)
                .orShould().callMethod(Method.class, "setAccessible", boolean.class)
                .orShould().callMethod(Class.class, "getDeclaredField", String.class)
                .orShould().callMethod(Class.class, "getDeclaredMethod", String.class, Class[].class)
                .check(PLUGIN);
    }

    /**
     * The run's lifecycle, its exit status and the remote plumbing run headless on every engine: only the GUI classes
     * (JMeter names them in plans) and the panel's own parts touch Swing or AWT, and the lifecycle and the remote
     * plumbing call no GUI class (the panel follows runs through {@code EngineLifecycle.followRuns}).
     */
    @Test
    void onlyTheGuiTouchesSwing() {
        Set<String> gui = Set.of("LiveChart", "FiguresTableModel", "LiveRunModel", "MqttBeanGui", "MqttPublishSamplerGui",
                "MqttRunEndSamplerGui", "MqttRunReportGui",
                // JMeter's Remote Start is a GUI action: this listens to it.
                "RemoteStartRunId");
        Set<String> headless = Set.of("EngineLifecycle", "MqttElements", "ExitStatus", "JMeterStop", "FleetStart",
                "TestPlanName", "EngineLiveSource", "EngineWatch", "RemoteLiveFigures", "RemoteHosts", "ControllerStamp");
        noClasses().that().resideInAPackage("io.mqttload.jmeter..").and(DescribedPredicate.not(topLevelNamed(gui)))
                .should().dependOnClassesThat().resideInAnyPackage("javax.swing..", "java.awt..").check(PLUGIN);
        noClasses().that(topLevelNamed(headless)).should().dependOnClassesThat(topLevelNamed(gui)).check(PLUGIN);
    }

    /** A class, or a nested or anonymous class of one, in io.mqttload.jmeter with one of these simple names. */
    private static DescribedPredicate<JavaClass> topLevelNamed(Set<String> names) {
        return DescribedPredicate.describe("in " + names, c -> c.getPackageName().startsWith("io.mqttload.jmeter")
                && names.contains(c.getName().substring(c.getPackageName().length() + 1).split("\\$")[0]));
    }

    @Test
    void mqttClientLibrary_appearsOnlyInTheTransport() {
        noClasses().that().resideOutsideOfPackage("io.mqttload.client..")
                .should().dependOnClassesThat().resideInAnyPackage("com.hivemq..", "io.netty..", "io.reactivex..")
                .check(PLUGIN);
    }

    @Test
    void eachPackage_usesOnlyThePackagesBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("common").definedBy("io.mqttload.common..")
                .layer("measure").definedBy("io.mqttload.measure..")
                .layer("delivery").definedBy("io.mqttload.delivery..")
                .layer("client").definedBy("io.mqttload.client..")
                .layer("traffic").definedBy("io.mqttload.traffic..")
                .layer("rendezvous").definedBy("io.mqttload.rendezvous..")
                .layer("broker").definedBy("io.mqttload.broker..")
                .layer("clock").definedBy("io.mqttload.clock..")
                .layer("summary").definedBy("io.mqttload.summary..")
                .layer("engine").definedBy("io.mqttload.engine..")
                .layer("report").definedBy("io.mqttload.report")
                .layer("influx").definedBy("io.mqttload.report.influx..")
                .layer("prometheus").definedBy("io.mqttload.report.prometheus..")
                .layer("live").definedBy("io.mqttload.live..")
                .layer("sweep").definedBy("io.mqttload.sweep..")
                .layer("compare").definedBy("io.mqttload.compare..")
                .layer("jmeter").definedBy("io.mqttload.jmeter..")
                .layer("convert").definedBy("io.mqttload.convert..")
                .whereLayer("convert").mayNotBeAccessedByAnyLayer()
                .whereLayer("convert").mayOnlyAccessLayers("common")
                .whereLayer("jmeter").mayNotBeAccessedByAnyLayer()
                .whereLayer("compare").mayNotBeAccessedByAnyLayer()
                .whereLayer("sweep").mayOnlyBeAccessedByLayers("compare")
                .whereLayer("influx").mayOnlyBeAccessedByLayers("jmeter", "sweep")
                .whereLayer("prometheus").mayOnlyBeAccessedByLayers("jmeter")
                .whereLayer("live").mayOnlyBeAccessedByLayers("jmeter")
                .whereLayer("report").mayOnlyBeAccessedByLayers("jmeter", "sweep")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("influx", "prometheus", "live", "sweep", "compare", "jmeter")
                .whereLayer("summary").mayOnlyBeAccessedByLayers("engine", "report", "influx", "prometheus", "live", "sweep",
                        "compare", "jmeter")
                .whereLayer("broker").mayOnlyBeAccessedByLayers("summary", "engine", "influx", "prometheus", "sweep", "jmeter")
                .whereLayer("rendezvous").mayOnlyBeAccessedByLayers("summary", "engine", "jmeter")
                .whereLayer("clock").mayOnlyBeAccessedByLayers("summary", "engine", "report", "jmeter")
                .whereLayer("clock").mayOnlyAccessLayers("client", "measure", "common")
                .whereLayer("traffic").mayOnlyBeAccessedByLayers("engine")
                .whereLayer("traffic").mayOnlyAccessLayers("client", "delivery", "measure", "common")
                .whereLayer("client").mayOnlyBeAccessedByLayers("traffic", "rendezvous", "broker", "clock", "engine", "influx",
                        "jmeter")
                .whereLayer("client").mayOnlyAccessLayers("common")
                .whereLayer("delivery").mayOnlyAccessLayers("common", "measure")
                .whereLayer("measure").mayOnlyAccessLayers("common")
                .whereLayer("common").mayNotAccessAnyLayer()
                .check(PLUGIN);
    }
}

package io.mqttload;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.conditions.ArchConditions;

import io.mqttload.jmeter.MqttRunReportGui;
import io.mqttload.jmeter.internals.JMeterInternals;
import io.mqttload.jmeter.run.JvmRun;

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
     * The run holder, its exit status and the remote plumbing run headless on every engine: only the GUI package and
     * the GUI classes that JMeter names in plans (their names end in Gui) touch Swing or AWT; the panel follows runs
     * through {@code JvmRun.followRuns}, so nothing below it calls it.
     */
    @Test
    void onlyTheGuiTouchesSwing() {
        noClasses().that().resideInAnyPackage("io.mqttload.jmeter.run..", "io.mqttload.jmeter.remote..",
                "io.mqttload.jmeter.internals..")
                .should().dependOnClassesThat().resideInAnyPackage("javax.swing..", "java.awt..").check(PLUGIN);
        noClasses().that().resideInAPackage("io.mqttload.jmeter").and(DescribedPredicate.not(topLevelNameEndsWith("Gui")))
                .should().dependOnClassesThat().resideInAnyPackage("javax.swing..", "java.awt..").check(PLUGIN);
    }

    /**
     * The JMeter side has floors: the elements (their class names are in saved plans) over the GUI panel's parts,
     * over the remote plumbing, over the run holder, over the reflection into JMeter.
     */
    @Test
    void theJMeterSide_hasFloors() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("elements").definedBy("io.mqttload.jmeter")
                .layer("gui").definedBy("io.mqttload.jmeter.gui..")
                .layer("remote").definedBy("io.mqttload.jmeter.remote..")
                .layer("run").definedBy("io.mqttload.jmeter.run..")
                .layer("internals").definedBy("io.mqttload.jmeter.internals..")
                .whereLayer("elements").mayNotBeAccessedByAnyLayer()
                .whereLayer("gui").mayOnlyBeAccessedByLayers("elements")
                .whereLayer("remote").mayOnlyBeAccessedByLayers("elements", "gui")
                .whereLayer("run").mayOnlyBeAccessedByLayers("elements", "gui", "remote")
                .whereLayer("internals").mayOnlyBeAccessedByLayers("elements", "gui", "remote", "run")
                .check(PLUGIN);
    }

    /**
     * What one run holds is held in one place, replaced whole when the next run begins: a static field on the JMeter
     * side is a constant, never a slot a run writes and the next must remember to reset. Only the run holder and the
     * Run Report panel's own refresher (one per GUI, not per run) keep mutable statics. A collection, a map, an
     * array, an atomic or concurrent type counts as mutable even when final: what it refers to changes.
     */
    @Test
    void mutableStaticState_onlyInTheRunHolder() {
        DescribedPredicate<JavaField> allowedOwner = DescribedPredicate.describe("in the run holder or the panel",
                f -> f.getOwner().getName().startsWith(JvmRun.class.getName())
                        || f.getOwner().getName().equals(MqttRunReportGui.class.getName()));
        DescribedPredicate<JavaField> synthetic = DescribedPredicate.describe("synthetic",
                f -> f.getName().startsWith("$") || f.getModifiers().contains(JavaModifier.SYNTHETIC));
        DescribedPredicate<JavaField> holdsState = DescribedPredicate.describe("mutable static state", f -> {
            JavaClass type = f.getRawType();
            return !f.getModifiers().contains(JavaModifier.FINAL) || type.isArray()
                    || type.isAssignableTo(Collection.class) || type.isAssignableTo(Map.class)
                    || type.getPackageName().startsWith("java.util.concurrent");
        });
        noFields().that().areStatic().and().areDeclaredInClassesThat().resideInAPackage("io.mqttload.jmeter..")
                .and(DescribedPredicate.not(allowedOwner)).and(DescribedPredicate.not(synthetic))
                .should(ArchConditions.be(holdsState)).check(PLUGIN);
    }

    /** A class, or a nested or anonymous class of one, whose top-level simple name ends with {@code suffix}. */
    private static DescribedPredicate<JavaClass> topLevelNameEndsWith(String suffix) {
        return DescribedPredicate.describe("named *" + suffix, c -> c.getName()
                .substring(c.getPackageName().length() + 1).split("\\$")[0].endsWith(suffix));
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

package io.mqttload.testsupport;

import java.beans.BeanInfo;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.GenericTestBeanCustomizer;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestPlan;
import org.apache.jmeter.testelement.property.AbstractProperty;
import org.apache.jmeter.testelement.property.JMeterProperty;
import org.apache.jmeter.testelement.property.NullProperty;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.PostThreadGroup;
import org.apache.jmeter.threads.ThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;

/**
 * Builds a test plan in code, with the same element classes, names and GUI classes JMeter's GUI would write,
 * so the tree both runs in {@link JMeterTestEngine} and opens in the GUI once {@link JMeterTestEngine#save saved}.
 *
 * <pre>{@code
 * PlanBuilder plan = PlanBuilder.testPlan("connect");
 * plan.config(connectionConfig);
 * plan.threadGroup("clients", 10, 1).add(PlanBuilder.testBean(new MqttConnectSampler(), "connect"));
 * RunResult result = JMeterTestEngine.run(plan.build(), Duration.ofSeconds(30));
 * }</pre>
 */
public final class PlanBuilder {
    public static final String TEST_BEAN_GUI = "org.apache.jmeter.testbeans.gui.TestBeanGUI";
    public static final String TEST_PLAN_GUI = "org.apache.jmeter.control.gui.TestPlanGui";
    public static final String THREAD_GROUP_GUI = "org.apache.jmeter.threads.gui.ThreadGroupGui";
    public static final String ARGUMENTS_GUI = "org.apache.jmeter.config.gui.ArgumentsPanel";
    public static final String POST_THREAD_GROUP_GUI = "org.apache.jmeter.threads.gui.PostThreadGroupGui";
    public static final String LOOP_CONTROLLER_GUI = "org.apache.jmeter.control.gui.LoopControlPanel";
    /** Loop count meaning "until the thread group's duration ends". */
    public static final int FOREVER = LoopController.INFINITE_LOOP_COUNT;

    private final TestPlan testPlan;
    private final List<Node> configs = new ArrayList<>();
    private final List<ThreadGroupBuilder> threadGroups = new ArrayList<>();

    private PlanBuilder(TestPlan testPlan) {
        this.testPlan = testPlan;
    }

    public static PlanBuilder testPlan(String name) {
        // Element classes read JMeter properties in static initialisers, and BeanInfo needs the locale.
        JMeterTestEngine.initialise();
        TestPlan plan = element(new TestPlan(), name, TEST_PLAN_GUI);
        // TestPlanGui dereferences the variables element when it opens a plan, so it must exist.
        plan.setUserDefinedVariables(element(new Arguments(), "User Defined Variables", ARGUMENTS_GUI));
        return new PlanBuilder(plan);
    }

    /** Adds a user-defined variable, readable in the plan as {@code ${name}}. */
    public PlanBuilder variable(String name, String value) {
        testPlan.addParameter(name, value);
        return this;
    }

    /** The TestPlan element itself, e.g. to add user-defined variables. */
    public TestPlan testPlanElement() {
        return testPlan;
    }

    /** Adds a test-plan-level element (config element, listener, ...) with optional children, in order. */
    public PlanBuilder config(TestElement element, TestElement... children) {
        configs.add(new Node(checked(element), children));
        return this;
    }

    /** Adds a thread group whose loop controller runs {@code loops} times, or {@link #FOREVER}. */
    public ThreadGroupBuilder threadGroup(String name, int threads, int loops) {
        ThreadGroupBuilder group = new ThreadGroupBuilder(new ThreadGroup(), name, threads, loops, THREAD_GROUP_GUI);
        threadGroups.add(group);
        return group;
    }

    /**
     * Adds a tearDown Thread Group: JMeter runs it after every other thread group has ended, which is
     * where the MQTT Run End sampler belongs.
     */
    public ThreadGroupBuilder tearDownThreadGroup(String name) {
        ThreadGroupBuilder group = new ThreadGroupBuilder(new PostThreadGroup(), name, 1, 1, POST_THREAD_GROUP_GUI);
        threadGroups.add(group);
        return group;
    }

    /** A new tree each call; the elements in it are shared between calls. */
    public HashTree build() {
        ListedHashTree root = new ListedHashTree();
        HashTree planTree = root.add(testPlan);
        for (Node config : configs) {
            config.addTo(planTree);
        }
        for (ThreadGroupBuilder group : threadGroups) {
            HashTree groupTree = planTree.add(group.threadGroup);
            for (Node node : group.nodes) {
                node.addTo(groupTree);
            }
        }
        return root;
    }

    /** Names {@code element} and sets its test and GUI classes, as JMeter's GUI does when adding it. */
    public static <T extends TestElement> T element(T element, String name, String guiClass) {
        element.setName(name);
        element.setProperty(TestElement.TEST_CLASS, element.getClass().getName());
        element.setProperty(TestElement.GUI_CLASS, guiClass);
        element.setEnabled(true);
        return element;
    }

    /**
     * Like {@link #element} for a TestBean, and also stores each BeanInfo default for properties still unset,
     * because TestBeanGUI saves every default into a new element and the bean's code may rely on that.
     */
    public static <T extends TestElement> T testBean(T bean, String name) {
        // Checked here, not by the type: javac rejects the bound "TestElement & TestBean" over clone().
        if (!(bean instanceof TestBean)) {
            throw new IllegalArgumentException(bean.getClass().getName() + " is not a TestBean; use element(...)");
        }
        JMeterTestEngine.initialise();
        element(bean, name, TEST_BEAN_GUI);
        BeanInfo info;
        try {
            info = Introspector.getBeanInfo(bean.getClass());
        } catch (IntrospectionException e) {
            throw new IllegalArgumentException("no BeanInfo for " + bean.getClass().getName(), e);
        }
        for (PropertyDescriptor descriptor : info.getPropertyDescriptors()) {
            Object defaultValue = descriptor.getValue(GenericTestBeanCustomizer.DEFAULT);
            boolean defaultNotSaved = Boolean.TRUE.equals(descriptor.getValue(GenericTestBeanCustomizer.DEFAULT_NOT_SAVED));
            if (defaultValue == null || defaultNotSaved || !(bean.getProperty(descriptor.getName()) instanceof NullProperty)) {
                continue;
            }
            JMeterProperty property = AbstractProperty.createProperty(defaultValue);
            property.setName(descriptor.getName());
            bean.setProperty(property);
        }
        return bean;
    }

    private static TestElement checked(TestElement element) {
        if (element.getPropertyAsString(TestElement.TEST_CLASS).isEmpty()
                || element.getPropertyAsString(TestElement.GUI_CLASS).isEmpty()) {
            // A .jmx without them cannot be opened in the GUI, which is how plans get reviewed.
            throw new IllegalArgumentException(element.getClass().getName() + " '" + element.getName()
                    + "' has no test or GUI class; create it with PlanBuilder.element(...) or testBean(...)");
        }
        return element;
    }

    /** One thread group of the plan; {@link #and()} returns to the plan. */
    public final class ThreadGroupBuilder {
        private final ThreadGroup threadGroup;
        private final List<Node> nodes = new ArrayList<>();

        private ThreadGroupBuilder(ThreadGroup group, String name, int threads, int loops, String guiClass) {
            LoopController loop = element(new LoopController(), "Loop Controller", LOOP_CONTROLLER_GUI);
            loop.setLoops(loops);
            // The GUI's thread-group loop never "continues forever": when its loops are done, the thread ends.
            loop.setContinueForever(false);
            threadGroup = element(group, name, guiClass);
            threadGroup.setNumThreads(threads);
            threadGroup.setRampUp(0);
            threadGroup.setScheduler(false);
            threadGroup.setIsSameUserOnNextIteration(true);
            threadGroup.setProperty(AbstractThreadGroup.ON_SAMPLE_ERROR, AbstractThreadGroup.ON_SAMPLE_ERROR_CONTINUE);
            threadGroup.setSamplerController(loop);
        }

        /** Time over which all threads are started; whole seconds, rounded up. */
        public ThreadGroupBuilder rampUp(Duration rampUp) {
            threadGroup.setRampUp((int) seconds(rampUp));
            return this;
        }

        /** Turns the scheduler on: threads stop after {@code duration} (whole seconds, rounded up). */
        public ThreadGroupBuilder duration(Duration duration) {
            threadGroup.setScheduler(true);
            threadGroup.setDuration(seconds(duration));
            return this;
        }

        /** One of {@link AbstractThreadGroup}'s {@code ON_SAMPLE_ERROR_*} values. */
        public ThreadGroupBuilder onSampleError(String action) {
            threadGroup.setProperty(AbstractThreadGroup.ON_SAMPLE_ERROR, action);
            return this;
        }

        /** Adds an element (sampler, config element, ...) after the ones already added, with optional children. */
        public ThreadGroupBuilder add(TestElement element, TestElement... children) {
            nodes.add(new Node(checked(element), children));
            return this;
        }

        public ThreadGroup threadGroupElement() {
            return threadGroup;
        }

        public PlanBuilder and() {
            return PlanBuilder.this;
        }

        public HashTree build() {
            return PlanBuilder.this.build();
        }

        private long seconds(Duration duration) {
            long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
            if (seconds < 0) {
                throw new IllegalArgumentException("negative duration " + duration);
            }
            return seconds;
        }
    }

    private static final class Node {
        private final TestElement element;
        private final List<TestElement> children;

        Node(TestElement element, TestElement... children) {
            this.element = element;
            this.children = Arrays.asList(children);
            this.children.forEach(PlanBuilder::checked);
        }

        void addTo(HashTree parent) {
            HashTree subTree = parent.add(element);
            for (TestElement child : children) {
                subTree.add(child);
            }
        }
    }
}

package io.mqttload.convert;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.w3c.dom.Document;
import org.w3c.dom.Element;

import io.mqttload.convert.ConversionReport.ElementRecord;

/**
 * One conversion: reads the plan, replaces every XMeter element in place (every other element and its tree stay as
 * they were), adds the MQTT Run Report and MQTT Run End the suite's exact report needs when the plan has none, and
 * writes the plan and its report.
 */
final class PlanConversion {
    static final String CONNECT = "net.xmeter.samplers.ConnectSampler";
    static final String PUB = "net.xmeter.samplers.PubSampler";
    static final String SUB = "net.xmeter.samplers.SubSampler";
    static final String DISCONNECT = "net.xmeter.samplers.DisConnectSampler";
    static final String EFFICIENT_CONNECT = "net.xmeter.samplers.EfficientConnectSampler";
    static final String EFFICIENT_DISCONNECT = "net.xmeter.samplers.EfficientDisConnectSampler";
    static final String LEGACY_CONNECTION = "net.xmeter.samplers.ConnectionSampler";
    static final String RUN_REPORT = "io.mqttload.jmeter.MqttRunReport";
    static final String RUN_END = "io.mqttload.jmeter.MqttRunEndSampler";
    /** Connection properties that only pre-1.0 Pub and Sub samplers carried (each opened its own connection). */
    private static final Set<String> LEGACY_PUB_SUB = Set.of("mqtt.server", "mqtt.port", "mqtt.keep_time",
            "mqtt.conn_share", "mqtt.conn_timeout", "mqtt.protocol", "mqtt.client_id_prefix", "mqtt.conn_elapsed_time");

    /** Properties of XMeter's unmerged pull requests that the converter does not map, and what to do instead. */
    private static final Map<String, String> UNMAPPED_HINTS = Map.of(
            "mqtt.ca_file_path", "not converted: put the broker's CA in a trust store and set trustStorePath and "
                    + "trustStorePassword on the MQTT Connection by hand",
            "mqtt.client_cert_file_path", "not converted: put the client certificate and key in a PKCS#12 store and set "
                    + "keyStorePath and keyStorePassword on the MQTT Connection by hand",
            "mqtt.client_key_file_path", "not converted: put the client certificate and key in a PKCS#12 store and set "
                    + "keyStorePath and keyStorePassword on the MQTT Connection by hand",
            "mqtt.ws_header", "the suite sends no extra WebSocket headers");

    /** JMeter's controllers that run their children more than once (besides thread groups). */
    private static final Set<String> LOOPS = Set.of("LoopController", "WhileController", "ForeachController", "RunTime");

    private PlanConversion() {
    }

    /** The default output: {@code <input name>.mqttload.jmx} next to the input. */
    static Path defaultOutput(Path input) {
        return input.toAbsolutePath().normalize().resolveSibling(stem(input) + ".mqttload.jmx");
    }

    /** {@code <output without .jmx>.conversion.md}, next to the output. */
    static Path reportFile(Path output) {
        return output.toAbsolutePath().normalize().resolveSibling(stem(output) + ".conversion.md");
    }

    private static String stem(Path file) {
        Path fileName = file.toAbsolutePath().normalize().getFileName();
        String name = fileName == null ? "plan" : fileName.toString();
        return name.toLowerCase(Locale.ROOT).endsWith(".jmx") ? name.substring(0, name.length() - 4) : name;
    }

    /**
     * Converts {@code input} into {@code output} and writes the report next to it.
     *
     * @throws InvalidPlanException the input cannot be read as a JMeter plan, or holds nothing of XMeter's
     * @throws IOException          the output cannot be written
     */
    static ConversionReport convert(Path input, Path output) throws InvalidPlanException, IOException {
        Path in = input.toAbsolutePath().normalize();
        Path out = output.toAbsolutePath().normalize();
        if (Files.isDirectory(in)) {
            throw new InvalidPlanException(input + " is a directory, not a .jmx file");
        }
        Document doc = Jmx.parse(in);
        if (in.equals(out) || Files.exists(out) && Files.isSameFile(in, out)) {
            throw new InvalidPlanException(input + ": the output would overwrite the input; give another with -o");
        }
        Element planTree = planTree(doc, input);
        List<XmeterElement> found = new ArrayList<>();
        Element top = Jmx.children(doc.getDocumentElement()).get(0);
        walk(top, "", found);
        if (found.isEmpty()) {
            throw new InvalidPlanException(input + " holds no XMeter element (net.xmeter.*): nothing to convert");
        }

        Path dir = out.getParent();
        if (dir == null) {
            throw new InvalidPlanException(output + ": not a file name for the converted plan");
        }
        Files.createDirectories(dir);
        ConversionReport report = new ConversionReport(in, out, reportFile(out));
        SuiteElements suite = new SuiteElements(doc);
        ConnectMapping connect = new ConnectMapping(suite);
        PublishMapping publish = new PublishMapping(suite, dir, stem(out));
        SubscribeMapping subscribe = new SubscribeMapping(suite);
        for (XmeterElement x : found) {
            ElementRecord r = report.element(x);
            switch (x.className) {
                case CONNECT:
                case EFFICIENT_CONNECT:
                    boolean efficient = x.className.equals(EFFICIENT_CONNECT);
                    boolean once = connectsOnEveryPass(x, efficient ? EFFICIENT_DISCONNECT : DISCONNECT);
                    connect.convert(x, r, efficient, once);
                    if (once) {
                        report.added.add("Once Only Controller " + ConversionReport.code(x.testname + ": connect once")
                                + " around the MQTT Connect " + ConversionReport.code(x.testname) + " (" + x.path
                                + "): XMeter keeps a thread's connection from pass to pass, the suite's MQTT Connect "
                                + "would add clients with the same ids on every pass.");
                    }
                    break;
                case PUB:
                case SUB:
                    if (LEGACY_PUB_SUB.stream().anyMatch(x::has)) {
                        notConverted(x, r, suite, "a pre-1.0 XMeter " + x.shortClass() + " that opens its own "
                                + "connection (it carries connection properties); rebuild it as Connect, then Pub or Sub");
                    } else if (x.className.equals(PUB)) {
                        publish.convert(x, r, report);
                    } else {
                        subscribe.convert(x, r);
                    }
                    break;
                case DISCONNECT:
                    disconnect(x, r, suite, "default");
                    break;
                case EFFICIENT_DISCONNECT:
                    disconnect(x, r, suite, ConnectMapping.EFFICIENT_GROUP);
                    break;
                case LEGACY_CONNECTION:
                    notConverted(x, r, suite, "XMeter's pre-1.0 ConnectionSampler (a connection held for mqtt.keep_time "
                            + "seconds) has no counterpart: rebuild it as MQTT Connect, a pause, MQTT Disconnect");
                    break;
                default:
                    notConverted(x, r, suite, "an XMeter element this converter does not know");
                    break;
            }
            if (r.notConverted == null) {
                if (x.has(XmeterElement.COMMENTS)) {
                    r.mapped(XmeterElement.COMMENTS, x.take(XmeterElement.COMMENTS), "kept as the comment of "
                            + ConversionReport.code(x.testname));
                }
                for (Map.Entry<String, XmeterElement.Prop> p : x.untaken().entrySet()) {
                    String hint = UNMAPPED_HINTS.get(p.getKey());
                    r.notConverted(p.getKey(), p.getValue().value, "unknown " + p.getValue().type + " of "
                            + x.shortClass() + ": no XMeter release has it" + (hint == null
                            ? ", and the converter knows no counterpart in the suite" : "; " + hint));
                }
            }
        }
        addRunReport(doc, planTree, suite, report);
        // The payload files after the plan, so that a conversion that fails leaves nothing behind.
        List<Path> written = new ArrayList<>();
        try {
            Jmx.write(doc, out);
            written.add(out);
            written.addAll(publish.writeFiles());
            Files.writeString(report.reportFile, report.markdown(), StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            PublishMapping.deleteQuietly(written);
            throw e;
        }
        return report;
    }

    /**
     * Whether the converted Connect {@code x} needs a Once Only Controller: XMeter keeps a thread's connection from
     * pass to pass (a second Connect fails), the suite's MQTT Connect adds clients on every pass. None is needed when
     * the Connect is in a Once Only Controller already, when the loop around it is a thread group of one iteration, or
     * when a DisConnect of its kind follows it within that loop (the thread connects and disconnects on every pass,
     * which XMeter allows).
     */
    static boolean connectsOnEveryPass(XmeterElement x, String disconnectClass) {
        Element current = x.slot.element();
        boolean inLoop = true;
        while (current.getParentNode() instanceof Element) {
            Element tree = (Element) current.getParentNode();
            if (inLoop && disconnectFollows(current, disconnectClass)) {
                return false;
            }
            Element owner = Jmx.isHashTree(tree) ? previousElement(tree) : null;
            if (owner == null) {
                break;
            }
            String kind = owner.getAttribute("testclass").isEmpty() ? owner.getTagName() : owner.getAttribute("testclass");
            if (kind.equals("OnceOnlyController")) {
                return false;
            }
            if (inLoop && kind.endsWith("ThreadGroup") && "1".equals(loops(owner))) {
                return false;
            }
            boolean onePass = kind.equals("LoopController") && "1".equals(property(owner, "LoopController.loops"));
            if (kind.endsWith("ThreadGroup") || LOOPS.contains(kind) && !onePass) {
                inLoop = false;
            }
            current = owner;
        }
        return true;
    }

    /** Whether an enabled {@code disconnectClass} element comes after {@code e} in its tree (at any depth). */
    private static boolean disconnectFollows(Element e, String disconnectClass) {
        for (Element next = Jmx.nextElement(e); next != null; next = Jmx.nextElement(next)) {
            if (isEnabled(next, disconnectClass)) {
                return true;
            }
            org.w3c.dom.NodeList inside = next.getElementsByTagName("*");
            for (int i = 0; i < inside.getLength(); i++) {
                if (isEnabled((Element) inside.item(i), disconnectClass)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isEnabled(Element e, String className) {
        return className.equals(xmeterClass(e)) && !"false".equalsIgnoreCase(e.getAttribute("enabled").trim());
    }

    /** The element before {@code node} among its siblings, or null. */
    private static Element previousElement(Element node) {
        for (org.w3c.dom.Node n = node.getPreviousSibling(); n != null; n = n.getPreviousSibling()) {
            if (n instanceof Element) {
                return (Element) n;
            }
        }
        return null;
    }

    /** The text of {@code e}'s property {@code name}, trimmed, or null. */
    private static String property(Element e, String name) {
        for (Element p : Jmx.children(e)) {
            if (name.equals(p.getAttribute("name"))) {
                return p.getTextContent().trim();
            }
        }
        return null;
    }

    /** The loop count of a thread group's main controller, trimmed, or null. */
    private static String loops(Element threadGroup) {
        for (Element p : Jmx.children(threadGroup)) {
            if ("ThreadGroup.main_controller".equals(p.getAttribute("name"))) {
                for (Element q : Jmx.children(p)) {
                    if ("LoopController.loops".equals(q.getAttribute("name"))) {
                        return q.getTextContent().trim();
                    }
                }
            }
        }
        return null;
    }

    /** The tree of the plan's TestPlan element: {@code jmeterTestPlan > hashTree > (TestPlan, hashTree)}. */
    private static Element planTree(Document doc, Path input) throws InvalidPlanException {
        Element root = doc.getDocumentElement();
        if (!root.getTagName().equals("jmeterTestPlan")) {
            throw new InvalidPlanException(input + " is not a JMeter plan: its root element is <" + root.getTagName()
                    + ">, a .jmx file's is <jmeterTestPlan>");
        }
        List<Element> top = Jmx.children(root);
        if (top.isEmpty() || !Jmx.isHashTree(top.get(0))) {
            throw new InvalidPlanException(input + " is not a JMeter plan: <jmeterTestPlan> does not start with a "
                    + "<hashTree>");
        }
        List<Element> plan = Jmx.children(top.get(0));
        if (plan.isEmpty() || !plan.get(0).getTagName().equals("TestPlan")) {
            throw new InvalidPlanException(input + " is not a JMeter plan: its tree does not start with a <TestPlan>");
        }
        Element tree = Jmx.nextElement(plan.get(0));
        if (!Jmx.isHashTree(tree)) {
            throw new InvalidPlanException(input + " is not a JMeter plan: the <TestPlan> has no <hashTree> after it");
        }
        return tree;
    }

    private static void walk(Element tree, String path, List<XmeterElement> found) {
        for (Element e : Jmx.children(tree)) {
            if (Jmx.isHashTree(e)) {
                continue;
            }
            String name = e.getAttribute("testname");
            String here = path.isEmpty() ? name : path + " > " + name;
            Element children = Jmx.nextElement(e);
            String className = xmeterClass(e);
            if (className != null) {
                found.add(new XmeterElement(new Jmx.Slot(e), className, path));
            }
            if (Jmx.isHashTree(children)) {
                walk(children, here, found);
            }
        }
    }

    /** The XMeter class of {@code e} (its tag, or its testclass when the tag is an alias), or null. */
    private static String xmeterClass(Element e) {
        if (e.getTagName().startsWith(XmeterElement.PACKAGE)) {
            return e.getTagName();
        }
        String testclass = e.getAttribute("testclass");
        return testclass.startsWith(XmeterElement.PACKAGE) ? testclass : null;
    }

    private static void disconnect(XmeterElement x, ElementRecord r, SuiteElements suite, String group) {
        SuiteElements.Bean d = suite.disconnect(x.testname, x.enabled).comments(x.take(XmeterElement.COMMENTS));
        d.set("clientGroup", group);
        x.slot.replace(d.build());
        r.became = "MQTT Disconnect " + ConversionReport.code(x.testname) + " (client group " + ConversionReport.code(group)
                + ")";
        r.notes.add("Before it disconnects, the suite lets the thread's subscribers receive every message already "
                + "acknowledged to the publishers (up to drainTimeoutMs, 10 s), so the counts are exact; XMeter "
                + "disconnects at once.");
    }

    /**
     * Puts a disabled Simple Controller where the element was (JMeter could not load the plan with a class it does not
     * have), with the element's class and properties in its comment; the element's children stay under it.
     */
    private static void notConverted(XmeterElement x, ElementRecord r, SuiteElements suite, String why) {
        StringBuilder comment = new StringBuilder("Not converted from ").append(x.className).append(": ").append(why)
                .append('.');
        for (Map.Entry<String, XmeterElement.Prop> p : x.all().entrySet()) {
            x.take(p.getKey());
            comment.append('\n').append(p.getKey()).append(" = ").append(Values.shownValue(p.getKey(), p.getValue().value));
            r.notConverted(p.getKey(), p.getValue().value, "the element is not converted");
        }
        x.slot.replace(suite.placeholder("NOT CONVERTED: " + x.testname, comment.toString()));
        r.notConverted = why + "; in its place a disabled Simple Controller " + ConversionReport.code("NOT CONVERTED: "
                + x.testname) + " keeps its children and lists its properties";
    }

    /** Adds what the suite's exact end-of-run report needs, when the plan has it not: the listener and Run End. */
    private static void addRunReport(Document doc, Element planTree, SuiteElements suite, ConversionReport report) {
        if (doc.getElementsByTagName(RUN_REPORT).getLength() == 0) {
            Jmx.Slot.append(planTree, suite.runReport("MQTT Run Report").build());
            report.added.add("MQTT Run Report (`" + RUN_REPORT + "`) at test plan level: at the end of the run it prints "
                    + "and writes the exact report over every engine (rates, latency percentiles, expected and received "
                    + "messages, the loss verdict) to mqttload-results/.");
        }
        if (doc.getElementsByTagName(RUN_END).getLength() == 0) {
            Jmx.Slot group = Jmx.Slot.append(planTree, suite.tearDownThreadGroup("MQTT run end"));
            group.prependChild(suite.runEnd("MQTT Run End").build());
            report.added.add("tearDown Thread Group `MQTT run end` with MQTT Run End (`" + RUN_END + "`): after the "
                    + "load threads it drains what subscribers are still owed, closes every client and hands the "
                    + "engine's summary to the Run Report.");
        }
    }
}

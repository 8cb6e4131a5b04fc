package io.mqttload.convert;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** One run of the converter's command on a plan, and the plan it wrote, read back as XML. */
final class Converted {
    final int exitCode;
    final String out;
    final String err;
    final Path plan;
    final Path report;
    private Document doc;

    private Converted(int exitCode, String out, String err, Path plan, Path report) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
        this.plan = plan;
        this.report = report;
    }

    /** Writes {@code xml} as {@code in.jmx} in {@code dir} and converts it to {@code out.jmx}. */
    static Converted convert(Path dir, String xml) {
        Path in = XmeterPlans.write(dir, "in.jmx", xml);
        return run(dir.resolve("out.jmx"), in.toString(), "-o", dir.resolve("out.jmx").toString());
    }

    static Converted run(Path plan, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = XmeterConverter.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Converted(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), plan,
                PlanConversion.reportFile(plan));
    }

    Document doc() {
        if (doc == null) {
            try {
                doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(plan.toFile());
            } catch (Exception e) {
                throw new AssertionError("the converted plan " + plan + " is not XML: " + e, e);
            }
        }
        return doc;
    }

    String reportText() {
        try {
            return Files.readString(report, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String planText() {
        try {
            return Files.readString(plan, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The elements with this tag, in document order. */
    List<Element> all(String tag) {
        NodeList nodes = doc().getElementsByTagName(tag);
        List<Element> list = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            list.add((Element) nodes.item(i));
        }
        return list;
    }

    /** The one element with this tag and name. */
    Element element(String tag, String testname) {
        List<Element> found = new ArrayList<>();
        for (Element e : all(tag)) {
            if (e.getAttribute("testname").equals(testname)) {
                found.add(e);
            }
        }
        assertThat(found).as("<%s testname=\"%s\"> in %s", tag, testname, plan).hasSize(1);
        return found.get(0);
    }

    Element suite(String simpleClass, String testname) {
        return element("io.mqttload.jmeter." + simpleClass, testname);
    }

    /** The text of the property {@code name} of {@code e}; fails when it has none. */
    static String prop(Element e, String name) {
        for (Element p : Jmx.children(e)) {
            if (p.getAttribute("name").equals(name)) {
                return p.getTextContent();
            }
        }
        throw new AssertionError(e.getTagName() + " '" + e.getAttribute("testname") + "' has no property " + name);
    }

    /** The test elements in {@code e}'s hashTree (its children in the plan). */
    static List<Element> childrenOf(Element e) {
        Element tree = Jmx.nextElement(e);
        assertThat(Jmx.isHashTree(tree)).as("a hashTree after %s", e.getAttribute("testname")).isTrue();
        List<Element> kids = new ArrayList<>();
        for (Element k : Jmx.children(tree)) {
            if (!Jmx.isHashTree(k)) {
                kids.add(k);
            }
        }
        return kids;
    }

    /** The test element right after {@code e}'s hashTree (its next sibling in the plan). */
    static Element nextSibling(Element e) {
        Element next = Jmx.nextElement(Jmx.nextElement(e));
        assertThat(next).as("an element after %s", e.getAttribute("testname")).isNotNull();
        return next;
    }
}

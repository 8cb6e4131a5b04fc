package io.mqttload.convert;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.w3c.dom.Element;

/**
 * One XMeter element as the plan holds it: class, name, and its properties by name in file order. A mapping
 * {@link #take takes} each property it knows; whatever nobody took is reported as unknown, so no property is dropped
 * without a line in the report.
 */
final class XmeterElement {
    static final String PACKAGE = "net.xmeter.";
    static final String COMMENTS = "TestPlan.comments";

    /** A property's type (its tag, e.g. {@code stringProp}) and its text. */
    static final class Prop {
        final String type;
        final String value;

        Prop(String type, String value) {
            this.type = type;
            this.value = value;
        }
    }

    final Jmx.Slot slot;
    final String className;
    final String testname;
    final boolean enabled;
    final String path;
    private final Map<String, Prop> props = new LinkedHashMap<>();
    private final Set<String> taken = new LinkedHashSet<>();

    XmeterElement(Jmx.Slot slot, String className, String path) {
        Element e = slot.element();
        this.slot = slot;
        this.className = className;
        this.testname = e.getAttribute("testname");
        this.enabled = !"false".equalsIgnoreCase(e.getAttribute("enabled").trim());
        this.path = path;
        for (Element p : Jmx.children(e)) {
            String name = p.getAttribute("name");
            // An elementProp or collectionProp nests its value; its text is enough to name it in the report.
            props.put(name.isEmpty() ? "<" + p.getTagName() + ">" : name, new Prop(p.getTagName(), p.getTextContent()));
        }
    }

    /** The class name without XMeter's package, e.g. {@code samplers.PubSampler}. */
    String shortClass() {
        return className.startsWith(PACKAGE) ? className.substring(PACKAGE.length()) : className;
    }

    boolean has(String name) {
        return props.containsKey(name);
    }

    /** Marks {@code name} as known and returns its text, or null when the plan leaves it out. */
    String take(String name) {
        taken.add(name);
        Prop p = props.get(name);
        return p == null ? null : p.value;
    }

    /** The first of {@code names} the plan has (marking all as known), or null. */
    String takeEither(String... names) {
        String found = null;
        for (String n : names) {
            String v = take(n);
            if (found == null && v != null) {
                found = v;
            }
        }
        return found;
    }

    /** The first of {@code names} the plan has, or the first name. */
    String nameOf(String... names) {
        for (String n : names) {
            if (props.containsKey(n)) {
                return n;
            }
        }
        return names[0];
    }

    Prop prop(String name) {
        return props.get(name);
    }

    /** Properties no mapping took, in file order. */
    Map<String, Prop> untaken() {
        Map<String, Prop> rest = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            if (!taken.contains(k)) {
                rest.put(k, v);
            }
        });
        return rest;
    }

    Map<String, Prop> all() {
        return props;
    }

    /** XMeter reads flags with {@code Boolean.parseBoolean}: only "true", in any case, is true. */
    static boolean isTrue(String value) {
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("true");
    }
}

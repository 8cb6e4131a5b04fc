package io.mqttload.convert;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Comment;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.w3c.dom.ProcessingInstruction;
import org.w3c.dom.Text;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * A .jmx file as a DOM: reading and writing it, and the few edits the converter makes to a {@code hashTree}. A JMeter
 * plan is a {@code hashTree} whose children come in pairs, each test element followed by the {@code hashTree} of its
 * children; every edit here keeps that pairing and the file's indentation, and leaves other nodes as they were.
 */
final class Jmx {
    static final String HASH_TREE = "hashTree";
    /** The order JMeter writes its attributes in; the DOM keeps none. */
    private static final List<String> ATTRIBUTE_ORDER = List.of("version", "properties", "jmeter", "name", "elementType",
            "guiclass", "testclass", "testname", "enabled");
    /** Properties XStream writes with a value, even an empty one: {@code <stringProp name="x"></stringProp>}. */
    private static final List<String> VALUE_PROPS = List.of("stringProp", "boolProp", "intProp", "longProp", "floatProp",
            "doubleProp");
    private static final String STEP = "  ";
    /** User data of a parsed document: the input's line separator, which {@link #write} keeps. */
    private static final String LINE_SEPARATOR = "io.mqttload.convert.lineSeparator";

    private Jmx() {
    }

    /** Parses {@code file}; DOCTYPEs are refused, so a plan cannot make the converter read other files. */
    static Document parse(Path file) throws InvalidPlanException {
        DocumentBuilder builder;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            builder = factory.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a standard feature: " + e.getMessage(), e);
        }
        // The default handler prints "[Fatal Error]" lines to stderr besides throwing.
        builder.setErrorHandler(new ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {
                // Warnings do not make the plan unreadable.
            }

            @Override
            public void error(SAXParseException e) throws SAXException {
                throw e;
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXException {
                throw e;
            }
        });
        try (InputStream in = Files.newInputStream(file)) {
            Document doc = builder.parse(in, file.toUri().toString());
            // XML reads CRLF as LF; a plan saved on Windows is written back with CRLF.
            if (startsWithCrlfLine(file)) {
                doc.setUserData(LINE_SEPARATOR, "\r\n", null);
            }
            return doc;
        } catch (NoSuchFileException e) {
            throw new InvalidPlanException(file + ": no such file");
        } catch (SAXParseException e) {
            throw new InvalidPlanException(file + " is not well-formed XML: line " + e.getLineNumber() + ", column "
                    + e.getColumnNumber() + ": " + e.getMessage(), e);
        } catch (SAXException e) {
            throw new InvalidPlanException(file + " is not XML: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InvalidPlanException(file + " cannot be read: " + e, e);
        }
    }

    /**
     * Writes the plan as JMeter's SaveService (XStream) does: its attribute order, its escapes, empty properties as
     * {@code <stringProp name="x"></stringProp>}, other empty elements closed at once. An element the conversion did
     * not touch is so written byte for byte as JMeter saved it.
     */
    static void write(Document document, Path file) throws IOException {
        StringBuilder xml = new StringBuilder(64 * 1024);
        xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        for (Node n = document.getFirstChild(); n != null; n = n.getNextSibling()) {
            writeNode(n, xml);
            if (n instanceof Element || n instanceof Comment) {
                xml.append('\n');
            }
        }
        String text = xml.toString();
        if ("\r\n".equals(document.getUserData(LINE_SEPARATOR))) {
            text = text.replace("\n", "\r\n");
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Whether the file's first line ends with CRLF. */
    private static boolean startsWithCrlfLine(Path file) throws IOException {
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        for (int i = 0; i < n; i++) {
            if (head[i] == '\n') {
                return i > 0 && head[i - 1] == '\r';
            }
        }
        return false;
    }

    private static void writeNode(Node n, StringBuilder xml) {
        if (n instanceof Element) {
            writeElement((Element) n, xml);
        } else if (n instanceof Text) {
            escape(n.getNodeValue(), xml);
        } else if (n instanceof Comment) {
            xml.append("<!--").append(n.getNodeValue()).append("-->");
        } else if (n instanceof ProcessingInstruction) {
            xml.append("<?").append(((ProcessingInstruction) n).getTarget()).append(' ')
                    .append(((ProcessingInstruction) n).getData()).append("?>");
        }
    }

    private static void writeElement(Element e, StringBuilder xml) {
        xml.append('<').append(e.getTagName());
        NamedNodeMap attributes = e.getAttributes();
        List<String> names = new ArrayList<>();
        for (String known : ATTRIBUTE_ORDER) {
            if (e.hasAttribute(known)) {
                names.add(known);
            }
        }
        for (int i = 0; i < attributes.getLength(); i++) {
            String name = attributes.item(i).getNodeName();
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        for (String name : names) {
            xml.append(' ').append(name).append("=\"");
            escape(e.getAttribute(name), xml);
            xml.append('"');
        }
        if (e.getFirstChild() == null && !VALUE_PROPS.contains(e.getTagName())) {
            xml.append("/>");
            return;
        }
        xml.append('>');
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            writeNode(n, xml);
        }
        xml.append("</").append(e.getTagName()).append('>');
    }

    /** XStream's escapes: the five entities, carriage returns and other control characters as references. */
    private static void escape(String text, StringBuilder xml) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&':
                    xml.append("&amp;");
                    break;
                case '<':
                    xml.append("&lt;");
                    break;
                case '>':
                    xml.append("&gt;");
                    break;
                case '"':
                    xml.append("&quot;");
                    break;
                case '\'':
                    xml.append("&apos;");
                    break;
                case '\r':
                    xml.append("&#xd;");
                    break;
                default:
                    if (c < 0x20 && c != '\t' && c != '\n') {
                        xml.append("&#x").append(Integer.toHexString(c)).append(';');
                    } else {
                        xml.append(c);
                    }
                    break;
            }
        }
    }

    static List<Element> children(Element parent) {
        List<Element> list = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                list.add((Element) n);
            }
        }
        return list;
    }

    static Element nextElement(Node node) {
        for (Node n = node.getNextSibling(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                return (Element) n;
            }
        }
        return null;
    }

    static boolean isHashTree(Element e) {
        return e != null && HASH_TREE.equals(e.getTagName());
    }

    /** A test element with JMeter's four attributes, as JMeter saves them. */
    static Element testElement(Document doc, String tag, String guiclass, String testclass, String testname,
            boolean enabled) {
        Element e = doc.createElement(tag);
        e.setAttribute("guiclass", guiclass);
        e.setAttribute("testclass", testclass);
        e.setAttribute("testname", testname);
        e.setAttribute("enabled", Boolean.toString(enabled));
        return e;
    }

    static Element prop(Element owner, String type, String name, String value) {
        Element p = owner.getOwnerDocument().createElement(type);
        p.setAttribute("name", name);
        p.setTextContent(value);
        owner.appendChild(p);
        return p;
    }

    /** The indentation of {@code node}: what follows the last line break of the whitespace before it. */
    static String indentOf(Node node) {
        Node before = node.getPreviousSibling();
        if (before instanceof Text) {
            String s = before.getNodeValue();
            int nl = s.lastIndexOf('\n');
            if (nl >= 0 && s.substring(nl + 1).isBlank()) {
                return s.substring(nl + 1);
            }
        }
        return "";
    }

    /** Puts each child of a new element on a line of its own, one step deeper than {@code indent}. */
    static void layout(Element element, String indent) {
        List<Element> kids = children(element);
        if (kids.isEmpty()) {
            return;
        }
        Document doc = element.getOwnerDocument();
        String inner = indent + STEP;
        for (Element kid : kids) {
            element.insertBefore(doc.createTextNode("\n" + inner), kid);
            layout(kid, inner);
        }
        element.appendChild(doc.createTextNode("\n" + indent));
    }

    /** Indents a moved subtree one step deeper, touching only the whitespace between elements. */
    static void shift(Element element) {
        if (children(element).isEmpty()) {
            return;
        }
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Text && n.getNodeValue().isBlank() && n.getNodeValue().indexOf('\n') >= 0) {
                n.setNodeValue(n.getNodeValue() + STEP);
            } else if (n instanceof Element) {
                shift((Element) n);
            }
        }
    }

    /**
     * One test element and its {@code hashTree} in the tree that holds them, and the edits that replace or surround
     * them. The tree is created when a hand-edited file left it out.
     */
    static final class Slot {
        private final Element parentTree;
        private Element element;
        private Element tree;

        Slot(Element element) {
            this.element = element;
            this.parentTree = (Element) element.getParentNode();
            Element next = nextElement(element);
            if (isHashTree(next)) {
                tree = next;
            } else {
                tree = element.getOwnerDocument().createElement(HASH_TREE);
                parentTree.insertBefore(tree, element.getNextSibling());
                parentTree.insertBefore(element.getOwnerDocument().createTextNode("\n" + indent()), tree);
            }
        }

        Element element() {
            return element;
        }

        Element tree() {
            return tree;
        }

        /** Read when needed: an enclosing conversion may have moved the element one step deeper. */
        private String indent() {
            return indentOf(element);
        }

        /** Puts {@code replacement} where the element was; the element's children stay its children. */
        void replace(Element replacement) {
            String indent = indent();
            parentTree.replaceChild(replacement, element);
            layout(replacement, indent);
            element = replacement;
        }

        /** Adds {@code child}, with an empty tree of its own, as the element's first child. */
        void prependChild(Element child) {
            String indent = indent();
            Document doc = tree.getOwnerDocument();
            String inner = indent + STEP;
            Element childTree = doc.createElement(HASH_TREE);
            layout(child, inner);
            Node first = tree.getFirstChild();
            if (children(tree).isEmpty()) {
                while (tree.getFirstChild() != null) {
                    tree.removeChild(tree.getFirstChild());
                }
                tree.appendChild(doc.createTextNode("\n" + inner));
                tree.appendChild(child);
                tree.appendChild(doc.createTextNode("\n" + inner));
                tree.appendChild(childTree);
                tree.appendChild(doc.createTextNode("\n" + indent));
                return;
            }
            // The whitespace before the first child stays there and now indents the new one.
            Node anchor = first instanceof Text ? first.getNextSibling() : first;
            tree.insertBefore(child, anchor);
            tree.insertBefore(doc.createTextNode("\n" + inner), anchor);
            tree.insertBefore(childTree, anchor);
            tree.insertBefore(doc.createTextNode("\n" + inner), anchor);
        }

        /** Adds {@code sibling}, with an empty tree of its own, right after this element's tree. */
        void insertAfter(Element sibling) {
            String indent = indent();
            Document doc = tree.getOwnerDocument();
            Element siblingTree = doc.createElement(HASH_TREE);
            layout(sibling, indent);
            Node after = tree.getNextSibling();
            parentTree.insertBefore(doc.createTextNode("\n" + indent), after);
            parentTree.insertBefore(sibling, after);
            parentTree.insertBefore(doc.createTextNode("\n" + indent), after);
            parentTree.insertBefore(siblingTree, after);
        }

        /**
         * Puts {@code controller} where the element was and {@code inner} as the controller's only child, with the
         * element's children as its own: {@code controller { inner { children } }}.
         */
        Slot wrap(Element controller, Element inner) {
            String indent = indent();
            Document doc = tree.getOwnerDocument();
            String innerIndent = indent + STEP;
            Element controllerTree = doc.createElement(HASH_TREE);
            parentTree.replaceChild(controller, element);
            layout(controller, indent);
            parentTree.replaceChild(controllerTree, tree);
            layout(inner, innerIndent);
            shift(tree);
            controllerTree.appendChild(doc.createTextNode("\n" + innerIndent));
            controllerTree.appendChild(inner);
            controllerTree.appendChild(doc.createTextNode("\n" + innerIndent));
            controllerTree.appendChild(tree);
            controllerTree.appendChild(doc.createTextNode("\n" + indent));
            Element innerTree = tree;
            element = controller;
            tree = controllerTree;
            return new Slot(inner, innerTree);
        }

        private Slot(Element element, Element tree) {
            this.element = element;
            this.tree = tree;
            this.parentTree = (Element) element.getParentNode();
        }

        /** Appends {@code element} and an empty tree at the end of {@code tree}, one step deeper than the tree. */
        static Slot append(Element tree, Element element) {
            Document doc = tree.getOwnerDocument();
            String treeIndent = indentOf(tree);
            String inner = treeIndent + STEP;
            Node last = tree.getLastChild();
            if (last instanceof Text && last.getNodeValue().isBlank()) {
                tree.removeChild(last);
            }
            layout(element, inner);
            Element elementTree = doc.createElement(HASH_TREE);
            tree.appendChild(doc.createTextNode("\n" + inner));
            tree.appendChild(element);
            tree.appendChild(doc.createTextNode("\n" + inner));
            tree.appendChild(elementTree);
            tree.appendChild(doc.createTextNode("\n" + treeIndent));
            return new Slot(element, elementTree);
        }
    }
}

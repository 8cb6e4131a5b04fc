package io.mqttload.report;

import java.io.IOException;
import java.io.StringWriter;
import java.util.Locale;
import java.util.Map;

import freemarker.ext.beans.BeansWrapper;
import freemarker.template.Configuration;
import freemarker.template.DefaultObjectWrapperBuilder;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import freemarker.template.TemplateHashModel;
import freemarker.template.TemplateModelException;

/**
 * The HTML pages' templates (FreeMarker, which JMeter's own dashboard uses and ships in {@code lib/}): {@code .ftlh}
 * files under {@code /io/mqttload/report/templates}, escaped for HTML automatically; a template that needs markup
 * from Java (a chart drawn for SVG and PNG alike) says so with {@code ?no_esc}.
 */
public final class Templates {
    private static final Configuration CONFIG = configuration();

    private Templates() {
    }

    private static Configuration configuration() {
        Configuration c = new Configuration(Configuration.VERSION_2_3_32);
        c.setClassForTemplateLoading(Templates.class, "/io/mqttload/report/templates");
        c.setDefaultEncoding("UTF-8");
        // Figures as a machine writes them (1234.5, never "1,234.5" or "1234,5"), whatever the engine's locale.
        c.setLocale(Locale.ROOT);
        c.setNumberFormat("computer");
        c.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        c.setLogTemplateExceptions(false);
        c.setWrapUncheckedExceptions(true);
        c.setFallbackOnNullLoopVariable(false);
        DefaultObjectWrapperBuilder wrapper = new DefaultObjectWrapperBuilder(Configuration.VERSION_2_3_32);
        // The report's figures are public final fields.
        wrapper.setExposeFields(true);
        c.setObjectWrapper(wrapper.build());
        return c;
    }

    /** The constants of an enum, for a template to name one ({@code Count.CONNECTS_OK}): a misspelt one fails the page. */
    static TemplateHashModel constants(Class<? extends Enum<?>> type) {
        try {
            return (TemplateHashModel) ((BeansWrapper) CONFIG.getObjectWrapper()).getEnumModels().get(type.getName());
        } catch (TemplateModelException e) {
            throw new IllegalStateException("the constants of " + type.getName() + " cannot be given to a template", e);
        }
    }

    /** The page {@code name} (a file in the templates directory) with {@code model}. */
    public static String render(String name, Map<String, Object> model) {
        StringWriter out = new StringWriter(64 * 1024);
        try {
            CONFIG.getTemplate(name).process(model, out);
        } catch (IOException | TemplateException e) {
            throw new IllegalStateException("the HTML page " + name + " could not be written: " + e.getMessage(), e);
        }
        return out.toString();
    }
}

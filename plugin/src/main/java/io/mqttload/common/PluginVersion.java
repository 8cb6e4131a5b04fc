package io.mqttload.common;

import picocli.CommandLine;

/** The plugin jar's version (its manifest), for the command lines' {@code --version}. */
public final class PluginVersion implements CommandLine.IVersionProvider {
    public static String text() {
        String version = PluginVersion.class.getPackage().getImplementationVersion();
        return "MQTT load suite " + (version == null ? "(development build)" : version);
    }

    @Override
    public String[] getVersion() {
        return new String[] {text()};
    }
}

/**
 * The transport: the port through which a run reaches its brokers ({@link io.mqttload.client.MqttConnector}, opening
 * {@link io.mqttload.client.LoadConnection}s and {@link io.mqttload.client.ControlConnection}s) and its implementation
 * on the HiveMQ client (3.1.1 or 5), with TLS, reconnects and failover, the reused view of each received message, the
 * engine's small control client, and how errors read. The only package that uses the HiveMQ client, Netty or RxJava;
 * uses common alone.
 */
package io.mqttload.client;

/**
 * The transport: MQTT connections on the HiveMQ client (3.1.1 or 5), with their TLS, reconnects and failover, the
 * reused view of each received message, the engine's small control client, and how errors read. The only package
 * that uses the HiveMQ client, Netty or RxJava; uses common alone.
 */
package io.mqttload.client;

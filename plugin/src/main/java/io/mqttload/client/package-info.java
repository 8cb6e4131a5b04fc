/**
 * One MQTT client of the load on the HiveMQ client (3.1.1 or 5), its transport and TLS, and how its errors read;
 * uses common, measure and delivery.
 */
package io.mqttload.client;

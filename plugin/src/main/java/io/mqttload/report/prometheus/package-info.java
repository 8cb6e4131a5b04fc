/**
 * The engine's figures for Prometheus: a {@code /metrics} endpoint and Pushgateway pushes (the Prometheus Java client's
 * exposition and push code, shaded); uses engine, measure and summary, as the InfluxDB export does.
 */
package io.mqttload.report.prometheus;

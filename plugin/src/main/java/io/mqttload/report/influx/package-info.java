/** Live metrics and the run report as InfluxDB line protocol, and their writer; uses engine and summary. */
package io.mqttload.report.influx;

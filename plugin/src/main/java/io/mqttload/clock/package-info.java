/**
 * Clock offsets between engines, measured through the broker with an NTP-style exchange of timestamps; uses client
 * and measure.
 */
package io.mqttload.clock;

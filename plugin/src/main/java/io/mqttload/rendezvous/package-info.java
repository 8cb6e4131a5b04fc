/** Barriers across every engine through the broker; uses client and measure. */
package io.mqttload.rendezvous;

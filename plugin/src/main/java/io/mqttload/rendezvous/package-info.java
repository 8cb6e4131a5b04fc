/** Barriers across every engine through the broker, over a control client; uses client and measure. */
package io.mqttload.rendezvous;

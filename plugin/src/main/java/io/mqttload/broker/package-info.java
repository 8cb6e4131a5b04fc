/** The broker's CPU, memory and $SYS figures, from /proc or an agent; uses client and common. */
package io.mqttload.broker;

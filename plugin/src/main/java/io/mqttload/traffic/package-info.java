/**
 * What a load client does with its messages, on top of the transport: the measured receive path (measurement
 * header, latency recorder, receiver scope, stream tracking, late subscriptions, slow consumer), request/response
 * (requesters' replies, responders and their bound) and publish streams; uses client, delivery, measure and common.
 */
package io.mqttload.traffic;

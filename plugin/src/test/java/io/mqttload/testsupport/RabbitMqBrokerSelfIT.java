package io.mqttload.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.Mqtt3BlockingClient;
import com.hivemq.client.mqtt.mqtt3.message.publish.Mqtt3Publish;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.suback.Mqtt3SubAck;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;

class RabbitMqBrokerSelfIT {
    private static final String TOPIC = "selftest/rabbitmq";

    @Test
    void rabbitMq_carriesMqtt311_refusesMqtt5_andRestartsOnTheSamePorts(@TempDir Path dir) throws Exception {
        RabbitMqBroker.requireInstalled();
        long started = System.nanoTime();
        RabbitMqBroker broker = RabbitMqBroker.builder().inDirectory(dir).withSetting("mqtt.prefetch = 10").start();
        List<ProcessHandle> running;
        try {
            report("first start took %d ms", millisSince(started));
            assertThat(broker.directory()).startsWith(dir);
            long firstPid = broker.pid();

            roundTrip(broker, "before-restart");
            report("MQTT 5 CONNECT: %s", describe(connectMqtt5(broker)));
            observeQos2(broker);

            long stopping = System.nanoTime();
            broker.stop();
            report("stop took %d ms", millisSince(stopping));
            assertThat(broker.isRunning()).isFalse();
            assertThat(FreePorts.isListening(broker.mqttPort())).isFalse();
            assertThat(broker.processes()).as("only the private epmd stays between stop and start").hasSize(1);

            long restarting = System.nanoTime();
            broker.start();
            report("restart took %d ms", millisSince(restarting));
            assertThat(broker.pid()).isNotEqualTo(firstPid);
            roundTrip(broker, "after-restart");

            broker.kill();
            assertThat(broker.isRunning()).isFalse();
            assertThat(broker.processes()).hasSize(1);
            broker.start();
            roundTrip(broker, "after-kill");

            running = broker.processes();
            assertThat(running).hasSizeGreaterThanOrEqualTo(4); // script, beam.smp, erl_child_setup, epmd
        } finally {
            broker.close();
        }
        assertThat(broker.processes()).isEmpty();
        assertThat(running).noneMatch(RabbitMqBroker::isLive);
        assertThat(FreePorts.isListening(broker.mqttPort())).isFalse();
        assertThat(broker.directory()).doesNotExist();
    }

    private static void roundTrip(RabbitMqBroker broker, String text) throws InterruptedException {
        Mqtt3BlockingClient client = MqttClient.builder().useMqttVersion3()
                .identifier("selftest-" + text)
                .serverHost(broker.host()).serverPort(broker.mqttPort())
                .buildBlocking();
        client.connect();
        try (Mqtt3BlockingClient.Mqtt3Publishes publishes = client.publishes(MqttGlobalPublishFilter.ALL)) {
            Mqtt3SubAck subAck = client.subscribeWith().topicFilter(TOPIC).qos(MqttQos.AT_LEAST_ONCE).send();
            assertThat(subAck.getReturnCodes()).hasSize(1);
            client.publishWith().topic(TOPIC).qos(MqttQos.AT_LEAST_ONCE)
                    .payload(text.getBytes(StandardCharsets.UTF_8)).send();
            Optional<Mqtt3Publish> received = publishes.receive(20, TimeUnit.SECONDS);
            assertThat(received).as("the QoS 1 message back; broker output:%n%s", broker.logTail()).isPresent();
            assertThat(new String(received.get().getPayloadAsBytes(), StandardCharsets.UTF_8)).isEqualTo(text);
            assertThat(received.get().getQos()).isEqualTo(MqttQos.AT_LEAST_ONCE);
        } finally {
            client.disconnect();
        }
    }

    private static Throwable connectMqtt5(RabbitMqBroker broker) {
        Mqtt5BlockingClient client = MqttClient.builder().useMqttVersion5()
                .identifier("selftest-mqtt5")
                .serverHost(broker.host()).serverPort(broker.mqttPort())
                .buildBlocking();
        Throwable refused = catchThrowable(client::connect);
        assertThat(refused).as("RabbitMQ 3.10 speaks no MQTT 5").isNotNull();
        return refused;
    }

    /** RabbitMQ 3.10 downgrades QoS 2; reports what the HiveMQ 3.1.1 client makes of that, asserts nothing. */
    private static void observeQos2(RabbitMqBroker broker) throws Exception {
        Mqtt3AsyncClient client = MqttClient.builder().useMqttVersion3()
                .identifier("selftest-qos2")
                .serverHost(broker.host()).serverPort(broker.mqttPort())
                .buildAsync();
        client.connect().get(20, TimeUnit.SECONDS);
        Mqtt3SubAck subAck = client.subscribeWith().topicFilter(TOPIC + "/qos2").qos(MqttQos.EXACTLY_ONCE).send()
                .get(20, TimeUnit.SECONDS);
        report("SUBSCRIBE QoS 2: SUBACK %s", subAck.getReturnCodes());
        CompletableFuture<Mqtt3Publish> published = client.publishWith().topic(TOPIC + "/qos2")
                .qos(MqttQos.EXACTLY_ONCE).payload("qos2".getBytes(StandardCharsets.UTF_8)).send();
        Throwable outcome = null;
        try {
            published.get(20, TimeUnit.SECONDS);
        } catch (Exception e) {
            outcome = e;
        }
        report("PUBLISH QoS 2: %s", outcome == null ? "completed normally" : describe(outcome));
        report("QoS 2 client state after the publish: %s", client.getState());
        if (client.getState().isConnected()) {
            client.disconnect().get(20, TimeUnit.SECONDS);
        }
    }

    private static String describe(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (text.length() > 0) {
                text.append(" <- caused by ");
            }
            text.append(t.getClass().getName()).append(": ").append(t.getMessage());
        }
        return text.toString();
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static void report(String format, Object... arguments) {
        System.out.println("[RabbitMqBrokerSelfIT] " + String.format(Locale.ROOT, format, arguments));
    }
}

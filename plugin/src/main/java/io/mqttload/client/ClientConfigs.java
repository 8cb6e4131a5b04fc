package io.mqttload.client;

import java.net.InetAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.hivemq.client.mqtt.MqttClientExecutorConfig;
import com.hivemq.client.mqtt.MqttClientSslConfig;
import com.hivemq.client.mqtt.MqttClientSslConfigBuilder;
import com.hivemq.client.mqtt.MqttClientTransportConfig;
import com.hivemq.client.mqtt.MqttClientTransportConfigBuilder;
import com.hivemq.client.mqtt.MqttWebSocketConfig;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.reactivex.schedulers.Schedulers;

/** How every client of the suite reaches its broker: the transport from the settings, and the shared event loop. */
public final class ClientConfigs {
    /**
     * One event loop for every client of the engine, on daemon threads. The client library's own threads are
     * not daemons, and after a DISCONNECT that keeps the session (session expiry > 0) it holds them for the
     * session's lifetime to expire its local state: a headless JMeter then stayed up for minutes after the
     * end of the run. Daemon threads let it exit; the broker's sessions are untouched. They are Netty's own
     * thread type (FastThreadLocalThread): on a plain thread every buffer and recycler lookup falls back to a
     * ThreadLocal map and recycled objects go through a shared queue, which cost the delivered path about
     * 10 % of its client CPU per message (docs/performance.md).
     */
    private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors() * 2);
    /**
     * The event loops themselves, made here rather than by the client library from an executor, so that each load
     * client can reach them through a group of its own that notes its connect's phases ({@link ConnectPhases}). NIO is
     * what the library picks too when no native transport is on the class path, and the shaded jar bundles none.
     */
    private static final NioEventLoopGroup LOOPS = new NioEventLoopGroup(THREADS,
            Executors.newCachedThreadPool(new DefaultThreadFactory("mqttload-netty", true)));
    private static final MqttClientExecutorConfig SHARED_EVENT_LOOP = MqttClientExecutorConfig.builder()
            .nettyExecutor(LOOPS)
            .nettyThreads(THREADS)
            .build();
    /**
     * The same event loop, with the load clients' completions (PUBACK, PUBCOMP, CONNACK, SUBACK) run on it where
     * they happen instead of being handed to RxJava's computation pool: that hand-off cost a thread wake-up and a
     * locked queue per message, about 3 µs of client CPU per delivered message (docs/performance.md). The suite's
     * completion handlers only count and release; none may block.
     */
    private static final MqttClientExecutorConfig LOAD_CLIENTS = SHARED_EVENT_LOOP.extend()
            .applicationScheduler(Schedulers.trampoline())
            .build();

    private ClientConfigs() {
    }

    /** The daemon event loop every client of the suite runs on, so that no client thread keeps a JVM alive. */
    public static MqttClientExecutorConfig sharedEventLoop() {
        return SHARED_EVENT_LOOP;
    }

    /** The event loop of a new load client: one of the shared loops, or of a slow consumer's own {@code loops}. */
    static EventLoop nextLoop(EventLoopGroup loops) {
        return (EventLoop) (loops == null ? LOOPS : loops).next();
    }

    /**
     * The executor configuration of one load client: its event {@code loop}, through a group of that one loop that notes
     * the client's connect phases.
     */
    static MqttClientExecutorConfig loadClient(ConnectPhases phases, EventLoop loop) {
        return LOAD_CLIENTS.extend()
                .nettyExecutor(phases.group(loop))
                .nettyThreads(1)
                .build();
    }

    /**
     * Asks a control client's reconnector for the next attempt after the policy's longest delay for it: the control
     * clients' policy is exponential, without jitter, so that is its delay.
     */
    static void reconnectLater(MqttClientDisconnectedContext ctx, ReconnectPolicy policy) {
        ctx.getReconnector().reconnect(true).delay(policy.longestDelayMillis(ctx.getReconnector().getAttempts()),
                TimeUnit.MILLISECONDS);
    }

    public static MqttClientTransportConfig transport(ConnectionSettings s, InetAddress localAddress) {
        MqttClientTransportConfigBuilder t = MqttClientTransportConfig.builder()
                .serverHost(s.host())
                .serverPort(s.port())
                .socketConnectTimeout(s.connectTimeoutMs(), TimeUnit.MILLISECONDS)
                .mqttConnectTimeout(s.connectTimeoutMs(), TimeUnit.MILLISECONDS);
        if (localAddress != null) {
            t.localAddress(localAddress);
        }
        if (s.transport().isSecure()) {
            TlsSettings tls = s.tls();
            MqttClientSslConfigBuilder ssl = MqttClientSslConfig.builder()
                    .trustManagerFactory(tls.trustManagers())
                    .keyManagerFactory(s.keyManagers())
                    .handshakeTimeout(s.connectTimeoutMs(), TimeUnit.MILLISECONDS);
            if (!tls.verifyHostname()) {
                ssl.hostnameVerifier((host, session) -> true);
            }
            t.sslConfig(ssl.build());
        }
        if (s.transport().isWebSocket()) {
            t.webSocketConfig(MqttWebSocketConfig.builder()
                    .serverPath(s.webSocketPath())
                    .handshakeTimeout(s.connectTimeoutMs(), TimeUnit.MILLISECONDS)
                    .build());
        }
        return t.build();
    }
}

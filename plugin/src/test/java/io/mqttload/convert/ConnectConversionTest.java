package io.mqttload.convert;

import static io.mqttload.convert.Converted.childrenOf;
import static io.mqttload.convert.Converted.nextSibling;
import static io.mqttload.convert.Converted.prop;
import static io.mqttload.convert.XmeterPlans.bool;
import static io.mqttload.convert.XmeterPlans.connect;
import static io.mqttload.convert.XmeterPlans.connectDefaults;
import static io.mqttload.convert.XmeterPlans.node;
import static io.mqttload.convert.XmeterPlans.plan;
import static io.mqttload.convert.XmeterPlans.str;
import static io.mqttload.convert.XmeterPlans.threadGroup;
import static io.mqttload.convert.XmeterPlans.xmeter;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Element;

/** XMeter's ConnectSampler and EfficientConnectSampler, each option, into MQTT Connect with its MQTT Connection. */
class ConnectConversionTest {
    @TempDir
    Path dir;

    /** A directory of its own, for a second conversion in one test. */
    private Path fresh(String name) {
        Path d = dir.resolve(name);
        assertThat(d.toFile().mkdirs()).isTrue();
        return d;
    }

    private Converted convert(String... connectProps) {
        return Converted.convert(dir, plan(threadGroup("Group", 1, 1, connect("Connect", connectProps))));
    }

    private static Element connection(Converted c) {
        Element connect = c.suite("MqttConnectSampler", "Connect");
        List<Element> kids = childrenOf(connect);
        assertThat(kids).hasSize(1);
        assertThat(kids.get(0).getTagName()).isEqualTo("io.mqttload.jmeter.MqttConnectionConfig");
        assertThat(kids.get(0).getAttribute("testname")).isEqualTo("MQTT Connection (Connect)");
        return kids.get(0);
    }

    @Test
    void guiDefaults_becomeAConnectWithItsConnectionAsChild() {
        Converted c = convert(connectDefaults("broker.example", "1884"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element connect = c.suite("MqttConnectSampler", "Connect");
        assertThat(connect.getAttribute("guiclass")).isEqualTo("TestBeanGUI");
        assertThat(prop(connect, "clientGroup")).isEqualTo("default");
        assertThat(prop(connect, "clientCount")).isEqualTo("1");
        assertThat(prop(connect, "clientIdTemplate")).isEqualTo("conn_{engineNumber}-{threadGroup}-{thread}");
        assertThat(prop(connect, "clientIdsWithin23")).isEqualTo("true");
        assertThat(prop(connect, "reconnectAttempts")).isEqualTo("0");
        Element conn = connection(c);
        assertThat(prop(conn, "host")).isEqualTo("broker.example");
        assertThat(prop(conn, "port")).isEqualTo("1884");
        assertThat(prop(conn, "mqttVersion")).isEqualTo("MQTT_3_1_1");
        assertThat(prop(conn, "transport")).isEqualTo("TCP");
        assertThat(prop(conn, "connectTimeoutMs")).isEqualTo("10000");
        assertThat(prop(conn, "keepAliveSeconds")).isEqualTo("300");
        assertThat(prop(conn, "cleanStart")).isEqualTo("true");
        assertThat(prop(conn, "username")).isEmpty();
        assertThat(prop(conn, "password")).isEmpty();
        assertThat(prop(conn, "webSocketPath")).isEmpty();
        assertThat(prop(conn, "verifyHostname")).isEqualTo("true");
        assertThat(prop(conn, "sessionExpirySeconds")).isEqualTo("0");
        assertThat(c.all("net.xmeter.samplers.ConnectSampler")).isEmpty();

        String report = c.reportText();
        assertThat(report).contains("## Not converted\n\nNothing").contains("`mqtt.conn_attampt_max`")
                .contains("`mqtt.version` | `3.1` | mapped").contains("MQTT 3.1 is not available")
                .contains("unique across threads and engines");
    }

    @Test
    void absentProperties_takeXmetersCodeDefaults() {
        Converted c = convert(str("mqtt.server", "10.0.0.1"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element conn = connection(c);
        assertThat(prop(conn, "port")).isEqualTo("1883");
        assertThat(prop(conn, "keepAliveSeconds")).isEqualTo("300");
        assertThat(prop(conn, "cleanStart")).isEqualTo("true");
        assertThat(prop(c.suite("MqttConnectSampler", "Connect"), "clientIdTemplate"))
                .isEqualTo("conn_{engineNumber}-{threadGroup}-{thread}");
        assertThat(c.reportText()).contains("`mqtt.port` | `(absent)` | mapped");
    }

    @ParameterizedTest(name = "{0} = {1} ({2})")
    @CsvSource({
        "mqtt.reconn_attampt_max, 0, 0",
        "mqtt.reconn_attampt_max, -1, 0",
        "mqtt.reconn_attampt_max, 5, -1",
        "mqtt.reconn_attempt_max, 0, 0",
        "mqtt.reconn_attempt_max, -1, -1",
        "mqtt.reconn_attempt_max, 3, -1",
        "mqtt.reconn_attempt_max, -7, 0",
    })
    void reconnectAttempts_bothSpellings(String property, String value, String attempts) {
        Converted c = convert(str("mqtt.server", "h"), str(property, value),
                str(property.replace("reconn_", "conn_"), "2"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element connect = c.suite("MqttConnectSampler", "Connect");
        assertThat(prop(connect, "reconnectAttempts")).isEqualTo(attempts);
        if (!attempts.equals("0")) {
            assertThat(prop(connect, "reconnectDelayMs")).isEqualTo("1000");
            assertThat(prop(connect, "reconnectMaxDelayMs")).isEqualTo("120000");
            assertThat(c.reportText()).contains("## Approximations").contains("`" + property + "` = `" + value + "`");
        }
        assertThat(c.reportText()).contains("`" + property.replace("reconn_", "conn_") + "` | `2` | no effect");
    }

    @Test
    void reconnectExpression_becomesAJexlChoice() {
        Converted c = convert(str("mqtt.reconn_attempt_max", "${reconnects}"));

        assertThat(prop(c.suite("MqttConnectSampler", "Connect"), "reconnectAttempts"))
                .isEqualTo("${__jexl3(${reconnects} > 0 || ${reconnects} == -1 ? -1 : 0)}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "<boolProp name=\"mqtt.conn_clean_session\">false</boolProp>|false",
        "<boolProp name=\"mqtt.conn_clean_session\">true</boolProp>|true",
        "<stringProp name=\"mqtt.conn_clean_session\">false</stringProp>|false",
        "<stringProp name=\"mqtt.conn_clean_session\">TRUE</stringProp>|true",
        "<stringProp name=\"mqtt.conn_clean_session\">no</stringProp>|false",
        "<stringProp name=\"mqtt.conn_clean_session\">${clean}</stringProp>|${clean}",
    })
    void cleanSession_asBoolPropOrStringProp(String property, String cleanStart) {
        Converted c = convert(str("mqtt.server", "h"), property);

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(prop(connection(c), "cleanStart")).isEqualTo(cleanStart);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "TCP, TCP, false",
        "SSL, TLS, true",
        "WS, WEBSOCKET, false",
        "WSS, SECURE_WEBSOCKET, true",
        "ssl, TLS, true",
    })
    void protocols_becomeTransports(String protocol, String transport, boolean secure) {
        Converted c = convert(connectDefaults("h", "8883", str("mqtt.protocol", protocol), str("mqtt.ws_path", "/mqtt")));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element conn = connection(c);
        assertThat(prop(conn, "transport")).isEqualTo(transport);
        assertThat(prop(conn, "webSocketPath")).isEqualTo("/mqtt");
        assertThat(prop(conn, "verifyHostname")).isEqualTo(secure ? "false" : "true");
        if (secure) {
            assertThat(c.reportText()).contains("XMeter trusts every broker certificate").contains("trustStorePath");
        }
    }

    @Test
    void dualSsl_givesTheClientCertificateAsKeyStore() {
        Converted c = convert(str("mqtt.server", "h"), str("mqtt.protocol", "SSL"), bool("mqtt.dual_ssl_authentication", true),
                str("mqtt.clientcert_file_path", "/certs/client.p12"), str("mqtt.clientcert_password", "s3cret"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element conn = connection(c);
        assertThat(prop(conn, "keyStorePath")).isEqualTo("/certs/client.p12");
        assertThat(prop(conn, "keyStorePassword")).isEqualTo("s3cret");
        assertThat(prop(conn, "trustStorePath")).isEmpty();
        assertThat(c.reportText()).doesNotContain("s3cret").contains("`mqtt.clientcert_password` | `******` | mapped");
    }

    @Test
    void dualSslOverTcp_hasNoEffect() {
        Converted c = convert(str("mqtt.server", "h"), bool("mqtt.dual_ssl_authentication", true),
                str("mqtt.clientcert_file_path", "client.p12"));

        assertThat(prop(connection(c), "keyStorePath")).isEmpty();
        assertThat(c.reportText()).contains("`mqtt.clientcert_file_path` | `client.p12` | no effect");
    }

    @Test
    void credentials_passwordWithoutUser_isLeftOutAsXmeterDid() {
        Converted withUser = convert(str("mqtt.user_name", "alice"), str("mqtt.password", "pw"));
        assertThat(prop(connection(withUser), "username")).isEqualTo("alice");
        assertThat(prop(connection(withUser), "password")).isEqualTo("pw");

        Converted noUser = Converted.convert(fresh("no-user"),
                plan(threadGroup("Group", 1, 1, connect("Connect", str("mqtt.user_name", " "), str("mqtt.password", "pw")))));
        assertThat(prop(connection(noUser), "username")).isEmpty();
        assertThat(prop(connection(noUser), "password")).isEmpty();
        assertThat(noUser.reportText()).contains("sends no password without a user name");
    }

    @Test
    void clientIdWithoutSuffix_isThePrefixVerbatim() {
        Converted c = convert(str("mqtt.client_id_prefix", "device-${__threadNum}"), bool("mqtt.client_id_suffix", false));

        assertThat(prop(c.suite("MqttConnectSampler", "Connect"), "clientIdTemplate")).isEqualTo("device-${__threadNum}");
    }

    @Test
    void longPrefix_turnsTheTwentyThreeCharacterCheckOff() {
        Converted c = convert(str("mqtt.client_id_prefix", "a-rather-long-prefix_"));

        Element connect = c.suite("MqttConnectSampler", "Connect");
        assertThat(prop(connect, "clientIdTemplate")).isEqualTo("a-rather-long-prefix_{engineNumber}-{threadGroup}-{thread}");
        assertThat(prop(connect, "clientIdsWithin23")).isEqualTo("false");
        assertThat(c.reportText()).contains("clientIdsWithin23 = false");
    }

    @Test
    void braceInThePrefix_isReportedNotConverted() {
        Converted c = convert(str("mqtt.client_id_prefix", "dev{1}_"));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(c.out).contains("not converted: XMeter plan > Group > Connect [net.xmeter.samplers.ConnectSampler]: "
                + "mqtt.client_id_prefix = dev{1}_");
    }

    @Test
    void connectTimeout_inSecondsBecomesMilliseconds_expressionsToo() {
        Converted literal = convert(str("mqtt.conn_timeout", "30"));
        assertThat(prop(connection(literal), "connectTimeoutMs")).isEqualTo("30000");

        Converted expression = Converted.convert(fresh("expression"), plan(threadGroup("Group", 1, 1,
                connect("Connect", str("mqtt.conn_timeout", "${__P(timeout,10)}")))));
        assertThat(prop(connection(expression), "connectTimeoutMs")).isEqualTo("${__jexl3((${__P(timeout,10)}) * 1000)}");
    }

    @Test
    void fusesourceClient_isApproximated() {
        Converted c = convert(str("mqtt.client_name", "fusesource"), str("mqtt.version", "3.1"),
                str("mqtt.reconn_attampt_max", "4"), str("mqtt.conn_attampt_max", "2"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(prop(c.suite("MqttConnectSampler", "Connect"), "reconnectAttempts")).isEqualTo("4");
        assertThat(c.reportText()).contains("`mqtt.client_name` = `fusesource`").contains("`mqtt.version` = `3.1`")
                .contains("`mqtt.conn_attampt_max` = `2`: the suite does not retry");
    }

    @Test
    void legacyProperties_haveNoEffect() {
        Converted c = convert(connectDefaults("h", "1883", bool("mqtt.conn_share", false),
                str("mqtt.keystore_file_path", "/ca.jks"), str("mqtt.keystore_password", "x")));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(c.reportText()).contains("`mqtt.conn_share` | `false` | no effect")
                .contains("`mqtt.keystore_file_path` | `/ca.jks` | no effect");
    }

    @Test
    void efficientConnect_opensItsCapacityInAGroupOfItsOwn_andSubscribesWhenAsked() {
        String efficient = node(xmeter("EfficientConnectSampler", "Batch", connectDefaults("h", "1883",
                bool("mqtt.sub_when_connected", true), str("mqtt.qos_level", "1"), str("mqtt.topic_name", "a/1,a/2"),
                str("mqtt.conn_capacity", "50"))));
        String disconnect = node("<net.xmeter.samplers.EfficientDisConnectSampler guiclass=\"net.xmeter.gui"
                + ".EfficientDisConnectSamplerUI\" testclass=\"net.xmeter.samplers.EfficientDisConnectSampler\""
                + " testname=\"Batch off\" enabled=\"true\"/>");
        Converted c = Converted.convert(dir, plan(threadGroup("Group", 1, 1, efficient, disconnect)));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element connect = c.suite("MqttConnectSampler", "Batch");
        assertThat(prop(connect, "clientCount")).isEqualTo("50");
        assertThat(prop(connect, "clientGroup")).isEqualTo("efficient");
        assertThat(prop(connect, "clientIdTemplate")).isEqualTo("conn_{engineNumber}-{threadGroup}-{thread}-{client}");
        Element subscribe = nextSibling(connect);
        assertThat(subscribe.getTagName()).isEqualTo("io.mqttload.jmeter.MqttSubscribeSampler");
        assertThat(prop(subscribe, "clientGroup")).isEqualTo("efficient");
        assertThat(prop(subscribe, "topicFilters")).isEqualTo("a/1\na/2");
        assertThat(prop(subscribe, "qos")).isEqualTo("1");
        Element off = nextSibling(subscribe);
        assertThat(off.getTagName()).isEqualTo("io.mqttload.jmeter.MqttDisconnectSampler");
        assertThat(prop(off, "clientGroup")).isEqualTo("efficient");
    }

    @Test
    void efficientConnectWithoutSuffix_numbersItsClientsAsXmeter() {
        Converted c = Converted.convert(dir, plan(threadGroup("Group", 1, 1, node(xmeter("EfficientConnectSampler", "Batch",
                str("mqtt.client_id_prefix", "dev"), bool("mqtt.client_id_suffix", false), str("mqtt.conn_capacity", "3"))))));

        Element connect = c.suite("MqttConnectSampler", "Batch");
        assertThat(prop(connect, "clientIdTemplate")).isEqualTo("dev-xmeter-suffix-{client}");
        assertThat(c.all("io.mqttload.jmeter.MqttSubscribeSampler")).isEmpty();
        assertThat(c.reportText()).contains("`mqtt.sub_when_connected` | `(absent)` | no effect");
    }

    @ParameterizedTest
    @CsvSource({"5.0", "5", "' 5.0 '"})
    void mqttVersion5_ofTheForks_isMqtt5(String version) {
        Converted c = convert(str("mqtt.server", "h"), str("mqtt.version", version));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(prop(connection(c), "mqttVersion")).isEqualTo("MQTT_5");
        assertThat(c.reportText()).contains("| mapped | mqttVersion = `MQTT_5`");
    }

    @ParameterizedTest
    @CsvSource({"3.1", "3.1.1"})
    void mqttVersion3_staysMqtt311(String version) {
        Converted c = convert(str("mqtt.server", "h"), str("mqtt.version", version));

        assertThat(prop(connection(c), "mqttVersion")).isEqualTo("MQTT_3_1_1");
    }

    @Test
    void mqtt5ConnectionProperties_ofPullRequest151_areMapped_andTheAuthDataMasked() {
        Converted c = convert(str("mqtt.server", "h"), str("mqtt.version", "5.0"), str("mqtt.user_name", "u"),
                str("mqtt.password", "pw-secret"), str("mqtt.auth_method", "SCRAM-SHA-1"), str("mqtt.auth_data", "data-secret"),
                str("mqtt.conn_user_property", "{\"region\": \"eu\", \"n\": 1}"),
                str("mqtt.conn_session_expiry_interval", "3600"), str("mqtt.conn_clean_session", "true"),
                str("mqtt.conn_clean_start", "false"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element conn = connection(c);
        assertThat(prop(conn, "authMethod")).isEqualTo("SCRAM-SHA-1");
        assertThat(prop(conn, "authData")).isEqualTo("data-secret");
        assertThat(prop(conn, "authDataEncoding")).isEqualTo("TEXT");
        assertThat(prop(conn, "userProperties")).isEqualTo("region=eu\nn=1");
        assertThat(prop(conn, "sessionExpirySeconds")).isEqualTo("3600");
        assertThat(prop(conn, "cleanStart")).isEqualTo("false");
        assertThat(c.reportText()).doesNotContain("data-secret").doesNotContain("pw-secret")
                .contains("| `mqtt.auth_data` | `******` | approximated |")
                .contains("| `mqtt.conn_clean_session` | `true` | no effect |")
                .doesNotContain("no counterpart");
        assertThat(c.out).doesNotContain("data-secret");
    }

    @Test
    void mqtt5ConnectionProperties_withAnotherVersion_haveNoEffect() {
        Converted c = convert(str("mqtt.server", "h"), str("mqtt.version", "3.1.1"),
                str("mqtt.conn_session_expiry_interval", "60"), str("mqtt.auth_data", "data-secret"));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(prop(connection(c), "sessionExpirySeconds")).isEqualTo("0");
        assertThat(prop(connection(c), "authData")).isEmpty();
        assertThat(c.reportText()).contains("| `mqtt.conn_session_expiry_interval` | `60` | no effect | MQTT 5 only")
                .doesNotContain("data-secret");
    }

    @Test
    void userPropertiesThatAreNoFlatJsonObject_areNotConverted_namingTheSuiteField() {
        Converted c = convert(str("mqtt.server", "h"), str("mqtt.version", "5.0"),
                str("mqtt.conn_user_property", "{\"a\": {\"b\": 1}}"));

        assertThat(c.exitCode).isEqualTo(2);
        assertThat(prop(connection(c), "userProperties")).isEmpty();
        assertThat(c.out).contains("mqtt.conn_user_property").contains("set userProperties on the MQTT Connection by hand");
    }

    @Test
    void connectInALoopingThreadGroup_goesIntoAOnceOnlyController() {
        Converted c = Converted.convert(dir, plan(threadGroup("Group", 2, 10, connect("Connect", str("mqtt.server", "h")))));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        Element once = c.element("OnceOnlyController", "Connect: connect once");
        assertThat(childrenOf(once)).extracting(Element::getTagName).containsExactly("io.mqttload.jmeter.MqttConnectSampler");
        assertThat(prop(connection(c), "host")).isEqualTo("h");
        assertThat(c.reportText()).contains("## Added by the converter").contains("`Connect: connect once`");
    }

    @Test
    void connectInALoopController_goesIntoAOnceOnlyController_evenInAThreadGroupOfOnePass() {
        Converted c = Converted.convert(dir, plan(threadGroup("Group", 1, 1,
                XmeterPlans.loop("Loop", 5, connect("Connect", str("mqtt.server", "h"))))));

        assertThat(childrenOf(c.element("OnceOnlyController", "Connect: connect once")))
                .extracting(e -> e.getAttribute("testname")).containsExactly("Connect");
    }

    @Test
    void connectWithADisconnectAfterItsLoop_goesIntoAOnceOnlyController() {
        Converted c = Converted.convert(dir, plan(threadGroup("Group", 1, 1,
                XmeterPlans.loop("Loop", 5, connect("Connect", str("mqtt.server", "h"))),
                XmeterPlans.disconnect("Disconnect"))));

        assertThat(c.all("OnceOnlyController")).extracting(e -> e.getAttribute("testname"))
                .containsExactly("Connect: connect once");
    }

    @Test
    void connectFollowedByItsDisconnect_orInAOnceOnlyController_orInAThreadGroupOfOnePass_isNotWrapped() {
        String onceOnly = node("<OnceOnlyController guiclass=\"OnceOnlyControllerGui\" testclass=\"OnceOnlyController\""
                + " testname=\"Mine\" enabled=\"true\"/>", connect("Connect 2", str("mqtt.server", "h")));
        Converted c = Converted.convert(dir, plan(
                threadGroup("Loops", 1, 10, connect("Connect 1", str("mqtt.server", "h")),
                        XmeterPlans.disconnect("Disconnect 1")),
                threadGroup("Once only", 1, 10, onceOnly),
                threadGroup("One pass", 1, 1, connect("Connect 3", str("mqtt.server", "h"))),
                threadGroup("Nested", 1, 10, XmeterPlans.loop("Inner", 1, XmeterPlans.node(
                        "<GenericController guiclass=\"LogicControllerGui\" testclass=\"GenericController\" testname=\"Simple\""
                        + " enabled=\"true\"/>", connect("Connect 4", str("mqtt.server", "h")))),
                        XmeterPlans.node("<GenericController guiclass=\"LogicControllerGui\" testclass=\"GenericController\""
                        + " testname=\"End\" enabled=\"true\"/>", XmeterPlans.disconnect("Disconnect 4"))),
                threadGroup("Nested one pass", 1, 1, XmeterPlans.node("<GenericController guiclass=\"LogicControllerGui\""
                        + " testclass=\"GenericController\" testname=\"Simple 5\" enabled=\"true\"/>",
                        connect("Connect 5", str("mqtt.server", "h"))))));

        assertThat(c.exitCode).as(c.out + c.err).isZero();
        assertThat(c.all("OnceOnlyController")).extracting(e -> e.getAttribute("testname")).containsExactly("Mine");
        assertThat(c.reportText()).doesNotContain("connect once");
    }
}

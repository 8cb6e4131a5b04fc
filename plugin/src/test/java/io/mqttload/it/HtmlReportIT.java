package io.mqttload.it;

import static io.mqttload.testsupport.MqttElements.connect;
import static io.mqttload.testsupport.MqttElements.connection;
import static io.mqttload.testsupport.MqttElements.publish;
import static io.mqttload.testsupport.MqttElements.runEnd;
import static io.mqttload.testsupport.MqttElements.runReport;
import static io.mqttload.testsupport.MqttElements.subscribe;
import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.apache.jmeter.control.RunTime;
import org.apache.jmeter.sampler.TestAction;
import org.apache.jmeter.timers.ConstantTimer;
import org.apache.jorphan.collections.HashTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mqttload.delivery.Verdict;
import io.mqttload.jmeter.MqttBrokerMonitor;
import io.mqttload.jmeter.MqttRendezvousTimer;
import io.mqttload.jmeter.MqttRunReport;
import io.mqttload.summary.MergedReport;
import io.mqttload.testsupport.HeadlessChromium;
import io.mqttload.testsupport.JMeterTestEngine;
import io.mqttload.testsupport.MosquittoBroker;
import io.mqttload.testsupport.PlanBuilder;
import io.mqttload.testsupport.RunResult;

/**
 * The run report's HTML page, from a real run against Mosquitto with the broker monitored, opened in
 * headless Chromium as a user would open it: every chart drawn with data, the figures of the report on
 * the page, no console error, and a screenshot that is not blank. With -Dmqttload.reportScreenshot=PATH
 * the screenshot is also copied there (docs/screenshots/run-report.png is made that way).
 */
class HtmlReportIT {
    @TempDir
    Path dir;

    /** A Flow Control Action that pauses 0 ms: the place for a barrier, as the plans have it. */
    private static TestAction barrier() {
        TestAction action = PlanBuilder.element(new TestAction(), "barrier", "org.apache.jmeter.sampler.gui.TestActionGui");
        action.setAction(TestAction.PAUSE);
        action.setDuration("0");
        return action;
    }

    @Test
    void theHtmlReport_opensInChromiumWithEveryChartDrawnAndTheReportsFigures() throws Exception {
        MosquittoBroker.requireInstalled();
        HeadlessChromium.requireInstalled();
        try (MosquittoBroker broker = MosquittoBroker.builder().withSetting("max_queued_messages 0").start()) {
            MqttBrokerMonitor monitor = PlanBuilder.testBean(new MqttBrokerMonitor(), "broker monitor");
            monitor.setProperty("brokerName", "mosquitto");
            monitor.setProperty("pid", Long.toString(broker.pid()));
            MqttRendezvousTimer start = PlanBuilder.testBean(new MqttRendezvousTimer(), "start");
            RunTime production = PlanBuilder.element(new RunTime(), "production", "org.apache.jmeter.control.gui.RunTimeGui");
            production.setRuntime(6);
            ConstantTimer pace = PlanBuilder.element(new ConstantTimer(), "pace", "org.apache.jmeter.timers.gui.ConstantTimerGui");
            pace.setProperty("ConstantTimer.delay", "50");
            HashTree plan = PlanBuilder.testPlan("html-report")
                    .config(connection("127.0.0.1", broker.tcpPort(), "MQTT_5")).config(monitor).config(runReport())
                    .threadGroup("pairs", 4, 1)
                    .add(connect("sub", 1, "{engine}-hs-{thread}"))
                    .add(subscribe("sub", "html/{thread}", 1))
                    .add(connect("pub", 5, "{engine}-hp-{thread}-{client}"))
                    .add(barrier(), start)
                    .add(production, publish("pub", "html/{thread}", 1, 20, "ASYNC"), pace)
                    .and().tearDownThreadGroup("end").add(runEnd())
                    .build();

            RunResult run = JMeterTestEngine.run(plan, Duration.ofSeconds(90), Map.of("mqttload.resultsDir", dir.toString(),
                    "mqttload.progressSeconds", "0", "mqttload.runId", "html-it", "mqttload.warmupSeconds", "1"));

            assertThat(run.failures()).as(run.describe()).isEmpty();
            MergedReport report = MqttRunReport.lastReport();
            assertThat(report.verdict()).isEqualTo(Verdict.NO_LOSS);
            Path html = dir.resolve("report-html-it.html");
            HeadlessChromium.Page page = HeadlessChromium.load(html, dir.resolve("chromium"));

            assertThat(page.console).as("console messages").isEmpty();
            // Throughput, connections, pub-to-sub and publish-ack latency, errors, the latency distribution, broker CPU
            // and memory: each drawn with data.
            Matcher charts = Pattern.compile("<svg class=\"chart\".*?</svg>", Pattern.DOTALL).matcher(page.dom);
            int drawn = 0;
            while (charts.find()) {
                assertThat(charts.group()).as("a chart without a line").contains("<polyline");
                Matcher points = Pattern.compile("points=\"([^\"]+)\"").matcher(charts.group());
                assertThat(points.find()).isTrue();
                assertThat(points.group(1).trim().split(" ").length).as("points in " + charts.group().substring(0, 200))
                        .isGreaterThanOrEqualTo(2);
                drawn++;
            }
            assertThat(drawn).isEqualTo(8);
            assertThat(page.dom).contains("NO LOSS").contains("mosquitto")
                    .contains(String.format(java.util.Locale.ROOT, "%.3f", report.latency.get("pubToSub").percentile(99) / 1000.0))
                    .contains(">" + report.receivedOfExpected + "<").contains("mqttload.runId").contains("html-it")
                    .contains("start #1");

            Path png = dir.resolve("run-report.png");
            HeadlessChromium.screenshot(html, png, 1280, 2400, dir.resolve("chromium-shot"));
            BufferedImage image = ImageIO.read(png.toFile());
            long coloured = 0;
            for (int y = 0; y < image.getHeight(); y += 4) {
                for (int x = 0; x < image.getWidth(); x += 4) {
                    int rgb = image.getRGB(x, y) & 0xFFFFFF;
                    int r = rgb >> 16;
                    int g = (rgb >> 8) & 0xFF;
                    int b = rgb & 0xFF;
                    if (Math.abs(r - g) > 60 || Math.abs(g - b) > 60 || Math.abs(r - b) > 60) {
                        coloured++;
                    }
                }
            }
            assertThat(coloured).as("coloured pixels: chart lines and the verdict banner").isGreaterThan(200);
            String copy = System.getProperty("mqttload.reportScreenshot");
            if (copy != null && !copy.isEmpty()) {
                Files.copy(png, Path.of(copy), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}

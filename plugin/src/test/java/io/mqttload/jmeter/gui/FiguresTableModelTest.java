package io.mqttload.jmeter.gui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import javax.swing.event.TableModelEvent;

import org.junit.jupiter.api.Test;

import io.mqttload.live.LiveTables;

/** The panel's table model shows the cells as made, and tells the table when only the rows changed. */
class FiguresTableModelTest {
    @Test
    void showsTheCells_andKeepsTheColumnsWhenOnlyTheRowsChange() {
        LiveTables.Table first = new LiveTables.Table(List.of("sampler", "published", "ack p99 ms"));
        first.rows.add(List.of("Publish", "3", "2.500"));
        FiguresTableModel model = new FiguresTableModel(first);
        List<TableModelEvent> events = new ArrayList<>();
        model.addTableModelListener(events::add);

        LiveTables.Table next = new LiveTables.Table(List.of("sampler", "published", "ack p99 ms"));
        next.rows.add(List.of("Publish", "4", "2.400"));
        next.rows.add(List.of("Subscribe", LiveTables.NONE, LiveTables.NONE));
        model.show(next);

        assertThat(model.getColumnCount()).isEqualTo(3);
        assertThat(model.getColumnName(2)).isEqualTo("ack p99 ms");
        assertThat(model.getRowCount()).isEqualTo(2);
        assertThat(model.getValueAt(1, 1)).isEqualTo("–");
        assertThat(events).hasSize(1);
        assertThat(events.get(0).getFirstRow()).isEqualTo(0);
        assertThat(events.get(0).getLastRow()).isEqualTo(Integer.MAX_VALUE);
        assertThat(events.get(0).getFirstRow() == TableModelEvent.HEADER_ROW).isFalse();
    }
}

package io.mqttload.jmeter.gui;

import javax.swing.table.AbstractTableModel;

import io.mqttload.live.LiveTables;

/** One of the Run Report panel's tables: the cells {@link LiveTables} made, read-only. */
public final class FiguresTableModel extends AbstractTableModel {
    private static final long serialVersionUID = 1L;
    private transient LiveTables.Table table;

    public FiguresTableModel(LiveTables.Table table) {
        this.table = table;
    }

    /** Shows another refresh's table; the columns change only when the kind of table does. */
    public void show(LiveTables.Table next) {
        boolean sameColumns = table.columns.equals(next.columns);
        table = next;
        if (sameColumns) {
            fireTableDataChanged();
        } else {
            fireTableStructureChanged();
        }
    }

    @Override
    public int getRowCount() {
        return table.rows.size();
    }

    @Override
    public int getColumnCount() {
        return table.columns.size();
    }

    @Override
    public String getColumnName(int column) {
        return table.columns.get(column);
    }

    @Override
    public Object getValueAt(int row, int column) {
        return table.rows.get(row).get(column);
    }
}

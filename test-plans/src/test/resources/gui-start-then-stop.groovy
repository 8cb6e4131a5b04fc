// Run by the JMeter GUI as its jsr223.init.file (GuiStopIT): once the GUI is up with the plan open, it clicks Run > Start
// as a user would, and Run > Stop once the run has published its first messages, both through the menu items' own
// doClick on Swing's thread, so that everything from there on (ActionRouter, Start, StandardJMeterEngine.stopTest) is
// JMeter's GUI code path. The wait for the messages is bounded; the GUI log says what was done and when.
import javax.swing.JMenuItem
import javax.swing.MenuElement
import javax.swing.SwingUtilities

import org.apache.jmeter.gui.GuiPackage
import org.apache.jmeter.gui.action.ActionNames

import io.mqttload.jmeter.run.JvmRun
import io.mqttload.measure.Count

JMenuItem find(MenuElement element, String command) {
    if (element instanceof JMenuItem && command == ((JMenuItem) element).getActionCommand()) {
        return (JMenuItem) element
    }
    for (MenuElement child : element.getSubElements()) {
        JMenuItem found = find(child, command)
        if (found != null) {
            return found
        }
    }
    return null
}

void click(String command) {
    SwingUtilities.invokeAndWait {
        JMenuItem item = find(GuiPackage.getInstance().getMainFrame().getJMenuBar(), command)
        if (item == null) {
            throw new IllegalStateException("no menu item for " + command)
        }
        log.info("GuiStopIT: clicking '{}'", item.getText())
        item.doClick()
    }
}

click(ActionNames.ACTION_START)
// Not on the GUI's thread: the init file runs before the GUI is handed to the user, and the run must go on meanwhile.
Thread.start("gui-stop-it") {
    long deadline = System.nanoTime() + 60_000_000_000L
    while (!JvmRun.running().map { it.context().metrics().sum(Count.ACKNOWLEDGED) >= 10 }.orElse(false)) {
        if (System.nanoTime() > deadline) {
            log.error("GuiStopIT: no 10 messages acknowledged within 60 s; not stopping")
            return
        }
        Thread.sleep(50)
    }
    click(ActionNames.ACTION_STOP)
    log.info("GuiStopIT: Stop clicked")
}

// Run by the JMeter GUI as its jsr223.init.file (DistributedRunIdIT): JMeter runs it once the GUI is up with the plan
// open. It clicks Run > Remote Start All as a user would: the menu item's own doClick, on Swing's thread, so that
// everything from there on (ActionRouter, its pre- and post-action listeners, RemoteStart, DistributedRunner) is
// JMeter's GUI code path.
import javax.swing.JMenuItem
import javax.swing.MenuElement
import javax.swing.SwingUtilities

import org.apache.jmeter.gui.GuiPackage
import org.apache.jmeter.gui.action.ActionNames

JMenuItem find(MenuElement element) {
    if (element instanceof JMenuItem && ActionNames.REMOTE_START_ALL == ((JMenuItem) element).getActionCommand()) {
        return (JMenuItem) element
    }
    for (MenuElement child : element.getSubElements()) {
        JMenuItem found = find(child)
        if (found != null) {
            return found
        }
    }
    return null
}

SwingUtilities.invokeAndWait {
    JMenuItem item = find(GuiPackage.getInstance().getMainFrame().getJMenuBar())
    if (item == null) {
        throw new IllegalStateException("no menu item for " + ActionNames.REMOTE_START_ALL)
    }
    log.info("DistributedRunIdIT: clicking '{}'", item.getText())
    item.doClick()
}

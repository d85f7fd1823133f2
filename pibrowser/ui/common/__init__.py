"""What several views share: inert labels and small widgets, a row of two ends that wraps,
untrusted text made safe to show, values as short text for labels, a widget scrolled only when
its column is short, work done only while a tab is shown."""

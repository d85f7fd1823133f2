"""Setting, clearing and undoing labels from the window."""

"""Every session on the machine in the window: the Sessions dock and Search All Sessions, with their jobs."""

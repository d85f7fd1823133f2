"""The Trace tab: a path as pi ran it, as a waterfall (axis, lanes, painting), with its totals and errors."""

"""The trace of a path: pi's agent loop read back from the entries it appended.

`facts` reads what the trace needs of each entry (times, usage, stop reason,
tool calls and results), `build` groups a path into runs, turns and tool calls
as pi's loop ran them (`spans` holds those shapes and their totals), `table`
keeps the facts of every entry read in columns, `stretch` finds the runs around
an entry to trace before the whole path is read, `rows` gives one row per entry
for the `trace` command. docs/trace.md says what each time
in a session file means, and so what model time and tool time are.
"""

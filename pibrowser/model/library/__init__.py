"""Every session on the machine: finding them, listing them, searching them, resuming them.

`discovery` knows pi's folders, `session_list` summarises each file (cached),
`search_index` is the all-sessions SQLite FTS5 index, `context_window` reads the
model's window from pi's models.json, `launch` starts pi on a session.
"""

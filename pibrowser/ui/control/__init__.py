"""The controller between the model's Workspace and the views, and the jobs it runs off the GUI thread.

`controller.SessionController` feeds the Workspace (loads, file changes, the
user's choices) and re-sends each Change as a signal; views read state when told.
`sessions_controller.SessionsController` does the same for the folder of sessions the
window shows: its list, the watcher and its usage (jobs in `sessions_jobs`).
`trace_facts.TraceFacts` reads every entry's trace facts in one thread of its own,
for the Trace and Files tabs and the Compare tab's files.
"""

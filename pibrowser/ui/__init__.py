"""pibrowser's Qt views: they read the model and never re-derive pi's semantics.

control   the controller (the Workspace's changes as signals) and background jobs
window    start-up, the main window, dialogs
tree      the branch tree on a QGraphicsView
context   the resolved context as cards
compare   the leaf picker and the Compare tab
timeline  the Context Over Time strip
sessions  the Sessions dock and Search All Sessions
labels    label editing and undo
style     theme, colours, scroll bars
guard     the one guard where Qt calls our handlers: no exception leaves a paint or an event
"""

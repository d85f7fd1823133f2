"""pi's context rules: what pi would send if a node were the leaf.

`resolve` is pi's buildSessionContext in named steps (path, settings, last
compaction and first kept entry, edits, the projection of each entry into
messages): the readable statement of the rules, which the fold along a path
(model/fold/) applies entry by entry; `provenance` says what part each entry on a
path plays (summarized, kept, edited, dropped); `system_prompt` folds the system
messages of a path.
"""

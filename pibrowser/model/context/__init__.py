"""pi's context rules: what pi would send if a node were the leaf.

`resolve` is pi's buildSessionContext in named steps (path, settings, last
compaction and first kept entry, edits, the projection of each entry into
messages); `cache` builds a context from a neighbour's; `provenance` says what
part each entry on a path plays (summarized, kept, edited, dropped);
`system_prompt` folds the system messages of a path.
"""

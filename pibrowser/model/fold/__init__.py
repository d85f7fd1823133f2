"""pi's rules folded along a path: what every view asks of a node, worked out entry by entry.

`state` carries pi's answer at a leaf to the entry below it (settings in force, the last
compaction and what it keeps, the edits in force, chars/4 sums, the usage pi trusts,
usage recorded so far), calling the rules of `context.resolve` and `tokens`; `spine`
keeps those answers per depth of one path in typed columns; `path_fold` answers every
node of a session from its spine (the default leaf's path, folded once in the
background) and the branches that leave it. The resolver's full statement stays in
`context.resolve`: the fold's answers equal it, node for node.
"""

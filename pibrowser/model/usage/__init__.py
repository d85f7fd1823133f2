"""Where the tokens and the money went: the usage pi recorded, across every session in a folder.

Each file's usage records (`records`: every assistant reply, usage entry, tool result and
summary that records a usage, as pi's session statistics count them; packed in columns, and
summed into runs by `runs`) are read once (`reading`, through the one line scanner and header
parser) and cached by size and modification time beside the session list, a grown file read
on from where it was (`cache`, in the one SQLite file of `store`), and `pibrowser usage`'s whole
answer given again while the folder's files are all as they were (`answers`). The folder's records are merged with every copy counted once
(`ledger`: a fork, a /clone or an extracted branch copies its parent's entries, id and
timestamp included), summed as pi sums a usage (JavaScript's +, `tokens/usage.js_plus`) into
cells of a day, a session and a model (days in a time zone of `periods`), which every grouping
reads (`grouping`: by day, week, month, project, model or session, and the chart's stacks); a
whole folder's cells are kept and brought up to date while its files only grow (`folder_cells`).
`report` writes a grouping as text, JSON or CSV. docs/usage.md says it all for users.
"""

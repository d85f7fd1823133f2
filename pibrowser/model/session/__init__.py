"""A session file read: its lines, the entries they hold, and the tree they form.

Owns pi's file format on the reading side: the one line scanner every reader goes
through (`lines`), the one header parser (`header`), the per-line table a lazy load
keeps (`reader`, `line_table`, `line_fields`), pi's JSON.parse (`jsonline`),
the migration of old versions, the tree (`session.Session`: parent, children,
leaves, labels), following appends (`follow`), the
command line's one-path reader (`path_index`) and its tree of a clean file
(`index_tree`), pi's rules for what a tree shows that both trees apply (`pi_tree`),
pi's /tree filter, the search in one session, and what went wrong in a file (`problems`). Nothing above this
package reads a session's bytes itself.
"""

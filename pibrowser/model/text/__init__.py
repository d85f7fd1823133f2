"""Sessions as text for people: the same words in the window and on the terminal.

Amounts, plurals and times; one-line descriptions of entries; transcripts of a
context; the tree as indented text and as pi's getTree JSON; and session text
made harmless to print (`terminal_text`); tables as CSV safe to open in a
spreadsheet (`csv_cells`).
"""

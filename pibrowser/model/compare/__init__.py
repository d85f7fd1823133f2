"""Comparing two nodes' contexts: the fork point, the shared prefix, the rest aligned.

`comparison` is the entry point; `alignment` pairs messages after the prefix
(patience diff in `sequence_match`), `word_diff` diffs the texts, `model_visible`
says what of a message the model sees, `side_totals` and `diff_report` give the
numbers and the `diff` command's output, `leaf_rows` the leaf picker's rows.
"""

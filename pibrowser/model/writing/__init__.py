"""What pibrowser adds to the user's files: labels appended as pi writes them, branches extracted.

Every write appends whole lines (or writes a new file) and never changes a byte
already there; each checks that the file is still the one read before writing.
"""

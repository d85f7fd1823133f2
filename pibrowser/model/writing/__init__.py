"""What pibrowser writes: labels appended to the user's files as pi writes them, branches extracted,
old formats upgraded (asked for, the original kept), and the record of what was shared (`share_record`).

Every write appends whole lines (or writes a new file) and never changes a byte
already there; each checks that the file is still the one read before writing.
"""

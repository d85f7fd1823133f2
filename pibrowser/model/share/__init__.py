"""A session shared as one offline HTML page (`pibrowser share`, File ▸ Share as HTML…).

What goes into the page, worked out here and only followed by its script: every node's
context as a step from its parent's (`contexts`), the outline's rows under each of pi's
filters (`outline`), the comparison, trace and files (`views`); secrets found and removed
before anything is written (`secrets`, `redaction`); the page put together with its
Content-Security-Policy (`page`, its template, script and style in `page/`); and the
record of every share (`record`). No Qt here.
"""

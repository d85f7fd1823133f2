"""The Usage view (View ▸ Usage): cost and tokens over time across every session in the folder.

`usage_view.UsageView` reads the folder's usage from the SessionsController (ui/control/)
and groups it on the GUI thread (model/usage/grouping: cheap, the cells are read in the
background); `charts` draws the stacked bars and the cache hit ratio with Qt Charts;
`lists` the top sessions and projects, and a bar's sessions.
"""

"""How big a context is, as pi counts it, and what the path recorded.

pi's per-message estimate (`message_tokens`), its whole-context estimate that
compaction goes by (`context_estimate`), the usage and cost recorded on a path
(`usage`), the header's figures (`stats`), and the context over time along a path
(`timeline`).
"""

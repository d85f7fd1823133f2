"""How big a context is, as pi counts it, and what the path recorded.

pi's per-message estimate (`message_tokens`), its whole-context estimate that
compaction goes by (`context_estimate`), what an entry records of usage and cost
(`usage`), the header's figures (`stats`), and what a row of the context over time
holds (`timeline`). Each states its rule for one context or path in full; the fold
(model/fold/) applies the same rules entry by entry along a path.
"""

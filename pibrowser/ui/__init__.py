"""pibrowser's Qt views: they read the model and never re-derive pi's semantics."""

"""The Context Over Time strip under the tree, and the series it plots."""

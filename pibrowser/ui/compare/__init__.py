"""Comparing two leaves in the window: the leaf picker and the side-by-side Compare tab."""

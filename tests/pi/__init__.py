"""pi itself, for the differential check and the benchmarks: its answers and where to find it."""

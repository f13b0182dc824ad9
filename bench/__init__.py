"""Benchmarks run on demand (`make bench`): ratios and percentiles to read, never timing assertions."""

"""The spin's named text filters, one module each: hesitant, valley girl, surprise, hedges, double entry. The
stages that run them, and the table of them by name, are narrator/filtering.py (a package's `__init__` is not
compiled; the stages are hot)."""

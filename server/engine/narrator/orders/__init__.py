"""The spin's orders, one small module each: chronicle, retrograde, achrony, analepsis, syllepsis. The stage
that applies them is narrator/order.py (a package's `__init__` is not compiled; the stage is hot)."""

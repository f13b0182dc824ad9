"""Curveship itself: a pure, deterministic engine that simulates worlds and tells them under spins; no I/O."""

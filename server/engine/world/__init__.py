"""The world model: declared items, the live item tree, and perception (light, sight, reach)."""

"""The `curveship` command: tell and play stories in a terminal."""

"""The worlds that ship with Curveship, one module each, and their walkthroughs in walks/."""

"""The Curveship server: the narrating engine and, around it, the hosting of world instances."""

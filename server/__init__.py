"""The Curveship server: the narrating engine and, around it, the hosting of world instances."""

from server.compiled import use_compiled

use_compiled()  # before any engine module is imported: the compiled ones, where they are current

"""The named spins that ship with Curveship, one TOML file each (data only: a spin file never runs code)."""

"""The named spins that ship with Curveship, one TOML file each (data only: a spin file never runs code)."""

from importlib import resources


def names() -> list[str]:
    """The named spins that ship here, by file name without `.toml`."""
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".toml")
    )

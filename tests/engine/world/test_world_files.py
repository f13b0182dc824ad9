"""A mistake in a world file is one line naming the file, the line Python found it on, and the problem: never a
traceback. The same from the command line, which says it and exits with status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from server.catalog import load_world
from server.engine.errors import WorldError

HEAD = """from server.engine.world.definition import WorldDefinition
from server.engine.world.items import Actor, Door, Room, Thing
from server.engine.actions.action import Behave
"""


def world(items: str, timeline: str = "()") -> str:
    return HEAD + (
        f'WORLD = WorldDefinition(name="w", title="t", interactive=False, items=({items}), player="@a", '
        f"timeline={timeline})\n"
    )


ROOM_AND_MAN = 'Room(tag="@r", called="room"), Actor(tag="@a", called="man", where="in @r"), '

MISTAKES = [
    ("syntax", "def (\n", 1, "invalid syntax"),
    ("import", "import nosuchmodule\n", 1, "ModuleNotFoundError: No module named 'nosuchmodule'"),
    ("crash", HEAD + "x = 1 / 0\n", 4, "ZeroDivisionError: division by zero"),
    ("parent", world(ROOM_AND_MAN + 'Thing(tag="@b", called="box", where="in @x")'), 4, "@b: placed in @x"),
    ("door", world(ROOM_AND_MAN + 'Door(tag="@d", called="door")'), 4, "@d: a door connects two rooms"),
    ("quality", world(ROOM_AND_MAN + 'Thing(tag="@b", called="box", where="in @r", qualities=("x",))'), 4, "quality"),
    (
        "slot",
        world(ROOM_AND_MAN, '((1, Behave(verb="wave", agent="@a", template="[agent/s] [wave/v] at [bogus/o]")),)'),
        4,
        "w: timeline action 'wave' at tick 1: slot [bogus/o]",
    ),
    (
        "sight",
        world(
            'Room(tag="@r", called="room", sight="a [@nobody/o] room"), Actor(tag="@a", called="man", where="in @r")'
        ),
        4,
        "w: @r sight: template 'a [@nobody/o] room' names @nobody, not an item of this world",
    ),
    ("duplicate", world(ROOM_AND_MAN + 'Room(tag="@r", called="hall")'), 4, "w: two items are tagged @r"),
]


@pytest.mark.parametrize(("name", "source", "line", "problem"), MISTAKES, ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_one_line_naming_the_file_and_line(tmp_path: Path, name, source, line, problem):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    with pytest.raises(WorldError) as raised:
        load_world(str(path))
    message = str(raised.value)
    assert message.startswith(f"{path}:{line}: ")
    assert problem in message
    assert "\n" not in message


def test_a_door_stands_in_the_first_room_it_connects_unless_placed(tmp_path: Path):
    path = tmp_path / "doors.py"
    path.write_text(
        world(ROOM_AND_MAN + 'Room(tag="@s", called="study"), Door(tag="@d", called="door", connects=("@s", "@r"))')
    )
    door = next(item for item in load_world(str(path)).items if item.tag == "@d")
    assert door.placement() == ("in", "@s")


def test_a_world_file_fixed_after_a_mistake_loads(tmp_path: Path):
    path = tmp_path / "again.py"
    path.write_text("import nosuchmodule\n")
    with pytest.raises(WorldError):
        load_world(str(path))
    path.write_text(world(ROOM_AND_MAN.rstrip(", ")))
    assert load_world(str(path)).name == "w"


def test_the_command_line_says_it_in_one_line_with_status_2(tmp_path: Path):
    path = tmp_path / "broken.py"
    path.write_text(world(ROOM_AND_MAN + 'Thing(tag="@b", called="box", where="in @x")'))
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-m", "clients.cli.main", "tell", str(path)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"curveship: {path}:4: w: @b: placed in @x, which is not an item of this world\n"

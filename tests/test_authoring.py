"""Keeps docs/authoring.md true: its code is the tutorial's files, and what it shows is what the engine prints.

The guide follows three conventions, which this file reads (the guide repeats them near its top):

1. File blocks. A line `<!-- file: PATH -->` just before a fenced code block says the block is the whole of
   PATH (relative to the repository root); `<!-- file: PATH lines A-B -->` says it is lines A to B of that
   file, counted from 1, both included.
2. Command blocks. A fenced block whose first line starts with `$ ` is a terminal session. Every line that
   starts with `$ ` is a command; the lines after it, up to the next `$ ` line or the end of the block, are
   what it prints (standard output, then standard error). A command is `curveship ARGS…`, or
   `printf 'TEXT' | curveship ARGS…`, where TEXT (with `\\n` for a line break) is the standard input.
   Each command is run here, in-process, through `clients.cli.main.main`, from the repository root.
   Trailing spaces and blank lines at either end do not count; a `…` in the shown output stands for any
   text, so a long telling can be cut short.
3. The template table. A markdown table that starts right after a line `<!-- templates -->`. Its columns:
   what the row shows; the template, as a code span; spin settings, as code spans `key=value` (or nothing);
   and the sentence told. Each template is given to REFERENCE_ACTION, which becomes the only event of the
   finished tutorial world, and is told through the keeper under those settings.

Besides, every spin field needs a heading of its own in the guide (the field's name as a code span, alone on a
heading line), so a new field cannot go undocumented.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import re
import shlex
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from clients.cli.main import main
from protocol.spin import SPIN_FIELDS
from server.catalog import load_world, spin_from_words
from server.engine.actions.action import Configure
from server.engine.story import Story
from server.engine.world.definition import WorldDefinition

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "authoring.md"
TUTORIAL_WORLD = "tests/tutorial/lighthouse.py"

# The action every template in the guide's table is told as: the keeper puts the sardine (which is in the
# tin) on the table, for the gull. Roles: agent @keeper, direct @sardine, indirect @gull, target @table,
# parent @tin (where the sardine was), room @lamp_room.
REFERENCE_ACTION = Configure(verb="put", agent="@keeper", direct="@sardine", indirect="@gull", to="on @table")

ELIDED = "…"
FILE_MARK = re.compile(r"^<!-- file: (\S+)(?: lines (\d+)-(\d+))? -->$")
FENCE = re.compile(r"^(```+|~~~+)")
PRINTF = re.compile(r"^printf '([^']*)' \| (curveship\b.*)$")


@dataclass(frozen=True)
class Block:
    line: int  # where the block's first line is in the guide, for messages
    lines: tuple[str, ...]
    marker: str  # the line just before the opening fence


@dataclass(frozen=True)
class Command:
    line: int
    command: str
    shown: str


@dataclass(frozen=True)
class TemplateRow:
    line: int
    template: str
    settings: tuple[str, ...]
    told: str


def guide_lines() -> list[str]:
    return GUIDE.read_text(encoding="utf-8").splitlines()


def fenced_blocks(lines: list[str]) -> list[Block]:
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        fence = opening.group(1)
        marker = next((lines[j] for j in range(index - 1, -1, -1) if lines[j].strip()), "")
        end = index + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        blocks.append(Block(index + 2, tuple(lines[index + 1 : end]), marker.strip()))
        index = end + 1
    return blocks


def file_blocks() -> list[tuple[Block, str, tuple[int, int] | None]]:
    found = []
    for block in fenced_blocks(guide_lines()):
        mark = FILE_MARK.match(block.marker)
        if mark:
            span = (int(mark.group(2)), int(mark.group(3))) if mark.group(2) else None
            found.append((block, mark.group(1), span))
    return found


def commands() -> list[Command]:
    found = []
    for block in fenced_blocks(guide_lines()):
        if not block.lines or not block.lines[0].startswith("$ "):
            continue
        current: tuple[int, str] | None = None
        output: list[str] = []
        for offset, text in enumerate(block.lines):
            if text.startswith("$ "):
                if current is not None:
                    found.append(Command(current[0], current[1], "\n".join(output)))
                current, output = (block.line + offset, text[2:].strip()), []
            else:
                output.append(text)
        assert current is not None
        found.append(Command(current[0], current[1], "\n".join(output)))
    return found


def template_rows() -> list[TemplateRow]:
    lines = guide_lines()
    rows = []
    for start, text in enumerate(lines):
        if text.strip() != "<!-- templates -->":
            continue
        index = start + 1
        while index < len(lines) and not lines[index].startswith("|"):
            index += 1
        table = []
        while index < len(lines) and lines[index].startswith("|"):
            table.append((index + 1, lines[index]))
            index += 1
        for number, row in table[2:]:  # after the header and the |---| line
            cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
            assert len(cells) == 4, f"docs/authoring.md line {number}: a template row has four columns"
            template = re.fullmatch(r"`([^`]+)`", cells[1])
            assert template, f"docs/authoring.md line {number}: the template column is one code span"
            settings = tuple(re.findall(r"`([^`]+)`", cells[2]))
            rows.append(TemplateRow(number, template.group(1), settings, cells[3]))
    return rows


def tidy(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def assert_shows(shown: str, printed: str, where: str) -> None:
    shown, printed = tidy(shown), tidy(printed)
    if ELIDED not in shown:
        assert printed == shown, where
        return
    pattern = ".*?".join(re.escape(part) for part in shown.split(ELIDED))
    assert re.fullmatch(pattern, printed, re.DOTALL), f"{where}\n--- shown:\n{shown}\n--- printed:\n{printed}"


# -- file blocks ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "path", "span"), file_blocks(), ids=[f"line {block.line}: {path}" for block, path, _ in file_blocks()]
)
def test_code_in_the_guide_is_the_file(block: Block, path: str, span: tuple[int, int] | None) -> None:
    source = (ROOT / path).read_text(encoding="utf-8").splitlines()
    wanted = source if span is None else source[span[0] - 1 : span[1]]
    assert span is None or span[1] <= len(source), f"{path} has only {len(source)} lines"
    assert list(block.lines) == wanted, f"docs/authoring.md line {block.line} differs from {path}"


# -- commands ------------------------------------------------------------------------------------------------


def run(command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    assert command.split()[0] == "curveship" or PRINTF.match(command), "the guide's commands run curveship"
    return _run_plain(command, monkeypatch)


@pytest.mark.parametrize("example", commands(), ids=lambda c: f"line {c.line}: {c.command}")
def test_command_prints_what_the_guide_shows(
    example: Command, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    printed = run(example.command, monkeypatch, capsys)
    assert_shows(example.shown, printed, f"docs/authoring.md line {example.line}: $ {example.command}")


# -- templates -----------------------------------------------------------------------------------------------


@cache
def tutorial_world() -> WorldDefinition:
    return load_world(str(ROOT / TUTORIAL_WORLD))


def told(template: str, settings: tuple[str, ...]) -> str:
    action = dataclasses.replace(REFERENCE_ACTION, template=template)
    definition = dataclasses.replace(tutorial_world(), timeline=((1, action),), refusals=())
    story = Story(definition)
    story.run_to_end()
    return story.tell(spin_from_words(story.spin, list(settings))).text


@pytest.mark.parametrize("row", template_rows(), ids=lambda r: f"line {r.line}: {r.template}")
def test_template_is_told_as_the_guide_shows(row: TemplateRow) -> None:
    assert_shows(row.told, told(row.template, row.settings), f"docs/authoring.md line {row.line}: {row.template}")


# -- coverage of the guide itself ----------------------------------------------------------------------------


def test_the_guide_has_examples_of_every_kind() -> None:
    assert len(file_blocks()) >= 5
    assert len(commands()) >= 20
    assert len(template_rows()) >= 20


@pytest.mark.parametrize("field", SPIN_FIELDS)
def test_every_spin_field_is_documented(field: str) -> None:
    heading = re.compile(rf"^#+ `{field}`$", re.MULTILINE)
    assert heading.search(GUIDE.read_text(encoding="utf-8")), f"docs/authoring.md has no section for {field}"


# -- refreshing the guide ------------------------------------------------------------------------------------


def refresh() -> int:
    """Rewrite the output the guide shows for each command that no longer prints it (run by hand, then read
    the diff: a changed telling must be a change someone meant). An elided output keeps its first sentences."""
    lines = guide_lines()
    changed = 0
    for command in reversed(commands()):
        start = command.line  # 1-based line of the `$ ` command; its output follows
        end = start + len(command.shown.splitlines()) if command.shown else start
        with pytest.MonkeyPatch.context() as patch:
            printed = _run_plain(command.command, patch)
        try:
            assert_shows(command.shown, printed, "")
            continue
        except AssertionError:
            pass
        new = tidy(printed)
        if ELIDED in command.shown:
            sentences = re.split(r"(?<=[.!?]) ", new.replace("\n", " "))
            new = " ".join(sentences[:3]) + " " + ELIDED
        lines[start:end] = new.splitlines()
        changed += 1
    GUIDE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


def _run_plain(command: str, patch: pytest.MonkeyPatch) -> str:
    piped = PRINTF.match(command)
    given = ""
    if piped:
        given, command = piped.group(1).replace("\\n", "\n"), piped.group(2)
    patch.chdir(ROOT)
    patch.setattr(sys, "stdin", io.StringIO(given))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), contextlib.suppress(SystemExit):
        main(shlex.split(command)[1:])
    return out.getvalue() + err.getvalue()


if __name__ == "__main__":
    print(f"{refresh()} command outputs rewritten in {GUIDE.relative_to(ROOT)}")

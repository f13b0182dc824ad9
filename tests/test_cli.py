"""The `curveship` command as a user runs it: a real process, real arguments, real pipes and exit statuses."""

from __future__ import annotations

import dataclasses
import os
import random
import select
import subprocess
import sys
import time
from pathlib import Path

from clients.cli.arguments import SERVE_LIMITS
from server.app import Config

ROOT = Path(__file__).resolve().parent.parent
CURVESHIP = [sys.executable, "-m", "clients.cli.main"]


def curveship(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CURVESHIP, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )


def test_tell_prints_the_robbery_from_the_robbers_side():
    done = curveship("tell", "robbery")
    assert done.returncode == 0
    assert done.stdout.startswith("A twitchy man puts on a Dora the Explorer mask. He leaves the street.")


def test_named_spins_apply_in_order_and_settings_last():
    done = curveship("tell", "robbery", "prophecy", "time=after", "narrator=@robber")
    assert done.returncode == 0
    assert done.stdout.startswith("I put on my Dora the Explorer mask. I left the street.")


def test_options_may_come_among_the_spins():
    first = curveship("tell", "robbery", "hesitant", "--seed", "3", "focalizer=@guard")
    again = curveship("tell", "--seed", "3", "robbery", "hesitant", "focalizer=@guard")
    assert first.returncode == again.returncode == 0
    assert first.stdout == again.stdout
    assert "burly guard" in first.stdout


def test_a_world_or_spin_file_by_path(tmp_path):
    spin = tmp_path / "whisper.toml"
    spin.write_text(
        'summary = "told by the teller, afterwards"\nnarrator = "@teller"\nfocalizer = "@teller"\ntime = "after"\n'
    )
    done = curveship("tell", str(ROOT / "worlds" / "robbery.py"), str(spin))
    assert done.returncode == 0
    assert done.stdout.startswith("I read some deposit slips.")


def test_unknown_world_or_spin_is_one_line_and_status_2():
    for args, named in ((("tell", "nowhere"), "'nowhere'"), (("tell", "robbery", "sideways"), "'sideways'")):
        done = curveship(*args)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and named in done.stderr
        assert done.stdout == ""


def test_a_bad_setting_names_the_field_and_what_it_allows():
    done = curveship("tell", "robbery", "order=sideways")
    assert done.returncode == 2
    assert "order" in done.stderr and "chronicle" in done.stderr and "retrograde" in done.stderr


def test_a_bad_spin_file_names_the_file_and_field(tmp_path):
    spin = tmp_path / "broken.toml"
    spin.write_text('time = "yesterday"\n')
    done = curveship("tell", "robbery", str(spin))
    assert done.returncode == 2
    assert "broken.toml" in done.stderr and "time" in done.stderr and "before" in done.stderr


def test_play_reads_plain_lines_from_a_pipe():
    done = curveship("play", "robbery", stdin="concept @teller tree\nspin time after\nrecount\n")
    assert done.returncode == 0
    assert "        @bag: black bag [in]\n            @fake_money: fake money [in]" in done.stdout
    assert "time = after" in done.stdout
    assert "A twitchy man put on a Dora the Explorer mask." in done.stdout


def test_play_an_interactive_world_with_auto_then_piped_lines():
    done = curveship("play", "cloak", "--auto", str(ROOT / "worlds" / "walks" / "cloak.txt"), stdin="score\nwait\n")
    assert done.returncode == 0
    assert "\n> w\n" in done.stdout and "\n> read message\n" in done.stdout
    assert "YOU HAVE WON" in done.stdout
    assert "*** The story has ended." in done.stdout
    assert "You have scored 2 out of a possible 2." in done.stdout  # directives still answer after the ending
    assert "\nThe story has ended. You may undo, restart, or recount.\n" in done.stdout  # a command does not


class PipedPlay:
    """`curveship play WORLD` driven through pipes as a program drives it, writing a line and reading the answer:
    its output as play flushes it (without PYTHONUNBUFFERED, which this machine sets, and which would flush
    every write and hide a client that never flushes)."""

    def __init__(self, world: str) -> None:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
        self.process = subprocess.Popen(
            [*CURVESHIP, "play", world], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, env=env
        )
        self.told = b""

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def read_until(self, words: bytes) -> None:
        """Read what play tells until `words` are among it, while its output stays open (a minute at most)."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + 60
        while words not in self.told:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"no {words!r} while the pipe stays open; told so far: {self.told[-300:]!r}"
            self.told += os.read(self.process.stdout.fileno(), 65536)

    def finish(self) -> bytes:
        """End its input; once play has ended (and well), everything it told."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=60) == 0
        self.told += self.process.stdout.read()
        return self.told


def test_piped_play_answers_each_line_before_the_next_is_sent():
    # Python holds a pipe's output back until its buffer fills, unless the program flushes it.
    play = PipedPlay("cloak")
    try:
        play.read_until(b"doorways lead south and west.")
        for line, answer in ((b"west", b"Cloakroom"), (b":help", b":quit"), (b"east", b"Foyer")):
            play.send(line + b"\n")
            play.read_until(answer)
    finally:
        play.finish()


def test_piped_play_reads_lines_however_the_pipe_cuts_them():
    # Piped input is read a block at a time: a character cut between two writes is still one character, a line
    # may end in CRLF, and the last line needs no newline.
    play = PipedPlay("cloak")
    try:
        play.send(b"west\r\nx caf\xc3")  # the first byte of "\xe9" only
        play.read_until(b"Cloakroom")  # the line before the cut one is played at once
        play.send(b"\xa9\r\neast")
    finally:
        told = play.finish()
    assert 'know the word "café"'.encode() in told
    assert "\ufffd".encode() not in told  # (what the cut bytes would have become, decoded apart)
    assert told.rstrip().endswith(b"doorways lead south and west.")  # "east", with no newline after it


def test_piped_play_sets_the_opening_apart_and_skips_comments():
    done = curveship("play", "cloak", stdin="# going west first\nwest\n  # and nothing else\n")
    assert done.returncode == 0
    opening, _, rest = done.stdout.partition("You leave the foyer.")
    assert opening.endswith("doorways lead south and west.\n\n")  # a blank line, as after every reply
    assert "comment" not in rest and "going" not in rest and "know the word" not in rest


def test_quit_anywhere_in_a_line_gives_what_comes_before_it_and_stops():
    done = curveship("play", "cloak", stdin="west; quit; east\nlook\n")
    assert done.returncode == 0
    assert "You leave the foyer." in done.stdout
    assert "quit" not in done.stdout
    assert "You leave the cloakroom." not in done.stdout and done.stdout.count("Cloakroom") == 1


def test_play_as_another_actor_and_with_player_permissions():
    done = curveship("play", "lost_one", "--actor", "@punk", "--player", stdin="world tree\nsmile\n")
    assert done.returncode == 0
    assert "for authors only" in done.stdout
    assert "You smile." in done.stdout


def test_the_output_may_be_cut_short_by_its_reader():
    pipeline = subprocess.run(
        f"{sys.executable} -m clients.cli.main tell robbery | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert pipeline.stdout == "A twitchy "
    assert "Traceback" not in pipeline.stderr


def test_a_spin_file_naming_an_actor_the_world_lacks_is_named_in_the_error(tmp_path):
    path = tmp_path / "nobody.toml"
    path.write_text('summary = "Through nobody."\nfocalizer = "@nobody"\n', encoding="utf-8")
    told = curveship("tell", "robbery", str(path))
    assert told.returncode == 2
    assert told.stderr.strip() == (
        f"curveship: {path}: focalizer @nobody is not an actor in robbery; "
        "it takes one of @teller, @robber, and @guard, or none"
    )
    played = curveship("play", "cloak", stdin=f"spin {path}\n")
    assert f"{path}: focalizer @nobody is not an actor in cloak; it takes @operagoer, or none." in played.stdout


def test_named_spins_add_up_the_same_way_at_the_prompt_and_in_a_directive():
    """`:spin hesitant surprise` and the `spin … valley_girl` directive read words as `tell` does
    (tests/engine/test_spin.py): named spins' filters add up, in order (they used to drift apart)."""
    played = curveship("play", "robbery", stdin=":spin hesitant surprise\nspin time=after valley_girl\nspin\n")
    assert played.returncode == 0, played.stderr
    shown = [line for line in played.stdout.splitlines() if line.startswith("filters = ")]
    assert shown[0] == "filters = hesitant, surprise"  # what :spin changed
    assert shown[-1] == "filters = hesitant, surprise, valley_girl"  # the directive added the third
    assert "time = after" in played.stdout


def run_bytes(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CURVESHIP, *args], input=stdin, capture_output=True, cwd=ROOT, timeout=60, check=False)


def test_bytes_that_are_not_utf8_at_the_prompt_get_an_answer_and_play_goes_on():
    # Every way a line can fail to be UTF-8: a cut sequence, a stray continuation byte, an overlong form, a
    # surrogate's encoding, Latin-1, and bytes at random (seeded).
    rng = random.Random(15)
    noise = [bytes(rng.randrange(128, 256) for _ in range(rng.randrange(1, 6))) for _ in range(6)]
    bad = [b"x caf\xc3", b"\x80look", b"take \xc0\xaf", b"\xed\xa0\x80", b"x caf\xe9", *noise]
    done = run_bytes("play", "cloak", stdin=b"\n".join([*bad, b"w", b""]))
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"You leave the foyer." in done.stdout  # the line after them was played


def test_an_auto_file_that_is_not_utf8_is_a_one_line_error(tmp_path):
    walk = tmp_path / "walk.txt"
    walk.write_bytes(b"look\nx caf\xc3\n")
    done = run_bytes("play", "cloak", "--auto", str(walk), stdin=b"")
    assert done.returncode != 0
    assert done.stderr.decode().strip() == f"curveship: cannot read {walk}: line 2 is not UTF-8 text (byte 0xc3)"


def test_every_number_among_the_servers_settings_is_a_flag_of_serve_with_its_default_said() -> None:
    numbers = {f.name: f.default for f in dataclasses.fields(Config) if f.type in ("int", "float")}
    flags = {name: text for name, _, text in SERVE_LIMITS}
    assert set(flags) == set(numbers)
    for name, default in numbers.items():
        assert f"(default {default:.15g})" in flags[name], name


def test_serve_help_lists_workers_and_every_limit() -> None:
    shown = curveship("serve", "--help").stdout
    assert "--workers N" in shown
    for name, _, _ in SERVE_LIMITS:
        assert f"--{name.replace('_', '-')}" in shown

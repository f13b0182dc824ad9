"""Driving the real `curveship` in a real terminal: a tmux server of its own (its own socket, no config), keys
sent as a person types them, the screen read back with capture-pane and polled until what is expected shows
(never a fixed sleep), and everything killed at the end. Also a `curveship serve` process to play against,
that can be killed and started again on the same port."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from tests.processes import wait_for_health

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0
"""Seconds to wait for what should show: generous, for a loaded two-core machine."""
POLL = 0.05
TMUX = shutil.which("tmux")
MISSING = TMUX is None and not os.environ.get("CI")
"""Skip the tmux tests where tmux is missing, except in CI ($CI set), where they fail and say so."""
_INSTALLED = Path(sys.executable).with_name("curveship")
CURVESHIP = [str(_INSTALLED)] if _INSTALLED.exists() else [sys.executable, "-m", "clients.cli.main"]


class Terminal:
    """One tmux server with one window, `width` by `height`, running a command line in `home` (HOME, and
    XDG_DATA_HOME under it, so history goes there). When the program ends the window stays, saying
    `[exited STATUS]`."""

    def __init__(self, home: Path, *, width: int = 100, height: int = 30) -> None:
        assert TMUX is not None, "the terminal tests need tmux (apt-get install -y tmux)"
        self.socket = f"test-{uuid.uuid4().hex[:12]}"
        self.home = home
        self.width, self.height = width, height
        self.started = False
        home.mkdir(parents=True, exist_ok=True)

    @property
    def history(self) -> Path:
        return self.home / "data" / "curveship" / "history"

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [str(TMUX), "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr}"
        return done.stdout

    def run(self, *args: str, env: dict[str, str] | None = None) -> None:
        """Run `curveship ARGS` in the window (a new window's first, or the old one's again once it ended)."""
        settings = {"HOME": str(self.home), "XDG_DATA_HOME": str(self.home / "data"), **(env or {})}
        unset = ["-u", "NO_COLOR", "-u", "CURVESHIP_HISTORY"]
        line = shlex.join(["env", *unset, *(f"{key}={value}" for key, value in settings.items())])
        line += " " + shlex.join([*CURVESHIP, *args]) + '; echo "[exited $?]"; exec sleep 3600'
        if self.started:
            self.tmux("respawn-pane", "-k", "-t", "play", "-c", str(ROOT), line)
        else:
            size = ("-x", str(self.width), "-y", str(self.height))
            self.tmux("new-session", "-d", "-s", "play", *size, "-c", str(ROOT), line)
            self.started = True
            self.socket_path = Path(self.tmux("display-message", "-p", "#{socket_path}").strip())

    def type(self, text: str) -> None:
        """Keys typed as text (no Enter unless "\\n" is sent through `press`)."""
        self.tmux("send-keys", "-t", "play", "-l", text)

    def press(self, *keys: str) -> None:
        """Named keys: Enter, Tab, Up, C-u, F4, Escape…"""
        self.tmux("send-keys", "-t", "play", *keys)

    def enter(self, line: str) -> None:
        if line:
            self.type(line)
        self.press("Enter")

    def screen(self, *options: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", "play", *options)

    def wait_for(self, wanted: str | Callable[[str], bool], *, what: str = "", options: tuple[str, ...] = ()) -> str:
        """The screen, once `wanted` is on it (a string, or a test of the screen's text)."""
        test = (lambda screen: wanted in screen) if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + WAIT
        while True:
            screen = self.screen(*options)
            if test(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {WAIT:g} s for {what or wanted!r}; the screen:\n{screen}")
            time.sleep(POLL)

    def wait_for_prompt(self, typed: str = "", *, bar: str | None = "") -> str:
        """The screen, once the prompt is up with `typed` on it (and so ready for keys), and the toolbar
        drawn with `bar` in it (None: no toolbar is wanted, as in --plain)."""
        wanted = f"> {typed}".rstrip()

        def ready(screen: str) -> bool:
            drawn = bar is None or ("(F4)" in toolbar(screen) and bar in toolbar(screen))
            return prompt_line(screen) == wanted and drawn

        return self.wait_for(ready, what=f"the prompt {wanted!r}" + (f" and {bar!r} in the toolbar" if bar else ""))

    def program(self) -> int:
        """The process id of the `curveship` running in the window (the shell's child)."""
        shell = self.tmux("display-message", "-p", "-t", "play", "#{pane_pid}").strip()
        found = subprocess.run(["ps", "-o", "pid=", "--ppid", shell], capture_output=True, text=True, check=False)
        children = found.stdout.split()
        assert len(children) == 1, f"the window runs {children!r}, not one program"
        return int(children[0])

    def close_window(self) -> None:
        """Close the window, as a person closes a terminal: what runs in it is sent SIGHUP."""
        self.tmux("kill-session", "-t", "play")

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "play", "-x", str(width), "-y", str(height))

    def close(self) -> None:
        """Kill the tmux server, and remove its socket (which tmux leaves behind)."""
        if self.started:
            with contextlib.suppress(AssertionError, subprocess.TimeoutExpired):
                self.tmux("kill-server")
            self.socket_path.unlink(missing_ok=True)


def lines_of(screen: str) -> list[str]:
    return screen.rstrip("\n").split("\n")


def toolbar(screen: str) -> str:
    """The bottom line, where the toolbar is."""
    return lines_of(screen)[-1]


def prompt_line(screen: str) -> str | None:
    """The last line that is a prompt, or None."""
    prompts = [line.rstrip() for line in lines_of(screen) if line.startswith(">")]
    return prompts[-1] if prompts else None


class Server:
    """`curveship serve` in a process of its own (its output in files under `work`), on a port it keeps
    across restarts; with `data`, it keeps instances and sessions there."""

    def __init__(self, work: Path, *, data: Path | None = None) -> None:
        self.work, self.data = work, data
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        work.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.starts += 1
        out = self.work / f"serve-{self.starts}.out"
        command = [*CURVESHIP, "serve", "--port", str(self.port)]
        if self.data is not None:
            command += ["--data", str(self.data)]
        with out.open("wb") as stdout, (self.work / f"serve-{self.starts}.err").open("wb") as stderr:
            self.process = subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=ROOT)
        deadline = time.monotonic() + WAIT
        while not (found := re.search(r"listening on http://127\.0\.0\.1:(\d+)", out.read_text())):
            assert self.process.poll() is None, f"serve ended: {out.read_text()}"
            assert time.monotonic() < deadline, "serve did not say where it listens"
            time.sleep(POLL)
        self.port = int(found.group(1))
        wait_for_health(self.url, deadline)

    def kill(self, signum: int = signal.SIGKILL) -> None:
        assert self.process is not None
        self.process.send_signal(signum)
        self.process.wait(timeout=WAIT)

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=WAIT)

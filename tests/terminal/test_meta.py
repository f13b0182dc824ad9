"""Meta commands: the registry's checks, shortened names, and spins and settings read as typed."""

from __future__ import annotations

import pytest

from clients.cli.meta import Desk, MetaCommands, MetaError, is_meta, spin_words, standard
from clients.cli.piped import PipedScreen
from protocol.spin import Spin, describe
from tests.terminal.scenes import cloakroom


def desk() -> Desk:
    return Desk(None, cloakroom(), PipedScreen(prompting=False))  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_named_spins_and_settings_in_the_order_typed():
    parts, window = await spin_words(desk(), ["prophecy", "time", "after", "order=retrograde", "memoir"])
    assert parts == ["prophecy", {"time": "after", "order": "retrograde"}, "memoir"] and window is None


@pytest.mark.asyncio
async def test_settings_are_typed_as_their_fields_want_them():
    parts, _ = await spin_words(desk(), ["speed", "0.25", "time_words", "on", "narrator", "none", "filters=hesitant"])
    assert parts == [{"speed": 0.25, "time_words": True, "narrator": None, "filters": ("hesitant",)}]


@pytest.mark.asyncio
async def test_a_window_where_one_is_wanted():
    assert await spin_words(desk(), ["memoir", "turn"], windows=True) == (["memoir"], "turn")
    assert await spin_words(desk(), ["3"], windows=True) == ([], 3)
    with pytest.raises(MetaError):
        await spin_words(desk(), ["turn"])


@pytest.mark.asyncio
async def test_a_word_that_is_no_spin_nor_setting_is_named_with_what_there_is():
    with pytest.raises(MetaError, match=r"'sideways' is neither a named spin \(memoir, prophecy, retrograde\)"):
        await spin_words(desk(), ["sideways"])
    with pytest.raises(MetaError, match="time needs a value"):
        await spin_words(desk(), ["time"])


def test_a_name_may_be_shortened_while_it_is_unambiguous():
    metas = standard()
    assert metas.find(":q").name == "quit" and metas.find("sp").name == "spin" and metas.find(":WHO").name == "who"
    with pytest.raises(MetaError, match=":spin or :state"):
        metas.find(":s")
    with pytest.raises(MetaError, match="no meta command :dance"):
        metas.find(":dance")


def test_the_registry_checks_what_is_added():
    metas = MetaCommands()

    @metas.add("ping")
    async def ping(desk, words):
        """:ping — answer."""

    with pytest.raises(ValueError, match="twice"):
        metas.add("ping")(ping)
    with pytest.raises(ValueError, match="docstring"):

        @metas.add("pong")
        async def pong(desk, words):
            pass

    with pytest.raises(ValueError, match="coroutine"):

        @metas.add("peng")
        def peng(desk, words):
            """:peng — not a coroutine."""


def test_every_meta_commands_help_starts_with_its_usage():
    for meta in standard():
        assert meta.help.startswith(f":{meta.name}") and " — " in meta.help


def test_a_meta_command_is_a_line_with_a_leading_colon():
    assert is_meta(":spin") and is_meta("  :q") and not is_meta("say :)")


def test_a_spin_is_described_as_the_directive_describes_it():
    spin = Spin(time="after", time_words=True, filters=("hesitant",))
    described = describe(spin, ["narrator", "time", "time_words", "filters", "ellipsis"])
    assert described == "narrator = none\ntime = after\ntime_words = on\nfilters = hesitant\nellipsis = none"

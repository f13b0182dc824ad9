"""The benchmarks run at a tiny size and give well-formed results; the synthetic story is what it claims.

No timing is asserted here: the numbers are for people to read (`make bench`), not for tests to judge."""

import dataclasses
import json
import math
from collections import Counter

import pytest

from bench import __main__ as cli
from bench import measure, telling
from bench.measure import Settings
from protocol.spin import apply
from server.engine.narrator import Draft

TINY = measure.Settings(sizes=(40, 80), tellings=5, repeats=1)


def _positive(value: float) -> bool:
    return isinstance(value, int | float) and value > 0 and math.isfinite(value)


@pytest.fixture(scope="module")
def made():
    return telling.synthetic(300)


@pytest.fixture(scope="module")
def story(made):
    return telling.run_story(made.definition)


def test_synthetic_story_has_exactly_the_events_asked_for(made, story):
    assert made.events == 300
    assert len(story.simulation.events) == 300
    assert [event.id for event in story.simulation.events] == list(range(300))


def test_synthetic_story_mixes_every_kind_of_action(made, story):
    assert set(made.kinds) == {"go", "configure", "modify", "sense", "behave", "failure"}
    verbs = Counter(event.action.verb for event in story.simulation.events)
    for verb in ("leave", "enter", "take", "drop", "give", "polish", "see", "look", "wave", "laugh"):
        assert verbs[verb] > 0, verb
    # A go is two events: the leaving and the entering it entails.
    assert verbs["leave"] == verbs["enter"] == made.kinds["go"]


def test_only_the_planned_failures_fail(made, story):
    outcomes = Counter(event.outcome for event in story.simulation.events)
    assert outcomes["done"] == 300 - made.failures
    assert outcomes["failed"] == made.failures > 0
    assert {event.reason.name for event in story.simulation.events if event.reason} == {"already so"}


def test_events_are_perceived_by_others_than_their_agent(story):
    simulation = story.simulation
    shared = [event for event in simulation.events if len(event.perceivers) > 1]
    assert len(shared) > len(simulation.events) // 2
    for actor, concept in simulation.concepts.items():
        others = {simulation.events[number].action.agent for number in concept.events} - {actor}
        assert others, f"{actor} perceived nobody else"


def test_every_event_is_told_by_whoever_perceived_it(story):
    """Each actor's telling tells every event in its concept, each in at least one sentence; between them the
    actors tell the whole story but for arrivals nobody saw happen (those who see a room next door already
    saw the one arriving leave, and an arrival is news only to those who had not)."""
    simulation = story.simulation
    told_by_anyone: set[int] = set()
    for actor, concept in simulation.concepts.items():
        told: list[int] = []

        def trace(stage: str, draft: Draft, told: list[int] = told) -> None:
            if stage == "realize":
                for item in draft.told:
                    assert item.sentences, f"event {item.event.id} told without a sentence"
                    told.append(item.event.id)

        assert story.tell(apply(story.spin, {"focalizer": actor}), trace=trace).text
        assert told == concept.events, actor
        told_by_anyone.update(told)
    untold = [event for event in simulation.events if event.id not in told_by_anyone]
    assert all(event.action.verb == "enter" and not event.perceivers for event in untold)
    assert len(told_by_anyone) >= 0.95 * len(simulation.events)


def test_synthetic_story_is_the_same_for_the_same_seed():
    def plan(made: telling.Synthetic) -> list[tuple[object, ...]]:
        return [(tick, a.verb, a.agent, a.direct, a.indirect) for tick, a in made.definition.timeline]

    assert plan(telling.synthetic(60)) == plan(telling.synthetic(60))
    assert plan(telling.synthetic(60, seed=1)) != plan(telling.synthetic(60))


def test_scaling_reports_every_measure_at_every_size():
    result = telling.scaling(TINY)
    assert set(result["sizes"]) == {"40", "80"}
    for size, found in result["sizes"].items():
        assert found["events"] == int(size)
        for key, _label in telling.MEASURES:
            assert _positive(found[key]), (size, key)
        assert 0 < found["told"] <= found["events"]
        assert 0 < found["told_spun"] <= found["told"]
        assert found["sentences"] >= found["told"]
        assert len(found["simulate_tenths_s"]) == 10
        assert all(_positive(value) for value in found["simulate_tenths_s"])
        assert set(found["calls"]) == {"simulate_s", "tell_s", "tell_spun_s"}
        assert all(count > 0 for count in found["calls"].values())
    assert set(result["ratios"]) == {key for key, _label in telling.MEASURES}
    assert all(_positive(value) for value in result["call_ratios"].values())
    assert all(_positive(value) for value in result["ratios"].values())
    assert result["target"] == pytest.approx(2.4)
    assert set(result["verdicts"].values()) <= {"PASS", "WARN"}
    assert "N=80" in telling.report_scaling(result)


def test_robbery_reports_percentiles_of_each_spin_set():
    result = telling.robbery(TINY)
    assert result["events"] > 0 and result["spins"]
    for key in ("default", "rotating"):
        found = result[key]
        assert found["count"] == 5
        for stat in ("median_s", "p90_s", "p99_s", "mean_s", "total_s"):
            assert _positive(found[stat]), (key, stat)
        assert found["median_s"] <= found["p99_s"] <= found["total_s"]
    assert "p99" in telling.report_robbery(result)


def test_percentiles_interpolate():
    samples = [float(value) for value in range(1, 101)]
    assert measure.percentile(samples, 90) == pytest.approx(90.1)
    assert measure.percentile([2.0], 99) == 2.0
    assert measure.distribution([1.0, 3.0])["median_s"] == 2.0


def test_names_pick_modules_or_single_benchmarks():
    assert list(cli.chosen([])) == [
        "telling.scaling",
        "telling.robbery",
        "play.walkthroughs",
        "play.late",
        "play.session",
        "server.latency",
        "server.crowd",
        "persistence.restart",
        "persistence.instances",
        "persistence.durable",
        "persistence.unloading",
        "persistence.commits",
        "engine.turn",
        "engine.collection",
        "dispatch.rpc",
        "bots.load",
        "bots.env",
        "bots.fork",
        "workers.capacity",
        "workers.steady",
        "workers.stall",
        "local.command",
        "local.startup",
        "cluster.forwarding",
        "cluster.takeover",
        "goals.all",
    ]
    assert list(cli.chosen(["telling"])) == ["telling.scaling", "telling.robbery"]
    assert list(cli.chosen(["robbery"])) == ["telling.robbery"]
    with pytest.raises(SystemExit):
        cli.chosen(["nothing"])


def test_command_prints_tables_and_writes_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert cli.main(["robbery", "--tellings", "3", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "telling.robbery" in printed and "median" in printed
    document = json.loads(out.read_text())
    assert document["machine"]["cpus"]
    assert document["results"]["telling.robbery"]["default"]["count"] == 3
    assert document["settings"]["tellings"] == 3


def test_every_numeric_setting_has_a_flag_and_nonsense_is_refused(capsys):
    options = cli.parse(["--players", "7", "--seconds", "2.5", "--restart-turns", "30"])
    settings = Settings(sizes=options.sizes, **{field: getattr(options, field) for field in cli.NUMBERS})
    assert (settings.players, settings.seconds, settings.restart_turns) == (7, 2.5, 30)
    assert {field.name for field in dataclasses.fields(Settings)} - {"sizes"} == set(cli.NUMBERS)
    with pytest.raises(SystemExit):
        cli.parse(["--players", "0"])
    assert "must be positive" in capsys.readouterr().err


def test_play_benchmarks_win_every_walkthrough_and_survive_a_random_session():
    from bench import play

    walked = play.walkthroughs(Settings())
    assert all(result["ended"] for result in walked["worlds"].values())
    late = play.late_and_early(Settings(repeats=1))
    assert set(late["worlds"]) == {"adventure", "cloak"} and all(r["ended"] for r in late["worlds"].values())
    assert "first / last 50" in play.report_late_and_early(late)
    session = play.session(Settings(commands=40))
    for result in session["worlds"].values():
        assert result["commands"] == 40 and result["turns"] > 0 and result["median_s"] > 0


def test_persistence_benchmarks_restart_what_they_built_and_compare_durable_writes():
    from bench import persistence

    tiny = Settings(restart_turns=30, restart_instances=4, requests=10, durable_players=2, durable_seconds=0.3)
    restarted = persistence.restart(tiny)
    assert restarted["turns"] == 30 and restarted["log"] >= 31
    for key in ("as_kept", "snapshot_at_end", "whole_log"):
        assert restarted[key]["instances"] == restarted[key]["sessions"] == 1
        assert _positive(restarted[key]["restore_s"])
    assert restarted["snapshot_at_end"]["replayed"] == 0 and restarted["snapshot_at_end"]["from_snapshot"] == 1
    assert restarted["whole_log"]["replayed"] == restarted["log"] and restarted["whole_log"]["from_snapshot"] == 0
    assert "/health" in persistence.report_restart(restarted)
    many = persistence.instances(tiny)
    assert many["instances"] == many["sessions"] == 4 and many["turns"] == 4 * persistence.SMALL_TURNS
    assert _positive(many["to_health_s"]) and "per instance" in persistence.report_instances(many)
    assert many["stored"] == 4 and _positive(many["open_s"]) and _positive(many["first_use_s"])
    durable = persistence.durable(tiny)
    for mode in ("memory", "durable"):
        assert durable[mode]["one"]["commands"] == 10 and durable[mode]["several"]["commands"] > 0
    assert _positive(durable["durable_one_ratio"]["per_second"]) and durable["store_bytes"] > 0
    assert "durable / memory" in persistence.report_durable(durable)


def test_the_unloading_benchmark_measures_idle_instances_and_gives_their_memory_back():
    from bench import persistence

    found = persistence.unloading(Settings(unload_instances=3))
    assert found["instances"] == found["unloaded"] == 3
    assert _positive(found["per_instance_bytes"]) and found["freed_per_instance_bytes"] > 0
    assert found["turn_back"] == persistence.UNLOAD_TURNS, "the first one brought back where it was"
    assert "first use after" in persistence.report_unloading(found)


def test_the_stores_benchmark_measures_each_store_at_each_crowd():
    from bench import persistence

    found = persistence.commits(Settings(instances=3, players=5, write_seconds=0.2))
    assert found["crowds"] == [1, 3, 5]
    for key in ("one_each", "grouped"):
        assert [row["writers"] for row in found[key]] == [1, 3, 5]
        assert all(row["changes"] > 0 and _positive(row["p99_s"]) for row in found[key])
    assert all(row["commits_per_change"] <= 1 for row in found["grouped"])
    assert "group commit" in persistence.report_commits(found)


def test_engine_benchmark_serves_each_world_and_compares_it_with_another_tree():
    from pathlib import Path

    from bench import engine

    now = engine.turn(Settings(turns=20))
    assert set(now["worlds"]) == {"lost_one", "bank", "random lost_one"}
    for result in now["worlds"].values():
        assert result["commands"] == 20
        assert all(_positive(result[key]) for key in ("median_s", "p99_s", "cpu_mean_s", "calls"))
    for world in ("lost_one", "bank"):
        assert _positive(now["worlds"][world]["story_s"]) and _positive(now["worlds"][world]["history_bytes"])
    # This same tree as the "other" one: measured in a process of its own, and compared line by line.
    now["against"] = engine.elsewhere(Path(__file__).resolve().parent.parent, 20)
    assert set(now["against"]) == set(now["worlds"])
    assert engine.report(now).count("before / now") == 3


def test_collection_benchmark_times_a_full_collection_as_kept_and_frozen():
    import gc

    from bench import engine

    result = engine.collection(Settings(turns=80))
    assert result["instances"] == engine.COLLECTED_INSTANCES and result["turns"] == 20
    assert result["tracked"] > result["walked"] > 0
    assert _positive(result["whole_s"]) and _positive(result["since_s"])
    assert "as kept / frozen" in engine.report_collection(result)
    assert gc.get_freeze_count() == 0  # the heap frozen for the measurement is thawed after it


def test_dispatch_benchmark_costs_each_request():
    from bench import dispatch

    result = dispatch.dispatch(Settings(requests=5))
    assert set(result) == set(dispatch.CALLS) and all(_positive(cost) for cost in result.values())
    assert "µs" in dispatch.report(result)


def test_bots_benchmarks_load_step_and_fork():
    from bench import bots

    tiny = Settings(players=2, seconds=0.6, commands=40)
    loaded = bots.load(tiny)
    assert [run["players"] for run in loaded["runs"]] == [1, 2, 8]
    assert all(run["commands"] > 0 and run["server"]["rss_bytes"] > 0 for run in loaded["runs"])
    assert "8 players / 2 instances" in bots.report_load(loaded)
    stepped = bots.environment(tiny)
    assert stepped["steps"] == 20 and _positive(stepped["over_socket"]["steps_per_second"])
    assert stepped["vector_of_8_over_socket"]["steps"] == 16
    forked = bots.fork(tiny)
    assert [r["turns"] for r in forked["turns"]] == [1, 2, 20] and all(
        _positive(r["median_s"]) for r in forked["turns"]
    )


def test_workers_benchmarks_load_one_and_two_workers_and_time_an_innocent_player():
    from bench import workers

    tiny = Settings(players=4, instances=2, seconds=1.0)
    capacity = workers.capacity(tiny)
    assert [row["workers"] for row in capacity["rows"]] == [1, 2]
    assert all(row["report"]["commands"] > 0 and not row["report"]["errors"] for row in capacity["rows"])
    assert "2 workers / 1" in workers.report_capacity(capacity)
    stalled = workers.stall(tiny)
    for run in stalled["runs"].values():
        assert run["alone"]["count"] > 0 and run["beside"]["count"] > 0 and run["actions"]["count"] > 0
    assert "beside actions" in workers.report_stall(stalled)


def test_the_cluster_benchmarks_forward_over_nats_and_time_a_takeover():
    from bench import cluster

    # PostgreSQL and NATS run on this machine (and in CI): a benchmark that found neither would say "skipped".
    forwarded = cluster.forwarding(Settings(requests=50))
    assert "skipped" not in forwarded, forwarded
    assert all(run["count"] == 50 and _positive(run["cpu_s"]) for run in forwarded["runs"].values())
    assert "forwarded / on the holder" in cluster.report_forwarding(forwarded)
    taken = cluster.takeover(Settings())
    assert taken["turn_kept"] and taken["socket_closed_s"] < taken["resumed_s"], taken
    assert "resumed on another node" in cluster.report_takeover(taken)


def test_the_steady_load_benchmark_paces_the_crowd_and_reports_its_percentiles():
    from bench import workers

    steady = workers.steady(Settings(seconds=1.0))
    assert steady["report"]["commands"] > 0 and not steady["report"]["errors"], steady
    assert "p99 < 20 ms" in workers.report_steady(steady)


def test_local_benchmarks_play_piped_and_at_a_terminal_and_see_the_imports():
    from bench import local

    commanded = local.per_command(Settings(piped=10, repeats=1))
    assert set(commanded["worlds"]) == set(local.WORLDS)
    assert all(_positive(r["engine_s"]) and r["ratio"] >= 0 for r in commanded["worlds"].values())
    assert "play/engine" in local.report_per_command(commanded)
    started = local.startup(Settings(repeats=1))
    assert all(_positive(started[key]) for key in ("python_s", "piped_s", "terminal_s"))
    assert "jsonrpcserver" in started["imports_s"]  # the in-process server answers the opening through it
    assert "aiohttp" not in started["imports_s"]  # no socket, so no web framework and no TLS context
    assert "not imported before it:" in local.report_startup(started)

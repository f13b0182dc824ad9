"""`curveship export`: a kept instance's transcript, commands and tellings, as text or JSON, read from a store.

The store is read as the server keeps it (server/stores/, `open_store`): the SQLite file in --data, or the
PostgreSQL database --store names, through the same calls either way. It is opened only to be read: no lock is
taken and no lease claimed, so a server may be running on it, and nothing is written."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

import msgspec

from protocol.spin import Spin
from server.catalog import load_world
from server.engine.errors import EngineError
from server.engine.story import Logged
from server.engine.transcript import Page, transcript
from server.persist import check_world, logged
from server.stores import StoredInstance, StoreError, open_store


def run_export(args: argparse.Namespace) -> int:
    stored, log = asyncio.run(_read(args.store, Path(args.data) if args.data else None, args.instance))
    check_world(stored, "it cannot be retold")
    definition = load_world(stored.world)
    pages = list(transcript(definition, stored.seed, msgspec.convert(stored.spin, Spin), log))
    written = (
        as_json(stored, definition.title, pages) if args.format == "json" else as_text(stored, definition.title, pages)
    )
    if args.output:
        Path(args.output).write_text(written, encoding="utf-8")
    else:
        sys.stdout.write(written)
    return 0


async def _read(url: str | None, data: Path | None, instance: str) -> tuple[StoredInstance, list[Logged]]:
    try:
        store = await open_store(url, data, reading=True)
    except StoreError as error:
        raise EngineError(str(error)) from None
    try:
        stored = await store.instance(instance)
        if stored is None:
            known = ", ".join(kept.id for kept in await store.instances()) or "none"
            raise EngineError(f"no instance {instance!r} in {data if url is None else store.where}; instances: {known}")
        return stored, [logged(entry) for entry in await store.log(instance)]
    except StoreError as error:
        raise EngineError(str(error)) from None
    finally:
        await store.close()


def as_text(stored: StoredInstance, title: str, pages: list[Page]) -> str:
    """A transcript to read: a header, then each opening and each `> command` with its reply."""
    actors = {page.actor for page in pages}
    lines = [f"Transcript of instance {stored.id} ({stored.world}, seed {stored.seed}), turn {stored.turn}"]
    for page in pages:
        who = f"{page.actor} " if len(actors) > 1 else ""
        lines.append(f"[{who}opening]" if not page.command else f"> {who}{page.command}")
        lines.append(page.telling.text)
    return "\n\n".join(lines) + "\n"


def as_json(stored: StoredInstance, title: str, pages: list[Page]) -> str:
    """The same as data: the instance, then each page with its turn, actor, command, text and blocks."""
    document = {
        "instance": stored.id,
        "world": stored.world,
        "title": title,
        "seed": stored.seed,
        "turn": stored.turn,
        "ended": stored.ended,
        "pages": [
            {
                "turn": page.turn,
                "actor": page.actor,
                "command": page.command,
                "text": page.telling.text,
                "blocks": [{"kind": block.kind, "text": block.text} for block in page.telling.blocks],
            }
            for page in pages
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

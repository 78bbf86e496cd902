"""The catalog: what ``toolgym list`` shows of each built-in env, stored so it answers at once.

An env's row (its tool count, action language and split sizes) is known only once the env is
built, and building all of them takes seconds (the RapidAPI and Seal-Tools libraries, the
gazetteer, every gold run once). ``toolgym build-tasks`` writes the rows of the built-in envs to
``catalog.json`` beside this module, with the stored task files; ``toolgym build-tasks --check``
and the test suite compare it with freshly built envs. Envs of families registered at run time
(:func:`toolgym.envs.register_family`) are not in it and are built when listed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolgym.envs.spec import FamilySpec, VersionSpec

CATALOG_PATH = Path(__file__).with_name("catalog.json")
"""Where the built-in envs' rows are stored."""


def built_row(spec: FamilySpec, version: VersionSpec, **options: Any) -> dict[str, Any]:
    """An env's row, from the env itself, built with its default arguments.

    ``options`` are what an env that needs an option of the user's (``FamilySpec.needs``) is
    built with to write its row once; ``built_catalog`` keeps the stored row after.
    """
    from toolgym.envs import env_class

    # the class itself, not gym.make: listing an older version is not using it
    env = env_class(spec)(version=version.version, **options)
    try:
        tools = len(env.tools)
        if not tools:  # every task brings its own functions (BFCL): the distinct ones of all
            tasks = env.suite.load(env.suite.splits[0]).values() if env.suite.splits else ()
            tools = len({tool.name for task in tasks for tool in env.toolkit.task_tools(task)})
        return {
            "tools": tools,
            "language": env.language.name,
            "splits": {split: len(env.suite.load(split)) for split in env.suite.splits},
            "train": env.suite.train_task is not None,
        }
    finally:
        env.close()


def built_catalog() -> dict[str, dict[str, Any]]:
    """Every built-in env's row, built now (seconds: every env is built).

    An env whose family reads a package that is not installed (``FamilySpec.requires``), or
    that needs an option only its user has (``FamilySpec.needs``), keeps its stored row.
    """
    from toolgym.envs import builtin_families

    stored = stored_catalog()
    out = {}
    for spec in builtin_families():
        for version in spec.versions:
            env_id = spec.env_id(version.version)
            if spec.missing() or spec.needs:
                if env_id in stored:
                    out[env_id] = stored[env_id]
                continue
            out[env_id] = built_row(spec, version)
    return out


def stored_catalog() -> dict[str, dict[str, Any]]:
    """The stored rows (empty when the file is missing or unreadable)."""
    try:
        data = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_catalog() -> Path:
    """Build every built-in env and store its row; the file written."""
    built = built_catalog()
    text = json.dumps({k: built[k] for k in sorted(built)}, indent=1) + "\n"  # splits in order
    CATALOG_PATH.write_text(text, encoding="utf-8")
    return CATALOG_PATH


def stale_rows() -> list[str]:
    """The env ids whose stored row is missing, different or no longer registered."""
    built, stored = built_catalog(), stored_catalog()
    return sorted(k for k in {*built, *stored} if built.get(k) != stored.get(k))


def stored_row(stored: dict[str, Any], env_id: str) -> dict[str, Any] | None:
    """``env_id``'s stored row when it has the row's shape (``None``: build it instead)."""
    entry = stored.get(env_id)
    if (
        isinstance(entry, dict)
        and isinstance(entry.get("tools"), int)
        and isinstance(entry.get("language"), str)
        and isinstance(entry.get("splits"), dict)
    ):
        return entry
    return None

"""The starting state a Cat API task needs, derived from its gold lines.

The original benchmark ran every case against one live account, so its labels favourite images
that a fresh simulated account may already hold (``DUPLICATE_FAVOURITE``) and delete favourites
it may not hold (``404``). A task without a setup therefore gets one from its gold
(:func:`derive_setup`, used as ``TaskSuite(setup_for=...)``):

* an image a gold POSTs to ``/v1/favourites`` is in ``favourites_absent`` when the world's
  seeded account holds it as a favourite;
* a favourite reference (image id, or favourite id) a gold DELETEs (or GETs) at
  ``/v1/favourites/{ref}`` is in ``favourites_present`` when it names no favourite there;
* an image id a gold favourites, votes on or deletes that names no image of the world (outside
  the id formats, or, in the closed version-0 world, outside its catalogue) but may be declared
  an image (:func:`~toolgym.simulators.cat_api.is_extra_image_id`) is in ``extra_images``, so
  that the gold runs whatever its ids are. Agents' requests still meet the world as it is.

A reference both added and deleted by the golds is only kept present. When the golds need
nothing, the result is None: the task starts from the world's state as it is (the generated
tasks, whose golds never collide, all do). The setup is computed against world 0 of the task
set's version (the world of the stored splits); applied in another world it still holds,
since it only removes or adds what is missing there (see
:meth:`~toolgym.simulators.cat_api.CatApiApp.arrange_favourites`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.simulators.cat_api import API_HOST, CatApiApp, is_extra_image_id, is_image_id
from toolgym.tools.cat_api import CatApiToolkit
from toolgym.tools.curl import parse_curl
from toolgym.tools.errors import ToolCallError

_FAVOURITES = "/v1/favourites"
_VOTES = "/v1/votes"


@functools.lru_cache(maxsize=8)
def world_app(world_seed: int, version: int) -> CatApiApp:
    """The seeded service of a world and catalogue version, shared: read or search it only."""
    return CatApiApp(seed=world_seed, catalog_version=version)


@dataclass
class GoldIds:
    """The ids the gold lines of a task use, in order of appearance."""

    posted: list[str] = field(default_factory=list)
    """Image ids POSTed to ``/v1/favourites``."""
    referenced: list[str] = field(default_factory=list)
    """Favourite references DELETEd or read at ``/v1/favourites/{ref}``."""
    images: list[str] = field(default_factory=list)
    """The image ids of all of these, and of votes."""

    def add_image(self, image_id: object, into: list[str] | None) -> None:
        """Note ``image_id`` (in ``into`` too) if it is, or may be declared, an image id."""
        if not isinstance(image_id, str):
            return
        if not is_image_id(image_id) and not is_extra_image_id(image_id):
            return
        self.images.append(image_id)
        if into is not None:
            into.append(image_id)


def gold_ids(gold: Sequence[str]) -> GoldIds | None:
    """The ids the gold lines use; None when a line is not a curl request to the service.

    Ids that cannot name an image are left out (the env reports a gold that fails as it is).
    """
    found = GoldIds()
    for line in gold:
        try:
            command = parse_curl(line.replace("{API_KEY}", CatApiToolkit.api_key), (API_HOST,))
        except ToolCallError:
            return None
        path = command.to_request().path
        if command.method == "POST" and path in (_FAVOURITES, _VOTES):
            try:
                body = json.loads(command.body or "null")
            except ValueError:
                continue
            image_id = body.get("image_id") if isinstance(body, dict) else None
            found.add_image(image_id, found.posted if path == _FAVOURITES else None)
        elif command.method in ("DELETE", "GET") and path.startswith(_FAVOURITES + "/"):
            ref = path[len(_FAVOURITES) + 1 :]
            if ref.isascii() and ref.isdigit():  # a favourite id
                if CatApiApp.is_favourite_ref(ref):
                    found.referenced.append(ref)
            else:
                found.add_image(ref, found.referenced)
    return found


def derive_setup(task: Task, version: int, world_seed: int = 0) -> dict[str, Any] | None:
    """The setup ``task``'s gold needs in the world (see the module docstring), or None."""
    found = gold_ids(task.gold)
    if found is None:
        return None
    app = world_app(world_seed, version)
    referenced = list(dict.fromkeys(found.referenced))
    posted = [i for i in dict.fromkeys(found.posted) if i not in referenced]
    setup = {
        "favourites_absent": [i for i in posted if app.favourite_exists(i)],
        "favourites_present": [r for r in referenced if not app.favourite_exists(r)],
        "extra_images": [i for i in dict.fromkeys(found.images) if not app.has_image(i)],
    }
    return {key: ids for key, ids in setup.items() if ids} or None


def setup_for(task: Task) -> dict[str, Any] | None:
    """The setup of a ``CatAPI-v0`` task without one (``TaskSuite.setup_for``)."""
    return derive_setup(task, 0)


def setup_for_v1(task: Task) -> dict[str, Any] | None:
    """The setup of a ``CatAPI-v1`` task without one (``TaskSuite.setup_for``)."""
    return derive_setup(task, 1)

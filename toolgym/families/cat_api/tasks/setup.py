"""The starting state a Cat API task needs, derived from its gold lines.

The original benchmark ran every case against one live account, so its labels favourite images
that a fresh simulated account may already hold (``DUPLICATE_FAVOURITE``) and delete favourites
it may not hold (``404``). A task without a setup therefore gets one from its gold
(:func:`derive_setup`, used as ``TaskSuite(setup_for=...)``):

* an image a gold POSTs to ``/v1/favourites`` is in ``favourites_absent``;
* a favourite reference (image id, or favourite id) a gold DELETEs (or GETs) at
  ``/v1/favourites/{ref}`` is in ``favourites_present``;
* an image id a gold favourites, votes on or deletes that may not name an image of every world
  (outside the id formats; in the closed version-0 world, whose catalogue depends on the world
  seed, any) but may be declared one (:func:`~toolgym.families.cat_api.world.is_extra_image_id`) is in
  ``extra_images``, so that the gold runs whatever its ids are. Agents' requests still meet the
  world as it is.

A reference both added and deleted by the golds is only kept present. The setup does not depend
on the world: applying it only removes or adds what is missing
(:meth:`~toolgym.families.cat_api.world.CatApiApp.arrange_favourites`), so it holds in every world
seed, and in the world a generated task was built for it changes nothing. A gold that needs
nothing (a search, the list of favourites) gives None.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.families.cat_api.toolkit import CatApiToolkit
from toolgym.families.cat_api.world import API_HOST, CatApiApp, is_extra_image_id, is_image_id
from toolgym.tools.curl import parse_curl
from toolgym.tools.errors import ToolCallError

_FAVOURITES = "/v1/favourites"
_VOTES = "/v1/votes"


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
            except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
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


def derive_setup(task: Task, version: int) -> dict[str, Any] | None:
    """The setup ``task``'s gold needs in every world (see the module docstring), or None."""
    found = gold_ids(task.gold)
    if found is None:
        return None
    referenced = list(dict.fromkeys(found.referenced))
    posted = [i for i in dict.fromkeys(found.posted) if i not in referenced]
    images = list(dict.fromkeys(found.images))
    setup = {
        "favourites_absent": posted,
        "favourites_present": referenced,
        "extra_images": images if version == 0 else [i for i in images if not is_image_id(i)],
    }
    return {key: ids for key, ids in setup.items() if ids} or None


def setup_for(task: Task) -> dict[str, Any] | None:
    """The setup of a ``CatAPI-v0`` task without one (``TaskSuite.setup_for``)."""
    return derive_setup(task, 0)


def setup_for_v1(task: Task) -> dict[str, Any] | None:
    """The setup of a ``CatAPI-v1`` task without one (``TaskSuite.setup_for``)."""
    return derive_setup(task, 1)

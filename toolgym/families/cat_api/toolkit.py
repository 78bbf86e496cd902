"""The Cat API tool: its six documented endpoints and the original benchmark's request rules.

Requests are sent with ``Content-Type: application/json`` and the ``x-api-key`` header added by
the evaluator. A JSON object answer counts as executed when its ``message`` is ``SUCCESS``; its
``id`` (a fresh id on every POST) is dropped before scoring; a JSON list becomes
``{0: item0, ...}``. Deleting a favourite is scored by comparing the command text with the gold
(``compare_string_only`` tasks), as the original does; the checker adds a state check
(:meth:`CatApiToolkit.favourite_gone`).

:class:`CatApiToolkit` runs the world of catalogue version 0 (``CatAPI-v0``),
:class:`CatApiV1Toolkit` that of version 1 (``CatAPI-v1``). A task may carry a setup, plain JSON
that arranges the account's favourites before the episode (:func:`parse_setup`)::

    {"favourites_absent": ["dv0"], "favourites_present": ["tF_6-Beo_", "232000123"],
     "extra_images": ["abc123"]}
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from toolgym.errors import TaskFileError
from toolgym.families.cat_api.world import CatApiApp
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.tools.backend import Backend
from toolgym.tools.curl import parse_curl
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.rest import RestRoute, endpoint
from toolgym.tools.rest_backend import RestBackend, RestToolkit
from toolgym.tools.tool import Param, Tool

BASE = "https://api.thecatapi.com"

_IMAGE = Param("image_id", "string", "The id of the image.")
ENDPOINTS: tuple[Tool, ...] = (
    endpoint(
        "search_images",
        "Search cat images, optionally by size (thumb, small, med, full), image type (jpg, png, "
        "gif), order (ASC, DESC, RANDOM), number of images (limit) and breed ids (breeds)",
        RestRoute("GET", BASE, "/v1/images/search", query_prefix="&"),
        f"curl -X GET '{BASE}/v1/images/search?&size={{size}}&mime_types={{mime_types}}"
        "&order={order}&limit={limit}&breeds={breed_ids}'",
        (
            Param("size", "str", "Image size.", ("thumb", "small", "med", "full"), False),
            Param(
                "mime_types", "str", "Comma-separated image types: jpg, png, gif.", required=False
            ),
            Param("order", "str", "Order of the results.", ("ASC", "DESC", "RANDOM"), False),
            Param("limit", "int", "Number of images (1-25).", required=False),
            Param(
                "breeds",
                "str",
                "Comma-separated 4-letter breed ids, e.g. abys,beng.",
                required=False,
            ),
        ),
        parameters_block=False,
    ),
    endpoint(
        "list_favourites",
        "Get all my favourite cat images",
        RestRoute("GET", BASE, "/v1/favourites"),
        f"curl -X GET '{BASE}/v1/favourites'",
        parameters_block=False,
    ),
    endpoint(
        "add_favourite",
        "Add the image with id {image_id} to my favourites",
        RestRoute("POST", BASE, "/v1/favourites", body=("image_id",)),
        f"curl -X POST '{BASE}/v1/favourites' --data '{{\"image_id\":\"{{image_id}}\"}}'",
        (_IMAGE,),
        parameters_block=False,
    ),
    endpoint(
        "delete_favourite",
        "Remove the image with id {image_id} from my favourites",
        RestRoute("DELETE", BASE, "/v1/favourites/{image_id}"),
        f"curl -X DELETE '{BASE}/v1/favourites/{{image_id}}'",
        (Param("image_id", "string", "The id of the favourite to remove."),),
        parameters_block=False,
    ),
    endpoint(
        "vote_up",
        "Vote up the image with id {image_id}",
        RestRoute("POST", BASE, "/v1/votes", body=("image_id",), fixed_body={"value": 1}),
        f'curl -X POST \'{BASE}/v1/votes\' --data \'{{"image_id":"{{image_id}}", "value":1}}\'',
        (_IMAGE,),
        parameters_block=False,
    ),
    endpoint(
        "vote_down",
        "Vote down the image with id {image_id}",
        RestRoute("POST", BASE, "/v1/votes", body=("image_id",), fixed_body={"value": -1}),
        f'curl -X POST \'{BASE}/v1/votes\' --data \'{{"image_id":"{{image_id}}", "value":-1}}\'',
        (_IMAGE,),
        parameters_block=False,
    ),
)


SETUP_KEYS: tuple[str, ...] = ("favourites_absent", "favourites_present", "extra_images")
"""The keys of a Cat API task setup."""


def parse_setup(setup: Any) -> tuple[list[str], list[str], list[str]]:
    """The (absent, present, extra) lists of a task setup, checked.

    A setup is a JSON object with some of :data:`SETUP_KEYS`: ``favourites_absent``, the image
    ids that no favourite may hold at the start (a gold favourites them);
    ``favourites_present``, favourite references (image ids, or favourite ids as digit strings)
    that must name a favourite at the start (a gold deletes them); ``extra_images``, ids outside
    the image-id formats that name an image in this task (a gold quotes them). See
    :meth:`~toolgym.families.cat_api.world.CatApiApp.arrange_favourites`.

    Raises:
        TaskFileError: the setup is not such an object (the message says what came).
    """
    if not isinstance(setup, Mapping) or not setup or set(setup) - set(SETUP_KEYS):
        raise TaskFileError(
            f"a Cat API setup is a JSON object with some of {', '.join(map(repr, SETUP_KEYS))}; "
            f"got {json.dumps(setup, default=repr)[:200]}"
        )
    lists = []
    for key in SETUP_KEYS:
        items = setup.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise TaskFileError(
                f"the setup's {key!r} is a list of strings; got {json.dumps(items, default=repr)[:200]}"
            )
        lists.append(list(dict.fromkeys(items)))
    absent, present, extra = lists
    try:
        CatApiApp.check_arrangement(absent, present, extra)
    except ValueError as e:
        raise TaskFileError(f"invalid Cat API setup: {e}") from None
    return absent, present, extra


class CatApiToolkit(RestToolkit):
    """The Cat API requests with the original evaluator's rules (see the module docstring).

    Its service is the world of catalogue version :attr:`catalog_version` (0: ``CatAPI-v0``).
    """

    app_class = CatApiApp
    endpoints = ENDPOINTS
    argument_aliases: ClassVar[Mapping[str, str]] = {"breed_ids": "breeds"}
    service_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "search_images": {
            "size": "med",
            "order": "RANDOM",
            "limit": 1,
            "mime_types": "jpg,png,gif",
            "breeds": "",
        }
    }
    catalog_version: ClassVar[int] = 0
    """The catalogue version of the simulated world."""

    def new_app(self) -> CatApiApp:
        """A fresh service of :attr:`catalog_version` in its initial state."""
        return CatApiApp(
            seed=self.world_seed, api_key=self.api_key, catalog_version=self.catalog_version
        )

    def apply_setup(self, app: HttpApp, setup: Mapping[str, Any]) -> None:
        """Arrange the favourites a task's setup asks for (see :func:`parse_setup`).

        Raises:
            TaskFileError: the setup is invalid.
        """
        absent, present, extra = parse_setup(setup)
        if not isinstance(app, CatApiApp):
            raise TypeError(f"a Cat API setup applies to a CatApiApp; got {type(app).__name__}")
        app.arrange_favourites(absent, present, extra)

    def start_key(self, app: HttpApp) -> Hashable:
        """Every episode starts from the world's seeded account.

        Its seed also orders ``order=RANDOM``, so the gold and the prediction see the same order.
        """
        return "seeded-account"

    @staticmethod
    def favourite_gone(backend: Backend, gold_line: str) -> bool | None:
        """For a DELETE gold: whether the favourite it removes is gone from ``backend``'s service."""
        if not isinstance(backend, RestBackend) or not isinstance(backend.app, CatApiApp):
            return None
        try:
            command = parse_curl(gold_line)
        except ToolCallError:
            return None
        if command.method != "DELETE":
            return None
        return not backend.app.favourite_exists(command.url.rstrip("/").rsplit("/", 1)[-1])

    def sample_requests(self, n: int) -> list[tuple[str, dict[str, str]]]:
        """Image searches with varied limits, orders and pages."""
        orders = ("ASC", "DESC", "RANDOM")
        return [
            (
                f"/v1/images/search?limit={1 + i % 10}&order={orders[i % 3]}&page={i % 7}",
                {"x-api-key": self.api_key},
            )
            for i in range(n)
        ]

    def headers(self) -> dict[str, str]:
        """The evaluator's headers: JSON content type and the API key."""
        return {"Content-Type": "application/json", "x-api-key": self.api_key}

    def outcome(self, request: Request, response: Response) -> dict[Any, Any]:
        """The response as the dict the original scores."""
        category = WRONG_API if self.endpoint_of(request) is None else WRONG_ARGUMENTS
        if response.status >= 400:
            raise ToolCallError(category, f"HTTP {response.status}: {response.text[:200]}")
        body = self.parse_json(response)
        if isinstance(body, list):
            return self.as_index_dict(body)
        if isinstance(body, dict) and body.get("message") == "SUCCESS":
            return {k: v for k, v in body.items() if k != "id"}
        if isinstance(body, dict) and request.method == "GET" and self.catalog_version >= 1:
            return body  # one image, favourite or vote (the version-0 world is as it was)
        raise ToolCallError(category, f"the response is not a SUCCESS message: {str(body)[:200]}")


class CatApiV1Toolkit(CatApiToolkit):
    """The Cat API of ``CatAPI-v1``: the world of catalogue version 1 (ids in the real formats)."""

    catalog_version: ClassVar[int] = 1

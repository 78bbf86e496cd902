"""The Cat API tool: its six documented endpoints and the original benchmark's request rules.

Requests are sent with ``Content-Type: application/json`` and the ``x-api-key`` header added by
the evaluator. A JSON object answer counts as executed when its ``message`` is ``SUCCESS``; its
``id`` (a fresh id on every POST) is dropped before scoring; a JSON list becomes
``{0: item0, ...}``. Deleting a favourite is scored by comparing the command text with the gold
(``compare_string_only`` tasks), as the original does; the checker adds a state check
(:meth:`CatApiToolkit.favourite_gone`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toolgym.simulators.cat_api import CatApiApp
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


class CatApiToolkit(RestToolkit):
    """The Cat API requests with the original evaluator's rules (see the module docstring)."""

    app_class = CatApiApp
    endpoints = ENDPOINTS

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
        raise ToolCallError(category, f"the response is not a SUCCESS message: {str(body)[:200]}")

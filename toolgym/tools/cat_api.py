"""The Cat API tool: its six documented endpoints and the original benchmark's request rules.

Requests are sent with ``Content-Type: application/json`` and the ``x-api-key`` header added by
the evaluator. A JSON object answer counts as executed when its ``message`` is ``SUCCESS``; its
``id`` (a fresh id on every POST) is dropped before scoring; a JSON list becomes
``{0: item0, ...}``. Deleting a favourite is scored by comparing the command text with the gold
(``compare_string_only`` tasks), as the original does; the environment adds a state check.
"""

from __future__ import annotations

from typing import Any

from toolgym.simulators.catapi import CatApiApp
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.tools.curl import parse_curl
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.rest import Endpoint, RestToolkit
from toolgym.tools.schema import Param

BASE = "https://api.thecatapi.com"

_IMAGE = Param("image_id", "string", "The id of the image.")
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "search_images",
        "Search cat images, optionally by size (thumb, small, med, full), image type (jpg, png, "
        "gif), order (ASC, DESC, RANDOM), number of images (limit) and breed ids (breeds)",
        "GET",
        BASE,
        "/v1/images/search",
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
        query_prefix="&",
    ),
    Endpoint(
        "list_favourites",
        "Get all my favourite cat images",
        "GET",
        BASE,
        "/v1/favourites",
        f"curl -X GET '{BASE}/v1/favourites'",
        parameters_block=False,
    ),
    Endpoint(
        "add_favourite",
        "Add the image with id {image_id} to my favourites",
        "POST",
        BASE,
        "/v1/favourites",
        f"curl -X POST '{BASE}/v1/favourites' --data '{{\"image_id\":\"{{image_id}}\"}}'",
        body=(_IMAGE,),
        parameters_block=False,
    ),
    Endpoint(
        "delete_favourite",
        "Remove the image with id {image_id} from my favourites",
        "DELETE",
        BASE,
        "/v1/favourites/{image_id}",
        f"curl -X DELETE '{BASE}/v1/favourites/{{image_id}}'",
        (Param("image_id", "string", "The id of the favourite to remove."),),
        parameters_block=False,
    ),
    Endpoint(
        "vote_up",
        "Vote up the image with id {image_id}",
        "POST",
        BASE,
        "/v1/votes",
        f'curl -X POST \'{BASE}/v1/votes\' --data \'{{"image_id":"{{image_id}}", "value":1}}\'',
        body=(_IMAGE,),
        parameters_block=False,
        fixed_body={"value": 1},
    ),
    Endpoint(
        "vote_down",
        "Vote down the image with id {image_id}",
        "POST",
        BASE,
        "/v1/votes",
        f'curl -X POST \'{BASE}/v1/votes\' --data \'{{"image_id":"{{image_id}}", "value":-1}}\'',
        body=(_IMAGE,),
        parameters_block=False,
        fixed_body={"value": -1},
    ),
)


class CatApiToolkit(RestToolkit):
    """The Cat API requests with the original evaluator's rules (see the module docstring)."""

    name = "cat_api"
    app_class = CatApiApp
    endpoints = ENDPOINTS

    def start_episode(self, app: HttpApp, rng: Any) -> None:
        """Seed ``order=RANDOM`` with the world seed, so gold and prediction see the same order."""
        assert isinstance(app, CatApiApp)
        app.set_episode_seed(self.seed)

    def state_check(self, app: HttpApp, gold_line: str) -> bool | None:
        """For a DELETE gold: whether the favourite it removes is really gone."""
        assert isinstance(app, CatApiApp)
        try:
            command = parse_curl(gold_line)
        except ToolCallError:
            return None
        if command.method != "DELETE":
            return None
        return not app.favourite_exists(command.url.rstrip("/").rsplit("/", 1)[-1])

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

"""What a request to the simulated The Cat API may carry, and the API's error answer.

Query parameters (integers, comma-separated lists, yes/no words), the JSON body of a favourite or
a vote (``image_id``, ``sub_id`` of at most :data:`MAX_SUB_ID_CHARS` characters) and the
account's bound on stored favourites and votes (:data:`MAX_STORED`); a request that breaks one is
answered by :class:`HttpError`, a 400 with the API's own words.
"""

from __future__ import annotations

from typing import Any

from toolgym.simulators.http import Request

MAX_LIST_LIMIT = 100
"""The most items one list or search page holds."""
MAX_SUB_ID_CHARS = 255
"""The longest ``sub_id`` a favourite or vote stores (longer: 400)."""
MAX_STORED = 10_000
"""The most favourites, and the most votes, one account holds (past it: 400 until some are
deleted), so a long-running service's memory stays bounded."""
TRUE_WORDS = frozenset({"1", "true", "yes"})
FALSE_WORDS = frozenset({"0", "false", "no"})


class HttpError(Exception):
    """An error answer: its HTTP status and the API's message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def int_param(params: dict[str, str], name: str, default: int) -> int:
    """An integer query parameter (``default`` when absent)."""
    raw = params.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise HttpError(400, f"INVALID_PARAMETER - {name} must be an integer") from None


def csv_items(raw: str) -> list[str]:
    """The items of a comma-separated parameter, blanks dropped."""
    return [p.strip() for p in raw.split(",") if p.strip()]


def csv_lower(raw: str) -> list[str]:
    """:func:`csv_items`, lower-cased."""
    return [item.lower() for p in raw.split(",") if (item := p.strip())]


def body_fields(request: Request) -> tuple[str, str | None, dict[str, Any]]:
    """``(image_id, sub_id, body)`` of a favourite's or a vote's JSON body, checked."""
    try:
        body = request.json()
    except (ValueError, UnicodeDecodeError):
        raise HttpError(400, "INVALID_BODY - the body must be JSON") from None
    if not isinstance(body, dict):
        raise HttpError(400, "INVALID_BODY - the body must be a JSON object")
    image_id = body.get("image_id")
    if not isinstance(image_id, str) or not image_id:
        raise HttpError(400, 'INVALID_BODY - "image_id" is required and must be a string')
    sub_id = body.get("sub_id")
    if sub_id is not None and not isinstance(sub_id, str):
        raise HttpError(400, 'INVALID_BODY - "sub_id" must be a string')
    if sub_id is not None and len(sub_id) > MAX_SUB_ID_CHARS:
        raise HttpError(
            400,
            f'INVALID_BODY - "sub_id" is at most {MAX_SUB_ID_CHARS} characters; got {len(sub_id)}',
        )
    return image_id, sub_id, body


def check_room(store: dict[int, Any], what: str) -> None:
    """400 ``LIMIT_REACHED`` when ``store`` holds :data:`MAX_STORED` items already."""
    if len(store) >= MAX_STORED:
        raise HttpError(
            400,
            f"LIMIT_REACHED - an account holds at most {MAX_STORED} {what}; delete some first",
        )

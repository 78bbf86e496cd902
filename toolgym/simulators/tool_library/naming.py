"""ToolBench's name normalisation: tool, API, parameter and category names as functions see them.

The rules are ToolBench's (``standardize``, ``change_name``, ``standardize_category``), so a
function name built here is the name ToolBench-trained models write:

>>> standardize("Kick.com API | Kick API")
'kick_com_api_kick_api'
>>> standardize("/offices/search/:service")
'offices_search_service'
>>> standardize("3D Models")
'get_3d_models'
>>> change_name("id")
'is_id'
>>> standardize_category("Artificial Intelligence/Machine Learning")
'Artificial_Intelligence_Machine_Learning'
"""

from __future__ import annotations

import hashlib
import re

_NOT_WORD = re.compile(r"[^A-Za-z0-9_\u4e00-\u9fff]")
_UNDERSCORES = re.compile(r"_+")

RESERVED_NAMES = frozenset({"from", "class", "return", "false", "true", "id", "and"})
"""Names ``change_name`` prefixes with ``is_`` (Python keywords and ToolBench's extras)."""

MAX_FUNCTION_NAME = 64
"""OpenAI's limit on a function name, which ToolBench meets by keeping the last 64 characters."""


def standardize(name: str) -> str:
    """ToolBench's ``standardize``: ``[A-Za-z0-9_]`` and CJK kept, the rest ``_``, lower case.

    Runs of ``_`` collapse, leading and trailing ``_`` go, and a leading digit gets ``get_``.
    """
    text = _UNDERSCORES.sub("_", _NOT_WORD.sub("_", name)).strip("_").lower()
    if text[:1].isdigit():
        text = "get_" + text
    return text


def change_name(name: str) -> str:
    """ToolBench's ``change_name``: a reserved word ``w`` becomes ``is_w``."""
    return f"is_{name}" if name in RESERVED_NAMES else name


def standardize_category(category: str) -> str:
    """ToolBench's ``standardize_category``: spaces, commas and slashes become ``_``."""
    text = category.replace(" ", "_").replace(",", "_").replace("/", "_")
    while "__" in text:
        text = text.replace("__", "_")
    return text


def api_function_base(api_name: str) -> str:
    """The pure API name of a function (``change_name(standardize(api_name))``)."""
    return change_name(standardize(api_name)) or "api"


def upstream_function_name(api_name: str, standard_tool_name: str) -> str:
    """ToolBench's function name: ``<api>_for_<tool>``, keeping its last 64 characters."""
    return f"{api_function_base(api_name)}_for_{standard_tool_name}"[-MAX_FUNCTION_NAME:]


def short_hash(*parts: str, length: int = 6) -> str:
    """A stable hexadecimal digest of ``parts`` (SHA-256), for de-duplicating names."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:length]


def function_name(api_name: str, standard_tool_name: str) -> str:
    """The function name toolgym gives an API: ToolBench's, cut at its end when too long.

    A name within 64 characters is ToolBench's exactly. A longer one keeps its beginning (the
    API's name, which says what it does) and ends with a stable 6-character hash of the whole,
    instead of losing its beginning as ToolBench's last-64 rule does.

    >>> function_name("get_hello_world", "hello_world")
    'get_hello_world_for_hello_world'
    >>> len(function_name("a" * 50, "b" * 50))
    64
    """
    full = f"{api_function_base(api_name)}_for_{standard_tool_name}"
    if len(full) <= MAX_FUNCTION_NAME:
        return full
    return f"{full[: MAX_FUNCTION_NAME - 7].rstrip('_')}_{short_hash(full)}"


def dedupe_name(name: str, taken: set[str], *parts: str) -> str:
    """``name``, or ``name`` with a stable hash suffix (from ``parts``) when it is ``taken``.

    The suffix replaces the end of a name that would grow past 64 characters.
    """
    if name not in taken:
        return name
    salt = 0
    while True:
        suffix = "_" + short_hash(name, *parts, str(salt))
        candidate = name[: MAX_FUNCTION_NAME - len(suffix)].rstrip("_") + suffix
        if candidate not in taken:
            return candidate
        salt += 1

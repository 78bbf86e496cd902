"""ToolBench's status codes of a step, and the observation an agent reads.

Every step of a RapidAPI episode has a code (``info["code"]``), ToolBench's:

====  ===========================  ============================================================
code  meaning                      when
====  ===========================  ============================================================
0     normal response              the API answered (its answer may still hold an ``error``)
1     no such function             a name that is not one of the task's functions
2     input error                  ``Finish`` without a valid ``return_type``/``final_answer``
3     final answer                 ``Finish`` with ``give_answer``
4     give up                      ``Finish`` with ``give_up_and_restart``
5     timeout                      the request timed out (an injected fault)
6     API not working              the API is down ("API not working error...")
7     not subscribed               "Unsubscribed error..."
8     unauthorized                 "Unauthorized error..."
9     too many requests            "Too many requests error..." (an injected 429)
10    rate limit per minute        "Rate limit per minute error..."
11    message error                "Message error..."
12    error sending the request    the API refused the request (wrong arguments: HTTP 400) or
                                   answered an HTTP error (an injected 5xx)
====  ===========================  ============================================================

ToolBench's documentation and code disagree on 7 and 8; toolgym follows the code's texts as
listed. The observation is the JSON of the reply ``{"error": ..., "response": ...}``, cut to
1,024 characters plus ``"..."`` as ToolBench cuts it.
"""

from __future__ import annotations

import json
from typing import Any

OBSERVATION_CHARS = 1024
"""ToolBench's cut of a tool observation."""

CODES: dict[int, str] = {
    0: "normal response",
    1: "no such function",
    2: "input error",
    3: "final answer",
    4: "give up",
    5: "timeout",
    6: "API not working",
    7: "not subscribed",
    8: "unauthorized",
    9: "too many requests",
    10: "rate limit per minute",
    11: "message error",
    12: "error sending the request",
}

_PREFIXES = (
    ("API not working error", 6),
    ("Unsubscribed error", 7),
    ("Unauthorized error", 8),
    ("Too many requests error", 9),
    ("Rate limit per minute error", 10),
    ("Message error", 11),
)


def code_of_error(error: str) -> int:
    """The code of a reply whose ``error`` text is ``error`` (ToolBench's prefixes; else 0).

    >>> code_of_error("API not working error...")
    6
    >>> code_of_error("")
    0
    """
    for prefix, code in _PREFIXES:
        if error.startswith(prefix):
            return code
    return 0


def observation(reply: dict[str, Any], limit: int = OBSERVATION_CHARS) -> str:
    """The observation of a reply: its JSON, cut to ``limit`` characters plus ``"..."``.

    >>> observation({"error": "", "response": "x" * 2000})[-8:]
    'xxxxx...'
    """
    text = json.dumps(reply)
    return text if len(text) <= limit else text[:limit] + "..."

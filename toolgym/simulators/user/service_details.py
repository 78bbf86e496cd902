"""Questions about what a service keeps for its user, or what the agent's work should take.

``What's the username on your account?``, ``Which sheet tab is this table on?``, ``I need your
sub_id and the page number``: the agent asks for something the task does not hold (the user has
no preference), not for small talk, even where no kind of the family names it.
"""

from __future__ import annotations

import re

from toolgym.simulators.user.chat_words import expand_chat
from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.phrases import _ASIDE, _PERSONAL, _WH, ASK, GREETING, OFF_TOPIC
from toolgym.simulators.user.question_forms import _TELL_ME
from toolgym.simulators.user.reading import Reading
from toolgym.simulators.user.slots import normalize

_SERVICE_OBJECT = compiled(
    r"\b(account|user ?name|user id|login|sub[ _-]?id|ids?|identifier|link|url|tab|sheet|"
    r"spreadsheet|worksheet|workbook|file|folder|page|results?|api key|token|reference)\b"
)
"""What a service keeps for its user: a question about one asks a detail (``Which sheet tab is
the table on?``), not small talk, even where the task has no such detail."""


_SEND_ME = compiled(
    r"\b(can|could|would|will) you (please |kindly )?(paste|send|share|drop|give)\b"
)
_I_NEED = compiled(r"\b(i|we)( will| would|'ll|'d)? (need|require)\b")


def asks_service_detail(message: str) -> bool:
    """Whether a sentence of ``message`` asks what the service keeps for its user.

    ``What's the username on your account?``, ``Which sheet tab is this table on?``: a detail
    of the task the user has none of (no preference), not small talk.
    """
    text = expand_chat(normalize(message))
    if _PERSONAL.search(text) or _ASIDE.search(text):
        return False
    if _I_NEED.search(text) and _SERVICE_OBJECT.search(text):
        return True  # "To fetch them I need your sub_id and the page number."
    parts = (expand_chat(normalize(p)) for p in re.split(r"[.?!;:,]+\s|\band\b", message))
    return any(
        (_WH.search(part) or _TELL_ME.search(part) or _SEND_ME.search(part))
        and _SERVICE_OBJECT.search(part)
        for part in parts
    )


_TASK_START = compiled(
    r"^(roughly |about |so |and |ok |okay )?(what|which|how (many|much|far|long))\b"
)
_TASK_FRAME = compiled(r"\b(should|will|would you like|do you want|do you need)\b")
_WORK_VERB = compiled(
    r"\b(pull|fetch|get|show|list|return|include|use|search|go|filter|cover|set|limit|sort|"
    r"display|send|book|look|stay|staying)\b"
)


def _asks_for_work(part: str) -> bool:
    """Whether ``part`` asks what the agent's own work should take: the task's, unnamed.

    ``How many deals should I pull?``, ``What range should the filter cover?``. A question word first, then a frame of wanting, then a verb of the work, in that order
    (searched one after the other, so a long message is read in one pass).
    """
    start = _TASK_START.match(part)
    frame = _TASK_FRAME.search(part, start.end()) if start else None
    return frame is not None and _WORK_VERB.search(part, frame.end()) is not None


def service_ask(reading: Reading, message: str) -> Reading:
    """``reading``, or an ask of nothing where small talk or a greeting asks a service detail.

    A question of what the agent's work should take counts too (:func:`_asks_for_work`).
    """
    asks = reading.kind == OFF_TOPIC and any(
        _asks_for_work(expand_chat(normalize(p))) for p in re.split(r"(?<=[.?!])\s+", message)
    )
    if (reading.kind == OFF_TOPIC or (reading.kind == GREETING and "?" in message)) and (
        asks or asks_service_detail(message)
    ):
        return Reading(ASK, (), (), True)
    return reading

"""The user's opening request, composed from what the request is about and the given slots."""

from __future__ import annotations

from collections.abc import Sequence

from toolgym.simulators.user import Slot, Vocabulary
from toolgym.simulators.user.rule_user import join, sentence


def compose_opening(
    intent: str, given: Sequence[Slot], vocabulary: Vocabulary, lead: str = ""
) -> str:
    """``intent`` and the given slots as the user states them, in sentences.

    The kinds named in ``lead`` (space-separated) follow the intent in its sentence ("... in
    Austin"); the others make a second sentence ("I'd like 2 bedrooms and ...").

    >>> from toolgym.simulators.user import SlotKind
    >>> v = Vocabulary([SlotKind("city", ("city",), "in {text}")], "homes")
    >>> compose_opening("I'm looking for a home", [Slot("city", "Austin", "Austin")], v, "city")
    "I'm looking for a home in Austin."
    """
    leading = [vocabulary.state(s) for s in given if s.kind in lead.split()]
    rest = [vocabulary.state(s) for s in given if s.kind not in lead.split()]
    text = " ".join([intent, *leading]).strip()
    if rest:
        return f"{sentence(text)}. I'd like {join(rest)}."
    return f"{sentence(text)}."

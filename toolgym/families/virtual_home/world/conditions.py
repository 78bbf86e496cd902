"""Goal conditions: what must hold in a household when an activity is done.

A condition is a short JSON list, so that tasks store them as data:

* ``["state", cls, STATE]``: some object of class ``cls`` (or the ``character``) is in ``STATE``
  (``["state", "television", "ON"]``, ``["state", "character", "SITTING"]``);
* ``["relation", a, RELATION, b]``: some ``a`` has the edge ``RELATION`` to some ``b``
  (``["relation", "plate", "INSIDE", "dishwasher"]``); ``HOLDS`` means either hand, and ``b`` may
  be a room (``["relation", "character", "INSIDE", "bedroom"]``);
* ``["did", Action, cls...]``: the action ran on objects of these classes
  (``["did", "Read", "novel"]``), for activities whose point leaves no trace in the graph.

>>> from toolgym.families.virtual_home.world.household import Household
>>> house = Household(0)
>>> holds(house, ["relation", "character", "INSIDE", "living_room"])
True
>>> describe(["relation", "plate", "INSIDE", "dishwasher"])
'a plate is inside a dishwasher'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolgym.families.virtual_home.world.graph import CHARACTER
from toolgym.families.virtual_home.world.household import HANDS, Household

KINDS = ("state", "relation", "did")


def _ids(house: Household, cls: str) -> list[int]:
    if cls == "character":
        return [CHARACTER]
    return house.graph.of_class(cls)


def problem(condition: Any) -> str | None:
    """Why ``condition`` is not a well-formed condition, or ``None``."""
    if (
        not isinstance(condition, list | tuple)
        or not condition
        or not all(isinstance(x, str) for x in condition)
    ):
        return f"a condition is a list of strings; got {condition!r}"
    kind = condition[0]
    sizes = {"state": 3, "relation": 4}
    if kind not in KINDS:
        return f"a condition starts with one of {KINDS}; got {kind!r}"
    if kind in sizes and len(condition) != sizes[kind]:
        return f"a {kind!r} condition has {sizes[kind]} items; got {len(condition)}"
    if kind == "did" and len(condition) < 2:
        return "a 'did' condition names an action"
    return None


def holds(house: Household, condition: Sequence[str]) -> bool:
    """Whether ``condition`` holds in ``house`` (a malformed one never does)."""
    if problem(condition) is not None:
        return False
    kind = condition[0]
    g = house.graph
    if kind == "state":
        _, cls, state = condition
        return any(state in g.nodes[i].states for i in _ids(house, cls))
    if kind == "relation":
        _, a, relation, b = condition
        relations = HANDS if relation == "HOLDS" else (relation,)
        targets = set(_ids(house, b))
        return any(g.targets(i, r) & targets for i in _ids(house, a) for r in relations)
    wanted = tuple(condition[1:])
    return any(tuple(h) == wanted for h in g.history)


def describe(condition: Sequence[str]) -> str:
    """The condition in words (a malformed one as it is)."""
    if problem(condition) is not None:
        return repr(condition)[:80]
    kind = condition[0]
    if kind == "state":
        _, cls, state = condition
        who = "the character" if cls == "character" else f"a {cls.replace('_', ' ')}"
        return f"{who} is {state.lower().replace('_', ' ')}"
    if kind == "relation":
        _, a, relation, b = condition
        who = "the character" if a == "character" else f"a {a.replace('_', ' ')}"
        words = {
            "ON": "is on",
            "INSIDE": "is inside",
            "CLOSE": "is close to",
            "FACING": "faces",
            "HOLDS": "holds",
            "HOLDS_RH": "holds in the right hand",
            "HOLDS_LH": "holds in the left hand",
        }
        article = "the" if b in ("character",) else "a"
        return f"{who} {words.get(relation, relation.lower())} {article} {b.replace('_', ' ')}"
    return f"{condition[1]} was done on {', '.join(c.replace('_', ' ') for c in condition[2:])}"


def unmet(house: Household, conditions: Sequence[Sequence[str]]) -> list[Sequence[str]]:
    """The conditions that do not hold."""
    return [c for c in conditions if not holds(house, c)]

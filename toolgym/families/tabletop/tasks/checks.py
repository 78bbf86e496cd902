"""Success checks, one per template, on the final object positions.

Every check uses xy distances and the 5 cm threshold of the original, read after the program
ran; "top" is +y and "left" -x. Each returns whether the task is done and, when it is not, why
(for the episode's error message).

One check differs from the original on purpose: a **diagonal line** (``UI_5``). The original
tests ``x - y - 0.5 < 0.05`` for every block, or ``x + y + 0.5 < 0.05`` for every block, without
an absolute value: a half-plane test that blocks left anywhere in the lower half of the table
pass. Here the blocks must lie along one line at 45 degrees, the diagonal counterpart of the
horizontal and vertical checks: the spread of ``(x - y) / sqrt(2)`` (or of ``(x + y) / sqrt(2)``,
the distance across such a line) is under 5 cm. :func:`original_diagonal` keeps the original
test, reported as the ``original_success`` metric.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from toolgym.families.tabletop.tasks.templates import MAGNITUDES, UNIT
from toolgym.families.tabletop.world.workspace import CORNER_POS, CORNERS, SIDES

THRESHOLD = 0.05
"""Metres: how close counts as "at" a place."""

Positions = Mapping[str, Sequence[float]]
Verdict = tuple[bool, str]


def _xy(positions: Positions, name: str) -> np.ndarray:
    return np.array(positions[name][:2], dtype=float)


def _blocks(positions: Positions) -> list[str]:
    return [n for n in positions if n.endswith(" block")]


def _at(
    positions: Positions, name: str, place: Sequence[float] | np.ndarray, where: str
) -> Verdict:
    gap = math.dist(_xy(positions, name), place[:2])
    if gap < THRESHOLD:
        return True, ""
    return False, f"the {name} is {gap * 100:.1f} cm from {where} (within {THRESHOLD * 100:.0f} cm)"


def _all(verdicts: Sequence[Verdict]) -> Verdict:
    for ok, why in verdicts:
        if not ok:
            return False, why
    return True, ""


def _spread(values: Sequence[float]) -> float:
    return float(max(values) - min(values)) if values else 0.0


def _distinct_nearest(
    positions: Positions, places: Mapping[str, Sequence[float]], what: str
) -> Verdict:
    """Each block at its nearest place, no two blocks at the same one."""
    used: dict[str, str] = {}
    for name in _blocks(positions):
        xy = _xy(positions, name)
        nearest = min(places, key=lambda p: math.dist(xy, places[p][:2]))
        ok, why = _at(positions, name, places[nearest], f"the {nearest}")
        if not ok:
            return False, why
        if nearest in used:
            return False, f"the {used[nearest]} and the {name} are both at the {nearest}"
        used[nearest] = name
    return True, f"every block at a different {what}"


def _si0(p: Positions, v: Mapping[str, Any]) -> Verdict:
    ok, why = _at(p, v["block"], _xy(p, v["object1"]), f"the {v['object1']}")
    if ok and not p[v["block"]][2] > p[v["object1"]][2]:
        return False, f"the {v['block']} is not above the {v['object1']}"
    return ok, why


def _stacked(p: Positions, v: Mapping[str, Any]) -> Verdict:
    blocks = _blocks(p)
    xs = [p[b][0] for b in blocks]
    ys = [p[b][1] for b in blocks]
    if _spread(xs) < THRESHOLD and _spread(ys) < THRESHOLD:
        return True, ""
    return False, f"the blocks spread over {max(_spread(xs), _spread(ys)) * 100:.1f} cm"


def _on_place(p: Positions, v: Mapping[str, Any]) -> Verdict:
    place = v["corner_or_side"]
    return _all([_at(p, b, CORNER_POS[place], f"the {place}") for b in _blocks(p)])


def _in_bowl(p: Positions, v: Mapping[str, Any]) -> Verdict:
    bowl = v["bowl"]
    return _all([_at(p, b, _xy(p, bowl), f"the {bowl}") for b in _blocks(p)])


def _matching(p: Positions, v: Mapping[str, Any]) -> Verdict:
    checks = []
    for block in _blocks(p):
        bowl = block.replace(" block", " bowl")
        if bowl in p:
            checks.append(_at(p, block, _xy(p, bowl), f"the {bowl}"))
    return _all(checks)


def _si5(p: Positions, v: Mapping[str, Any]) -> Verdict:
    place = v["corner_or_side"]
    checks = []
    for block in _blocks(p):
        if block in v["target_blocks"]:
            checks.append(_at(p, block, CORNER_POS[place], f"the {place}"))
        else:
            start = v[f"{block}_initial_pos"]
            checks.append(_at(p, block, start, "where it started (it was to stay)"))
    return _all(checks)


def _moved_target(p: Positions, v: Mapping[str, Any]) -> Verdict:
    place = v["corner_or_side"]
    return _at(p, v["target_block"], CORNER_POS[place], f"the {place}")


def _corners(p: Positions, v: Mapping[str, Any]) -> Verdict:
    return _distinct_nearest(p, {c: CORNER_POS[c] for c in CORNERS}, "corner")


def _mismatched(p: Positions, v: Mapping[str, Any]) -> Verdict:
    bowls = {n: p[n] for n in p if n.endswith(" bowl")}
    return _distinct_nearest(p, bowls, "bowl")


def _offset(p: Positions, v: Mapping[str, Any]) -> Verdict:
    where = f"{v['magnitude']} to the {v['direction']} of the {v['bowl']}"
    target = _xy(p, v["bowl"]) + MAGNITUDES[v["magnitude"]] * np.array(UNIT[v["direction"]])
    return _at(p, v["block"], target, where)


def _corner_by_bowl(p: Positions, v: Mapping[str, Any]) -> Verdict:
    corner = v["target_corner"]
    return _at(p, v["block"], CORNER_POS[corner], f"the {corner} ({v['distance']} to the bowl)")


def _line(p: Positions, v: Mapping[str, Any]) -> Verdict:
    blocks = _blocks(p)
    xs = np.array([p[b][0] for b in blocks])
    ys = np.array([p[b][1] for b in blocks])
    if v["line"] == "vertical":
        spread = _spread(list(xs))
    elif v["line"] == "horizontal":
        spread = _spread(list(ys))
    else:
        spread = min(
            _spread(list((xs - ys) / math.sqrt(2))), _spread(list((xs + ys) / math.sqrt(2)))
        )
    if spread < THRESHOLD:
        return True, ""
    return False, f"the blocks are {spread * 100:.1f} cm off a {v['line']} line"


def original_diagonal(positions: Positions) -> bool:
    """The original's diagonal-line test (no absolute value: a half-plane test, kept to report)."""
    blocks = _blocks(positions)
    return all(positions[b][0] - positions[b][1] - 0.5 < THRESHOLD for b in blocks) or all(
        positions[b][0] + positions[b][1] + 0.5 < THRESHOLD for b in blocks
    )


def _sides(p: Positions, v: Mapping[str, Any]) -> Verdict:
    return _distinct_nearest(p, {s: CORNER_POS[s] for s in SIDES}, "side")


def _moved_to(p: Positions, v: Mapping[str, Any]) -> Verdict:
    return _at(p, v["block"], v["target_pos"], "its target")


_NUMBER_WORDS = {
    word: k
    for k, word in enumerate(
        (
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
        )
    )
}


def said_numbers(said: Sequence[str]) -> list[int]:
    """The whole numbers said, as digits or words (``"there are 3 blocks"`` -> ``[3]``)."""
    numbers = []
    for message in said:
        for token in re.findall(r"[a-z]+|\d+(?:\.\d+)?", message.lower()):
            if token in _NUMBER_WORDS:
                numbers.append(_NUMBER_WORDS[token])
            elif token[0].isdigit():
                numbers.append(int(float(token)) if float(token).is_integer() else -1)
    return numbers


def _answered(p: Positions, v: Mapping[str, Any], said: Sequence[str] = ()) -> Verdict:
    """The robot said the count, and no other number."""
    answer = int(v["answer"])
    numbers = said_numbers(said)
    if numbers and all(n == answer for n in numbers):
        return True, ""
    if not numbers:
        return False, f"the robot did not say a number (the answer is {answer})"
    return False, f"the robot said {sorted(set(numbers))}; the answer is {answer} alone"


CHECKS: dict[str, Callable[..., Verdict]] = {
    "SI_0": _si0,
    "SI_1": _stacked,
    "SI_2": _on_place,
    "SI_3": _in_bowl,
    "SI_4": _matching,
    "SI_5": _si5,
    "SI_6": _moved_target,
    "SI_7": _moved_target,
    "UI_0": _corners,
    "UI_1": _mismatched,
    "UI_2": _on_place,
    "UI_3": _offset,
    "UI_4": _corner_by_bowl,
    "UI_5": _line,
    "UI_6": _sides,
    "D_0": _moved_to,
    "D_1": _moved_to,
    "D_2": _answered,
}
"""The check of each template."""


def check(
    template_id: str, positions: Positions, variables: Mapping[str, Any], said: Sequence[str] = ()
) -> Verdict:
    """Whether the final ``positions`` do the task, and if not, why."""
    if template_id == "D_2":
        return _answered(positions, variables, said)
    return CHECKS[template_id](positions, variables)

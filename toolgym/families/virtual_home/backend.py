"""The VirtualHome backend: one household, the program's lines and the states they reach."""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.virtual_home.world import (
    ActionFailed,
    Household,
    ScriptError,
    Step,
    execute,
    from_call,
    make_home,
    prepare,
    to_call,
)
from toolgym.families.virtual_home.world.actions import BY_NAME
from toolgym.families.virtual_home.world.classes import CLASSES, canonical
from toolgym.families.virtual_home.world.graph import STATES
from toolgym.families.virtual_home.world.plans import CHARACTER_CLASS, WORN
from toolgym.simulators.seeding import stable_seed
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import short_repr
from toolgym.tools.errors import (
    NON_EXECUTABLE,
    PRECONDITION,
    WRONG_API,
    WRONG_ARGUMENTS,
    ToolCallError,
)
from toolgym.tools.faults import SERVICE_ERROR

_OBJECT = re.compile(r"^\w[\w \-]{0,79}$")
"""An object in a JSON call: a class name (letters, digits, ``_``, spaces, hyphens; 80 at most)."""


_KINDS = {
    "precondition": PRECONDITION,
    "not_allowed": WRONG_ARGUMENTS,
    "unknown_object": WRONG_ARGUMENTS,
}


def _checked_setup(setup: Mapping[str, Any]) -> tuple[int, dict[str, str]]:
    unknown = set(setup) - {"home", "states"}
    if unknown:
        raise TaskFileError(f"a household setup has 'home' and 'states'; got {sorted(unknown)}")
    home = setup.get("home", 0)
    states = setup.get("states", {})
    if not isinstance(home, int) or isinstance(home, bool) or home < 0:
        raise TaskFileError(f"a task's home is a non-negative int; got {home!r}")
    if not isinstance(states, Mapping):
        raise TaskFileError(f"a task's states map classes to states; got {states!r}")
    for name, state in states.items():
        cls = canonical(name) if isinstance(name, str) else None
        if cls is None:
            raise TaskFileError(f"a task's states name object classes; got {name!r}")
        if cls == CHARACTER_CLASS:
            if state not in ("SITTING", "LYING"):
                raise TaskFileError(
                    f"the character's starting state is SITTING or LYING; got {state!r}"
                )
            continue
        if state == WORN:
            if "CLOTHES" not in CLASSES[cls].properties:
                raise TaskFileError(f"only clothes start worn; got {name!r}")
            continue
        if state not in STATES or state in ("SITTING", "LYING"):
            raise TaskFileError(
                f"the state of {name!r} must be one of CLOSED, OPEN, ON, OFF, DIRTY, CLEAN, "
                f"PLUGGED_IN, PLUGGED_OUT (WORN for clothes); got {state!r}"
            )
    return home, dict(states)


def _parse_category(line: str, message: str) -> str:
    if message.startswith("unknown action"):
        return WRONG_API
    if line.lstrip().startswith("Agent.") and "(" in line:
        return WRONG_ARGUMENTS
    return NON_EXECUTABLE


def home_seed(world_seed: int, home: int) -> int:
    """The generator seed of home ``home`` in world ``world_seed`` (world 0: the home's number)."""
    return home if world_seed == 0 else stable_seed("virtual_home", world_seed, home) % 2**31


@functools.lru_cache(maxsize=64)
def _home(seed: int) -> Household:
    return Household(seed, make_home(seed))


def household(world_seed: int, home: int) -> Household:
    """A fresh copy of home ``home`` of world ``world_seed``."""
    return _home(home_seed(world_seed, home)).copy()


class VirtualHomeBackend(Backend):
    """One episode in one home: the household, and every line the agent wrote.

    Args:
        world_seed: the world whose homes episodes play in.
        max_visible: how many nearby objects an observation lists.
    """

    handles_faults = True

    def __init__(self, world_seed: int = 0, max_visible: int = 12) -> None:
        self.world_seed = world_seed
        self.max_visible = max_visible
        self.setup: dict[str, Any] = {}
        self.house = household(world_seed, 0)
        self.lines: list[str] = []
        self.text: list[str] = []
        self.executed = 0
        self.failed_line: int | None = None

    # -- episode --------------------------------------------------------------------------------
    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """Start in the task's home (``setup["home"]``, default 0) as it presupposes.

        Raises:
            TaskFileError: a setup that is not ``{"home": int >= 0, "states": {class: STATE}}``
                (any home number is a home: 0 to 6 are the benchmark's).
        """
        setup = dict(setup or {})
        home, states = _checked_setup(setup)
        self.setup = {"home": home, "states": states}
        self.house = household(self.world_seed, home)
        prepare(self.house, dict(states))
        self.lines, self.text, self.executed, self.failed_line = [], [], 0, None

    def start_key(self) -> Hashable:
        """The home and the states the task presupposes."""
        return (self.setup.get("home", 0), tuple(sorted(self.setup.get("states", {}).items())))

    def snapshot(self) -> dict[str, Any]:
        """The household (a copy) and the lines so far."""
        return {
            "house": self.house.copy(),
            "lines": list(self.lines),
            "text": list(self.text),
            "executed": self.executed,
            "failed_line": self.failed_line,
            "setup": dict(self.setup),
        }

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        self.house = state["house"].copy()
        self.lines = list(state["lines"])
        self.text = list(state["text"])
        self.executed = state["executed"]
        self.failed_line = state["failed_line"]
        self.setup = dict(state["setup"])

    # -- acting ---------------------------------------------------------------------------------
    def line_of(self, name: str, arguments: Mapping[str, Any]) -> str:
        """The ``Agent`` line of a JSON call.

        Raises:
            ToolCallError: an unknown action, or arguments that are not its objects.
        """
        action = BY_NAME.get(name.removeprefix("Agent."))
        if action is None:
            raise ToolCallError(
                WRONG_API, f"unknown action {name!r}; actions: {', '.join(BY_NAME)}"
            )
        if set(arguments) != set(action.params) or not all(
            isinstance(v, str) and _OBJECT.match(v) for v in arguments.values()
        ):
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{action.qualname} takes {list(action.params) or 'no arguments'}, each an "
                f"object's class name (letters, digits, _ and spaces, 80 at most); got "
                f"{short_repr(dict(arguments), 120)}",
            )
        return to_call(Step(action, tuple(arguments[p] for p in action.params)))

    def bind(self, lines: list[str]) -> None:
        """Bind the classes a whole program names to the instances that suit it."""
        names: list[str] = []
        for line in lines:
            try:
                names.extend(from_call(line).objects)
            except ScriptError:
                continue
        self.house.bind(names)

    def keep(self, line: str) -> None:
        """Record a line that was not run (the program had stopped)."""
        self.lines.append(line)

    def act(self, line: str, raw: str | None = None) -> str:
        """Run one cleaned line and record it (with ``raw``, the text the agent wrote for it).

        A line the agent got wrong is recorded too (the text metrics count it, and it breaks
        strict executability); a line a service fault stopped before it ran is not.

        Raises:
            ToolCallError: the line is not a call of a known action, cannot run here (the
                household keeps only the objects it placed), or a fault stopped it.
        """
        try:
            step = from_call(line)
        except ScriptError as e:
            self._mistake(line, raw)
            raise ToolCallError(_parse_category(line, str(e)), str(e)) from None
        try:
            if self.faults is not None:
                message = str(
                    self.faults.around_call(
                        step.action.qualname, lambda: self._run(step, line, raw)
                    )
                )
            else:
                message = self._run(step, line, raw)
        except ToolCallError as e:
            if e.category == SERVICE_ERROR and (not self.lines or self.lines[-1] is not line):
                raise
            if self.failed_line is None:
                self.failed_line = len(self.lines)
            raise
        self.executed += 1
        return message

    def write(self, text: str) -> None:
        """Record the text of a whole program, as the agent wrote it."""
        self.text.append(text)

    def _mistake(self, line: str, raw: str | None) -> None:
        self.lines.append(line)
        if raw is not None:
            self.text.append(raw)
        if self.failed_line is None:
            self.failed_line = len(self.lines)

    def _run(self, step: Step, line: str, raw: str | None) -> str:
        self.lines.append(line)
        if raw is not None:
            self.text.append(raw)
        try:
            return execute(self.house, step)
        except ActionFailed as e:
            raise ToolCallError(_KINDS[e.kind], e.message) from None

    def describe(self) -> str:
        """What the character perceives now."""
        return self.house.describe(self.max_visible)

    def attempt(self, error: ToolCallError | None = None) -> Attempt:
        """The lines written, whether they all ran, and the household (for goal conditions)."""
        outcome = {
            "lines": list(self.lines),
            "strict_executable": self.failed_line is None and bool(self.lines),
            "failed_line": self.failed_line,
        }
        calls = tuple(line.split("(")[0] for line in self.lines)
        return Attempt(outcome, calls, error, "\n".join(self.text), self)

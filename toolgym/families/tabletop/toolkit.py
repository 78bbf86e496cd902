"""The Tabletop toolkit: a scene per episode, Code-as-Policies programs in the sandbox.

An episode starts from the task's setup (blocks and bowls at their spawn points), built in
pybullet and settled as the original settles after a reset. Programs run in the sandbox worker
(:mod:`.adapter`) on a copy of the scene; what is scored is where the objects end up
(:func:`scene_outcome`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.tabletop.functions import TABLETOP_FUNCTIONS
from toolgym.families.tabletop.world.camera import render_rgb
from toolgym.families.tabletop.world.physics import build_scene
from toolgym.families.tabletop.world.scene import SceneSetup, describe, scene_problem
from toolgym.tools.plain_copy import PlainSnapshot, plain_deepcopy
from toolgym.tools.python_language import MAX_OUTPUT_CHARS, PythonLanguage
from toolgym.tools.sandbox import SandboxLimits
from toolgym.tools.sandbox_backend import SandboxBackend, program_limits
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import Toolkit


@functools.lru_cache(maxsize=1024)
def _starting_scene(setup_json: str) -> Any:
    """A setup's settled scene, kept as a :class:`PlainSnapshot` (each episode copies it)."""
    try:
        setup = SceneSetup.from_config(json.loads(setup_json))
    except ValueError as e:
        raise TaskFileError(f"a Tabletop task's setup cannot be built: {e}") from None
    return PlainSnapshot.of(build_scene(setup))


def starting_scene(setup: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settled scene of a task's setup (a copy).

    Raises:
        TaskFileError: no setup, or one that is not a scene (the message says why).
    """
    if not setup:
        raise TaskFileError(
            "a Tabletop task needs a setup: {'block_list', 'bowl_list', 'position_dict'}"
        )
    return plain_deepcopy(
        _starting_scene(json.dumps(dict(setup), sort_keys=True))
    )  # (read back from the kept snapshot)


def scene_outcome(state: Mapping[str, Any]) -> dict[str, Any]:
    """What is scored of a scene: each object's position, and what the robot said."""
    return {
        "positions": {o["name"]: list(o["position"]) for o in state["objects"]},
        "said": list(state["said"]),
    }


class TabletopBackend(SandboxBackend):
    """An episode over one scene (see the module docstring)."""

    adapter = "toolgym.families.tabletop.adapter:adapter"

    def __init__(self, limits: SandboxLimits, show_scene: bool = True) -> None:
        super().__init__(limits)
        self.show_scene = show_scene

    def initial_state(self, setup: Mapping[str, Any] | None) -> dict[str, Any]:
        """The task's scene, settled."""
        return starting_scene(setup)

    def outcome(self, state: Any) -> dict[str, Any]:
        """Where the objects are (:func:`scene_outcome`)."""
        return scene_outcome(state)

    def view(self, state: Any) -> str:
        """What the robot said, and where the objects are now."""
        said = [f"robot says: {message}" for message in state.get("said", [])]
        scene = [describe(state)] if self.show_scene else []
        return "\n".join(said + scene)

    def state_problem(self, state: Any) -> str | None:
        """Why a scene a program left cannot be kept (:func:`scene_problem`), or a full gripper."""
        problem = scene_problem(state)
        if problem is None and state["held"] is not None:
            return f"the gripper still holds the {state['held']}"
        return problem

    def render_text(self) -> str:
        """The scene as text (one line per object)."""
        return describe(self.state) if self.state is not None else ""

    def render_rgb(self) -> np.ndarray:
        """The scene from the camera."""
        if self.state is None:
            raise RuntimeError("no scene yet: reset the episode first")
        return render_rgb(self.state)


class TabletopToolkit(Toolkit):
    """The Tabletop family's functions (32), language and backends.

    Args:
        world_seed: unused by this family's world (tasks carry their scenes); kept for the
            contract.
        timeout_s: the wall-clock and CPU limit of one program, in seconds.
        memory_mb: the memory a program may use beyond the warm worker's.
        max_output_chars: how much printed output an observation shows.
        show_scene: whether observations list the objects' positions after each program.
    """

    def __init__(
        self,
        world_seed: int = 0,
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
        max_output_chars: int = MAX_OUTPUT_CHARS,
        show_scene: bool = True,
    ) -> None:
        super().__init__(world_seed)
        self.limits = program_limits(timeout_s, memory_mb, max_output_chars)
        self.max_output_chars = max_output_chars
        self.show_scene = bool(show_scene)
        self.tools = ToolSet(TABLETOP_FUNCTIONS)

    def language(self) -> PythonLanguage:
        """Sandboxed Python."""
        return PythonLanguage(max_output_chars=self.max_output_chars)

    def new_backend(self) -> TabletopBackend:
        """A backend over a fresh scene."""
        return TabletopBackend(self.limits, self.show_scene)

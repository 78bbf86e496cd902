"""Starting layouts: where blocks and bowls are spawned, drawn from a seeded generator.

The rule is Code as Policies': each object lands uniformly in the workspace shrunk by 10 cm
(x in [-0.2, 0.2], y in [-0.7, -0.3]), at least 15 cm from every object placed before it and, in
scenes of at most seven objects, from the eight corner and side points; an object that finds no
such spot in 100 tries takes its last try. Blocks spawn at z = 0.03 and bowls at z = 0, as in the
original's stored layouts.
"""

from __future__ import annotations

import math

import numpy as np

from toolgym.families.tabletop.world.scene import SceneSetup
from toolgym.families.tabletop.world.workspace import BLOCK_SPAWN_Z, CORNER_OR_SIDE, CORNER_POS

MARGIN = 0.1
"""How far inside the workspace's edges objects are spawned."""

MIN_GAP = 0.15
"""The least distance between two spawned objects (and from the corner and side points)."""

TRIES = 100
"""Draws per object before the last draw is kept."""


def sample_points(rng: np.random.Generator, n: int) -> list[tuple[float, float]]:
    """``n`` xy spawn points by the rule of the module docstring."""
    keep_clear = [CORNER_POS[name][:2] for name in CORNER_OR_SIDE] if n <= 7 else []
    points: list[tuple[float, float]] = []
    for _ in range(n):
        for _ in range(TRIES):
            x = float(rng.uniform(-0.3 + MARGIN, 0.3 - MARGIN))
            y = float(rng.uniform(-0.8 + MARGIN, -0.2 - MARGIN))
            if all(math.dist((x, y), other) >= MIN_GAP for other in (*points, *keep_clear)):
                break
        points.append((round(x, 4), round(y, 4)))
    return points


def sample_setup(
    rng: np.random.Generator, blocks: tuple[str, ...], bowls: tuple[str, ...]
) -> SceneSetup:
    """A setup with ``blocks`` and ``bowls`` at sampled spawn points (blocks first)."""
    points = sample_points(rng, len(blocks) + len(bowls))
    block_pos = tuple((x, y, BLOCK_SPAWN_Z) for x, y in points[: len(blocks)])
    bowl_pos = tuple((x, y, 0.0) for x, y in points[len(blocks) :])
    return SceneSetup(blocks, bowls, block_pos, bowl_pos)

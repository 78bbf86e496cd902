"""Tabletop: Code-as-Policies programs that pick and place blocks in a pybullet scene.

## Description

The SambaNova ToolBench *Tabletop* task (Code as Policies' tabletop manipulation) as a Gymnasium
environment. Blocks and bowls in up to ten colours stand on a 60 x 60 cm workspace; the user asks
for a rearrangement ("put the blocks in the bowls with matching colors", "pick up the second
block from the left and place it on the top right corner") and the agent writes Python against
Code as Policies' API. The scene is simulated in pybullet, in ``DIRECT`` mode, single-threaded
and stepped only by the environment, with a kinematic gripper: the same program on the same
scene gives bit-identical positions in any process. Programs never run in the environment's
process: they run in the sandbox worker, on a copy of the scene.

## Tools

The program sees ``np`` (NumPy) and the public names of ``shapely.geometry`` and
``shapely.affinity``, and 32 functions (``info["api_docs"]``): the ten primitives
``get_obj_names``, ``get_obj_pos``, ``is_obj_visible``, ``get_bbox``, ``get_color``,
``denormalize_xy``, ``put_first_on_second``, ``get_corner_name``, ``get_side_name`` and ``say``;
the four functions the original answered with a language model, here rule-based
(``parse_obj_name``, ``parse_position``, ``parse_question``, ``transform_shape_pts``); and the
eighteen helpers the original generated on the fly, fixed (``get_obj_positions_np``,
``get_closest_idx``, ``stack_objects_in_order``, ``make_line``, ``interpolate_pts_on_line``, ...).
Names, signatures and return types are the original's. A call the robot cannot do (an unknown
object, picking a bowl, a place off the table) fails with ``wrong_arguments`` or
``precondition`` and the program's line.

## Action Space

A string: Python source. In ``program`` mode (the paper's protocol) the whole program runs and
the episode ends. In ``call`` mode each step is one code block that sees the scene the earlier
blocks left (a block that fails changes nothing), and ``finish`` ends the episode. Escapes
(private attributes, modules reached through objects, files, processes) are refused as
``forbidden``; infinite loops end as ``timeout``.

## Observation Space

A string. After ``reset``, Code as Policies' query: ``objects = ['red block', ...]`` and
``# <instruction>.``. After a program or block: what it printed, its error
(``Error (<category>): <message>``), what the robot said (``robot says: ...``) and where each
object is.

## Rewards

1 when the template's check passes on the final positions (5 cm in the xy plane, as in the
original), else 0. The checks are the original's, but for a diagonal line, whose original test
has no absolute value (a half-plane that many other layouts pass): here the blocks must lie along
one 45-degree line. ``info["metrics"]`` gives the template (summaries break success down by it)
and ``original_success``, the result under the original's diagonal test.

## Starting State

The task's scene (its blocks and bowls at their spawn points), settled for 200 physics steps as
the original settles after a reset.

## Episode End

Terminated after the program (``program`` mode) or at ``finish`` (``call`` mode); truncated
after ``max_episode_steps`` (10, in the registry).

## Arguments

``split`` (``test`` 105: 15 templates x 7 scenes; ``demo`` 74; ``train`` unlimited),
``action_mode``, ``task_file``, ``reward_type`` (``success`` only), ``world_seed`` (unused: tasks
carry their scenes), ``render_mode`` (``"ansi"``: the objects' positions as text;
``"rgb_array"``: a 240 x 320 camera image), ``timeout_s`` (the wall-clock and CPU limit of one
program, default 5), ``memory_mb`` (default 512), ``max_output_chars`` (printed output shown,
default 4000), ``show_scene`` (whether observations list the objects' positions, default true).

"""

from __future__ import annotations

from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.tabletop.metrics import METRICS

SPEC = FamilySpec(
    name="tabletop",
    title="Tabletop",
    env_name="Tabletop",
    toolkit="toolgym.families.tabletop.toolkit:TabletopToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=10,
            tasks="toolgym.families.tabletop.tasks:SUITE",
            history=(
                "initial release. Unlike the original (a UR5e arm whose gripper runs in a "
                "background thread, so runs differ; helpers written by a model on the fly), the "
                "scene is stepped only by the environment with a kinematic gripper, and the "
                "helpers and parsers are fixed functions; the diagonal-line check is fixed. "
                "Task draws differ in two templates: SI_4's bowls take the blocks' colours "
                "(the original draws them independently) and SI_5 always has a block to move "
                "(the original sometimes has none)"
            ),
        ),
    ),
    prompting="toolgym.families.tabletop.profile:PROMPTING",
    profile="toolgym.families.tabletop.profile:PROFILE",
    metrics=METRICS,
    reward="success",
    aliases=("code_as_policies",),
    doc=__doc__ or "",
    render_modes=("ansi", "rgb_array"),
)
"""The Tabletop family (its prompting defaults are the original's command-line settings)."""

"""VirtualHome: household activities as ``Agent.<Action>(...)`` programs, executed in a simulated home.

## Description

The SambaNova ToolBench *VirtualHome* task as a Gymnasium environment, with the programs run.
The user names a household activity ("Put milk in fridge", "Watch TV"); the agent writes the
steps as calls of 40 actions, one per line (``Agent.WalkTo(kitchen)``, ``Agent.Grab(milk)``,
``Agent.PutIn(milk, fridge)``). The program runs in a symbolic home (rooms, furniture and objects
with states and relations, the character's place, posture and two hands), where each action has
the preconditions and effects of VirtualHome's evolving graph: grabbing needs the object within
reach, a free hand and its container open, putting something in a microwave needs the microwave
open, a lamp that is unplugged cannot be switched on. Objects a home lacks are placed where their
class belongs, so a plan may name any catalogued object.

## Tools

The 40 actions of the benchmark, each documented in its format with the objects it takes
(``# Lie on an object. 'object' can only be: ['bed', 'couch', ...]. ``):
``WalkTo``, ``RunTo``, ``Find``, ``Grab``, ``Open``, ``Close``, ``Put``, ``PutIn``, ``PutBack``,
``PutOn``, ``TakeOff``, ``SwitchOn``, ``SwitchOff``, ``PlugIn``, ``PlugOut``, ``Drink``, ``Eat``,
``Cut``, ``LookAt``, ``PointAt``, ``TurnTo``, ``Watch``, ``Touch``, ``Read``, ``Greet``, ``Pour``,
``Push``, ``Pull``, ``Wash``, ``Rinse``, ``Scrub``, ``Wipe``, ``Squeeze``, ``Drop``, ``SitOn``,
``LieOn``, ``TypeOn``, ``Sleep``, ``StandUp``, ``WakeUp``. ``info["api_docs"]`` has the docs,
``info["tools"]`` the OpenAI schemas (objects as enums).

## Action Space

A string (``TextSpace``, up to 16,384 characters). In ``program`` mode, a whole program: one
call per line, up to a line starting with ``Task:`` (at most 200 lines). In ``call`` mode, one
line per step (or a JSON call ``{"name": "WalkTo", "arguments": {"object": "kitchen"}}``), and
``finish`` to end.

## Observation Space

A string: the activity's title after ``reset``; after a step, what the action did and what the
character now perceives (its room, what is close by, what it holds and wears), or
``Error (<category>): <message>`` naming the line and the precondition that failed.

## Rewards

The original's LCS score (the longest common subsequence of the program's lines and the closest
gold program's, over the longer one), given when the episode ends. ``reward_type="success"``
gives 1 only when every line ran and the activity's end conditions hold. ``info["metrics"]``
holds ``lcs``, ``executable`` (the original's lexical check: every line a known action with
allowed objects), ``strict_executable`` (every precondition held when simulated), ``goal`` (the
end conditions hold), ``success``, and ``non_executable_lines``; ``info["error"]`` a
``{"category", "message"}`` with category ``non_executable``, ``wrong_api``, ``wrong_arguments``,
``precondition`` or ``goal_not_met``.

## Starting State

The task's home (one of seven) with the states the activity presupposes; the character stands
in the living room with empty hands. The task is ``options["task_id"]``, ``options["task"]`` (a
record ``{"prompt", "completion"}``) or drawn with the env's seeded generator.

## Episode End

Terminated after the one step in ``program`` mode, and at ``finish`` in ``call`` mode.
Truncated after ``max_episode_steps`` (64, set in the registry).

## Arguments

``split`` (``"test"``: 100 activities, ``"demo"``: 83 demonstrations, ``"train"``: unlimited
generated activities), ``action_mode`` (``"program"``/``"call"``), ``task_file`` (an
original-format JSONL file, tasks addressed by 0-based line number), ``reward_type``
(``"lcs"``/``"success"``), ``max_visible`` (objects an observation lists, default 12),
``world_seed`` (seed of the homes: the ``test`` and ``demo`` splits belong to world 0, ``train``
tasks are built for any world), ``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.virtual_home.metrics import METRICS

SPEC = FamilySpec(
    name="virtual_home",
    title="VirtualHome",
    env_name="VirtualHome",
    toolkit="toolgym.families.virtual_home.toolkit:VirtualHomeToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=64,
            tasks="toolgym.families.virtual_home.tasks:SUITE",
            history="initial release: the 40 actions executed in seven simulated homes, the "
            "original's executability and LCS plus strict executability and goal checks. Later "
            "fixes (same tasks; the reward, the original's LCS, unchanged): every VirtualHome "
            "object name resolves; plans start in the posture and clothing they presuppose; a "
            "class named in a room it was walked into means that room's instance, and a step on "
            "an object in the wrong state tries another instance at hand; grabbable objects can "
            "be pushed, containers take a pour, lights have plugs",
        ),
    ),
    prompting="toolgym.families.virtual_home.profile:PROMPTING",
    profile="toolgym.families.virtual_home.profile:PROFILE",
    metrics=METRICS,
    reward="lcs",
    doc=__doc__ or "",
)
"""The VirtualHome family (its prompting defaults are the original's command-line settings)."""

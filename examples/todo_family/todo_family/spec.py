"""The to-do family's declaration: everything generic is derived from it."""

from __future__ import annotations

from todo_family.tasks import METRICS
from toolgym.envs.spec import FamilySpec, VersionSpec

DOC = """The to-do list environment (a test family).

## Description

The user asks for changes to their to-do list; the agent makes them with tool calls.

## Tools

``add_item(text)``, ``complete_item(item_id)``, ``remove_item(item_id)``.

## Action Space

A string: one JSON tool call per step (``call`` mode, ``finish`` ends), or a JSON list of calls
(``program`` mode).

## Observation Space

A string: the goal, then what each call did and the list.

## Rewards

The F1 of the final list's ``(text, done)`` items against the list the gold leaves.

## Starting State

The task's own list (its setup): two to four chores.

## Episode End

After the program, or at ``finish``; truncated after 8 steps.

## Arguments

``split``, ``action_mode``, ``task_file``, ``reward_type``, ``world_seed``, ``render_mode``.
"""

SPEC = FamilySpec(
    name="todo_list",
    title="To-do list",
    env_name="TodoList",
    toolkit="todo_family.tools:TodoToolkit",
    versions=(
        VersionSpec(0, max_episode_steps=8, tasks="todo_family.tasks:SUITE", history="first"),
    ),
    prompting="todo_family.profile:PROMPTING",
    profile="todo_family.profile:PROFILE",
    metrics=METRICS,
    reward="item_f1",
    doc=DOC,
)

"""The declaration of a conversation env, derived from its family's.

``chat_spec(base, toolkit=..., tasks=...)`` gives the :class:`~toolgym.envs.spec.FamilySpec` of
``toolbench/<EnvName>Chat-v0``: the family's metrics plus the conversation's, the family's
reward and prompting, ``call`` mode only, and a documentation that says what the conversation
adds to the family's env.
"""

from __future__ import annotations

from toolgym.conversation.metrics import CONVERSATION_METRICS
from toolgym.envs.spec import FamilySpec, VersionSpec

CONVERSATION_PROFILE = "toolgym.evaluation.profile:CONVERSATION_PROFILE"
"""The evaluation profile of every conversation env: the ``conversations`` suite, and not in
``toolgym eval``'s default run (a path, read by the evaluation layer)."""

EXTRA_STEPS = 16
"""Steps a conversation env adds to its family's budget (the questions and their answers)."""

_DOC = """{title}, as a conversation with a simulated user.

## Description

The episode opens with a partial request: the user ({title}) leaves out some details of the
goal, and the agent must ask for them before acting on them. Each step the agent either calls
the family's tools, as in the family's ``call`` mode, or sends the user a message with the
``message_user`` tool (``message_user("What is your budget?")`` or the JSON call ``{{"name":
"message_user", "arguments": {{"text": ...}}}}``); the observation is then the user's reply.

The user is deterministic and seeded by the task (``toolgym.simulators.user.RuleUser``): it
reveals a held-back detail only when asked about it, answers from templates, refuses questions
outside the task, corrects a wrong summary, and ends the conversation when the agent says it is
done. ``user=`` takes any other user simulator (an LLM-backed one, replayable from a recording).

## Action Space

A string: one family call or one message per step (``action_mode="call"`` only).

## Observation Space

A string: the opening request after ``reset``; then the user's reply or what a call did.

## Rewards

The family's own reward, from the final state. ``info["metrics"]`` adds the conversation's
counts: ``turns``, ``questions``, ``repeated_asks`` (details asked again after the user gave
them), ``guessed_slots`` (calls that set a held-back detail before the user gave it: refused,
with the error category ``guessed_slot``), ``untold_slots`` and ``refused_messages``.

## Episode End

As in the family's ``call`` mode, or when the agent tells the user it is done. Truncated after
the family's step budget plus {extra}.

## Arguments

``split`` (``"test"``, ``"demo"``: the family's tasks with held-back details drawn per task;
``"train"``: generated), ``action_mode`` (``"call"`` only), ``task_file`` (conversation tasks,
or the family's own, made conversations on load), ``reward_type``, ``world_seed`` and
``render_mode`` as in the family's env; the family's options ({options}); ``user`` (what
plays the user; ``None``: the rule-based user) and ``user_replay`` (a recording of a user's
replies, played back exactly).
"""


def chat_spec(
    base: FamilySpec,
    *,
    toolkit: str,
    tasks: str,
    options: tuple[str, ...] = (),
    history: str = "",
) -> FamilySpec:
    """The conversation env's spec for family ``base``.

    Args:
        base: the family's spec.
        toolkit: import path of the family's :class:`~toolgym.conversation.toolkit.ChatToolkit`.
        tasks: import path of its conversation task suite
            (:func:`~toolgym.conversation.tasks.chat_suite`).
        options: the family's own options, for the documentation.
        history: the v0 history line.
    """
    budget = base.latest.max_episode_steps + EXTRA_STEPS
    return FamilySpec(
        name=f"{base.name}_chat",
        title=f"{base.title} Chat",
        env_name=f"{base.env_name}Chat",
        toolkit=toolkit,
        versions=(
            VersionSpec(
                0,
                max_episode_steps=budget,
                tasks=tasks,
                history=history
                or f"initial release: {base.env_id()}'s tasks with held-back details",
            ),
        ),
        prompting=base.prompting,
        profile=CONVERSATION_PROFILE,
        metrics=(*base.metrics, *CONVERSATION_METRICS),
        reward=base.reward,
        doc=_DOC.format(
            title=base.title,
            extra=EXTRA_STEPS,
            options=", ".join(f"``{o}``" for o in options) or "none",
        ),
        action_mode="call",
        action_modes=("call",),
        render_modes=base.render_modes,
    )

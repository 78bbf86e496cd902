"""DFSDT: depth-first search over an agent's actions with backtracking (ToolLLM's).

The search restores the env's and the agent's saved states (``get_state``/``set_state``) to try
another action where one failed, and treats a give-up (the family's ``EvalProfile.give_up_code``: RapidAPI's status code 4) as
ToolBench does.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from toolgym.envs.protocol import task_env
from toolgym.errors import InfrastructureError
from toolgym.evaluation.episodes import (
    EnvFailure,
    agent_error,
    checked_action,
    close_record,
    env_step,
    new_record,
)
from toolgym.evaluation.profile import profile_of
from toolgym.evaluation.records import EpisodeRecord


@dataclass
class _Node:
    state: dict[str, Any]
    agent_state: dict[str, Any]
    obs: str
    info: dict[str, Any]
    depth: int
    tried: list[str]


def run_dfsdt(
    env: gym.Env[Any, Any],
    agent: Any,
    *,
    task_id: Any = None,
    seed: int | None = None,
    width: int = 2,
    max_depth: int = 12,
    max_steps: int | None = None,
) -> EpisodeRecord:
    """Depth-first search over actions with backtracking (ToolLLM's DFSDT).

    At each node the agent proposes up to ``width`` different actions (it is told which ones were
    already tried there). An action whose observation is an error is a failed branch: the search
    tries a sibling, and when a node has no tries left it backtracks to its parent by restoring
    the env's and the agent's saved states. The first action that ends the episode ends the search
    (its outcome is what is scored: the search never looks at rewards), except a give-up (the status
    code of the family's ``EvalProfile.give_up_code``: ToolBench's ``give_up_and_restart``): as in ToolBench's DFSDT, the node it was
    given from is abandoned and its parent tries another action; when the search finds no answer,
    the first give-up (in visit order, not a random one) is its outcome. ``max_steps`` (default
    ``width × max_depth``) bounds the env steps of the whole search.
    """
    base = task_env(env)
    give_up = profile_of(base.family).give_up_code
    options = None if task_id is None else {"task_id": task_id}
    start = time.perf_counter()
    obs, info = env.reset(seed=seed, options=options)
    record = new_record(obs, info)
    record.search = []
    agent.reset(obs, info)
    budget = max_steps if max_steps is not None else width * max_depth
    stack = [_Node(base.get_state(), agent.get_state(), obs, info, 0, [])]
    terminated = False
    gave_up: tuple[dict[str, Any], str, float, dict[str, Any]] | None = None
    step_info: dict[str, Any] = {}
    failure = None
    try:
        while stack and record.steps < budget:
            node = stack[-1]
            if len(node.tried) >= width or node.depth >= max_depth:
                stack.pop()
                record.search.append({"event": "backtrack", "depth": node.depth})
                continue
            base.set_state(node.state)
            agent.set_state(node.agent_state)
            agent.avoid = list(node.tried)
            action, turn = agent.act_with_info(node.obs, node.info)
            node.tried.append(action)
            agent.avoid = []
            o, reward, terminated, _, step_info = env_step(env.unwrapped, checked_action(action))
            record.log_step(action, turn, o, float(reward), step_info)
            record.search.append({"event": "step", "depth": node.depth + 1, "action": action})
            if record.unscored is not None:  # the user failed: nothing more to score
                break
            if terminated and give_up is not None and step_info.get("code") == give_up:
                # a give-up: its parent's subtree is abandoned, the grandparent tries a sibling
                if gave_up is None:
                    gave_up = (base.get_state(), o, float(reward), step_info)
                stack.pop()
                record.search.append({"event": "give_up", "depth": node.depth + 1})
                terminated = False
                continue
            if terminated:
                break
            if step_info.get("error"):
                continue  # a failed branch: try a sibling (or backtrack)
            child_info = {**node.info, **step_info}
            stack.append(
                _Node(base.get_state(), agent.get_state(), o, child_info, node.depth + 1, [])
            )
    except EnvFailure as e:
        failure = e
    except InfrastructureError:
        raise
    except Exception as e:
        record.error = agent_error(e)
    if not terminated and gave_up is not None and failure is None:
        # no answer anywhere: the first give-up (in visit order) is the search's outcome
        base.set_state(gave_up[0])
        terminated, step_info = True, gave_up[3]
        # the episode's result is that give-up's: its reward, not the last step's
        record.return_ += gave_up[2] - record.reward
        record.reward, record.observation = gave_up[2], gave_up[1]
    return close_record(env, record, terminated, not terminated, step_info, start, failure)

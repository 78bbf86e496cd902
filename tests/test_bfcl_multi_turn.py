"""BFCL's multi-turn env: its golds pass, and it scores conversations as bfcl-eval's own evaluation.

For every multi-turn entry (800 in four categories), conversations a model could have: the
possible answer one call a reply (a few where a turn has more than 20 calls) and all of a
turn's calls in one reply, with one value
changed, a call left out, a call added, a turn's calls made a turn late, replies in words only,
the possible answer's own text (positional arguments, which BFCL's reader drops), more than 20
replies with calls in a turn (BFCL's forced quit), calls of random methods with random values,
and replies BFCL's writer fails on (an empty dict). Each is played in the env a reply at a time
(prompt-mode text, and function-calling tool calls) and evaluated by bfcl-eval's own
``_evaluate_single_multi_turn_entry`` on the same replies as its result file would hold them,
with its own decoding. The verdicts and error types must be equal on every conversation.

Skipped without ``bfcl-eval`` (and ``mpmath``, which its ``MathAPI`` imports).
"""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest

pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (pip install --no-deps ...)")
pytest.importorskip("mpmath", reason="BFCL's MathAPI needs mpmath")

from toolgym.envs.protocol import task_env
from toolgym.families.bfcl import data
from toolgym.families.bfcl.multi_turn import MULTI_TURN
from toolgym.families.bfcl.reference import Handler, bfcl_multi_turn_verdict
from toolgym.families.bfcl.turn_language import gold_replies

ENV = "toolbench/BFCL-MultiTurn-v0"
WORDS = "I have done what I can with these functions."

Conversation = list[list[list[str]]]
"""Per turn, per reply, its calls (``name(k=v)`` texts); an empty reply is words."""


def _turns(env: gym.Env, task_id: str) -> list[list[str]]:
    return json.loads(task_env(env).get_task(task_id).gold[0])


def _changed(call: str) -> str:
    """The call with its last string value changed (else its last number, else as it is)."""
    quote = max(call.rfind("'"), call.rfind('"'))
    if quote > 0:
        return call[:quote] + "x" + call[quote:]
    for k in range(len(call) - 1, -1, -1):
        if call[k].isdigit():
            return call[:k] + str((int(call[k]) + 1) % 10) + call[k + 1 :]
    return call


def _random_call(rng: random.Random, docs: list[dict[str, Any]]) -> str:
    doc = rng.choice(docs)
    values = {"string": lambda: rng.choice(["a", "temp", "x.txt", ""]),
              "integer": lambda: rng.randint(-2, 50), "float": lambda: rng.uniform(-5, 500),
              "boolean": lambda: rng.random() < 0.5, "array": lambda: ["a", 1],
              "dict": lambda: {"k": 1}}  # fmt: skip
    properties = doc.get("parameters", {}).get("properties", {})
    arguments = {
        name: values.get(str(p.get("type")), lambda: "a")()
        for name, p in properties.items()
        if rng.random() < 0.8
    }
    return f"{doc['name']}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"


def conversations(
    entry: dict[str, Any], gold: list[list[str]], rng: random.Random
) -> Iterator[tuple[str, Conversation]]:
    """Conversations for an entry (see the module docstring)."""
    yield "gold", [gold_replies(turn) for turn in gold]  # within BFCL's 20 replies a turn
    yield "gold, a turn a reply", [[turn] if turn else [] for turn in gold]
    acting = [k for k, turn in enumerate(gold) if turn]
    if acting:
        k = rng.choice(acting)
        j = rng.randrange(len(gold[k]))
        changed = [[[c] for c in turn] for turn in gold]
        changed[k][j] = [_changed(gold[k][j])]
        yield "a value changed", changed
        dropped = [[[c] for c in turn] for turn in gold]
        del dropped[k][j]
        yield "a call left out", dropped
        added = [[[c] for c in turn] for turn in gold]
        added[k].insert(j, [_random_call(rng, entry["function"])])
        yield "a call added", added
        if k + 1 < len(gold):
            late = [[[c] for c in turn] for turn in gold]
            late[k + 1] = late[k] + late[k + 1]
            late[k] = []
            yield "a turn late", late
    yield "words", [[] for _ in gold]
    yield "original text", [[[c] for c in turn] for turn in entry["ground_truth"]]
    forced = [[[c] for c in turn] for turn in gold]
    forced[0] = [["pwd()" if "pwd" in str(entry["function"]) else "ls()"]] * 21
    yield "forced quit", forced
    docs = entry["function"]
    yield "random", [[[_random_call(rng, docs)] for _ in range(rng.randint(0, 3))] for _ in gold]
    empty = [[[c] for c in turn] for turn in gold]
    if acting:
        empty[acting[0]][0] = [empty[acting[0]][0][0].replace("(", "(extra={}, ", 1)]
        yield "an empty dict", empty


def _python_reply(calls: list[str]) -> str:
    return f"[{', '.join(calls)}]"


def _fc_reply(calls: list[str]) -> list[dict[str, str]] | None:
    """The calls as BFCL holds a function-calling model's tool calls (None: not keyword calls)."""
    import ast

    out = []
    for call in calls:
        node = ast.parse(call, mode="eval").body
        if not isinstance(node, ast.Call) or node.args:
            return None
        arguments = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
        out.append({ast.unparse(node.func): json.dumps(arguments)})
    return out


def play(env: gym.Env, task_id: str, replies: list[list[Any]], fc: bool) -> tuple[float, Any]:
    """Play per-turn replies (as :func:`recorded` gives them) in the env; reward and error type."""
    env.reset(options={"task_id": task_id})
    result: tuple = ()
    for turn in replies:
        for reply in turn:
            if fc and isinstance(reply, list):
                action = json.dumps(
                    [{"name": n, "arguments": json.loads(a)} for c in reply for n, a in c.items()]
                )
            else:
                action = reply
            result = env.step(action)
            if result[2] or result[3]:
                return result[1], result[4]["metrics"].get("error_type")
    raise AssertionError(f"{task_id}: the conversation did not end")


def _ends_turn(reply: Any, fc: bool) -> bool:
    """Whether BFCL's inference loop ends the turn at ``reply`` (its handler reads no calls)."""
    try:
        return not Handler(fc).decode_execute(reply)
    except Exception:
        return True


def recorded(conversation: Conversation, fc: bool) -> list[list[Any]] | None:
    """The replies as BFCL's inference loop records them, and its result file holds them.

    Per turn, each reply until one without calls (which ends the turn; words when the turn's
    replies all have calls). A turn's 21st reply with calls ends the conversation (BFCL's
    forced quit).
    """
    out: list[list[Any]] = []
    for turn in conversation:
        replies: list[Any] = []
        for calls in turn:
            reply = _fc_reply(calls) if fc else _python_reply(calls)
            if reply is None:
                return None
            replies.append(reply)
            if _ends_turn(reply, fc):
                break
            if len(replies) > 20:
                out.append(replies)
                return out
        else:
            replies.append(WORDS)
        out.append(replies)
    return out


@pytest.mark.parametrize("fc", [False, True], ids=["prompt", "fc"])
@pytest.mark.parametrize("category", MULTI_TURN)
def test_conversations_are_scored_as_bfcl_scores_them(category: str, fc: bool) -> None:
    env = gym.make(ENV, category=category, reply_format="fc" if fc else "prompt")
    rng = random.Random(f"{category}-{fc}")
    failures, seen = [], collections.Counter()
    for entry in data.multi_turn_entries(category):
        gold = _turns(env, entry["id"])
        for label, conversation in conversations(entry, gold, rng):
            replies = recorded(conversation, fc)
            if replies is None:
                continue
            theirs = bfcl_multi_turn_verdict(entry, replies, fc)
            reward, error_type = play(env, entry["id"], replies, fc)
            mine = (reward == 1.0, error_type)
            seen[(label, mine[0])] += 1
            if mine != theirs:
                failures.append(f"{entry['id']} {label}: toolgym {mine}, BFCL {theirs}")
    assert not failures, f"{len(failures)}:\n" + "\n".join(failures[:15])
    assert sum(seen.values()) > 10 * len(data.multi_turn_entries(category))
    assert seen[("gold", True)] == len(data.multi_turn_entries(category))
    assert seen[("a value changed", False)] > 0 and seen[("forced quit", False)] > 0

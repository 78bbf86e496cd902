"""BFCL's single-turn envs score replies as bfcl-eval's own evaluation scores them.

For every single-turn entry (3,641 in 13 categories), replies a model could make: the possible
answer, single-value changes of it, another function's name, the answer in a code fence, words,
an empty list and, for a prompt-mode model, JSON; as prompt-mode text (Python calls, or Java and
JavaScript source for those entries) and as function-calling tool calls. Each is played in the
env (``reply_format="prompt"`` or ``"fc"``), and evaluated by bfcl-eval's own per-entry
evaluation (``eval_runner._evaluate_single_ast_entry`` and ``_evaluate_single_relevance_entry``)
with its own decoding (its prompt-mode decoder with its Java and JavaScript parsers; its
function-calling handlers' decoding of tool calls). The verdicts must be equal on every reply.

Skipped without ``bfcl-eval`` and the tree-sitter grammars its Java and JavaScript parsers use.
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
pytest.importorskip("tree_sitter_java", reason="BFCL's Java parser needs tree-sitter-java")
pytest.importorskip("tree_sitter_javascript", reason="BFCL's JS parser needs its grammar")

from test_bfcl_checker import perturbations

from toolgym.envs.protocol import task_env
from toolgym.families.bfcl import data
from toolgym.families.bfcl.answers import any_call, gold_calls, prompt_text
from toolgym.families.bfcl.reference import bfcl_verdict
from toolgym.families.bfcl.tasks import GROUPS

ENVS = {
    "simple": "toolbench/BFCL-Simple-v0",
    "multiple": "toolbench/BFCL-Multiple-v0",
    "parallel": "toolbench/BFCL-Parallel-v0",
    "parallel_multiple": "toolbench/BFCL-ParallelMultiple-v0",
    "irrelevance": "toolbench/BFCL-Irrelevance-v0",
    "live": "toolbench/BFCL-Live-v0",
}


def _prompt_replies(entry: dict[str, Any], category: str, rng: random.Random) -> Iterator[str]:
    language = data.language_of(category)
    functions = entry["function"]
    possible = data.answers(category).get(entry["id"])
    calls = gold_calls(possible, functions, language) if possible else any_call(functions, language)
    text = prompt_text(calls, language)
    yield text
    yield f"```\n{text}\n```"
    doc_of = {f["name"]: f for f in functions}
    changed = list(perturbations(calls, doc_of))
    for _, other in rng.sample(changed, min(3, len(changed))):
        if all(isinstance(a, dict) for c in other for a in c.values()):
            yield prompt_text(other, language)
    ((name, arguments),) = calls[0].items()
    yield prompt_text([{name + "_v2": arguments}, *calls[1:]], language)
    yield json.dumps([{"name": n, "arguments": a} for c in calls for n, a in c.items()])
    yield "I cannot do that with the functions I have."
    yield "[]"


def _fc_replies(entry: dict[str, Any], category: str, rng: random.Random) -> Iterator[Any]:
    """Tool calls as BFCL's function-calling handlers hand them over, or the text of a reply."""
    language = data.language_of(category)
    functions = entry["function"]
    possible = data.answers(category).get(entry["id"])
    calls = gold_calls(possible, functions, language) if possible else any_call(functions, language)
    yield [{n: json.dumps(a)} for c in calls for n, a in c.items()]
    doc_of = {f["name"]: f for f in functions}
    changed = list(perturbations(calls, doc_of))
    for _, other in rng.sample(changed, min(2, len(changed))):
        if all(isinstance(a, dict) for c in other for a in c.values()):
            yield [{n: json.dumps(a)} for c in other for n, a in c.items()]
    yield "I cannot do that with the functions I have."


def _fc_action(reply: Any) -> str:
    """The env's action for a function-calling reply: its tool calls as JSON, else its text."""
    if isinstance(reply, str):
        return reply
    return json.dumps(
        [{"name": n, "arguments": json.loads(a)} for c in reply for n, a in c.items()]
    )


@pytest.mark.parametrize("group", list(GROUPS))
def test_replies_are_judged_as_bfcl_eval_judges_them(group: str) -> None:
    prompt_env = gym.make(ENVS[group], reply_format="prompt")
    fc_env = gym.make(ENVS[group], reply_format="fc")
    compared: collections.Counter[str] = collections.Counter()
    passed: collections.Counter[str] = collections.Counter()
    disagreements: list[str] = []
    for category in GROUPS[group]:
        for entry in data.entries(category):
            rng = random.Random(f"{entry['id']}")
            replies = [("prompt", r, r) for r in _prompt_replies(entry, category, rng)]
            replies += [("fc", r, _fc_action(r)) for r in _fc_replies(entry, category, rng)]
            for mode, reply, action in replies:
                env = prompt_env if mode == "prompt" else fc_env
                env.reset(options={"task_id": entry["id"]})
                reward = env.step(action)[1]
                theirs = bfcl_verdict(entry, category, reply, fc=mode == "fc")
                compared[mode] += 1
                passed[mode] += theirs
                if (reward == 1.0) != theirs:
                    disagreements.append(
                        f"{entry['id']} [{mode}] {str(reply)[:160]!r}: BFCL {theirs}"
                    )
    print(f"{group}: replies {dict(compared)}, BFCL passes {dict(passed)}")
    assert not disagreements, f"{len(disagreements)} of {sum(compared.values())}:\n" + "\n".join(
        disagreements[:15]
    )
    assert compared["prompt"] >= 6 * sum(len(data.entries(c)) for c in GROUPS[group])
    assert 0 < passed["prompt"] < compared["prompt"] and 0 < passed["fc"] < compared["fc"]
    assert task_env(prompt_env).toolkit.reply_format == "prompt"

"""BFCL's web search env, over a stand-in search backend (toolgym reaches no network).

The env is refused without a backend; with one it passes Gymnasium's checker, its oracle's final
answers score 1 on all 200 entries, and for every entry, conversations a model could have (some
searches and fetches, then a final answer: the possible answer, the answer in a sentence, in
another case and punctuation, inside a longer word, a wrong one, "I do not know", an empty or
blank one, none at all)
get the same verdict and error type as bfcl-eval's own ``_evaluate_single_agentic_entry``.

Skipped without ``bfcl-eval``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (pip install --no-deps ...)")

from toolgym.envs.protocol import task_env
from toolgym.errors import UserInputError
from toolgym.families.bfcl import data
from toolgym.families.bfcl.reference import bfcl_agentic_verdict

ENV = "toolbench/BFCL-WebSearch-v0"


class StandInWeb:
    """Search results and pages made up from the query (no network)."""

    def __init__(self) -> None:
        self.searched: list[str] = []

    def search(self, keywords: str, max_results: int, region: str) -> list[dict[str, Any]]:
        self.searched.append(keywords)
        if keywords == "fail":
            raise ConnectionError("the search service is down")
        hits = [
            {"title": f"{keywords} {k}", "href": f"https://example.org/{k}", "body": f"about {k}"}
            for k in range(15)
        ]
        return hits[:max_results]

    def fetch(self, url: str, mode: str) -> str:
        if url.endswith("/missing"):
            raise FileNotFoundError("404 Client Error")
        return f"<p>{url} as {mode}</p>"


WEB = StandInWeb()


def test_refused_without_a_backend_and_loaded_by_path() -> None:
    with pytest.raises(UserInputError, match="needs search_backend="):
        gym.make(ENV)
    with pytest.raises(UserInputError, match="has search\\(keywords"):
        gym.make(ENV, search_backend=object())
    env = gym.make(ENV, search_backend="test_bfcl_web_search:WEB")
    assert task_env(env).toolkit.search_backend is WEB
    with pytest.raises(UserInputError, match="does not import"):
        gym.make(ENV, search_backend="no_such_module:WEB")


def test_check_env_and_what_calls_return() -> None:
    env = gym.make(ENV, search_backend=WEB)
    check_env(env.unwrapped)
    env.reset(options={"task_id": "web_search_no_snippet_3"})
    obs, _, _, _, info = env.step("[search_engine_query(keywords='tea', max_results=2)]")
    assert obs == str([{"title": f"tea {k}", "href": f"https://example.org/{k}"} for k in range(2)])
    assert info["error"] is None
    env.reset(options={"task_id": "web_search_base_3"})
    obs, *_ = env.step("[search_engine_query(keywords='tea', max_results=1)]")
    assert "'body': 'about 0'" in obs
    obs, *_ = env.step('{"name": "search_engine_query", "arguments": {"keywords": "fail"}}')
    assert obs == '{"error": "the search service is down"}'
    obs, *_ = env.step("[fetch_url_content(url='https://example.org/missing')]")
    assert "An error occurred while fetching https://example.org/missing: 404" in obs
    obs, _, _, _, info = env.step("[fetch_url_content(url='file:///etc/passwd')]")
    assert obs == "Error during execution: Invalid URL: file:///etc/passwd"
    assert info["error"]["category"] == "runtime_error"
    obs, *_ = env.step("[fetch_url_content(url='https://example.org/1', mode='markdown')]")
    assert obs == '{"content": "<p>https://example.org/1 as markdown</p>"}'


def test_the_oracle_answers_every_entry() -> None:
    env = gym.make(ENV, search_backend=WEB)
    base = task_env(env)
    assert len(base.task_ids) == 200
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        (action,) = base.oracle_actions()
        _, reward, terminated, _, info = env.step(action)
        assert reward == 1.0 and terminated, (task_id, info)


def _finals(answer: str, rng: random.Random) -> list[tuple[str, str | None]]:
    """Final replies (a label, and the text: ``None`` for none at all)."""
    return [
        ("answer", str({"answer": answer, "context": "found it"})),
        ("sentence", f"After searching, I believe it is {answer}."),
        ("case and punctuation", f"{answer.upper().replace(' ', ' - ')}!"),
        ("inside a word", f"x{answer}x"),
        ("wrong", str({"answer": "Nobody in particular", "context": "guess"})),
        ("unknown", str({"answer": "I do not know", "context": "I do not know"})),
        ("empty", ""),
        ("blank", " \n"),
        ("none", None),
    ]


@pytest.mark.parametrize("fc", [False, True], ids=["prompt", "fc"])
def test_final_answers_are_judged_as_bfcl_judges_them(fc: bool) -> None:
    env = gym.make(ENV, search_backend=WEB, reply_format="fc" if fc else "prompt")
    rng = random.Random(7)
    failures, compared = [], 0
    for category in data.WEB_SEARCH:
        for entry in data.web_search_entries(category):
            for label, final in _finals(str(entry["ground_truth"][0]), rng):
                calls = rng.randint(0, 3)
                if fc:
                    steps: list[Any] = [
                        [{"search_engine_query": json.dumps({"keywords": f"q{k}"})}]
                        for k in range(calls)
                    ]
                    actions = [
                        json.dumps(
                            [{"name": "search_engine_query", "arguments": {"keywords": f"q{k}"}}]
                        )
                        for k in range(calls)
                    ]
                else:
                    steps = [f"[search_engine_query(keywords='q{k}')]" for k in range(calls)]
                    actions = list(steps)
                if final is None:  # searching until BFCL's forced quit
                    steps = steps + steps[:1] * (21 - len(steps)) if steps else ["[ls()]"] * 21
                    actions = (
                        actions + actions[:1] * (21 - len(actions)) if actions else ["[ls()]"] * 21
                    )
                else:
                    steps, actions = [*steps, final], [*actions, final]
                theirs = bfcl_agentic_verdict(entry, steps, fc)
                env.reset(options={"task_id": entry["id"]})
                for action in actions:
                    _, reward, terminated, truncated, info = env.step(action)
                    if terminated or truncated:
                        break
                mine = (reward == 1.0, info["metrics"]["error_type"])
                compared += 1
                if mine != theirs:
                    failures.append(f"{entry['id']} {label}: toolgym {mine}, BFCL {theirs}")
    assert not failures, f"{len(failures)} of {compared}:\n" + "\n".join(failures[:15])
    assert compared == 200 * 9

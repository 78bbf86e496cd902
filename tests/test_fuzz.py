"""Property-based fuzzing of every registered env in both modes (hypothesis, bounded in time).

Random text, mutated gold actions, malformed JSON calls and curl lines assembled from fragments
are sent to ``step``. For every one: nothing escapes ``step``, the observation stays in the
observation space, the reward is in [0, 1], an error has a registered category, and the same
action in a fresh env of the same seed gives the same result. The number of generated actions is
printed at the end of the session. ``TOOLGYM_FUZZ_EXAMPLES`` sets the examples per test (40).
"""

from __future__ import annotations

import json
import math
import os

import gymnasium as gym
import pytest
from conftest import ENV_MODES, FUZZ
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.tools.errors import CATEGORIES

SETTINGS = settings(
    max_examples=int(os.environ.get("TOOLGYM_FUZZ_EXAMPLES", "40")),  # more for a deeper run
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MODES = ("program", "call")
_ENVS: dict[tuple[str, str, int], gym.Env] = {}


def _env(env_id: str, mode: str, copy: int) -> gym.Env:
    key = (env_id, mode, copy)
    if key not in _ENVS:
        _ENVS[key] = gym.make(env_id, action_mode=mode)
    return _ENVS[key]


def _result(env: gym.Env, action: str) -> tuple:
    env.reset(seed=3)
    obs, reward, terminated, truncated, info = env.step(action)
    return obs, reward, terminated, truncated, json.dumps(info, sort_keys=True, default=repr)


def check(env_id: str, mode: str, action: str, test: str) -> None:
    FUZZ[test] += 1
    first = _result(_env(env_id, mode, 0), action)
    obs, reward, terminated, truncated, info_text = first
    env = _env(env_id, mode, 0)
    assert isinstance(obs, str) and obs in env.observation_space
    assert 0.0 <= reward <= 1.0 and not math.isnan(reward)
    info = json.loads(info_text)
    if info.get("error") is not None:
        assert info["error"]["category"] in CATEGORIES
    assert _result(_env(env_id, mode, 1), action) == first  # deterministic


CASES = ENV_MODES
ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=300)


@pytest.mark.parametrize(("env_id", "mode"), CASES)
def test_random_text(env_id: str, mode: str) -> None:
    @SETTINGS
    @given(ANY_TEXT)
    def run(text: str) -> None:
        check(env_id, mode, text, "random text")

    run()


def _golds(env_id: str) -> list[str]:
    """The first 20 tasks' golds as one action (program mode), or their steps (call only)."""
    modes = family_of(env_id).action_modes
    env = _env(env_id, modes[0], 0)
    base = task_env(env)
    out = []
    for task_id in base.task_ids[:20]:
        env.reset(options={"task_id": task_id})
        actions = base.oracle_actions()
        out.extend(actions[:1] if "program" in modes else actions)
    return out


@st.composite
def mutated(draw: st.DrawFn, golds: list[str]) -> str:
    text = draw(st.sampled_from(golds))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "cut"]))
        if op == "insert":
            text = text[:i] + draw(ANY_TEXT.filter(bool).map(lambda t: t[:5])) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 20)) :]
        elif op == "replace":
            text = text[:i] + draw(st.characters(blacklist_categories=())) + text[i + 1 :]
        elif op == "duplicate":
            text = text[:i] + text[i:] * 2
        else:
            text = text[:i]
    return text


@pytest.mark.parametrize(("env_id", "mode"), CASES)
def test_mutated_golds(env_id: str, mode: str) -> None:
    golds = _golds(env_id)

    @SETTINGS
    @given(mutated(golds))
    def run(text: str) -> None:
        check(env_id, mode, text, "mutated golds")

    run()


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


@st.composite
def json_calls(draw: st.DrawFn, names: list[str]) -> str:
    name = draw(st.sampled_from(names) | st.text(max_size=20))
    arguments = draw(st.dictionaries(st.text(max_size=12), JSON_VALUES, max_size=4))
    text = json.dumps({"name": name, "arguments": arguments})
    if draw(st.booleans()):  # sometimes malformed
        text = text[: draw(st.integers(0, len(text)))]
    return text


@pytest.mark.parametrize(("env_id", "mode"), CASES)
def test_malformed_json_calls(env_id: str, mode: str) -> None:
    env = _env(env_id, mode, 0)
    env.reset(seed=3)  # the task every check plays (BFCL offers no tools before a reset)
    names = [t.name for t in task_env(env).tools]

    @SETTINGS
    @given(json_calls(names))
    def run(text: str) -> None:
        check(env_id, mode, text, "JSON calls")

    run()


CURL_WORDS = [
    "curl",
    "-X",
    "GET",
    "POST",
    "DELETE",
    "-d",
    "--data",
    "-H",
    "'Content-Type: application/json'",
    "-G",
    "--url",
    "'https://api.openweathermap.org/data/2.5/weather?q=london&appid={API_KEY}'",
    "'https://api.thecatapi.com/v1/images/search?limit=3'",
    "'https://api.thecatapi.com/v1/favourites'",
    "'https://api.thecatapi.com/v1/votes'",
    '\'{"image_id": "dv0", "value": 1}\'',
    "'{API_KEY}'",
    '"',
    "'",
    "\\",
    ";",
    "|",
    "$(x)",
    "--compressed",
    "-o",
    "file:///etc/passwd",
]


@pytest.mark.parametrize(("env_id", "mode"), CASES)
def test_curl_lines_from_fragments(env_id: str, mode: str) -> None:
    @SETTINGS
    @given(st.lists(st.sampled_from(CURL_WORDS), min_size=1, max_size=8).map(" ".join))
    def run(text: str) -> None:
        check(env_id, mode, text, "curl fragments")

    run()


SHELL_ALPHABET = " \t\r\n'\"\\;|&<>`$#*~()={}:/?.,-_abcXYZ019é"


@settings(max_examples=4000, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet=SHELL_ALPHABET, max_size=24))
def test_the_fast_word_split_agrees_with_the_shell_rules(line: str) -> None:
    """Where the fast path splits a curl line, the full rules accept it and split it alike."""
    import shlex

    from toolgym.tools.curl import _check_shell_syntax, simple_words

    line = line.strip()
    words = simple_words(line)
    if words is not None:
        _check_shell_syntax(line)  # nothing a shell would interpret
        assert words == shlex.split(line, posix=True)

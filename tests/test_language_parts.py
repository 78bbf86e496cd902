"""An action language's three sides, and the base of the families' own languages."""

from __future__ import annotations

import gymnasium as gym
import pytest

from toolgym.agents.defaults import PromptDefaults, prompt_defaults
from toolgym.envs import env_ids, family_of
from toolgym.envs.protocol import task_env
from toolgym.tools.action_reader import ActionReader
from toolgym.tools.action_runner import ActionRunner
from toolgym.tools.backend_language import BackendLanguage
from toolgym.tools.grammar_source import GrammarSource
from toolgym.tools.json_language import JsonCallsSyntax
from toolgym.tools.language import ActionLanguage, language_class

LATEST = {
    env_id.rsplit("-v", 1)[0]: env_id
    for env_id in env_ids()
    if not family_of(env_id).missing() and not family_of(env_id).needs
}
"""The newest env of each family whose packages are installed (BFCL's read bfcl-eval)."""


@pytest.fixture(scope="module")
def languages() -> dict[str, tuple[ActionLanguage, gym.Env]]:
    """The action language of each family's newest env, with the env."""
    out = {}
    for env_id in LATEST.values():
        env = gym.make(env_id)
        base = env.unwrapped
        out[env_id] = (base.language, env)  # type: ignore[attr-defined]
    return out


def test_every_language_is_a_runner_a_reader_and_a_grammar_source(languages) -> None:
    for env_id, (language, env) in languages.items():
        assert isinstance(language, ActionRunner), env_id
        assert isinstance(language, ActionReader), env_id
        assert isinstance(language, GrammarSource), env_id
        # agents find the reader by the name the env reports, with no family code
        reader = language_class(task_env(env).hints.action_language)
        # a conversation reads actions as the family's language it wraps does
        assert reader is type(getattr(language, "inner", language)), env_id


def test_a_family_language_refuses_another_backend(languages) -> None:
    own = {i: lang for i, (lang, _) in languages.items() if isinstance(lang, BackendLanguage)}
    assert len(own) >= 4  # VirtualHome, WebShop, RapidAPI, Seal-Tools
    other = languages[LATEST["toolbench/HomeSearch"]][1].unwrapped.toolkit.new_backend()  # type: ignore[attr-defined]
    for env_id, language in own.items():
        with pytest.raises(TypeError, match=rf"the {language.name} language runs on a \w+; got"):
            language.on(other)
        backend = languages[env_id][1].unwrapped.toolkit.new_backend()  # type: ignore[attr-defined]
        assert language.on(backend) is backend


def test_call_list_languages_share_reading_and_writing(languages) -> None:
    rapid = languages[LATEST["toolbench/RapidAPI"]][0]
    assert isinstance(rapid, JsonCallsSyntax)
    text = 'Thought: x\nAction: get_a\nAction Input: {"q": 1}'
    assert rapid.signature(text) == {"get_a", "q"}
    assert [c.name for c in rapid.parse_calls(text)] == ["get_a"]
    assert (
        type(rapid).extract(
            'ok {"name": "a"} ok',
            rapid.hints(task_env(languages[LATEST["toolbench/RapidAPI"]][1]).tools),
        )
        == '{"name": "a"}'
    )


def test_the_env_surface_writes_calls_and_names_its_finish_word() -> None:
    env = task_env(gym.make("toolbench/TodoList-v0"))
    env.reset(seed=0)
    tool = next(iter(env.tools))
    assert env.finish_word == "finish"
    assert env.render_call(tool, {"text": "x"}) == env.unwrapped.language.render_call(
        tool, {"text": "x"}
    )  # type: ignore[attr-defined]


def test_prompt_defaults_are_the_family_s_and_checked() -> None:
    assert prompt_defaults("trip_booking").max_new_tokens == 300
    assert prompt_defaults(None) == PromptDefaults()
    from toolgym.agents import defaults

    with pytest.raises(TypeError, match="should be a PromptDefaults; got str"):
        defaults._load("toolgym.envs.spec:NAMESPACE")

"""Guesses in the families whose held-back details no tool argument carries."""

from __future__ import annotations

import gymnasium as gym

from toolgym.conversation.messages import is_message
from toolgym.envs.protocol import task_env

SHOP = "toolbench/WebShopChat-v0"


def _shop_task_holding_an_option(env: gym.Env) -> tuple[str, str]:
    base = task_env(env)
    for task_id in base.task_ids:
        conversation = base.get_task(task_id).setup["conversation"]
        held = [k for k in conversation["held"] if k != "price"]
        if held:
            return str(task_id), held[0]
    raise AssertionError("no WebShopChat test task holds an option back")


def test_choosing_any_option_of_an_untold_group_is_a_guess() -> None:
    env = gym.make(SHOP)
    task_id, group = _shop_task_holding_an_option(env)
    base = task_env(env)
    env.reset(options={"task_id": task_id})
    steps = [s for s in base.language.gold_steps(base.task.gold[0]) if not is_message(s)]
    for step in steps:  # up to the product page
        env.step(step)
        session = base._backend.inner.session
        if session.page == "item":
            break
    product = session.product
    assert product is not None and group in product.options
    slot = next(s for s in base._backend.conversation.slots if s.kind == group)
    other = next(v for v in product.options[group] if str(v).lower() != str(slot.value).lower())
    _, reward, terminated, _, info = env.step(f"click[{other}]")
    assert info["error"]["category"] == "guessed_slot" and info["guessed"] == [group]
    assert session.options.get(group) is None and not terminated and reward == 0.0
    question = base.toolkit.vocabulary[group].ask()
    env.step(f'message_user("{question}")')
    _, _, _, _, info = env.step(f"click[{other}]")  # told now: a wrong choice, not a guess
    assert info.get("error") is None and session.options.get(group) == other

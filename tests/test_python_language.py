"""The sandboxed-Python action language: ``requests`` programs for the REST families, host calls."""

from __future__ import annotations

import gymnasium as gym
import pytest

import toolgym  # noqa: F401
from toolgym.envs.protocol import task_env
from toolgym.tools.language import AgentHints
from toolgym.tools.python_language import PythonLanguage
from toolgym.tools.sandbox import MAX_HOST_CALLS, HostRefusal, Sandbox
from toolgym.wrappers import FaultInjection

REST = ("toolbench/OpenWeather-v1", "toolbench/CatAPI-v1")


@pytest.mark.parametrize("env_id", REST)
@pytest.mark.parametrize("mode", ["program", "call"])
def test_requests_programs_score_like_the_curl_golds(env_id: str, mode: str) -> None:
    env = gym.make(env_id, action_language="python", action_mode=mode)
    base = task_env(env)
    assert base.language.name == "python"
    for task_id in base.task_ids[:25]:
        env.reset(options={"task_id": task_id})
        for action in base.oracle_actions():
            assert action.startswith("import requests") or action == "finish"
            obs, reward, terminated, _, info = env.step(action)
            if terminated:
                break
        assert reward == 1.0, (task_id, info["error"], obs[:200])
    env.close()


def test_a_program_that_sends_nothing_or_elsewhere_is_not_executable() -> None:
    env = gym.make("toolbench/OpenWeather-v1", action_language="python")
    env.reset(seed=0)
    obs, reward, _, _, info = env.step("print(2 + 2)")
    assert obs.startswith("4") and reward == 0.0
    assert (
        info["error"]["category"] == "non_executable" and "no request" in info["error"]["message"]
    )
    env.reset(seed=0)
    obs, reward, _, _, info = env.step("import requests\nrequests.get('https://example.com/')")
    assert reward == 0.0 and info["error"]["category"] == "runtime_error"
    assert "not simulated" in obs
    env.close()


def test_the_api_key_placeholder_works_through_requests() -> None:
    env = gym.make("toolbench/OpenWeather-v1", action_language="python")
    env.reset(seed=0)
    obs, _, _, _, info = env.step(
        "import requests\n"
        "r = requests.get('https://api.openweathermap.org/data/2.5/weather',\n"
        "                 params={'q': 'london', 'appid': '{API_KEY}'})\n"
        "print(r.status_code, r.json()['name'])"
    )
    assert obs.startswith("200 London"), obs
    env.close()


def test_service_faults_reach_requests_programs() -> None:
    env = FaultInjection(
        gym.make("toolbench/CatAPI-v1", action_language="python"), rate=1.0, kinds=("timeout",)
    )
    env.reset(options={"task_id": task_env(env).task_ids[0]})
    _, reward, _, _, info = env.step(task_env(env).oracle_actions()[0])
    assert reward == 0.0 and info["faults"] and info["faults"][0]["kind"] == "timeout"
    env.close()


def test_rest_options_are_checked() -> None:
    with pytest.raises(ValueError, match="action_language must be one of 'curl', 'python'"):
        gym.make("toolbench/CatAPI-v1", action_language="bash")
    with pytest.raises(ValueError, match="timeout_s"):
        gym.make("toolbench/CatAPI-v1", action_language="python", timeout_s=0)


def test_host_calls_are_answered_refused_and_bounded() -> None:
    calls: list[object] = []

    def handler(payload: object) -> object:
        calls.append(payload)
        if payload == "no":
            raise HostRefusal("not this one")
        return {"echo": payload}

    with Sandbox(adapter="toolgym.tools.sandbox.remote_http:adapter") as box:
        program = (
            "import requests\n"
            "r = requests.post('https://svc.test/a', data='x')\n"
            "print(r.status_code, r.text)"
        )
        refused = box.run(program, {"hosts": ["svc.test"]})  # no handler: refused
        assert refused.error is not None and "no host calls" in refused.error["message"]

        def http(payload: object) -> object:
            assert isinstance(payload, dict)
            calls.append(payload)
            return {"status": 201, "headers": {}, "body": payload["method"] + payload["body"]}

        answered = box.run(program, {"hosts": ["svc.test"]}, http)
        assert answered.error is None and answered.stdout == "201 POSTx\n"
        assert calls[-1]["url"] == "https://svc.test/a"  # type: ignore[index]
        many = "import requests\nfor i in range(1000):\n    requests.get('https://svc.test/')"
        bounded = box.run(many, {"hosts": ["svc.test"]}, http)
        assert bounded.error is not None and str(MAX_HOST_CALLS) in bounded.error["message"]
        after = box.run(program, {"hosts": ["svc.test"]}, http)  # the worker is in step again
        assert after.error is None and after.stdout == "201 POSTx\n"


def test_a_program_is_taken_from_a_fenced_block() -> None:
    hints = AgentHints("python")
    text = "Sure:\n```python\nworksheet.update('A1', 1)\n```\nThis sets A1."
    assert PythonLanguage.extract(text, hints) == "worksheet.update('A1', 1)"
    assert PythonLanguage.extract("x = 1\nTask: next", hints, "lenient") == "x = 1"
    assert PythonLanguage.extract("x = 1\n", hints) == "x = 1"

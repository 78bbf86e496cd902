"""OpenWeather and The Cat API: curl scoring, the original's rules, injections, transports."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading

import gymnasium as gym
import pytest

from toolgym.families.cat_api.world import CatApiApp
from toolgym.families.openweather.world import OpenWeatherApp
from toolgym.simulators.http import Request
from toolgym.tools.curl import parse_curl
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS
from toolgym.tools.http_server import make_server
from toolgym.tools.requests_transport import simulated_requests, simulated_session

WEATHER = "toolbench/OpenWeather-v0"
CAT = "toolbench/CatAPI-v0"


def first_task(env: gym.Env, predicate) -> str:
    for task_id in env.unwrapped.task_ids:
        task = env.unwrapped.get_task(task_id)
        if predicate(task):
            return task_id
    raise AssertionError("no task matches")


def test_wrong_units_give_partial_f1() -> None:
    env = gym.make(WEATHER)
    task_id = first_task(
        env, lambda t: "/data/2.5/weather?" in t.gold[0] and "units=" not in t.gold[0]
    )
    env.reset(seed=0, options={"task_id": task_id})
    gold = env.unwrapped.oracle_actions()[0]
    wrong = gold[:-1] + "&units=metric'"
    obs, reward, terminated, _, info = env.step(wrong)
    assert terminated and 0.0 < reward < 1.0, (reward, info)
    assert info["error"]["category"] == WRONG_ARGUMENTS
    assert info["metrics"]["executable"] is True
    # an explicit default is the same as leaving it out (the original's default filling)
    env.reset(seed=0, options={"task_id": task_id})
    assert env.step(gold[:-1] + "&units=standard'")[1] == 1.0


def test_xml_mode_is_not_executable() -> None:
    env = gym.make(WEATHER)
    task_id = first_task(
        env, lambda t: "/data/2.5/weather?" in t.gold[0] and "mode=" not in t.gold[0]
    )
    env.reset(seed=0, options={"task_id": task_id})
    gold = env.unwrapped.oracle_actions()[0]
    obs, reward, _, _, info = env.step(gold[:-1] + "&mode=xml'")
    assert reward == 0.0 and info["metrics"]["executable"] is False
    assert info["error"]["category"] == NON_EXECUTABLE
    assert obs.startswith("HTTP 200") and "<" in obs  # the agent still sees the XML it asked for


def test_wrong_endpoint_is_wrong_api() -> None:
    env = gym.make(WEATHER)
    task_id = first_task(env, lambda t: "/data/2.5/weather?" in t.gold[0])
    env.reset(seed=0, options={"task_id": task_id})
    gold = env.unwrapped.oracle_actions()[0]
    _, reward, _, _, info = env.step(gold.replace("/data/2.5/weather?", "/data/2.5/forecast?"))
    assert reward < 1.0 and info["error"]["category"] == WRONG_API
    env.reset(seed=0, options={"task_id": task_id})
    _, reward, _, _, info = env.step(gold.replace("/data/2.5/weather?", "/data/2.5/nope?"))
    assert reward == 0.0 and info["error"]["category"] == WRONG_API


def test_unfilled_placeholder_and_missing_quote_crash() -> None:
    env = gym.make(WEATHER)
    env.reset(seed=0)
    obs, reward, *_ = env.step(
        "curl -X GET 'https://api.openweathermap.org/data/2.5/weather?q={city}&appid={API_KEY}'"
    )
    assert reward == 0.0 and "placeholder" in obs
    env.reset(seed=0)
    obs, reward, *_ = env.step(
        "curl -X GET https://api.openweathermap.org/data/2.5/weather?q=austin"
    )
    assert reward == 0.0 and obs.startswith("Error (non_executable)")


@pytest.mark.parametrize("env_id", [WEATHER, CAT])
@pytest.mark.parametrize(
    "suffix",
    [
        "; rm -rf /",
        " && cat /etc/passwd",
        " | sh",
        " > /tmp/toolgym-pwned",
        " $(whoami)",
        " `id`",
        " -o /tmp/toolgym-pwned",
        " -d @/etc/passwd",
    ],
)
def test_injections_are_refused_and_the_env_keeps_working(env_id: str, suffix: str) -> None:
    env = gym.make(env_id)
    env.reset(seed=1)
    gold = env.unwrapped.oracle_actions()[0]
    obs, reward, terminated, _, info = env.step(gold + suffix)
    assert terminated and reward == 0.0
    assert info["error"]["category"] == NON_EXECUTABLE, info
    env.reset(seed=1)
    assert env.step(gold)[1] == 1.0


@pytest.mark.parametrize(
    "line",
    [
        "curl file:///etc/passwd",
        "curl 'http://169.254.169.254/latest/meta-data/'",
        "curl 'https://example.com/'",
        "wget 'https://api.openweathermap.org/data/2.5/weather?q=austin'",
        "python -c 'import os'",
    ],
)
def test_other_hosts_and_commands_are_refused(line: str) -> None:
    env = gym.make(WEATHER)
    env.reset(seed=0)
    obs, reward, _, _, info = env.step(line)
    assert reward == 0.0 and info["error"]["category"] == NON_EXECUTABLE


def test_cat_delete_is_compared_as_text_with_a_state_check() -> None:
    env = gym.make(CAT)
    task_id = first_task(env, lambda t: t.meta.get("compare_string_only"))
    env.reset(seed=0, options={"task_id": task_id})
    gold = env.unwrapped.oracle_actions()[0]
    _, reward, _, _, info = env.step("  " + gold.replace(" -X ", "   -X\t") + "\n")
    assert reward == 1.0 and info["metrics"]["state_success"] is True
    env.reset(seed=0, options={"task_id": task_id})
    other = gold.rsplit("/", 1)[0] + "/nonexistent0'"
    _, reward, _, _, info = env.step(other)
    assert reward == 0.0 and info["metrics"]["state_success"] is False
    assert info["error"] is not None


def test_cat_state_is_fresh_every_episode() -> None:
    env = gym.make(CAT)
    task_id = first_task(
        env,
        lambda t: (
            "/v1/favourites' --data" in t.gold[0]
            or "POST 'https://api.thecatapi.com/v1/favourites'" in t.gold[0]
        ),
    )
    for _ in range(3):  # the same favourite can be added in every episode
        env.reset(options={"task_id": task_id})
        assert env.step(env.unwrapped.oracle_actions()[0])[1] == 1.0
    env = gym.make(CAT, action_mode="call")
    env.reset(options={"task_id": task_id})
    line = env.unwrapped.oracle_actions()[0]
    env.step(line)
    obs, *_ = env.step(line)  # a second time in the same episode: a duplicate
    assert obs.startswith("HTTP 400")


def test_call_mode_scores_the_last_request() -> None:
    env = gym.make(WEATHER, action_mode="call")
    task_id = first_task(env, lambda t: "q=" in t.gold[0] and "/geo/" not in t.gold[0])
    env.reset(seed=0, options={"task_id": task_id})
    gold = env.unwrapped.oracle_actions()[0]
    city = gold.split("q=")[1].split("&")[0]
    obs, reward, terminated, *_ = env.step(
        json.dumps({"name": "geocoding_direct", "arguments": {"q": city, "limit": 1}})
    )
    assert obs.startswith("HTTP 200") and not terminated and reward == 0.0
    env.step(gold)
    _, reward, terminated, _, info = env.step("finish")
    assert terminated and reward == 1.0
    env.reset(seed=0, options={"task_id": task_id})
    _, reward, terminated, _, info = env.step("Finish: nothing to do")
    assert terminated and reward == 0.0 and info["error"]["category"] == NON_EXECUTABLE


def test_json_calls_build_the_original_request() -> None:
    env = gym.make(CAT)
    task_id = first_task(env, lambda t: "/v1/votes" in t.gold[0])
    env.reset(seed=0, options={"task_id": task_id})
    gold = parse_curl(env.unwrapped.oracle_actions()[0])
    body = json.loads(gold.body)
    name = "vote_up" if body["value"] == 1 else "vote_down"
    _, reward, *_ = env.step(
        json.dumps({"name": name, "arguments": {"image_id": body["image_id"]}})
    )
    assert reward == 1.0


# -- transports -----------------------------------------------------------------------------------
REQUESTS = [
    (
        "openweather",
        "GET",
        "https://api.openweathermap.org/data/2.5/weather?q=austin&appid=k&units=metric&lang=fr",
        None,
    ),
    (
        "openweather",
        "GET",
        "https://api.openweathermap.org/data/2.5/forecast?lat=54.5&lon=25.6&appid=k",
        None,
    ),
    (
        "openweather",
        "GET",
        "https://api.openweathermap.org/data/2.5/air_pollution?lat=-80.0&lon=163.3&appid=k",
        None,
    ),
    (
        "openweather",
        "GET",
        "https://api.openweathermap.org/data/2.5/weather?q=nowhere-at-all&appid=k",
        None,
    ),
    (
        "openweather",
        "GET",
        "https://api.openweathermap.org/data/2.5/weather?q=austin&appid=k&mode=xml",
        None,
    ),
    (
        "catapi",
        "GET",
        "https://api.thecatapi.com/v1/images/search?&size=small&order=ASC&limit=3",
        None,
    ),
    ("catapi", "GET", "https://api.thecatapi.com/v1/favourites", None),
    ("catapi", "POST", "https://api.thecatapi.com/v1/votes", '{"image_id":"__IMAGE__","value":1}'),
]


def _app(name: str):
    return OpenWeatherApp() if name == "openweather" else CatApiApp()


def _image_id() -> str:
    app = CatApiApp()
    reply = app.handle(
        Request.build(
            "GET",
            "https://api.thecatapi.com/v1/images/search?order=ASC&limit=1",
            {"x-api-key": "k"},
        )
    )
    return reply.json()[0]["id"]


@pytest.mark.parametrize(("service", "method", "url", "body"), REQUESTS)
def test_three_transports_return_identical_bodies(
    service: str, method: str, url: str, body: str | None
) -> None:
    if body:
        body = body.replace("__IMAGE__", _image_id())
    headers = {"x-api-key": "k", "Content-Type": "application/json"}
    # 1. a parsed curl line, dispatched in-process
    line = f"curl -X {method} '{url}' -H 'x-api-key: k' -H 'Content-Type: application/json'"
    if body:
        line += f" --data '{body}'"
    direct = _app(service).handle(parse_curl(line).to_request())
    # 2. unmodified requests code, routed to the simulator
    import requests

    with simulated_requests(_app(service)):
        via_requests = requests.request(method, url, headers=headers, data=body)
    session_reply = simulated_session(_app(service)).request(
        method, url, headers=headers, data=body
    )
    # 3. a real HTTP server on localhost, called by a real curl process
    curl = shutil.which("curl")
    if curl is None:
        pytest.skip("the curl program is not installed")
    server = make_server(_app(service))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        local = url.replace(
            "https://api.openweathermap.org", f"http://127.0.0.1:{server.server_port}"
        )
        local = local.replace("https://api.thecatapi.com", f"http://127.0.0.1:{server.server_port}")
        cmd = [
            curl,
            "-s",
            "-X",
            method,
            local,
            "-H",
            "x-api-key: k",
            "-H",
            "Content-Type: application/json",
            "-w",
            "\n%{http_code}",
        ]
        if body:
            cmd += ["--data", body]
        out = subprocess.run(cmd, capture_output=True, check=True, timeout=30).stdout
    finally:
        server.shutdown()
    served_body, _, code = out.rpartition(b"\n")
    assert via_requests.status_code == session_reply.status_code == direct.status == int(code)
    assert via_requests.content == session_reply.content == direct.body == served_body


def test_requests_cannot_reach_other_hosts() -> None:
    import requests

    with simulated_requests(OpenWeatherApp()), pytest.raises(requests.exceptions.ConnectionError):
        requests.get("https://example.com/")
    with pytest.raises(requests.exceptions.ConnectionError):
        simulated_session(OpenWeatherApp()).get("https://example.com/")

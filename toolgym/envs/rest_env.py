"""Environments for REST services called with curl lines (OpenWeather, The Cat API).

Every episode starts from a fresh snapshot of the service, and the gold request of the task runs
on its own copy of that same snapshot, so the prediction and the gold are compared on the same
state at the same simulated time (the original called live services from a shared account, so a
correct answer could fail).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym

from toolgym.benchmarks.scoring import GoldOutcome, score
from toolgym.benchmarks.tasks import Task
from toolgym.envs.base import ToolEnv
from toolgym.errors import TaskFileError
from toolgym.simulators.http import Request, Response
from toolgym.tools.curl import first_curl_line, parse_curl
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.json_calls import looks_like_json_call
from toolgym.tools.rest import RestToolkit

FINISH = re.compile(r"^\s*finish\b", re.IGNORECASE)


@dataclass
class Exchange:
    """One request the agent made in an episode, its answer and the scored outcome."""

    line: str
    request: Request | None
    response: Response | None
    outcome: dict[Any, Any] | None
    error: ToolCallError | None


def normalize_command(text: str) -> str:
    r"""The original's normalisation of a prediction compared as a string.

    >>> normalize_command("  curl  -X\tDELETE 'u'\n\n")
    "curl -X DELETE 'u'"
    """
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n+", "\n", text)
    return text.strip(" \n")


class RestEnv(ToolEnv):
    """Generic environment for REST tools (see the family classes for the documentation).

    A family subclasses it and sets ``toolkit_class`` (a :class:`RestToolkit`) and ``suite``.

    Args:
        split: ``"test"``, ``"demo"`` or ``"train"``.
        action_mode: ``"program"`` (one curl line, then the episode ends, as in the paper) or
            ``"call"`` (several requests, then ``finish``).
        task_file: an original-format JSONL task file; replaces the split.
        reward_type: ``"f1"`` or ``"success"``.
        max_body_chars: how much of a response body the observation shows.
        world_seed: seed of the simulated service.
        render_mode: ``None`` or ``"ansi"``.
    """

    toolkit_class: ClassVar[type[RestToolkit]]

    def __init__(
        self,
        split: str = "test",
        action_mode: str = "program",
        task_file: str | Path | None = None,
        reward_type: str = "f1",
        max_body_chars: int = 4000,
        world_seed: int = 0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(split, action_mode, task_file, reward_type, render_mode)
        if max_body_chars < 1:
            raise ValueError(f"max_body_chars must be at least 1; got {max_body_chars}")
        self.max_body_chars = max_body_chars
        self.toolkit = self.toolkit_class(seed=world_seed)
        self._app = self.toolkit.new_app()
        self._gold_app = self.toolkit.new_app()
        self._world_state = self._app.snapshot()
        self._episode_start = self._world_state
        self._golds: tuple[GoldOutcome, ...] = ()
        self._exchanges: list[Exchange] = []
        self._validate_tasks()

    # -- requests --------------------------------------------------------------------------------
    def _request(self, app: Any, line: str) -> Exchange:
        """Run one curl line on ``app`` under the original's rules; errors are kept, not raised."""
        request = response = None
        try:
            if not line.strip().startswith("curl"):
                raise ToolCallError(
                    NON_EXECUTABLE,
                    f"expected one curl command (or a JSON call); got {line.strip()[:60]!r}",
                )
            prepared = self.toolkit.prepare(line)
            command = parse_curl(prepared, self.toolkit.hosts)
            request = command.to_request(self.toolkit.headers())
            response = app.handle(request)
            outcome = self.toolkit.outcome(request, response)
        except ToolCallError as e:
            return Exchange(line, request, response, None, e)
        return Exchange(line, request, response, outcome, None)

    def _gold(self, task: Task) -> tuple[GoldOutcome, ...]:
        golds = []
        for line in task.completions:
            self._gold_app.restore(copy.deepcopy(self._episode_start))
            exchange = self._request(self._gold_app, line)
            if exchange.error is not None or exchange.outcome is None:
                raise TaskFileError(
                    f"the gold request of task {task.task_id!r} does not execute: "
                    f"{exchange.error}\n{line}"
                )
            assert exchange.request is not None
            key = (exchange.request.method, exchange.request.path)
            golds.append(GoldOutcome(exchange.outcome, (f"{key[0]} {key[1]}",)))
        return tuple(golds)

    def _check_gold(self, task: Task) -> None:
        if task.meta.get("compare_string_only"):
            for line in task.completions:  # must still be a well-formed request
                parse_curl(self.toolkit.prepare(line), self.toolkit.hosts)
            return
        self._episode_start = self._world_state
        self._gold(task)

    def oracle_actions(self) -> list[str]:
        """The gold curl line (``program`` mode), then ``finish`` (``call`` mode)."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before oracle_actions()")
        line = self._task.completions[0]
        return [line] if self.action_mode == "program" else [line, "finish"]

    # -- episode ---------------------------------------------------------------------------------
    def _start_episode(self, task: Task) -> None:
        self._app.restore(copy.deepcopy(self._world_state))
        self.toolkit.start_episode(self._app, self.np_random)
        self._episode_start = self._app.snapshot()
        self._exchanges = []
        self._golds = () if task.meta.get("compare_string_only") else self._gold(task)

    def _reset_info(self) -> dict[str, Any]:
        return {
            "api_docs": self.toolkit.api_docs,
            "api_doc_list": list(self.toolkit.api_doc_list),
            "tools": list(self.toolkit.tools),
            "action_language": "curl",
        }

    def _to_line(self, action: str) -> str:
        if looks_like_json_call(action):
            try:
                payload = json.loads(action)
            except json.JSONDecodeError as e:
                raise ToolCallError(NON_EXECUTABLE, f"not valid JSON ({e.msg})") from None
            if isinstance(payload, dict) and isinstance(payload.get("function"), dict):
                payload = payload["function"]
            if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
                raise ToolCallError(NON_EXECUTABLE, 'a JSON call must be {"name", "arguments"}')
            arguments = payload.get("arguments") or {}
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except json.JSONDecodeError as e:
                    raise ToolCallError(
                        NON_EXECUTABLE, f"arguments are not JSON ({e.msg})"
                    ) from None
            if not isinstance(arguments, dict):
                raise ToolCallError(WRONG_ARGUMENTS, "arguments must be a JSON object")
            return self.toolkit.endpoint(payload["name"]).to_curl(arguments)
        return first_curl_line(action)

    def _observe(self, exchange: Exchange) -> str:
        if exchange.response is None:
            assert exchange.error is not None
            return f"Error ({exchange.error.category}): {exchange.error}"
        body = exchange.response.text
        if len(body) > self.max_body_chars:
            body = body[: self.max_body_chars] + f"...[{len(exchange.response.text)} chars]"
        text = f"HTTP {exchange.response.status}\n{body}"
        if exchange.error is not None:
            text += f"\nError ({exchange.error.category}): {exchange.error}"
        return text

    def _step_program(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        try:
            line = self._to_line(action) if isinstance(action, str) else str(action)
        except ToolCallError as e:
            exchange = Exchange(str(action)[:200], None, None, None, e)
        else:
            exchange = self._request(self._app, line)
        self._exchanges.append(exchange)
        info = self._finish(exchange)
        return self._observe(exchange), self.reward_of(info["metrics"]), True, info

    def _step_call(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        if isinstance(action, str) and FINISH.match(action):
            if not self._exchanges:
                error = ToolCallError(NON_EXECUTABLE, "finish before any request was made")
                exchange = Exchange("", None, None, None, error)
            else:
                exchange = self._exchanges[-1]
            info = self._finish(exchange)
            return "Finished.", self.reward_of(info["metrics"]), True, info
        try:
            line = self._to_line(action)
        except ToolCallError as e:
            return f"Error ({e.category}): {e}", 0.0, False, {"error": e.to_info()}
        exchange = self._request(self._app, line)
        if exchange.response is not None:  # only requests that reached the service count
            self._exchanges.append(exchange)
        info = {"error": None if exchange.error is None else exchange.error.to_info()}
        return self._observe(exchange), 0.0, False, info

    def _finish(self, exchange: Exchange) -> dict[str, Any]:
        task = self._task
        assert task is not None
        info: dict[str, Any] = {"request": exchange.line}
        if task.meta.get("compare_string_only"):
            match = normalize_command(exchange.line) in task.completions
            value = 1.0 if match else 0.0
            metrics: dict[str, Any] = {
                "executable": exchange.error is None and exchange.response is not None,
                "success": match,
                "precision": value,
                "recall": value,
                "f1": value,
                "closest_label": 0,
                "state_success": self.toolkit.state_check(self._app, task.completions[0]),
            }
            error = None
            if not match:
                error = (
                    exchange.error.to_info()
                    if exchange.error is not None
                    else {
                        "category": WRONG_ARGUMENTS,
                        "message": "the command differs from the expected one",
                    }
                )
            info.update(metrics=metrics, error=error, prediction=None)
            return info
        metrics = score(exchange.outcome, self._golds)
        if exchange.error is not None:
            error = exchange.error.to_info()
        elif metrics["success"]:
            error = None
        else:
            assert exchange.request is not None
            gold = self._golds[metrics["closest_label"]]
            called = f"{exchange.request.method} {exchange.request.path}"
            if (called,) != gold.calls:
                error = {
                    "category": WRONG_API,
                    "message": f"the request went to {called}, not to the endpoint the task needs",
                }
            else:
                wrong = sorted(
                    str(k)
                    for k in set(gold.criteria) | set(exchange.outcome or {})
                    if (exchange.outcome or {}).get(k) != gold.criteria.get(k)
                )
                error = {
                    "category": WRONG_ARGUMENTS,
                    "message": f"the right endpoint, but these response fields differ: {', '.join(wrong[:10])}",
                }
        info.update(metrics=metrics, error=error, prediction=exchange.outcome)
        return info

    def score(self) -> dict[str, Any]:
        """Metrics of the last request as if the episode ended now."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before score()")
        if not self._exchanges:
            return score(None, self._golds or (GoldOutcome({"_": 0}, ()),))
        return self._finish(self._exchanges[-1])["metrics"]

    # -- state -----------------------------------------------------------------------------------
    def _episode_state(self) -> dict[str, Any]:
        return {
            "app": self._app.snapshot(),
            "start": copy.deepcopy(self._episode_start),
            "golds": self._golds,
            "exchanges": list(self._exchanges),
        }

    def _restore_episode(self, state: Mapping[str, Any]) -> None:
        self._app.restore(copy.deepcopy(state["app"]))
        self._episode_start = copy.deepcopy(state["start"])
        self._golds = state["golds"]
        self._exchanges = list(state["exchanges"])

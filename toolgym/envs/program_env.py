"""Environments for tools driven by API-call programs (``API.set_location("Austin")`` ...)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym

from toolgym.benchmarks.scoring import GoldOutcome, diagnose, score
from toolgym.benchmarks.tasks import Task
from toolgym.envs.base import ToolEnv, check_choice
from toolgym.errors import TaskFileError
from toolgym.tools.api import Toolkit, ToolSession
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.json_calls import looks_like_json_call, run_json_call
from toolgym.tools.program import (
    EXTRACTION_MODES,
    extract_program,
    parse_program,
    run_program,
    run_statements,
)

# Gold outcomes by (toolkit name, program): gold programs are executed once per process.
_GOLD_CACHE: dict[tuple[str, str], GoldOutcome] = {}


class ProgramEnv(ToolEnv):
    """Generic environment for API-call program tools (see the family classes for the docs).

    A family subclasses it and sets ``toolkit_class`` (its ``toolgym.tools`` toolkit) and ``suite``
    (its ``toolgym.benchmarks`` task suite).

    Args:
        split: ``"test"``, ``"demo"`` or ``"train"`` (unlimited generated tasks).
        action_mode: ``"program"`` (whole program in one step) or ``"call"`` (one call per step).
        task_file: path of an original-format JSONL task file; replaces the split.
        extraction: ``"strict"`` (the original rule: the action is the program) or ``"lenient"``.
        reward_type: ``"f1"`` (reward = F1 of the criteria) or ``"success"`` (1 if F1 == 1).
        max_results: how many results a search shows in the observation.
        world_seed: seed of the simulated world (listings, inventory).
        render_mode: ``None`` or ``"ansi"``.
    """

    toolkit_class: ClassVar[type[Toolkit]]

    def __init__(
        self,
        split: str = "test",
        action_mode: str = "program",
        task_file: str | Path | None = None,
        extraction: str = "strict",
        reward_type: str = "f1",
        max_results: int = 5,
        world_seed: int = 0,
        render_mode: str | None = None,
    ) -> None:
        check_choice("extraction", extraction, EXTRACTION_MODES)
        super().__init__(split, action_mode, task_file, reward_type, render_mode)
        self.extraction = extraction
        self.toolkit = self.toolkit_class(seed=world_seed, max_results=max_results)
        self._terminal_prefixes = tuple(f"{name}(" for name in self.toolkit.terminal_functions)
        self._golds: tuple[GoldOutcome, ...] = ()
        self._session: ToolSession | None = None
        self._validate_tasks()

    # -- golds -----------------------------------------------------------------------------------
    def _gold(self, task: Task) -> tuple[GoldOutcome, ...]:
        golds = []
        for program in task.completions:
            key = (self.toolkit.name, program)
            gold = _GOLD_CACHE.get(key)
            if gold is None:
                session = self.toolkit.new_session()
                try:
                    run_program(program, session)
                except ToolCallError as e:
                    raise TaskFileError(
                        f"the gold program of task {task.task_id!r} does not execute: {e}\n{program}"
                    ) from None
                criteria = self.toolkit.outcome(session)
                if not criteria:
                    raise TaskFileError(f"the gold program of task {task.task_id!r} sets nothing")
                gold = GoldOutcome(criteria, tuple(c.function.qualname for c in session.calls))
                _GOLD_CACHE[key] = gold
            golds.append(gold)
        return tuple(golds)

    def _check_gold(self, task: Task) -> None:
        self._gold(task)

    def oracle_actions(self) -> list[str]:
        """The gold program (``program`` mode) or its statements one by one (``call`` mode)."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before oracle_actions()")
        program = self._task.completions[0]
        if self.action_mode == "program":
            return [program]
        return [line for line in program.splitlines() if line.strip()]

    # -- episode ---------------------------------------------------------------------------------
    def _start_episode(self, task: Task) -> None:
        self._golds = self._gold(task)
        self._session = self.toolkit.new_session()

    def _reset_info(self) -> dict[str, Any]:
        return {
            "api_docs": self.toolkit.api_docs,
            "api_doc_list": list(self.toolkit.api_doc_list),
            "tools": list(self.toolkit.tools),
            "action_language": "api_program",
        }

    def _step_program(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        session = self._session
        assert session is not None
        source = action
        if self.extraction == "lenient" and isinstance(action, str):
            source = extract_program(action, self._terminal_prefixes)
        error: ToolCallError | None = None
        try:
            run_program(source, session)
        except ToolCallError as e:
            error = e
        info = self._finish(session, error)
        if error is not None:
            obs = f"Error ({error.category}): {error}"
        else:
            obs = f"The program ran ({len(session.calls)} calls).\n{self._result_text(session)}"
        return obs, self.reward_of(info["metrics"]), True, info

    def _step_call(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        session = self._session
        assert session is not None
        before = session.get_state()
        n_calls = len(session.calls)
        try:
            if isinstance(action, str) and looks_like_json_call(action):
                run_json_call(action, session)
            else:
                statements = parse_program(action, session)
                if len(statements) != 1:
                    raise ToolCallError(
                        NON_EXECUTABLE,
                        f"call mode takes exactly one call per step; got {len(statements)} statements",
                    )
                run_statements(statements, session)
        except ToolCallError as e:
            session.set_state(before)  # a failed call has no effect
            info: dict[str, Any] = {"error": e.to_info(), "warnings": [], "calls": []}
            return f"Error ({e.category}): {e}", 0.0, False, info
        new_calls = session.calls[n_calls:]
        terminal = any(c.function.qualname in self.toolkit.terminal_functions for c in new_calls)
        if terminal:
            info = self._finish(session, None)
            return self._result_text(session), self.reward_of(info["metrics"]), True, info
        info = {
            "error": None,
            "warnings": session.warnings[len(before["warnings"]) :],
            "calls": [c.to_dict() for c in new_calls],
        }
        if new_calls:
            last = new_calls[-1]
            shown = ", ".join(f"{k}={v!r}" for k, v in last.arguments.items())
            obs = (
                f"OK: {last.function.qualname}({shown}). Criteria: {self.toolkit.outcome(session)}"
            )
        else:
            obs = "OK (no call made)."
        return obs, 0.0, False, info

    def _finish(self, session: ToolSession, error: ToolCallError | None) -> dict[str, Any]:
        prediction = None if error is not None else self.toolkit.outcome(session)
        metrics = score(prediction, self._golds)
        if error is not None:
            error_info: dict[str, str] | None = error.to_info()
        else:
            assert prediction is not None
            gold = self._golds[metrics["closest_label"]]
            names = [c.function.qualname for c in session.calls]
            error_info = None if metrics["success"] else diagnose(prediction, names, gold)
        return {
            "error": error_info,
            "metrics": metrics,
            "prediction": prediction,
            "warnings": list(session.warnings),
            "calls": [c.to_dict() for c in session.calls],
        }

    def score(self) -> dict[str, Any]:
        """Metrics of the current criteria as if the episode ended now (e.g. after truncation)."""
        if self._session is None:
            raise gym.error.ResetNeeded("call reset() before score()")
        return score(self.toolkit.outcome(self._session) or None, self._golds)

    @staticmethod
    def _result_text(session: ToolSession) -> str:
        result = getattr(session.api, "last_search", None)
        if result is None:
            return (
                "API.search() was not called, so nothing was searched. "
                f"Criteria: {getattr(session.api, 'search_criteria', {})}"
            )
        return result.to_text()

    # -- state -----------------------------------------------------------------------------------
    def _episode_state(self) -> dict[str, Any]:
        assert self._session is not None
        return {"golds": self._golds, "session": self._session.get_state()}

    def _restore_episode(self, state: Mapping[str, Any]) -> None:
        if self._session is None:
            self._session = self.toolkit.new_session()
        self._golds = state["golds"]
        self._session.set_state(state["session"])

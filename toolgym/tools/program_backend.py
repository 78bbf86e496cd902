"""The backend and toolkit of families whose agents write API-call programs.

The episode state is one :class:`~toolgym.tools.api.ToolSession`: a fresh API object of the family
(``HomeSearchAPI``), the value constructors, the program's variables and the log of its calls.
What is scored is the API object's ``outcome()`` (the search criteria).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

import numpy as np

from toolgym.tools.api import Constructor, SessionMark, ToolApi, ToolSession
from toolgym.tools.api_program import ApiProgramLanguage
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.errors import ToolCallError
from toolgym.tools.faults import FaultPlan
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.language import EXTRACTIONS
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import Toolkit


class ProgramBackend(Backend):
    """An episode of API-call programs: one session, replaced by a fresh one at every reset.

    Args:
        toolkit: the family's toolkit (it makes the API objects).
    """

    handles_faults = True

    def __init__(self, toolkit: ProgramToolkit) -> None:
        self.toolkit = toolkit
        self.session = toolkit.new_session()

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """A fresh session (programs start from the same empty state in every episode)."""
        self.session = self.toolkit.new_session()
        self.session.faults = self.faults

    def set_faults(self, plan: FaultPlan | None) -> None:
        """Make the API's calls meet the faults of ``plan`` (constructors never fail)."""
        self.faults = plan
        self.session.faults = plan

    def start_key(self) -> Hashable:
        """Every episode starts from the same state."""
        return ()

    def snapshot(self) -> dict[str, Any]:
        """The session's state (API state, variables, calls, warnings)."""
        return self.session.get_state()

    def restore(self, state: Any) -> None:
        """Restore a state returned by :meth:`snapshot`."""
        self.session.set_state(state)

    def checkpoint(self) -> SessionMark:
        """The session's mark (:meth:`ToolSession.checkpoint`): the calls so far not copied."""
        return self.session.checkpoint()

    def rollback(self, mark: Any) -> None:
        """Return to a :meth:`checkpoint` ``mark``."""
        self.session.rollback(mark)

    def calls_since(self, state: Any) -> list[ToolCall]:
        """The calls made since a snapshot or mark: each tool by name, its arguments bound."""
        if isinstance(state, SessionMark):
            done = state.calls
        else:
            done = len(state["calls"]) if isinstance(state, Mapping) else 0
        return [ToolCall(c.tool.name, dict(c.arguments)) for c in self.session.calls[done:]]

    def call_names(self) -> tuple[str, ...]:
        """The qualified names of the calls made so far."""
        return tuple(c.tool.qualname for c in self.session.calls)

    def attempt(self) -> Attempt:
        """The criteria as they stand (an empty outcome counts as nothing run)."""
        return Attempt(self.session.api.outcome() or None, self.call_names(), backend=self)

    def final_attempt(self, error: ToolCallError | None) -> Attempt:
        """The attempt of a program that ended, with the error that stopped it (if any)."""
        outcome = None if error is not None else self.session.api.outcome()
        return Attempt(outcome, self.call_names(), error, backend=self)

    def run_json(self, call: ToolCall) -> Any:
        """Run a JSON tool call: values of constructor types are built by their constructor."""
        session = self.session
        name = call.name.removeprefix(f"{session.api_name}.")
        owner = None if name in session.constructors else session.api_name
        tool = session.resolve(owner, name)
        kwargs = {}
        for key, value in call.arguments.items():
            param = tool.param(key)
            if param is not None and param.type_name in session.constructors:
                value = session.construct(param.type_name, value)
            kwargs[key] = value
        return session.invoke(tool, [], kwargs)

    def call(self, call: ToolCall) -> str:
        """Run a JSON tool call and describe it (a failed call leaves no trace)."""
        before = self.session.checkpoint()
        try:
            self.run_json(call)
        except ToolCallError:
            self.session.rollback(before)
            raise
        return f"OK: {call.name}. {self.session.api.status()}".rstrip()


class ProgramToolkit(Toolkit):
    """The toolkit of an API-program family.

    Subclasses set ``api_class`` (the ``API`` object's class) and ``constructors``, and implement
    :meth:`make_api`.

    Args:
        world_seed: seed of the simulated world.
        extraction: ``"strict"`` (the original rule: the whole action is the program) or
            ``"lenient"`` (first fenced block, prose dropped, cut after the terminal call).
    """

    api_class: ClassVar[type[ToolApi]]
    constructors: ClassVar[tuple[Constructor, ...]] = ()
    api_name: ClassVar[str] = "API"
    """The name the API object has in programs."""
    _shared_tools: ClassVar[ToolSet]

    def __init__(self, world_seed: int = 0, *, extraction: str = "strict") -> None:
        super().__init__(world_seed)
        if extraction not in EXTRACTIONS:
            raise ValueError(
                f"extraction must be one of {', '.join(map(repr, EXTRACTIONS))}; got {extraction!r}"
            )
        self.extraction = extraction
        self.tools = self._tool_set()
        self._constructors: Mapping[str, Constructor] = {c.tool.name: c for c in self.constructors}

    @classmethod
    def _tool_set(cls) -> ToolSet:
        """The class's tools, made once: every env of the family shares one set and its docs."""
        tools = cls.__dict__.get("_shared_tools")
        if tools is None:
            tools = ToolSet((*cls.api_class.TOOLS, *(c.tool for c in cls.constructors)))
            cls._shared_tools = tools
        return tools

    @abstractmethod
    def make_api(self) -> ToolApi:
        """A fresh API object bound to the world."""

    def new_session(self) -> ToolSession:
        """A fresh session: a new API object, the constructors, no variables."""
        return ToolSession(self.make_api(), dict(self._constructors), self.api_name)

    def new_backend(self) -> ProgramBackend:
        """A backend with a fresh session."""
        return ProgramBackend(self)

    def language(self) -> ApiProgramLanguage:
        """API-call programs, with the configured extraction."""
        return ApiProgramLanguage(self.tools, self.extraction, constructors=self.constructors)

"""Action languages: how an agent's text becomes calls on a backend.

An :class:`ActionLanguage` is one way of acting: API-call programs (``API.set_location("Austin")``),
curl lines, JSON tool calls, and later household scripts, ``search[...]``/``click[...]`` or
sandboxed Python. It runs an action in the two protocols every environment offers:

* :meth:`~ActionLanguage.run_program`: the whole action in one step (the paper's protocol); the
  episode ends and the :class:`~toolgym.tools.backend.Attempt` is scored;
* :meth:`~ActionLanguage.run_call`: one call per step; the episode ends when the call submits
  (a terminal tool such as ``API.search()``) or when the agent says the language's finish word.

Agent mistakes never raise out of a language: they come back in :attr:`Execution.error`. The
agent side of a language (pulling the action out of a model's generation, how demonstrations are
labelled, what ends an episode) is described by :class:`AgentHints`, so agents need no knowledge
of any family.
"""

from __future__ import annotations

import ast
import copy
import importlib
import keyword
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.tool import Tool, ToolSet

LANGUAGES: dict[str, str] = {
    "api_program": "toolgym.tools.api_program:ApiProgramLanguage",
    "curl": "toolgym.tools.curl_language:CurlLanguage",
    "json_calls": "toolgym.tools.json_language:JsonCallLanguage",
    "python": "toolgym.tools.python_language:PythonLanguage",
}
"""Every action language by the name ``info["action_language"]`` reports, as ``module:class``
(:func:`register_language` adds one without editing this table)."""

_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")
_QUALIFIED_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*\(")


@dataclass(slots=True)
class Execution:
    """What running one action did.

    Attributes:
        observation: the text the agent sees next.
        error: the mistake that stopped the action, if any.
        finished: whether the episode ends (always in ``program`` mode).
        attempt: when finished, what is scored.
        info: entries the language adds to the step's ``info`` (``calls``, ``warnings``, ...).
    """

    observation: str
    error: ToolCallError | None = None
    finished: bool = False
    attempt: Attempt | None = None
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AgentHints:
    """How to act in an environment, for agents (derived from its language and tools).

    Attributes:
        action_language: the language's name.
        finish_action: the action that ends a multi-step episode (``API.search()``, ``finish``).
        terminal_calls: line prefixes of calls that end a program (``("API.search(",)``).
        step_description: one step of a multi-step episode, for prompts ("one curl command").
        demo_label: the label between a demonstration's task and its action (``Actions:``).
        page_prompts: whether each step's prompt is built afresh from the current observation,
            with no history (the benchmark's WebShop protocol): the query, the retrieved
            demonstrations (page and action pairs) and the task line are the page.
    """

    action_language: str
    finish_action: str | None = None
    terminal_calls: tuple[str, ...] = ()
    step_description: str = "one action"
    demo_label: str = "Action:"
    page_prompts: bool = False


class ActionLanguage(ABC):
    """One way of turning agent text into calls (see the module docstring)."""

    name: ClassVar[str]
    """The name reported as ``info["action_language"]``."""
    step_description: ClassVar[str] = "one action"
    demo_label: ClassVar[str] = "Action:"
    finish_word: ClassVar[str | None] = None
    """A word that ends a multi-step episode (``finish``), when the language has one."""
    budgets: Budgets = DEFAULT_BUDGETS
    refusal_info: ClassVar[Mapping[str, Any]] = {}
    """The info keys of a step that ran nothing (:meth:`refusal`), as the language's own failed
    steps report them (``{"calls": []}``)."""
    """The limits of one action; ``max_action_chars`` is also the env's action space's length,
    and a longer action is refused before any of it is read."""

    def refusal(self, error: ToolCallError, backend: Backend, program: bool) -> Execution:
        """What an action refused before it ran (too long) gives.

        ``error``, and in program mode the end of the episode with nothing done. A language whose steps show a page (and infos) overrides it to show them as its own
        failed steps do.
        """
        info = copy.deepcopy(dict(self.refusal_info))
        if program:
            attempt = Attempt(None, error=error, backend=backend)
            return Execution(error.observation(), error, True, attempt, info)
        return Execution(error.observation(), error, info=info)

    @abstractmethod
    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run a whole action; the episode ends (``execution.attempt`` is set)."""

    @abstractmethod
    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one step of a multi-step episode; a failed step leaves the backend as it was."""

    @abstractmethod
    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run a gold label from the backend's current state.

        Raises:
            ToolCallError: the gold does not run.
        """

    def gold_action(self, gold: str) -> str:
        """The action the oracle plays for ``gold`` in ``program`` mode (default: the gold)."""
        return gold

    def gold_steps(self, gold: str) -> list[str]:
        """The gold label as the actions of a multi-step episode (default: one action)."""
        steps = [gold]
        if self.finish_word is not None:
            steps.append(self.finish_word)
        return steps

    def is_finish(self, text: Any) -> bool:
        """Whether ``text`` is the finish word."""
        return (
            self.finish_word is not None
            and isinstance(text, str)
            and re.match(rf"^\s*{re.escape(self.finish_word)}\b", text, re.IGNORECASE) is not None
        )

    def finish(self, backend: Backend) -> Execution:
        """End a multi-step episode on the agent's word: the attempt as it stands is scored."""
        return Execution("Finished.", finished=True, attempt=backend.attempt())

    @abstractmethod
    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """The action that calls ``tool`` with ``arguments`` (JSON values) in this language."""

    def render_calls(
        self, calls: Sequence[ToolCall], tools: ToolSet, backend: Backend | None = None
    ) -> str:
        """The action that makes ``calls``, in order, in this language.

        A model's native tool calls become an action this way
        (:meth:`~toolgym.envs.tool_env.ToolEnv.native_action`). The default renders each call
        with :meth:`render_call` and joins them with newlines. A call naming no tool of
        ``tools`` is rendered with a placeholder tool of that name, so that running the action
        reports the unknown name as this language reports any unknown name. Languages whose
        actions are not one call per line override this.

        Args:
            calls: the calls, in order.
            tools: the task's tools.
            backend: the episode's backend, for languages whose next action depends on its
                state (the numbering of a calling list's placeholders); ``None``: a fresh one.

        >>> from toolgym.tools.api_program import ApiProgramLanguage
        >>> tools = ToolSet([Tool("set_beds", "", owner="API"), Tool("search", "", owner="API")])
        >>> calls = [ToolCall("set_beds", {"value": 2}), ToolCall("search")]
        >>> print(ApiProgramLanguage(tools).render_calls(calls, tools))
        API.set_beds(value=2)
        API.search()
        """
        rendered = []
        for call in calls:
            check_call_names(call)
            rendered.append(self.render_call(_known_tool(call, tools), call.arguments))
        return "\n".join(rendered)

    @classmethod
    def default_hints(cls) -> AgentHints:
        """Hints from the language alone (no tools known: no terminal calls)."""
        return AgentHints(
            action_language=cls.name,
            finish_action=cls.finish_word,
            step_description=cls.step_description,
            demo_label=cls.demo_label,
        )

    def hints(self, tools: ToolSet) -> AgentHints:
        """What agents need to act in this language over ``tools``."""
        terminal = [t for t in tools if t.terminal]
        finish = self.finish_word or (f"{terminal[0].qualname}()" if terminal else None)
        return AgentHints(
            action_language=self.name,
            finish_action=finish,
            terminal_calls=tuple(f"{t.qualname}(" for t in terminal),
            step_description=self.step_description,
            demo_label=self.demo_label,
        )

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """What a model may write as one action here, for constrained decoding.

        Args:
            tools: the task's tools.
            mode: ``"program"`` (the whole action) or ``"call"`` (one step).
            backend: the episode's backend, for languages whose actions depend on its state (the
                links of the current page).

        Returns:
            The grammar, or ``None`` when the language has none (general Python): the model is
            then left unconstrained.
        """
        return None

    @classmethod
    def has_grammar(cls) -> bool:
        """Whether the language derives grammars (it overrides :meth:`grammar`)."""
        return cls.grammar is not ActionLanguage.grammar

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The names an action uses (its functions; a request's path and parameters).

        Agents compare signatures to pick the demonstration closest to a task.

        >>> sorted(ActionLanguage.signature('x = Loc("A"); API.set_origin(x)'))
        ['Loc', 'set_origin']
        """
        return frozenset(_CALL.findall(action))

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The tools ``action`` calls, by qualified name, in order (a repeated call repeats).

        This is what the API complexity score counts (:mod:`toolgym.benchmarks.complexity`):
        the APIs a gold label or a demonstration uses. Names that are not ``tools`` are left
        out. The default reads the action as Python and keeps every call of a tool's qualified
        name (``API.set_location(...)``, ``Loc(...)``, ``worksheet.update(...)``), wherever it
        is nested; text that is not Python is searched for ``<qualified name>(`` instead.
        Languages with another syntax (curl lines, JSON calls) override this.

        >>> from toolgym.tools.api_program import ApiProgramLanguage
        >>> from toolgym.tools.tool import Tool
        >>> tools = ToolSet([Tool("set_origin", "", owner="API"), Tool("Loc", "")])
        >>> program = 'x = Loc("A")\\nAPI.set_origin(x)\\nAPI.set_origin(Loc("B"))\\nprint(x)'
        >>> ApiProgramLanguage(tools).api_calls(program, tools)
        ['Loc', 'API.set_origin', 'API.set_origin', 'Loc']
        """
        known = {tool.qualname for tool in tools}
        try:
            tree = ast.parse(action)
        except (SyntaxError, ValueError, RecursionError):
            return [m.group(1) for m in _QUALIFIED_CALL.finditer(action) if m.group(1) in known]
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _dotted_name(node.func)
                if name in known:
                    found.append((node.lineno, node.col_offset, name))
        return [name for _, _, name in sorted(found)]

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The action in a single-step generation (default: the stripped text).

        Args:
            generation: the model's text.
            hints: the environment's hints (terminal calls for lenient extraction).
            extraction: ``"strict"`` (the original benchmark's rule) or ``"lenient"``.
        """
        return generation.strip()


def _known_tool(call: ToolCall, tools: ToolSet) -> Tool:
    """The tool ``call`` names, or a placeholder of that name (and the tools' owner) if none."""
    known = tools.get(call.name)
    if known is not None:
        return known
    owner = next((t.owner for t in tools if t.owner), None)
    return Tool(call.name, "", owner=owner) if owner else Tool(call.name, "")


def check_call_names(call: ToolCall) -> None:
    """Refuse a call whose tool or argument names are not identifiers.

    A language that writes calls as text (``API.name(key=value)``) must not let a name carry
    more text: a name such as ``"a)\\nAPI.search("`` would make one call two.

    Raises:
        ToolCallError: ``wrong_api`` for the tool's name, ``wrong_arguments`` for an argument's.

    >>> check_call_names(ToolCall("set_beds", {"value": 2}))
    >>> try:
    ...     check_call_names(ToolCall("x", {"a) or (b": 1}))
    ... except ToolCallError as e:
    ...     print(e.category)
    wrong_arguments
    """
    if not call.name.isidentifier() or keyword.iskeyword(call.name):
        raise ToolCallError(WRONG_API, f"a tool name must be an identifier; got {call.name!r:.80}")
    for key in call.arguments:
        if not key.isidentifier() or keyword.iskeyword(key):
            raise ToolCallError(
                WRONG_ARGUMENTS, f"argument names must be identifiers; got {key!r:.80}"
            )


def _dotted_name(node: ast.expr) -> str | None:
    """``name`` or ``owner.name`` for a called expression of that form, else ``None``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


EXTRACTIONS = ("strict", "lenient")


def register_language(name: str, target: str) -> None:
    """Make the action language ``name`` known by its import path ``"module:Class"``.

    Raises:
        ValueError: ``name`` is taken by another language.
    """
    known = LANGUAGES.get(name)
    if known is not None and known != target:
        raise ValueError(f"action language {name!r} is registered already as {known!r}")
    LANGUAGES[name] = target


def language_class(name: str) -> type[ActionLanguage]:
    """The action language called ``name``.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
    """
    target = LANGUAGES.get(name)
    if target is None:
        raise ValueError(f"action language must be one of {', '.join(LANGUAGES)}; got {name!r}")
    module, _, attr = target.partition(":")
    cls: type[ActionLanguage] = getattr(importlib.import_module(module), attr)
    return cls

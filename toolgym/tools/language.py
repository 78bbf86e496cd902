"""Action languages: how an agent's text becomes calls on a backend.

An :class:`ActionLanguage` is one way of acting: API-call programs (``API.set_location("Austin")``),
curl lines, JSON tool calls, household scripts, ``search[...]``/``click[...]`` or sandboxed
Python. It has three sides, each in a module of its own, so that each reader depends only on the
side it uses:

* what runs actions (:class:`~toolgym.tools.action_runner.ActionRunner`: both protocols, golds,
  calls written as actions), which the env uses;
* what agents read (:class:`~toolgym.tools.action_reader.ActionReader`: hints, the action in a
  generation, signatures, the tools an action calls), which agents and the complexity score use
  through :func:`language_class` without any family's code;
* the grammar (:class:`~toolgym.tools.grammar_source.GrammarSource`), for constrained decoding.

Languages are known by name (:data:`LANGUAGES`, :func:`register_language`). A language that runs
on one family's backend builds on :class:`~toolgym.tools.backend_language.BackendLanguage`.
"""

from __future__ import annotations

import importlib
import keyword
from collections.abc import Sequence

from toolgym.tools.action_reader import EXTRACTIONS, ActionReader, AgentHints
from toolgym.tools.action_runner import ActionRunner, Execution
from toolgym.tools.backend import Backend
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.grammar_source import GrammarSource
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


class ActionLanguage(ActionRunner, ActionReader, GrammarSource):
    """One way of turning agent text into calls: its runner, reader and grammar together."""

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


__all__ = [
    "EXTRACTIONS",
    "LANGUAGES",
    "ActionLanguage",
    "ActionReader",
    "ActionRunner",
    "AgentHints",
    "Execution",
    "GrammarSource",
    "check_call_names",
    "language_class",
    "register_language",
]

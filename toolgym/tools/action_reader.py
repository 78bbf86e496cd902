"""What agents read of an action language: hints, the action in a generation, signatures.

Agents need no knowledge of any family: an :class:`ActionReader` tells them how to act (its
:class:`AgentHints`: the finish action, terminal calls, how demonstrations are labelled), pulls
the action out of a model's generation (:meth:`~ActionReader.extract`), and reads an action's
names (:meth:`~ActionReader.signature`, to pick the closest demonstration) and the tools it calls
(:meth:`~ActionReader.api_calls`, what the API complexity score counts). Everything here reads
text; nothing runs.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import ClassVar

from toolgym.tools.ast_parse import parse
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.tool import Tool, ToolSet

EXTRACTIONS = ("strict", "lenient")
"""How an action is pulled out of a generation: the original benchmark's rule, or leniently."""

_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")
_QUALIFIED_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*\(")


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
        free_text: whether a step may also be free text outside the language (a message to
            a conversation's user), so that no grammar constrains decoding.
    """

    action_language: str
    finish_action: str | None = None
    terminal_calls: tuple[str, ...] = ()
    step_description: str = "one action"
    demo_label: str = "Action:"
    page_prompts: bool = False
    free_text: bool = False


class ActionReader:
    """The agent side of an action language (see the module docstring)."""

    name: ClassVar[str]
    """The name reported as ``info["action_language"]``."""
    step_description: ClassVar[str] = "one action"
    demo_label: ClassVar[str] = "Action:"
    finish_word: ClassVar[str | None] = None
    """A word that ends a multi-step episode (``finish``), when the language has one."""

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

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The action in a single-step generation (default: the stripped text).

        Args:
            generation: the model's text.
            hints: the environment's hints (terminal calls for lenient extraction).
            extraction: ``"strict"`` (the original benchmark's rule) or ``"lenient"``.
        """
        return generation.strip()

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The names an action uses (its functions; a request's path and parameters).

        Agents compare signatures to pick the demonstration closest to a task.

        >>> sorted(ActionReader.signature('x = Loc("A"); API.set_origin(x)'))
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

        >>> from toolgym.tools.tool import Tool
        >>> tools = ToolSet([Tool("set_origin", "", owner="API"), Tool("Loc", "")])
        >>> program = 'x = Loc("A")\\nAPI.set_origin(x)\\nAPI.set_origin(Loc("B"))\\nprint(x)'
        >>> ActionReader().api_calls(program, tools)
        ['Loc', 'API.set_origin', 'API.set_origin', 'Loc']
        """
        known = {tool.qualname for tool in tools}
        try:
            tree = parse(action)
        except (SyntaxError, ValueError, RecursionError):
            return [m.group(1) for m in _QUALIFIED_CALL.finditer(action) if m.group(1) in known]
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _dotted_name(node.func)
                if name in known:
                    found.append((node.lineno, node.col_offset, name))
        return [name for _, _, name in sorted(found)]

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """The action as native tool calls, when it is nothing but calls of ``tools``.

        The inverse of :meth:`~toolgym.tools.language.ActionLanguage.render_calls`: playing the
        calls as a model's native tool calls does what the action does. ``None`` when the
        action is more than calls (loops, conditions, a call whose result is kept). The default
        reads Python call syntax, one call per statement (``API.set_location("Austin")``), with
        literal arguments (a positional one is the tool's parameter at that place). An argument
        built by a value constructor that is not offered as a tool is passed as a JSON call
        passes it: ``Loc("Austin")`` as its one literal argument, ``Date(4, 10, 2026)`` as an
        object of its parameters. A name bound to such a value (``x = Loc("Austin")``) stands
        for it in later calls; an action that only binds names is ``[]`` (nothing to call).

        >>> from toolgym.tools.tool import Param, Tool
        >>> beds = Tool("set_num_beds", "", (Param("value", "int", ""),), owner="API")
        >>> reader, tools = ActionReader(), ToolSet([beds])
        >>> reader.tool_calls("API.set_num_beds(2)", tools)
        [ToolCall(name='set_num_beds', arguments={'value': 2})]
        >>> reader.tool_calls("n = 2\\nAPI.set_num_beds(n)", tools)
        [ToolCall(name='set_num_beds', arguments={'value': 2})]
        >>> reader.tool_calls("n = 2", tools)
        []
        >>> reader.tool_calls("for n in (1, 2):\\n    API.set_num_beds(n)", tools) is None
        True
        """
        by_name = {tool.qualname: tool for tool in tools}
        try:
            tree = parse(action)
        except (SyntaxError, ValueError, RecursionError):
            return None
        calls: list[ToolCall] = []
        bound: dict[str, object] = {}
        for statement in tree.body:
            if (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
            ):
                value = _literal(statement.value, by_name, bound)
                if value is _NOT_LITERAL:
                    return None
                bound[statement.targets[0].id] = value
                continue
            if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
                return None
            node = statement.value
            tool = by_name.get(_dotted_name(node.func) or "")
            if tool is None or not tool.offered or len(node.args) > len(tool.params):
                return None
            pairs = [(p.name, a) for p, a in zip(tool.params, node.args, strict=False)]
            pairs += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
            if any(k.arg is None for k in node.keywords):
                return None
            arguments = {}
            for key, value_node in pairs:
                value = _literal(value_node, by_name, bound)
                if value is _NOT_LITERAL:
                    return None
                arguments[key] = value
            calls.append(ToolCall(tool.name, arguments))
        return calls if calls or bound else None


_NOT_LITERAL = object()


def _literal(node: ast.expr, tools: dict[str, Tool], bound: dict[str, object]) -> object:
    """A call argument's value, as a JSON call passes it (``_NOT_LITERAL``: not a value).

    A literal; a name ``bound`` to a value; or a value constructor that is not offered as a
    tool: with one parameter, its literal argument; with more, an object of its parameters.
    """
    if isinstance(node, ast.Name) and node.id in bound:
        return bound[node.id]
    if isinstance(node, ast.Call):
        constructor = tools.get(_dotted_name(node.func) or "")
        if constructor is None or constructor.offered or len(node.args) > len(constructor.params):
            return _NOT_LITERAL
        if any(k.arg is None for k in node.keywords):
            return _NOT_LITERAL
        pairs = [(p.name, a) for p, a in zip(constructor.params, node.args, strict=False)]
        pairs += [(k.arg, k.value) for k in node.keywords if k.arg is not None]
        values = {key: _literal(value, tools, bound) for key, value in pairs}
        if any(v is _NOT_LITERAL for v in values.values()):
            return _NOT_LITERAL
        if len(constructor.params) == 1:
            return values.get(constructor.params[0].name, _NOT_LITERAL)
        return values
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOT_LITERAL


def _dotted_name(node: ast.expr) -> str | None:
    """``name`` or ``owner.name`` for a called expression of that form, else ``None``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None

"""The web-action language: WebShop's ``search[keywords]`` and ``click[target]``.

In ``call`` mode (the benchmark's protocol) each step is one action, or a JSON call
(``{"name": "click", "arguments": {"target": "buy now"}}``), and the observation is the page it
leads to, rendered as WebShop renders it; the episode ends at ``click[buy now]``. An action that is
not carried out leaves the page as it is, as in WebShop, and ``info["error"]`` says why. In
``program`` mode the action is several actions, one per line, taken in order until one buys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolgym.families.web_shop.backend import WebShopBackend
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.backend_language import BackendLanguage
from toolgym.tools.budgets import RESOURCE_LIMIT
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.grammar import ActionGrammar, lines, literal, one_of
from toolgym.tools.json_calls import ToolCall, looks_like_json_call, parse_json_call
from toolgym.tools.language import AgentHints, Execution, register_language
from toolgym.tools.tool import Tool, ToolSet

MAX_ACTIONS = 100
"""The most actions a program may hold."""

BUY = "click[buy now]"


class WebActionLanguage(BackendLanguage[WebShopBackend]):
    """``search[...]`` and ``click[...]`` on a web shop backend (see the module docstring)."""

    backend_type = WebShopBackend

    name = "web_actions"
    step_description = "one action: search[keywords] or click[target]"
    demo_label = "Action:"

    def hints(self, tools: ToolSet) -> AgentHints:
        """Buying ends an episode."""
        return AgentHints(
            action_language=self.name,
            finish_action=BUY,
            terminal_calls=(BUY,),
            step_description=self.step_description,
            demo_label=self.demo_label,
            page_prompts=True,
        )

    def _check(self, text: str) -> None:
        if len(text) > self.budgets.max_action_chars:
            raise ToolCallError(
                RESOURCE_LIMIT,
                f"the action has {len(text)} characters; at most {self.budgets.max_action_chars}",
            )

    def _action(self, text: str) -> str:
        """One action's text (a JSON call rewritten as one)."""
        self._check(text)
        if not looks_like_json_call(text):
            return text.strip()
        call = parse_json_call(text, self.budgets)
        key = {"search": "keywords", "click": "target"}.get(call.name)
        if key is None:
            raise ToolCallError(WRONG_API, f"the actions are search and click; got {call.name!r}")
        value = call.arguments.get(key)
        if set(call.arguments) != {key} or not isinstance(value, str) or "]" in value:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{call.name} takes one string argument {key!r} (without ']'); got "
                f"{sorted(call.arguments)}",
            )
        return f"{call.name}[{value}]"

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar:
        """``search[...]`` where the page has a search bar, ``click[...]`` on its clickables.

        In program mode the pages to come are unknown: any ``click[...]`` text is allowed.
        """
        keywords = '"search[" [^\\]\\n]{1,200} "]"'
        if mode == "program":
            action = one_of([keywords, '"click[" [^\\]\\n]{1,200} "]"'])
            return ActionGrammar(lines(action, max_lines=MAX_ACTIONS))
        available = self.on(backend).available()
        choices = [f"click[{c}]" for c in available["clickables"] if "]" not in c and "\n" not in c]
        alternatives = [literal(c) for c in choices]
        if available["has_search_bar"] or not alternatives:
            alternatives.insert(0, keywords)
        return ActionGrammar(one_of(alternatives))

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Take one action; buying ends the episode."""
        shop = self.on(backend)
        try:
            action = self._action(text)
            if "\n" in action:
                raise ToolCallError(NON_EXECUTABLE, "call mode takes one action per step")
            bought = shop.act(action)
        except ToolCallError as e:
            return Execution(shop.observation(), e, info=_info(shop))
        if bought:
            return Execution(
                shop.observation(), finished=True, attempt=shop.attempt(), info=_info(shop)
            )
        return Execution(shop.observation(), info=_info(shop))

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Take the actions in order until one buys; the episode ends."""
        shop = self.on(backend)
        error: ToolCallError | None = None
        try:
            self._check(text)
            lines = [line for line in text.split("\n") if line.strip()]
            if len(lines) > MAX_ACTIONS:
                raise ToolCallError(
                    RESOURCE_LIMIT, f"the program has {len(lines)} actions; at most {MAX_ACTIONS}"
                )
            if not lines:
                raise ToolCallError(NON_EXECUTABLE, "expected search[...] or click[...] actions")
            for k, line in enumerate(lines, 1):
                try:
                    if shop.act(self._action(line)):
                        break
                except ToolCallError as e:
                    error = error or ToolCallError(
                        e.category, f"{line.strip()[:80]}: {e.message}", k
                    )
        except ToolCallError as e:
            error = e
        attempt = shop.attempt()
        if error is not None:
            attempt = Attempt(attempt.outcome, attempt.calls, error, attempt.text, attempt.backend)
        return Execution(shop.observation(), error, True, attempt, _info(shop))

    def refusal(self, error: ToolCallError, backend: Backend, program: bool) -> Execution:
        """A refused action shows the page and its actions, as a failed action does."""
        shop = self.on(backend)
        if not program:
            return Execution(shop.observation(), error, info=_info(shop))
        attempt = shop.attempt()
        attempt = Attempt(attempt.outcome, attempt.calls, error, attempt.text, attempt.backend)
        return Execution(shop.observation(), error, True, attempt, _info(shop))

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Take the gold actions; one that is not carried out raises."""
        shop = self.on(backend)
        for line in gold.split("\n"):
            if line.strip() and shop.act(line):
                break
        return shop.attempt()

    def gold_steps(self, gold: str) -> list[str]:
        """One action per step."""
        return [line.strip() for line in gold.split("\n") if line.strip()]

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """``search[...]`` or ``click[...]``.

        Raises:
            ToolCallError: ``wrong_arguments`` for a value holding a bracket or a line break,
                which would write more than one action.
        """
        value = str(next(iter(arguments.values()), ""))
        if any(c in value for c in "[]\n\r"):
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"a search or click value has no brackets or line breaks; got {value!r:.80}",
            )
        return f"{tool.name}[{value}]"

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The action names of an action's lines (``search``, ``click``), one per line.

        >>> tools = ToolSet([Tool("search", ""), Tool("click", "")])
        >>> WebActionLanguage().api_calls("search[red shoes]\\nclick[b0001]\\nclick[buy now]", tools)
        ['search', 'click', 'click']
        """
        known = {tool.name: tool.qualname for tool in tools}
        found = []
        for line in action.split("\n"):
            name, bracket, _ = line.strip().partition("[")
            if bracket and name.strip() in known:
                found.append(known[name.strip()])
        return found

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """Each ``search[...]`` or ``click[...]`` line as a call with its one argument.

        >>> from toolgym.tools.tool import Param
        >>> tools = ToolSet([Tool("search", "", (Param("keywords", "string", ""),))])
        >>> WebActionLanguage().tool_calls("search[red shoes]", tools)
        [ToolCall(name='search', arguments={'keywords': 'red shoes'})]
        """
        calls = []
        for line in action.split("\n"):
            name, bracket, rest = line.strip().partition("[")
            tool = tools.get(name.strip())
            if not bracket or not rest.endswith("]") or tool is None or len(tool.params) != 1:
                return None
            calls.append(ToolCall(tool.name, {tool.params[0].name: rest[:-1]}))
        return calls or None

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The action names and the words of their arguments.

        >>> sorted(WebActionLanguage.signature("search[red shoes]"))
        ['red', 'search', 'shoes']
        """
        out: set[str] = set()
        for line in action.split("\n"):
            name, _, rest = line.partition("[")
            if rest:
                out.add(name.strip())
                out.update(rest.rstrip("]").split())
        return frozenset(out)

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The action in a generation.

        Strict: the stripped generation (the original's rule); lenient: its first line that
        holds ``search[`` or ``click[``, from there on.
        """
        if extraction == "lenient":
            for line in generation.splitlines():
                for word in ("search[", "click["):
                    at = line.find(word)
                    if at >= 0:
                        return line[at:].strip()
        return generation.strip()


def _info(shop: WebShopBackend) -> dict[str, Any]:
    return {"available_actions": shop.available()}


register_language(WebActionLanguage.name, "toolgym.families.web_shop.language:WebActionLanguage")

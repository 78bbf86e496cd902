"""The curl action language: one ``curl`` request per action, or a JSON call of an endpoint.

In ``program`` mode (the paper's protocol) the first line that starts with ``curl`` is the
request, and the episode ends with it. In ``call`` mode every step is one request (a curl line or
a JSON call ``{"name": <endpoint>, "arguments": {...}}``), and the agent ends the episode with
``finish``: the last request that reached the service is scored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from toolgym.simulators.http import Request, Response
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.curl import first_curl_line
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.json_calls import looks_like_json_call, parse_json_call
from toolgym.tools.language import ActionLanguage, AgentHints, Execution
from toolgym.tools.tool import Tool

if TYPE_CHECKING:
    from toolgym.tools.rest_backend import RestBackend

_URL = re.compile(r"https?://[^/'\"\s]+(/[^?'\"\s]*)(\?[^'\"\s]*)?")


@dataclass
class Exchange:
    """One request an agent made in an episode, its answer and the outcome that is scored."""

    line: str
    request: Request | None
    response: Response | None
    outcome: dict[Any, Any] | None
    error: ToolCallError | None


class CurlLanguage(ActionLanguage):
    """curl lines against the family's simulated service.

    Args:
        max_body_chars: how much of a response body an observation shows.
    """

    name = "curl"
    step_description = "one curl command"
    finish_word = "finish"

    def __init__(self, max_body_chars: int = 4000, budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.max_body_chars = max_body_chars
        self.budgets = budgets

    def _line(self, action: Any, backend: RestBackend) -> str:
        if not isinstance(action, str):
            raise ToolCallError(
                NON_EXECUTABLE, f"an action must be a string; got {type(action).__name__}"
            )
        if looks_like_json_call(action):
            return backend.toolkit.to_curl(parse_json_call(action, self.budgets))
        return first_curl_line(action)

    def _observe(self, exchange: Exchange) -> str:
        if exchange.response is None:
            assert exchange.error is not None
            return exchange.error.observation()
        body = exchange.response.text
        if len(body) > self.max_body_chars:
            body = body[: self.max_body_chars] + f"...[{len(exchange.response.text)} chars]"
        text = f"HTTP {exchange.response.status}\n{body}"
        if exchange.error is not None:
            text += f"\n{exchange.error.observation()}"
        return text

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Send the request; the episode ends and its answer is scored."""
        rest = _rest_backend(backend)
        try:
            line = self._line(text, rest)
        except ToolCallError as e:
            exchange = Exchange(str(text)[:200], None, None, None, e)
        else:
            exchange = rest.request(line)
        rest.exchanges.append(exchange)
        return _final(rest, exchange, self._observe(exchange))

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Send one request; only requests that reached the service count."""
        rest = _rest_backend(backend)
        try:
            line = self._line(text, rest)
        except ToolCallError as e:
            return Execution(e.observation(), e)
        exchange = rest.request(line)
        if exchange.response is not None:
            rest.exchanges.append(exchange)
        return Execution(self._observe(exchange), exchange.error)

    def finish(self, backend: Backend) -> Execution:
        """Score the last request that reached the service."""
        rest = _rest_backend(backend)
        if rest.exchanges:
            exchange = rest.exchanges[-1]
        else:
            error = ToolCallError(NON_EXECUTABLE, "finish before any request was made")
            exchange = Exchange("", None, None, None, error)
        return _final(rest, exchange, "Finished.")

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Send a gold request as written."""
        rest = _rest_backend(backend)
        exchange = rest.request(gold)
        if exchange.error is not None:
            raise exchange.error
        return rest.exchange_attempt(exchange)

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """A JSON call (the endpoint's curl line is built from it when it runs)."""
        return json.dumps({"name": tool.name, "arguments": dict(arguments)})

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The path of the request and the names of its query parameters.

        >>> sorted(CurlLanguage.signature("curl -X GET 'https://h/data/2.5/weather?q=a&units=m'"))
        ['/data/2.5/weather', 'q', 'units']
        """
        url = _URL.search(action)
        if url is None or not action.lstrip().startswith("curl"):
            return super().signature(action)
        names = {url.group(1)}
        for pair in (url.group(2) or "").lstrip("?").split("&"):
            if pair:
                names.add(pair.split("=")[0])
        return frozenset(names)

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The first line that starts with ``curl`` (the original rule), else the whole text."""
        return first_curl_line(generation)


def _final(rest: RestBackend, exchange: Exchange, observation: str) -> Execution:
    """The execution that ends an episode on ``exchange`` (its answer is what is scored)."""
    return Execution(
        observation,
        exchange.error,
        finished=True,
        attempt=rest.exchange_attempt(exchange),
        info={"request": exchange.line},
    )


def _rest_backend(backend: Backend) -> RestBackend:
    if not (hasattr(backend, "request") and hasattr(backend, "exchanges")):
        raise TypeError(f"the curl language runs on a RestBackend; got {type(backend).__name__}")
    return cast("RestBackend", backend)

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
from typing import TYPE_CHECKING, Any, ClassVar, cast
from urllib.parse import unquote, urlsplit

from toolgym.simulators.http import Request, Response
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.curl import first_curl_line, parse_curl
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.grammar import ActionGrammar, json_object, json_value, literal, one_of, sequence
from toolgym.tools.json_calls import ToolCall, looks_like_json_call, parse_json_call
from toolgym.tools.language import ActionLanguage, AgentHints, Execution
from toolgym.tools.tool import Tool, ToolSet

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

    refusal_info: ClassVar[Mapping[str, Any]] = {"request": ""}  # nothing was requested

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

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """One curl line per endpoint, or ``finish`` between requests in call mode.

        A line has the endpoint's method and URL, its query in the documented order (enum values,
        numbers or plain text) and its JSON body.
        """
        routed = [t for t in tools if t.route is not None]
        if not routed:
            return None
        line = one_of([curl_line(t) for t in routed])
        return ActionGrammar(line if mode == "program" else one_of([line, '"finish"']))

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

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The endpoints the action's requests address: one per curl line, or the JSON call's.

        A request is matched to the endpoints by its method, host and path. Where several share
        them (a resource found by city, ZIP code or coordinates; an up and a down vote), the
        first whose required parameters the request gives and whose fixed body fields it sends
        is taken. A line that does not parse, or that no endpoint takes, counts as no call.

        >>> from toolgym.tools.rest import RestRoute
        >>> def vote(name, value):
        ...     route = RestRoute("POST", "https://h", "/v", fixed_body={"v": value})
        ...     return Tool(name, "", route=route)
        >>> votes = ToolSet([vote("vote_up", 1), vote("vote_down", -1)])
        >>> CurlLanguage().api_calls("curl -X POST 'https://h/v' --data '{\\"v\\": -1}'", votes)
        ['vote_down']
        """
        known = {tool.name: tool.qualname for tool in tools}
        if looks_like_json_call(action):
            try:
                name = parse_json_call(action, self.budgets).name
            except ToolCallError:
                return []
            return [known[name]] if name in known else []
        found = []
        for line in action.splitlines():
            if not line.strip().startswith("curl"):
                continue
            try:
                request = parse_curl(line).to_request()
            except ToolCallError:
                continue
            tool = endpoint_of_request(request, tools)
            if tool is not None:
                found.append(tool.qualname)
        return found

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """The action's requests as calls of their endpoints (``None`` if a line is not one).

        A curl line becomes a call of the endpoint it addresses (as :meth:`api_calls` matches
        it), with the endpoint's parameters read from its path, query and JSON body, each as
        its parameter's type; a JSON call is itself.

        >>> from toolgym.tools.rest import RestRoute
        >>> from toolgym.tools.tool import Param
        >>> route = RestRoute("GET", "https://h", "/v1/images/{image_id}")
        >>> get = Tool("get_image", "", (Param("image_id", "string", ""), Param("size", "int", "", required=False)), route=route)
        >>> CurlLanguage().tool_calls("curl -X GET 'https://h/v1/images/abc?size=2'", ToolSet([get]))
        [ToolCall(name='get_image', arguments={'image_id': 'abc', 'size': 2})]
        """
        if looks_like_json_call(action):
            try:
                call = parse_json_call(action, self.budgets)
            except ToolCallError:
                return None
            return [call] if tools.get(call.name) is not None else None
        calls = []
        for line in action.splitlines():
            if not line.strip():
                continue
            try:
                request = parse_curl(line).to_request()
            except ToolCallError:
                return None
            tool = endpoint_of_request(request, tools)
            if tool is None:
                return None
            calls.append(ToolCall(tool.name, request_arguments(tool, request)))
        return calls or None

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The first line that starts with ``curl`` (the original rule), else the whole text."""
        return first_curl_line(generation)


def endpoint_of_request(request: Request, tools: ToolSet) -> Tool | None:
    """The endpoint of ``tools`` that ``request`` calls (see :meth:`CurlLanguage.api_calls`)."""
    candidates = [
        tool
        for tool in tools
        if tool.route is not None
        and tool.route.matches(request)
        and urlsplit(tool.route.base_url).hostname == request.host
    ]
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    try:
        body = request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    fields = body if isinstance(body, dict) else {}
    sent = set(request.params) | set(fields)

    def fits(tool: Tool) -> bool:
        required = {
            p.name for p in tool.params if p.required and "{" + p.name + "}" not in tool.route.path
        }
        fixed = tool.route.fixed_body or {}
        return required <= sent and all(fields.get(k) == v for k, v in fixed.items())

    return next((tool for tool in candidates if fits(tool)), candidates[0])


def request_arguments(tool: Tool, request: Request) -> dict[str, Any]:
    """The arguments of ``tool`` that ``request`` sends (path, query, body), typed."""
    route = tool.route
    pattern = re.escape(route.path)
    groups = {}
    for i, param in enumerate(tool.params):
        placeholder = re.escape("{" + param.name + "}")
        if placeholder in pattern:
            pattern = pattern.replace(placeholder, f"(?P<p{i}>[^/]+)", 1)
            groups[param.name] = f"p{i}"
    sent: dict[str, Any] = {}
    match = re.fullmatch(pattern, re.sub(r"/{2,}", "/", request.path))
    query = {k.strip().lower(): v for k, v in request.params.items()}  # as services read them
    for param in tool.params:
        if param.name in groups:
            if match is not None:
                sent[param.name] = _typed(
                    param.annotation, unquote(match.group(groups[param.name]))
                )
        elif param.name.lower() in query and param.name not in route.body:
            sent[param.name] = _typed(param.annotation, query[param.name.lower()])
    try:
        body = request.json() if route.body else None
    except (ValueError, UnicodeDecodeError):
        body = None
    if isinstance(body, dict):
        fixed = route.fixed_body or {}
        for name in route.body:
            if name in body and name not in fixed:
                sent[name] = body[name]
    return sent


def _typed(annotation: Any, text: str) -> Any:
    """A query or path value as its parameter's type, when it reads as one."""
    try:
        if annotation is bool:
            return {"true": True, "false": False}.get(text.lower(), text)
        if annotation is int:
            return int(text)
        if annotation is float:
            return float(text)
    except ValueError:
        return text
    return text


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


QUERY_TEXT = "[^&'#\\n ]{1,100}"
"""A query or path value that is not an enum or a number: no separators, quotes or spaces."""


def curl_line(tool: Tool) -> str:
    """The grammar of a curl line of ``tool`` (its route): ``to_curl``'s layout."""
    route = tool.route
    assert route is not None
    path = [literal(route.base_url)]
    rest = route.path
    for match in re.finditer(r"\{(\w+)\}", route.path):
        head, rest = rest.split(match.group(0), 1)
        param = tool.param(match.group(1))
        value = QUERY_TEXT if param is None else _query_value(param.annotation, param.enum)
        path += [literal(head), value]
    path.append(literal(rest))
    members = [
        (f"{literal(p.name + '=')} {_query_value(p.annotation, p.enum)}", p.required)
        for p in tool.params
        if p.name not in route.body and "{" + p.name + "}" not in route.path
    ]
    if route.fixed_query:
        position = (
            len(members) if route.fixed_query_position is None else route.fixed_query_position
        )
        members.insert(min(position, len(members)), (literal(route.fixed_query), True))
    query = ""
    if members:
        query = f'"?" {literal(route.query_prefix)} {sequence(members, literal("&"))}'
        if not any(required for _, required in members):
            query = f"({query})?"
    parts = [literal(f"curl -X {route.method} '"), *path, query, '"\'"']
    body = [
        (name, json_value(p.annotation, p.enum) if p else "jvalue", bool(p and p.required))
        for name in route.body
        for p in [tool.param(name)]
    ]
    body += [(k, literal(json.dumps(v)), True) for k, v in (route.fixed_body or {}).items()]
    if body:
        parts.append(f'" --data \'" {json_object(body)} "\'"')
    return " ".join(part for part in parts if part)


def _query_value(annotation: Any, enum: Any) -> str:
    if enum:
        return one_of([literal(str(v)) for v in enum])
    name = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return {"int": "int", "integer": "int", "float": "num", "number": "num"}.get(
        name.lower(), QUERY_TEXT
    )

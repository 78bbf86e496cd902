"""REST endpoints as agent-facing tools: docs, schemas, JSON calls, and the toolkit base class.

An :class:`Endpoint` is the single source of one documented endpoint: its ToolBench text doc (a
``# description`` line, the curl template, optionally a ``Parameters:`` block), its OpenAI function
schema, and how a JSON call with arguments becomes a curl line. A :class:`RestToolkit` groups a
service's endpoints with the rules the original benchmark applies before and after a request
(placeholder substitution, default parameters, how a response becomes the dict that is scored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import quote

from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.schema import Param


@dataclass(frozen=True)
class Endpoint:
    """A documented endpoint.

    Attributes:
        name: the tool name (``current_weather_city``).
        description: one line for the model.
        method: HTTP method.
        base_url: scheme and host (``https://api.openweathermap.org``).
        path: the path; ``{name}`` segments are path parameters (``/v1/favourites/{favourite_id}``).
        doc_curl: the curl template line shown in the text doc.
        params: query (or path) parameters, in URL order.
        body: JSON body fields (POST).
        fixed_query: query text always appended (``appid={API_KEY}``).
        parameters_block: whether the text doc lists the parameters.
        query_prefix: text placed right after ``?`` (the Cat API labels write ``?&``).
    """

    name: str
    description: str
    method: str
    base_url: str
    path: str
    doc_curl: str
    params: tuple[Param, ...] = ()
    body: tuple[Param, ...] = ()
    fixed_query: str = ""
    parameters_block: bool = True
    query_prefix: str = ""
    fixed_body: Mapping[str, Any] | None = None

    @property
    def path_regex(self) -> re.Pattern[str]:
        """A regex matching concrete paths of this endpoint."""
        pattern = re.sub(r"\\\{\w+\\\}", r"[^/]+", re.escape(self.path))
        return re.compile(f"^{pattern}$")

    def matches(self, request: Request) -> bool:
        """Whether ``request`` addresses this endpoint (method and path)."""
        return request.method == self.method and bool(self.path_regex.match(request.path))

    def toolbench_doc(self) -> str:
        """The ToolBench-style text doc."""
        lines = [f"# {self.description}", self.doc_curl]
        if self.parameters_block and (self.params or self.fixed_query):
            lines += ["", "Parameters:"]
            for p in self.params:
                lines.append(
                    f"{p.name}: ({'required' if p.required else 'optional'}) {p.description}"
                )
            if "appid" in self.fixed_query:
                lines.append("appid: (required) Your unique API key.")
        return "\n".join(lines) + "\n"

    def openai_schema(self) -> dict[str, Any]:
        """OpenAI function-calling schema of the endpoint."""
        fields = (*self.params, *self.body)
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {p.name: p.schema() for p in fields},
                    "required": [p.name for p in fields if p.required],
                    "additionalProperties": False,
                },
            },
        }

    def to_curl(self, arguments: Mapping[str, Any]) -> str:
        """The curl line of a JSON call with ``arguments`` (raises wrong_arguments if invalid)."""
        known = {p.name for p in (*self.params, *self.body)}
        unknown = sorted(set(arguments) - known)
        if unknown:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{self.name} has no parameter(s) {', '.join(unknown)}; expected "
                f"{', '.join(sorted(known)) or 'none'}",
            )
        missing = [
            p.name for p in (*self.params, *self.body) if p.required and p.name not in arguments
        ]
        if missing:
            raise ToolCallError(
                WRONG_ARGUMENTS, f"{self.name} is missing required argument(s) {', '.join(missing)}"
            )
        path = self.path
        query = []
        for p in self.params:
            if p.name not in arguments:
                continue
            text = _query_value(arguments[p.name])
            if "{" + p.name + "}" in path:
                path = path.replace("{" + p.name + "}", quote(text, safe="-_.~"))
            else:
                query.append(f"{p.name}={quote(text, safe=',+-_.~')}")
        if self.fixed_query:
            query.insert(_fixed_position(self), self.fixed_query)
        url = self.base_url + path
        if query:
            url += "?" + self.query_prefix + "&".join(query)
        line = f"curl -X {self.method} '{url}'"
        if self.body:
            payload = {p.name: arguments[p.name] for p in self.body if p.name in arguments}
            payload.update(self.fixed_body or {})
            line += (
                " --data '" + json.dumps(payload, separators=(",", ":")).replace("'", "%27") + "'"
            )
        return line


def _fixed_position(endpoint: Endpoint) -> int:
    # The original templates put appid right after the location parameters.
    location = {"lat", "lon", "q", "zip", "limit"}
    return sum(1 for p in endpoint.params if p.name in location)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(_query_value(v) for v in value)
    return str(value)


class RestToolkit:
    """A REST service as a tool family: endpoints, the app, and the original's request rules.

    Subclasses set ``name``, ``app_class`` and ``endpoints`` and may override :meth:`prepare`,
    :meth:`headers` and :meth:`outcome`.

    Args:
        seed: seed of the simulated service.
        api_key: the key substituted for ``{API_KEY}`` (and required by the service).
    """

    name: ClassVar[str] = ""
    app_class: ClassVar[type[HttpApp]]
    endpoints: ClassVar[tuple[Endpoint, ...]] = ()
    terminal_functions: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, seed: int = 0, api_key: str = "toolgym-key") -> None:
        self.seed = seed
        self.api_key = api_key
        self.hosts = self.app_class.hosts
        self.functions = self.endpoints
        self.api_doc_list = [e.toolbench_doc() for e in self.endpoints]
        self.api_docs = "\n".join(self.api_doc_list)
        self.tools = [e.openai_schema() for e in self.endpoints]
        self._by_name = {e.name: e for e in self.endpoints}

    def new_app(self) -> HttpApp:
        """A fresh service in its initial state."""
        return self.app_class(seed=self.seed, api_key=self.api_key)  # type: ignore[call-arg]

    def endpoint(self, name: str) -> Endpoint:
        """The endpoint called ``name``; wrong_api if there is none."""
        try:
            return self._by_name[name]
        except KeyError:
            raise ToolCallError(
                WRONG_API, f"unknown endpoint {name!r}; available: {', '.join(self._by_name)}"
            ) from None

    def endpoint_of(self, request: Request) -> Endpoint | None:
        """The documented endpoint a request addresses, if any."""
        return next((e for e in self.endpoints if e.matches(request)), None)

    def start_episode(self, app: HttpApp, rng: Any) -> None:
        """Set the per-episode part of a service's state (default: nothing)."""

    def state_check(self, app: HttpApp, gold_line: str) -> bool | None:
        """A state-based success check for tasks scored by text (default: none)."""
        return None

    def prepare(self, line: str) -> str:
        """Turn the agent's curl line into the line that is run (default: substitute the key)."""
        return line.replace("{API_KEY}", self.api_key)

    def headers(self) -> dict[str, str]:
        """Headers the evaluator adds to every request (default: none)."""
        return {}

    def outcome(self, request: Request, response: Response) -> dict[Any, Any]:
        """The dict that is scored, or a ``ToolCallError`` if the response counts as a crash."""
        raise NotImplementedError

    @staticmethod
    def parse_json(response: Response) -> Any:
        """The response body as JSON, or non_executable (e.g. an XML body)."""
        try:
            return response.json()
        except ValueError:
            kind = response.headers.get("Content-Type", "unknown").split(";")[0]
            raise ToolCallError(
                NON_EXECUTABLE,
                f"the response (HTTP {response.status}, {kind}) is not JSON",
            ) from None

    @staticmethod
    def as_index_dict(items: list[Any]) -> dict[int, Any]:
        """A JSON list as ``{0: item0, 1: item1, ...}`` (how the original scores lists)."""
        return dict(enumerate(items))

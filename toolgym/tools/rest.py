"""REST endpoints as tools: where an endpoint lives, its text doc, and JSON calls as curl lines.

An endpoint is a :class:`~toolgym.tools.tool.Tool` whose ``route`` is a :class:`RestRoute`: the
method, the URL and which parameters go in the path, the query or the JSON body. The tool is the
single source of the endpoint's ToolBench text doc (a ``# description`` line, the curl template,
optionally a ``Parameters:`` block), its OpenAI function schema, and of the curl line a JSON call
becomes, so that both ways of calling it run through the same request rules.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from toolgym.simulators.http import Request
from toolgym.tools.errors import WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.tool import Param, Tool

_SLASHES = re.compile(r"/{2,}")


@dataclass(frozen=True)
class RestRoute:
    """Where an endpoint is reached.

    Attributes:
        method: the HTTP method.
        base_url: scheme and host (``https://api.openweathermap.org``).
        path: the path; ``{name}`` segments are path parameters (``/v1/favourites/{image_id}``).
        body: names of the parameters sent as the JSON body; the others go in the path or query.
        fixed_query: query text always sent (``appid={API_KEY}``).
        fixed_query_position: how many query parameters come before ``fixed_query`` (default:
            all of them).
        query_prefix: text placed right after ``?`` (the Cat API labels write ``?&``).
        fixed_body: JSON fields always sent in the body (``{"value": 1}`` for an up-vote).
    """

    method: str
    base_url: str
    path: str
    body: tuple[str, ...] = ()
    fixed_query: str = ""
    fixed_query_position: int | None = None
    query_prefix: str = ""
    fixed_body: Mapping[str, Any] | None = None

    @functools.cached_property
    def path_regex(self) -> re.Pattern[str]:
        """A regex matching concrete paths of this endpoint."""
        pattern = re.sub(r"\\\{\w+\\\}", r"[^/]+", re.escape(self.path))
        return re.compile(f"^{pattern}$")

    def matches(self, request: Request) -> bool:
        """Whether ``request`` addresses this endpoint (method and path; ``//`` reads as ``/``)."""
        path = _SLASHES.sub("/", request.path)
        return request.method == self.method and bool(self.path_regex.match(path))

    def to_curl(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """The curl line of a call of ``tool`` with ``arguments``.

        Raises:
            ToolCallError: ``wrong_arguments`` for unknown or missing arguments.
        """
        known = {p.name for p in tool.params}
        unknown = sorted(set(arguments) - known)
        if unknown:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{tool.name} has no parameter(s) {', '.join(unknown)}; expected "
                f"{', '.join(sorted(known)) or 'none'}",
            )
        missing = [p.name for p in tool.params if p.required and p.name not in arguments]
        if missing:
            raise ToolCallError(
                WRONG_ARGUMENTS, f"{tool.name} is missing required argument(s) {', '.join(missing)}"
            )
        path = self.path
        query = []
        for param in tool.params:
            if param.name in self.body or param.name not in arguments:
                continue
            text = _query_value(arguments[param.name])
            try:
                if "{" + param.name + "}" in path:
                    path = path.replace("{" + param.name + "}", quote(text, safe="-_.~"))
                else:
                    query.append(f"{param.name}={quote(text, safe=',+-_.~')}")
            except UnicodeEncodeError:
                raise ToolCallError(
                    WRONG_ARGUMENTS,
                    f"{tool.name}: {param.name} holds text that is not valid Unicode",
                ) from None
        if self.fixed_query:
            position = (
                len(query) if self.fixed_query_position is None else self.fixed_query_position
            )
            query.insert(position, self.fixed_query)
        url = self.base_url + path
        if query:
            url += "?" + self.query_prefix + "&".join(query)
        line = f"curl -X {self.method} '{url}'"
        if self.body:
            payload = {name: arguments[name] for name in self.body if name in arguments}
            payload.update(self.fixed_body or {})
            data = json.dumps(payload, separators=(",", ":")).replace("'", "%27")
            line += f" --data '{data}'"
        return line


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(_query_value(v) for v in value)
    return str(value)


def endpoint(
    name: str,
    description: str,
    route: RestRoute,
    doc_curl: str,
    params: Sequence[Param] = (),
    *,
    parameters_block: bool = True,
    extra_doc_lines: Sequence[str] = (),
) -> Tool:
    """An endpoint tool with its ToolBench text doc.

    Args:
        name: the tool name.
        description: one line for the model (the first line of the doc).
        route: where it is reached (its ``body`` names params sent as JSON).
        doc_curl: the curl template line the doc shows.
        params: every parameter, path and query ones first in URL order, then body ones.
        parameters_block: whether the doc lists the parameters under ``Parameters:``.
        extra_doc_lines: lines added to that list (``appid: (required) Your unique API key.``).
    """
    lines = [f"# {description}", doc_curl]
    query_params = [p for p in params if p.name not in route.body]
    if parameters_block and (query_params or extra_doc_lines):
        lines += ["", "Parameters:"]
        lines += [
            f"{p.name}: ({'required' if p.required else 'optional'}) {p.description}"
            for p in query_params
        ]
        lines += list(extra_doc_lines)
    for segment in re.findall(r"\{(\w+)\}", route.path):
        if all(p.name != segment for p in params):
            raise ValueError(f"endpoint {name!r}: the path parameter {segment!r} is not declared")
    return Tool(name, description, tuple(params), text_doc="\n".join(lines) + "\n", route=route)

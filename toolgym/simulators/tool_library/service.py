"""The tool library's service: calls answered from fixtures or synthesized, never from a network.

:class:`ToolService` answers ``call(tool, api, arguments)`` the way StableToolBench's virtual
server does, but deterministically and offline: it resolves the tool and the API by any of their names, checks the arguments as the API's Python stub would
(:func:`~.validation.validate_call`), answers from a fixture cache keyed by the call's canonical
JSON (:func:`~.canonical.canonical_key`) when one has the call, and otherwise synthesizes the
response from the API's template (:func:`~.synthesis.synthesize`). Every answer is a
:class:`Reply`, whose :meth:`Reply.envelope` is the server's ``{"error": ..., "response": ...}``.

:class:`ResponseCache` holds fixtures (canonical key -> envelope) and saves them as one JSON file.
:class:`VirtualApiApp` serves the StableToolBench server contract, ``POST /virtual``, over the
same service, for clients written against that server.
"""

from __future__ import annotations

import copy
import functools
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.simulators.tool_library.canonical import canonical_key
from toolgym.simulators.tool_library.entities import plant_entity_ids
from toolgym.simulators.tool_library.model import ApiDoc, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import (
    api_function_base,
    change_name,
    function_name,
    standardize,
    standardize_category,
    upstream_function_name,
)
from toolgym.simulators.tool_library.synthesis import synthesize_canonical
from toolgym.simulators.tool_library.validation import CallProblem, validate_call

__all__ = [
    "CHAT_WITH_USER",
    "REPLY_SOURCES",
    "Reply",
    "ResponseCache",
    "ToolService",
    "VirtualApiApp",
]

CHAT_WITH_USER = "chat_with_user"
"""The API name StableToolBench answers with ``"Chat with user."`` whatever the tool."""

REPLY_SOURCES = ("fixture", "synthesized", "invalid")
"""Where a :class:`Reply` came from (``invalid``: the call was refused, or had no such API)."""

NOT_FOUND = "API not working error..."
"""The start of the error of a call to a tool or API the library lacks (status code 6)."""

CACHE_FORMAT = "toolgym-response-cache"


@dataclass(frozen=True)
class Reply:
    """The answer to one call.

    Attributes:
        error: the error text (``""`` when the call worked).
        response: the response (an object, a list or a string; ``""`` with an error).
        problem: what was wrong with the arguments, when that is the error.
        source: one of :data:`REPLY_SOURCES`.
    """

    error: str
    response: Any
    problem: CallProblem | None = None
    source: str = "synthesized"

    def envelope(self) -> dict[str, Any]:
        """The server's reply: ``{"error": ..., "response": ...}``."""
        return {"error": self.error, "response": self.response}


def _envelope(reply: Any) -> dict[str, Any]:
    """A reply of any accepted form as an envelope (a bare response gets an empty error)."""
    if isinstance(reply, Reply):
        return reply.envelope()
    if isinstance(reply, Mapping) and set(reply) <= {"error", "response"} and reply:
        error = reply.get("error") or ""
        return {
            "error": error if isinstance(error, str) else str(error),
            "response": reply.get("response", ""),
        }
    return {"error": "", "response": reply}


class ResponseCache:
    """Fixtures: canonical call key -> envelope, saved as one JSON file.

    Args:
        entries: initial entries (canonical key -> reply, as :meth:`put` takes it).
    """

    def __init__(self, entries: Mapping[str, Any] | None = None) -> None:
        self.entries: dict[str, dict[str, Any]] = {
            str(k): _envelope(v) for k, v in (entries or {}).items()
        }

    @staticmethod
    def key(
        tool: str, api: str, arguments: Mapping[str, Any], api_doc: ApiDoc | None = None
    ) -> str:
        """The canonical key of a call (pass the API's document so its defaults count)."""
        return canonical_key(tool, api, arguments, api_doc)

    def put(
        self,
        tool: str,
        api: str,
        arguments: Mapping[str, Any],
        reply: Any,
        api_doc: ApiDoc | None = None,
    ) -> str:
        """Store a reply (a :class:`Reply`, an envelope or a bare response); returns its key.

        Args:
            tool: the tool's standardized name.
            api: the API's display name.
            arguments: the call's arguments, by the API's parameter names.
            reply: what the call answers.
            api_doc: the API's document, so that defaults and number forms do not matter.
        """
        key = self.key(tool, api, arguments, api_doc)
        self.entries[key] = _envelope(reply)
        return key

    def get(
        self, tool: str, api: str, arguments: Mapping[str, Any], api_doc: ApiDoc | None = None
    ) -> dict[str, Any] | None:
        """A copy of the stored envelope of a call, or ``None``."""
        found = self.entries.get(self.key(tool, api, arguments, api_doc))
        return None if found is None else copy.deepcopy(found)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: object) -> bool:
        return key in self.entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the cache as one JSON file (keys sorted, UTF-8), replacing it whole."""
        target = Path(path)
        payload = {"format": CACHE_FORMAT, "version": 1, "entries": self.entries}
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, indent=1)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(text + "\n", encoding="utf-8")
        os.replace(partial, target)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ResponseCache:
        """Read a file written by :meth:`save` (or a plain JSON object of key -> reply).

        Raises:
            ValueError: the file is not JSON, or not an object of entries.
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: expected a response cache (JSON); {e}") from None
        if isinstance(data, dict) and data.get("format") == CACHE_FORMAT:
            data = data.get("entries")
        if not isinstance(data, dict):
            raise ValueError(
                f"{path}: expected a JSON object of canonical key -> reply; "
                f"got {type(data).__name__}"
            )
        return cls(data)


class ToolService:
    """Answers calls to a library's APIs: fixtures first, else deterministic synthesis.

    Args:
        library: the tools.
        seed: the world's seed (synthesized responses depend on it).
        fixtures: stored replies by canonical call key (a :class:`ResponseCache`, or a mapping
            as :func:`~.cache_files.load_response_cache` returns).
        entities: whether synthesized list responses hold the tools' documented ids (see
            :mod:`~.entities`; for libraries loaded from real documents, whose example values
            name records that later calls ask for).
    """

    def __init__(
        self,
        library: ToolLibrary,
        *,
        seed: int = 0,
        fixtures: Mapping[str, Any] | ResponseCache | None = None,
        entities: bool = False,
    ) -> None:
        self.library = library
        self.seed = seed
        self.entities = entities
        if isinstance(fixtures, ResponseCache):
            fixtures = fixtures.entries
        self.fixtures: Mapping[str, Any] = fixtures if fixtures is not None else {}
        self._apis: dict[str, dict[str, ApiDoc]] = {}

    def find_tool(self, name: str) -> ToolDoc | None:
        """The tool called ``name`` (standardized or display name), or ``None``.

        A ``_for_<category>`` suffix is ignored.
        """
        found = self.library.get(name)
        if found is None and "_for_" in name:
            found = self.library.get(name.rsplit("_for_", 1)[0])
        return found

    def find_api(self, tool: ToolDoc, name: str) -> ApiDoc | None:
        """The API of ``tool`` called ``name``, or ``None``.

        ``name`` is the display name, or the function name (``change_name(standardize(name))``,
        toolgym's or ToolBench's, with or without ``_for_<tool>`` after it).
        """
        found = tool.api(name)
        if found is not None:
            return found
        names = self._apis.get(tool.standard_name)
        if names is None:
            names = {}
            for api in tool.apis:
                for alias in (
                    function_name(api.name, tool.standard_name),
                    upstream_function_name(api.name, tool.standard_name),
                    api_function_base(api.name),
                ):
                    names.setdefault(alias, api)
            self._apis[tool.standard_name] = names
        if name in names:
            return names[name]
        base = change_name(standardize(name))
        suffix = f"_for_{tool.standard_name}"
        if base.endswith(suffix):
            base = base[: -len(suffix)]
        return names.get(base)

    def call(
        self,
        tool: str,
        api: str,
        arguments: Mapping[str, Any],
        *,
        function_name: str | None = None,
        param_names: Mapping[str, str] | None = None,
    ) -> Reply:
        """Answer one call.

        Args:
            tool: the tool's standardized or display name.
            api: the API's display or function name.
            arguments: the arguments, by the caller's names.
            function_name: the function's name in error messages (default: the API's).
            param_names: caller's name -> the API's parameter name (see
                :func:`~.validation.validate_call`).

        Returns:
            The reply; never raises for a bad call.
        """
        if api == CHAT_WITH_USER:
            return Reply("", "Chat with user.", None, "fixture")
        tool_doc = self.find_tool(tool)
        if tool_doc is None:
            error = f"{NOT_FOUND} no tool called {tool!r} in the library"
            return Reply(error, "", None, "invalid")
        api_doc = self.find_api(tool_doc, api)
        if api_doc is None:
            known = ", ".join(repr(a.name) for a in tool_doc.apis[:10])
            error = f"{NOT_FOUND} tool {tool_doc.standard_name!r} has no API {api!r} (its APIs: {known})"
            return Reply(error, "", None, "invalid")
        check = validate_call(
            api_doc,
            arguments,
            function_name=function_name or api_function_base(api_doc.name),
            param_names=param_names,
        )
        if check.problem is not None:
            return Reply(check.problem.message, "", check.problem, "invalid")
        if self.fixtures:
            key = canonical_key(tool_doc.standard_name, api_doc.name, check.arguments, api_doc)
            stored = self.fixtures.get(key)
            if stored is not None:
                envelope = _envelope(stored)
                response = copy.deepcopy(envelope["response"])
                return Reply(envelope["error"], response, None, "fixture")
        response = synthesize_canonical(tool_doc, api_doc, check.arguments, self.seed)
        if self.entities:
            response = plant_entity_ids(tool_doc, response, check.arguments)
        return Reply("", response, None, "synthesized")


@functools.lru_cache(maxsize=4)
def _default_library(seed: int) -> ToolLibrary:
    from toolgym.simulators.tool_library.generator import generate_library

    return generate_library(seed)


class VirtualApiApp(HttpApp):
    """StableToolBench's virtual API server: ``POST /virtual`` over a :class:`ToolService`.

    The body is ``{category, tool_name, api_name, tool_input, strip, toolbench_key}``;
    ``tool_input`` is a JSON string (``""`` is ``{}``) or an object. Names are resolved as the
    upstream server does: the category standardized, the API name as ``change_name(standardize(
    name))`` without a trailing ``_for_<tool>``, the tool name without a ``_for_<category>``
    suffix. The answer is always HTTP 200 with the reply envelope (an unparsable ``tool_input``
    gives ``{"error": "Tool input parse error...\\n", "response": ""}``). ``GET /tools`` lists the
    tools with their API counts; other paths answer 404.

    Args:
        library: the tools (default: the generated library of ``seed``, built on first use).
        seed: the world's seed.
        api_key: when set, the ``toolbench_key`` a request must carry.
        fixtures: stored replies (see :class:`ToolService`).
    """

    name = "virtual_api"
    hosts = ()

    def __init__(
        self,
        library: ToolLibrary | None = None,
        seed: int = 0,
        api_key: str | None = None,
        fixtures: Mapping[str, Any] | ResponseCache | None = None,
    ) -> None:
        self.seed = seed
        self.api_key = api_key
        self._library = library
        self._fixtures = fixtures
        self._service: ToolService | None = None

    @property
    def service(self) -> ToolService:
        """The service (the default library is built on first use)."""
        if self._service is None:
            library = self._library if self._library is not None else _default_library(self.seed)
            self._service = ToolService(library, seed=self.seed, fixtures=self._fixtures)
        return self._service

    def handle(self, request: Request) -> Response:
        """Answer one request (never raises)."""
        path = request.path
        if request.method == "POST" and path == "/virtual":
            return Response.json_body(200, self.virtual(request))
        if request.method == "GET" and path == "/tools":
            tools = [
                {"tool_name": t.name, "standard_name": t.standard_name, "apis": len(t.apis)}
                for t in self.service.library
            ]
            return Response.json_body(200, {"count": len(tools), "tools": tools})
        message = f"no route for {request.method} {path}; expected POST /virtual or GET /tools"
        return Response.json_body(404, {"error": message, "response": ""})

    def virtual(self, request: Request) -> dict[str, Any]:
        """The reply envelope of a ``POST /virtual`` request."""
        try:
            body = request.json()
        except (ValueError, UnicodeDecodeError):
            return {"error": "Request body parse error: expected a JSON object.", "response": ""}
        if not isinstance(body, dict):
            return {"error": "Request body parse error: expected a JSON object.", "response": ""}
        if self.api_key is not None and body.get("toolbench_key") != self.api_key:
            return {"error": "Unauthorized error: the toolbench_key is not valid.", "response": ""}
        arguments = _tool_input(body.get("tool_input", ""))
        if arguments is None:
            return {"error": "Tool input parse error...\n", "response": ""}
        category = standardize_category(str(body.get("category") or ""))
        tool_name = str(body.get("tool_name") or "")
        api_name = change_name(standardize(str(body.get("api_name") or "")))
        if api_name == CHAT_WITH_USER:
            return {"error": "", "response": "Chat with user."}
        suffix = f"_for_{category}"
        if category and tool_name.endswith(suffix):
            tool_name = tool_name[: -len(suffix)]
        tool = self.service.find_tool(tool_name) or self.service.find_tool(standardize(tool_name))
        if tool is not None:
            api_suffix = f"_for_{tool.standard_name}"
            if api_name.endswith(api_suffix):
                api_name = api_name[: -len(api_suffix)]
            tool_name = tool.standard_name
        return self.service.call(tool_name, api_name, arguments).envelope()


def _tool_input(raw: Any) -> dict[str, Any] | None:
    """The arguments of a ``tool_input`` (a JSON string or an object), or ``None`` if unreadable."""
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    if not isinstance(raw, str):
        return None
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None

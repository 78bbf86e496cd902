"""The backend and toolkit of REST families: a simulated service and the requests made to it.

Every episode restores the service's initial state, and the family may set a per-episode part
(OpenWeather moves its simulated clock). A request runs under the rules the original benchmark's
evaluator applies: the toolkit substitutes the key and fills defaults (:meth:`RestToolkit.prepare`),
adds headers, and turns the response into the dict that is scored (:meth:`RestToolkit.outcome`),
or into a crash when the original counts it as one.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.curl import parse_curl, parse_curl_cached
from toolgym.tools.curl_language import (
    CurlLanguage,
    Exchange,
    endpoint_of_request,
    request_arguments,
)
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, ToolCallError
from toolgym.tools.faults import SERVICE_ERROR
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.language import ActionLanguage
from toolgym.tools.plain_copy import PlainSnapshot
from toolgym.tools.python_language import CodeRun, PythonLanguage, sandbox_error
from toolgym.tools.sandbox import HostRefusal, SandboxLimits, shared_sandbox
from toolgym.tools.tool import Tool, ToolSet
from toolgym.tools.toolkit import Toolkit

ACTION_LANGUAGES = ("curl", "python")
"""The languages a REST family's agent may write: curl lines, or ``requests`` programs."""

REQUESTS_ADAPTER = "toolgym.tools.sandbox.remote_http:adapter"
MAX_URL_CHARS = 8_192
MAX_KEPT_EXCHANGES = 16
"""The requests of a program an episode keeps (the last one is scored)."""
MAX_ANSWER_BYTES = 32_000_000
"""The most response bytes one program may receive."""
MAX_HEADERS = 64


class RestBackend(Backend):
    """An episode against a simulated REST service.

    Args:
        toolkit: the family's toolkit (the service and its request rules).
    """

    handles_faults = True

    def __init__(self, toolkit: RestToolkit) -> None:
        self.toolkit = toolkit
        self.app = toolkit.new_app()
        world = self.app.snapshot()  # restored at every reset, never changed
        self._world = PlainSnapshot.of(world) if self.app.plain_state else world
        self._setup_key: Hashable = None
        self.exchanges: list[Exchange] = []
        self.sent: list[Request] = []
        """Every request that reached the service this episode, in order (kept whole)."""
        self._answered = 0

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """The service's initial state, the task's setup, then the per-episode part (``rng``)."""
        self.app.restore(self._world)  # apps copy what they restore
        self._setup_key = None
        if setup is not None:
            self.toolkit.apply_setup(self.app, setup)
            self._setup_key = json.dumps(setup, sort_keys=True, default=repr)
        if rng is not None:
            self.toolkit.start_episode(self.app, rng)
        self.exchanges = []
        self.sent = []

    def start_key(self) -> Hashable | None:
        """The family's key of the starting state (see :meth:`RestToolkit.start_key`)."""
        key = self.toolkit.start_key(self.app)
        return None if key is None else (key, self._setup_key)

    def snapshot(self) -> dict[str, Any]:
        """The service's state and the requests made so far."""
        return {
            "app": self.app.snapshot(),
            "exchanges": list(self.exchanges),
            "sent": list(self.sent),
        }

    def restore(self, state: Any) -> None:
        """Restore a state returned by :meth:`snapshot`."""
        self.app.restore(state["app"])
        self.exchanges = list(state["exchanges"])
        self.sent = list(state.get("sent", ()))

    def request(self, line: str) -> Exchange:
        """Run one curl line under the original's rules; errors are kept, not raised."""
        toolkit = self.toolkit
        try:
            if not line.strip().startswith("curl"):
                raise ToolCallError(
                    NON_EXECUTABLE,
                    f"expected one curl command (or a JSON call); got {line.strip()[:60]!r}",
                )
            command = parse_curl_cached(toolkit.prepare(line), tuple(toolkit.hosts))
        except ToolCallError as e:
            return Exchange(line, None, None, None, e)
        return self._answer(line, command.to_request(toolkit.headers()))

    def _answer(self, line: str, request: Request) -> Exchange:
        """Send a prepared request through the faults, if any, and score its answer."""
        response = None
        self.sent.append(request)
        try:
            if self.faults is None:
                response = self.app.handle(request)
            else:
                response, fault = self.faults.around_request(request, self.app.handle)
                if fault is not None and fault.kind != "slow":
                    return self._faulty_exchange(line, request, response)
            outcome = self.toolkit.outcome(request, response)
        except ToolCallError as e:
            return Exchange(line, request, response, None, e)
        return Exchange(line, request, response, outcome, None)

    def _faulty_exchange(self, line: str, request: Request, response: Response) -> Exchange:
        """An answer an injected fault spoiled: whatever the family makes of it, a service error."""
        try:
            outcome = self.toolkit.outcome(request, response)
        except ToolCallError as e:
            return Exchange(line, request, response, None, ToolCallError(SERVICE_ERROR, e.message))
        return Exchange(line, request, response, outcome, None)

    def send(self, request: Request, line: str) -> Exchange:
        """Run a request a program made (through ``requests``) under the original's rules."""
        return self._answer(line, self.toolkit.prepare_request(request))

    def _host_request(self, payload: Any) -> dict[str, Any]:
        """Answer a sandboxed program's HTTP request (see :meth:`run_code`)."""
        if not isinstance(payload, dict):
            raise HostRefusal("a request is an object with method, url, headers and body")
        method, url = payload.get("method"), payload.get("url")
        headers, body = payload.get("headers") or {}, payload.get("body") or ""
        if not (isinstance(method, str) and 0 < len(method) <= 16 and method.isalpha()):
            raise HostRefusal(f"a request method is a word such as GET; got {method!r}")
        if not isinstance(url, str) or not url or len(url) > MAX_URL_CHARS:
            raise HostRefusal(f"a request URL is text of at most {MAX_URL_CHARS} chars")
        if (
            not isinstance(headers, dict)
            or len(headers) > MAX_HEADERS
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
            or not isinstance(body, str)
        ):
            raise HostRefusal("request headers are text, at most 64 of them, and the body is text")
        request = Request.build(method, url, headers, body)
        exchange = self.send(request, f"{request.method} {url}")
        self.exchanges.append(exchange)
        if len(self.exchanges) > MAX_KEPT_EXCHANGES:  # only the last one is scored
            del self.exchanges[: len(self.exchanges) - MAX_KEPT_EXCHANGES]
        reply = exchange.response
        if reply is None:
            raise HostRefusal(str(exchange.error or "the request was refused"))
        self._answered += len(reply.body)
        if self._answered > MAX_ANSWER_BYTES:
            raise HostRefusal(
                f"the answers to one program are limited to {MAX_ANSWER_BYTES:,} bytes"
            )
        return {"status": reply.status, "headers": dict(reply.headers), "body": reply.text}

    def run_code(self, code: str) -> CodeRun:
        """Run a ``requests`` program in the sandbox; its requests reach this episode's service.

        The requests it made are kept (the last one is scored) only if the program runs through.
        """
        before = len(self.exchanges)
        self._answered = 0
        box = shared_sandbox(REQUESTS_ADAPTER, self.toolkit.sandbox_limits)
        result = box.run(code, {"hosts": list(self.toolkit.hosts)}, handler=self._host_request)
        error = sandbox_error(result.error)
        if error is not None:
            del self.exchanges[min(before, len(self.exchanges)) :]
        return CodeRun(result.stdout, error)

    def calls_since(self, state: Any) -> list[ToolCall]:
        """The requests that reached the service since the snapshot ``state``, as endpoint calls.

        Each is read as the service reads it (:meth:`RestToolkit.read_request`): a request to
        no documented endpoint is named by its method and path. A program's requests all count,
        those of a program that failed afterwards included (the service kept what they did).
        """
        done = len(state["sent"]) if isinstance(state, Mapping) and "sent" in state else 0
        return [self.toolkit.read_request(r) for r in self.sent[done:]]

    def exchange_attempt(self, exchange: Exchange) -> Attempt:
        """The attempt whose answer is ``exchange``."""
        calls = () if exchange.request is None else (_endpoint_key(exchange.request),)
        return Attempt(exchange.outcome, calls, exchange.error, exchange.line, self)

    def attempt(self) -> Attempt:
        """The last request that reached the service (an error if there was none)."""
        if not self.exchanges:
            error = ToolCallError(NON_EXECUTABLE, "no request reached the service")
            return Attempt(None, error=error, backend=self)
        return self.exchange_attempt(self.exchanges[-1])

    def call(self, call: ToolCall) -> str:
        """Send a JSON tool call as the curl line it stands for, and show the answer."""
        exchange = self.request(self.toolkit.to_curl(call))
        if exchange.response is None:
            assert exchange.error is not None  # no response means the request was refused
            raise exchange.error
        self.exchanges.append(exchange)
        return f"HTTP {exchange.response.status}\n{exchange.response.text}"


def _endpoint_key(request: Request) -> str:
    return f"{request.method} {request.path}"


class RestToolkit(Toolkit):
    """A REST service as a tool family: endpoints, the service, and the original's request rules.

    Subclasses set ``name``, ``app_class`` and ``endpoints`` (tools with a
    :class:`~toolgym.tools.rest.RestRoute`) and implement :meth:`outcome`; they may override
    :meth:`prepare`, :meth:`headers`, :meth:`start_episode`, :meth:`start_key` and
    :meth:`apply_setup`.

    Args:
        world_seed: seed of the simulated service.
        max_body_chars: how much of a response body an observation shows.
        action_language: ``"curl"`` (the original's curl lines, and JSON calls in ``call``
            mode) or ``"python"`` (``requests`` programs, run in the sandbox against the
            simulated service; the last request is scored, as for curl).
        timeout_s: the wall-clock and CPU limit of one ``python`` program.
    """

    app_class: ClassVar[type[HttpApp]]
    endpoints: ClassVar[tuple[Tool, ...]] = ()
    argument_aliases: ClassVar[Mapping[str, str]] = {}
    """Other names the service reads a parameter under (lower-case), for
    :meth:`read_request`: ``{"breed_ids": "breeds"}``."""
    service_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """The values the service gives each endpoint's parameters left out, for
    :meth:`read_request`: ``{"search_images": {"size": "med"}}``."""
    api_key: ClassVar[str] = "toolgym-key"
    """The key substituted for ``{API_KEY}`` and accepted by the service."""

    def __init__(
        self,
        world_seed: int = 0,
        *,
        max_body_chars: int = 4000,
        action_language: str = "curl",
        timeout_s: float = 5.0,
    ) -> None:
        super().__init__(world_seed)
        if not isinstance(max_body_chars, int) or max_body_chars < 1:
            raise ValueError(f"max_body_chars must be at least 1; got {max_body_chars!r}")
        if action_language not in ACTION_LANGUAGES:
            raise ValueError(
                f"action_language must be one of {', '.join(map(repr, ACTION_LANGUAGES))}; "
                f"got {action_language!r}"
            )
        if not isinstance(timeout_s, int | float) or not 0 < timeout_s <= 60:
            raise ValueError(f"timeout_s must be a number of seconds in (0, 60]; got {timeout_s!r}")
        self.max_body_chars = max_body_chars
        self.action_language = action_language
        self.sandbox_limits = SandboxLimits(cpu_s=float(timeout_s), wall_s=float(timeout_s))
        self.hosts = self.app_class.hosts
        self.tools = ToolSet(self.endpoints)

    def new_app(self) -> HttpApp:
        """A fresh service in its initial state."""
        return self.app_class(seed=self.world_seed, api_key=self.api_key)  # type: ignore[call-arg]

    def new_backend(self) -> RestBackend:
        """A backend over a fresh service."""
        return RestBackend(self)

    def language(self) -> ActionLanguage:
        """Curl lines (and JSON calls), or ``requests`` programs (see ``action_language``)."""
        curl = CurlLanguage(self.max_body_chars)
        if self.action_language == "python":
            return PythonLanguage(curl, curl_to_requests, self.max_body_chars)
        return curl

    def endpoint(self, name: str) -> Tool:
        """The endpoint called ``name``; wrong_api if there is none."""
        tool = self.tools.get(name)
        if tool is None:
            raise ToolCallError(
                WRONG_API, f"unknown endpoint {name!r}; available: {', '.join(self.tools.names)}"
            )
        return tool

    def endpoint_of(self, request: Request) -> Tool | None:
        """The documented endpoint a request addresses, if any."""
        return next((t for t in self.tools if t.route.matches(request)), None)

    def read_request(self, request: Request) -> ToolCall:
        """A request as the call the service runs: its endpoint and every argument it sends.

        The documented parameters come typed (path, query and body, query names in any case, as
        the service reads them); any other query parameter or body field is kept too, its name
        lower-cased (a service may read it: the Cat API takes ``breed_ids`` for ``breeds``), and
        a parameter left out has the value the service gives it (:attr:`service_defaults`).
        """
        tool = endpoint_of_request(request, self.tools)
        fields: dict[str, Any] = {k.strip().lower(): v for k, v in request.query if k.strip()}
        try:
            body = request.json() if request.body else None
        except (ValueError, UnicodeDecodeError):
            body = None
        if isinstance(body, dict):
            fields.update({str(k).strip().lower(): v for k, v in body.items()})
        for alias, name in self.argument_aliases.items():
            if alias in fields:
                fields.setdefault(name, fields[alias])
        if tool is None:
            return ToolCall(_endpoint_key(request), fields)
        defaults = self.service_defaults.get(tool.name, {})
        return ToolCall(tool.name, {**defaults, **fields, **request_arguments(tool, request)})

    def to_curl(self, call: ToolCall) -> str:
        """The curl line of a JSON call (raises wrong_api or wrong_arguments)."""
        tool = self.endpoint(call.name)
        return str(tool.route.to_curl(tool, call.arguments))

    def start_episode(self, app: HttpApp, rng: np.random.Generator) -> None:
        """Set the per-episode part of the service's state (default: nothing)."""

    def start_key(self, app: HttpApp) -> Hashable | None:
        """A key of the episode's starting state for the gold cache (default: it varies).

        The backend adds the task's setup to it.
        """
        return None

    def apply_setup(self, app: HttpApp, setup: Mapping[str, Any]) -> None:
        """Put a task's own starting state (its ``setup``) into the fresh service.

        Raises:
            TaskFileError: the family's tasks take no setup (the default), or this one is invalid.
        """
        raise TaskFileError(
            f"{self.app_class.name} tasks start from the world's state and take no 'setup'; "
            f"got {json.dumps(setup, default=repr)[:200]}"
        )

    def prepare(self, line: str) -> str:
        """Turn the agent's curl line into the line that is run (default: substitute the key)."""
        return line.replace("{API_KEY}", self.api_key)

    def prepare_request(self, request: Request) -> Request:
        """The request of a ``requests`` program as it is run.

        The key is substituted (also where ``requests`` quoted its braces), and the evaluator's
        headers are added where the program did not set them.
        """
        url = request.url.replace("{API_KEY}", self.api_key)
        url = url.replace("%7BAPI_KEY%7D", self.api_key)
        headers = dict(request.headers)
        for key, value in self.headers().items():
            headers.setdefault(key.lower(), value)
        return Request.build(request.method, url, headers, request.body)

    def headers(self) -> dict[str, str]:
        """Headers the evaluator adds to every request (default: none)."""
        return {}

    @abstractmethod
    def outcome(self, request: Request, response: Response) -> dict[Any, Any]:
        """The dict that is scored; raises ``ToolCallError`` if the response counts as a crash."""

    def sample_requests(self, n: int) -> list[tuple[str, dict[str, str]]]:
        """``n`` distinct valid GET requests (path with query, headers), for load benchmarks."""
        raise NotImplementedError(f"{type(self).__name__} has no sample requests")

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


def curl_to_requests(line: str) -> str:
    """The ``requests`` program that sends the request of a curl line and shows the answer.

    >>> print(curl_to_requests("curl -X GET 'https://h.test/v1/a?x=1'"))
    import requests
    response = requests.request('GET', 'https://h.test/v1/a?x=1')
    print(response.status_code)
    print(response.text)
    """
    command = parse_curl(line)
    args = [repr(command.method), repr(command.url)]
    if command.headers:
        args.append(f"headers={command.headers!r}")
    if command.body:
        args.append(f"data={command.body!r}")
    return (
        "import requests\n"
        f"response = requests.request({', '.join(args)})\n"
        "print(response.status_code)\n"
        "print(response.text)"
    )

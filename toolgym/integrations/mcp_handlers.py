"""The MCP server's request handlers: which episode a request plays, and its tools and results.

:class:`EpisodeHandlers` answers ``tools/list`` and ``tools/call`` for the server that
:mod:`toolgym.integrations.mcp_server` builds, over a
:class:`~toolgym.integrations.sessions.SessionPool`. The MCP SDK is imported inside the methods,
so this module imports without it.

Which episode a request plays (its key in the pool), in this order:

1. an episode handle in the request's ``_meta`` under :data:`EPISODE_META_KEY` (what ``reset``
   returned to a request that had no session); this works on every transport and protocol
   version, stateless requests included;
2. the streamable HTTP session (the ``mcp-session-id`` header) of a stateful server: one episode
   per MCP session, reclaimed when the session ends or idles;
3. the one client of a stdio server (the process is the session);
4. none: a stateless request (the 2026-07-28 protocol over HTTP, or a stateless HTTP server).
   ``reset`` then opens a new episode and returns its handle; other tools answer
   ``reset_needed``.

An episode starts with ``reset`` (the control tool, :data:`RESET_TOOL`): nothing starts by
itself, because the task's tools and the user's request come with the task. Before it, the
session's tool list holds ``reset`` alone and a call of another tool is an error result
(``reset_needed``). After it, the list is the task's tools (their OpenAI schemas' parameters as
input schemas) and ``reset``; a client is told of the change with ``tools/list_changed`` where
the protocol lets the server send it.

Every failure a client causes comes back as a ``CallToolResult`` with ``is_error=True``, its
text ``Error (<category>): <message>`` and its structured content ``{"error": {"category",
"message"}, ...}``; the call that ends an episode carries the reward and metrics, in its
structured content and in its text.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import gymnasium as gym

from toolgym.errors import UserInputError
from toolgym.integrations.episode import CallResult, EpisodeStart, ToolEpisode, flat_json
from toolgym.integrations.sessions import (
    SessionError,
    SessionLimitError,
    SessionPool,
    UnknownSessionError,
)
from toolgym.tools.errors import CATEGORIES, WRONG_ARGUMENTS, register_category

if TYPE_CHECKING:
    import mcp_types
    from mcp.server.context import ServerRequestContext
    from mcp.server.subscriptions import InMemorySubscriptionBus

T = TypeVar("T")

logger = logging.getLogger(__name__)


def _category(name: str, description: str) -> str:
    """``name`` as a registered error category (another server may have registered it)."""
    return name if name in CATEGORIES else register_category(name, description)


RESET_NEEDED = _category(
    "reset_needed",
    "a tool call before an episode started in this session (or after it was reclaimed for "
    "idling); the client calls reset first",
)
UNKNOWN_EPISODE = _category(
    "unknown_episode",
    "an episode handle that names no open episode (never opened, closed, or reclaimed after "
    "idling); the client calls reset without it to open a new one",
)
SESSION_LIMIT = _category(
    "session_limit",
    "the server holds as many episodes as it may (its max_sessions); the client retries later",
)

EPISODE_META_KEY = "toolgym/episode"
"""The ``_meta`` key of a request that names its episode by the handle ``reset`` returned."""

RESET_TOOL = "reset"
"""The control tool that starts an episode (renamed ``reset_episode`` where a task has one)."""

HANDLE_PREFIX = "e-"
"""What an episode handle starts with (HTTP sessions' keys start with ``s-``)."""

SINGLE_CLIENT_KEY = "local"
"""The pool key of the one episode of a single-client (stdio) server."""

MAX_ARGUMENT_BYTES = 64 * 1024
"""The most JSON bytes of one tool call's arguments; a longer call is refused."""


def reset_schema(split: str | None) -> dict[str, Any]:
    """The input schema of the ``reset`` tool."""
    where = f"the {split} split" if split else "the server's split"
    return {
        "type": "object",
        "properties": {
            "seed": {
                "type": "integer",
                "minimum": 0,
                "description": "the episode's seed; without task_id it also draws the task",
            },
            "task_id": {
                "type": "string",
                "description": f"the task to play: one of the ids of {where} (for example the "
                "first one); without it the seed draws a task",
            },
        },
        "additionalProperties": False,
    }


def _jsonable(value: Any) -> Any:
    """``value`` as plain JSON values (anything else as its text)."""
    return json.loads(json.dumps(value, default=str))


def _started(episode: ToolEpisode) -> bool:
    return episode.state()["task_id"] is not None


class EpisodeHandlers:
    """The ``tools/list`` and ``tools/call`` handlers of one env's MCP server.

    Args:
        pool: the episodes, one per session (see the module docstring for the keys).
        single_client: the server has one client (stdio): requests without a handle play one
            episode.
        split: the split the env serves (for the ``reset`` tool's description).
        bus: where a single-client server publishes ``tools/list_changed`` for 2026-07-28
            clients (their ``subscriptions/listen`` streams).
        max_handles: how many episodes opened by handle (by requests without a session) may
            be open at once (``None``: as many as the pool holds); a server with stateful
            sessions sizes its pool for both, so stateless resets cannot fill it.
    """

    def __init__(
        self,
        pool: SessionPool,
        *,
        single_client: bool = False,
        split: str | None = None,
        bus: InMemorySubscriptionBus | None = None,
        max_handles: int | None = None,
    ) -> None:
        self.pool = pool
        self.max_handles = max_handles
        self.single_client = single_client
        self.bus = bus
        self.reset_tool = self._reset_name()
        self._reset_schema = reset_schema(split)

    def _reset_name(self) -> str:
        """:data:`RESET_TOOL`, or a longer name where the env has a tool of that name."""
        session_id, probe = self.pool.open()
        try:
            names = {s["function"]["name"] for s in probe.tool_schemas()}
        finally:
            self.pool.close(session_id)
        name = RESET_TOOL
        while name in names:
            name = f"{name}_episode"
        return name

    # -- which episode -------------------------------------------------------------------------

    def route(self, ctx: ServerRequestContext[Any, Any], meta: Any) -> str | None:
        """The pool key of the episode this request plays, or ``None`` (a stateless request).

        Raises:
            SessionError: the request names a handle that is not one.
        """
        handle = meta.get(EPISODE_META_KEY) if isinstance(meta, dict) else None
        if handle is not None:
            if not isinstance(handle, str) or not handle.startswith(HANDLE_PREFIX):
                raise SessionError(
                    f"_meta[{EPISODE_META_KEY!r}] is the handle reset returned "
                    f"({HANDLE_PREFIX}...); got {handle!r:.60}"
                )
            return handle
        headers = getattr(ctx.request, "headers", None)
        session_id = headers.get("mcp-session-id") if headers is not None else None
        if session_id:
            return f"s-{session_id}"
        return SINGLE_CLIENT_KEY if self.single_client else None

    async def _run(self, work: Callable[[], T], *, makes_envs: bool = False) -> T:
        """``work()``: on the event loop, or in a worker thread.

        The one client of a stdio server waits for its own step either way, so there all work
        runs on the loop. With many clients, the calls of an env that never blocks
        (:attr:`SessionPool.steps_inline`: quick, in-process) run on the loop too, without a
        thread hand-off each way (one session's call 0.9 ms instead of 1.3; 128 sessions at once
        1,055 calls/s instead of 826, in ``scripts/bench_mcp.py``). Work that may make an env
        (``makes_envs``: a ``reset`` that opens a session, 30 to 60 ms for some families once
        the spare envs run out) and every call of an env that may block (a sandboxed program, a
        model user) run in a worker thread, so that no client waits on another's.
        """
        if self.single_client or (self.pool.steps_inline and not makes_envs):
            return work()
        import anyio.to_thread

        return await anyio.to_thread.run_sync(work)

    # -- tools/list ----------------------------------------------------------------------------

    async def list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        """The episode's tools and ``reset`` (``reset`` alone before an episode started)."""
        import mcp_types as types

        schemas: list[dict[str, Any]] = []
        try:
            key = self.route(ctx, params.meta if params is not None else None)
        except SessionError:
            key = None
        if key is not None and key in self.pool:
            try:
                schemas = await self._run(
                    lambda: self.pool.run(key, lambda ep: ep.tool_schemas() if _started(ep) else [])
                )
            except UnknownSessionError:
                schemas = []
        tools = [
            types.Tool(
                name=s["function"]["name"],
                description=s["function"].get("description") or "",
                input_schema={"type": "object", **(s["function"].get("parameters") or {})},
            )
            for s in schemas
        ]
        tools.append(
            types.Tool(
                name=self.reset_tool,
                description=f"Start a new episode of {self.pool.env_id}: returns the user's "
                "request. Then call the task's tools; the call that ends the episode returns its "
                "reward and metrics.",
                input_schema=self._reset_schema,
            )
        )
        return types.ListToolsResult(tools=tools, ttl_ms=0, cache_scope="private")

    # -- tools/call ----------------------------------------------------------------------------

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: mcp_types.CallToolRequestParams
    ) -> mcp_types.CallToolResult:
        """Play one tool call (or ``reset``) in the request's episode."""
        try:
            key = self.route(ctx, params.meta)
        except SessionError as e:
            return error_result(UNKNOWN_EPISODE, str(e))
        arguments = params.arguments if params.arguments is not None else {}
        size = len(json.dumps(arguments, default=str))
        if size > MAX_ARGUMENT_BYTES:
            return error_result(
                WRONG_ARGUMENTS,
                f"a call's arguments are at most {MAX_ARGUMENT_BYTES} bytes of JSON; got {size}",
            )
        if params.name == self.reset_tool:
            return await self._reset(ctx, key, arguments)
        if key is None:
            return error_result(
                RESET_NEEDED,
                f"this request has no MCP session and names no episode: call {self.reset_tool} "
                f"first and pass the handle it returns in _meta[{EPISODE_META_KEY!r}]",
            )
        name = params.name

        changed = False

        def play(episode: ToolEpisode) -> CallResult | None:
            nonlocal changed
            try:
                before = episode.tool_set
                played = episode.call(name, arguments)
            except gym.error.ResetNeeded:
                return None
            changed = episode.tool_set is not before  # a call that offers more (BFCL's turns)
            return played

        try:
            result = await self._run(lambda: self.pool.run(key, play))
        except UnknownSessionError:
            result = None
            if key.startswith(HANDLE_PREFIX):
                return error_result(UNKNOWN_EPISODE, _unknown_handle(key))
        if changed:
            await self._tools_changed(ctx)
        if result is None:
            return error_result(
                RESET_NEEDED,
                f"no episode has started in this session (or it was reclaimed after idling "
                f"{self.pool.idle_timeout_s:g} s); call {self.reset_tool} (seed, task_id) first",
            )
        extra = {"episode": key} if key.startswith(HANDLE_PREFIX) else {}
        return call_result(result, extra)

    async def _reset(
        self, ctx: ServerRequestContext[Any, Any], key: str | None, arguments: dict[str, Any]
    ) -> mcp_types.CallToolResult:
        extra = set(arguments) - {"seed", "task_id"}
        if extra:
            return error_result(
                WRONG_ARGUMENTS,
                f"{self.reset_tool} takes seed and task_id; got also {', '.join(sorted(extra))}",
            )
        seed, task_id = arguments.get("seed"), arguments.get("task_id")
        if key is not None and key.startswith(HANDLE_PREFIX) and key not in self.pool:
            return error_result(UNKNOWN_EPISODE, _unknown_handle(key))

        def go(episode: ToolEpisode) -> tuple[EpisodeStart, bool]:
            before = (
                [s["function"]["name"] for s in episode.tool_schemas()]
                if _started(episode)
                else None
            )
            begun = episode.reset(seed=seed, task_id=task_id)
            return begun, before != [s["function"]["name"] for s in begun.tools]

        def start(key: str | None) -> tuple[str, EpisodeStart, bool]:
            fresh = key is None
            if key is None:
                if (
                    self.max_handles is not None
                    and self.pool.count(HANDLE_PREFIX) >= self.max_handles
                ):
                    raise SessionLimitError(
                        f"{self.pool.env_id}: {self.max_handles} episodes opened by handle are "
                        "open (the server's limit for requests without a session); finish one, "
                        "or let one idle out"
                    )
                key = self.pool.open(HANDLE_PREFIX + secrets.token_hex(16))[0]
            elif key not in self.pool:
                try:
                    self.pool.open(key)
                except SessionLimitError:
                    raise
                except SessionError:
                    pass  # opened meanwhile by another request of the session
            try:
                begun, changed = self.pool.run(key, go)
            except UserInputError:
                if fresh:  # a handle nobody holds yet
                    self.pool.close(key)
                raise
            return key, begun, changed

        try:
            opened, begun, changed = await self._run(lambda: start(key), makes_envs=True)
        except SessionLimitError as e:
            return error_result(SESSION_LIMIT, str(e))
        except UnknownSessionError as e:
            return error_result(UNKNOWN_EPISODE, str(e))
        except UserInputError as e:
            return error_result(WRONG_ARGUMENTS, str(e))
        if changed:
            await self._tools_changed(ctx)
        data: dict[str, Any] = {
            "env_id": self.pool.env_id,
            "task_id": begun.task_id,
            "observation": begun.observation,
            "info": _jsonable(begun.info),
            "tools": [s["function"]["name"] for s in begun.tools],
        }
        text = begun.observation
        if opened.startswith(HANDLE_PREFIX):
            data["episode"] = opened
            text += (
                f"\n\nEpisode handle: {opened} (pass it in _meta[{EPISODE_META_KEY!r}] of the "
                "requests of this episode)"
            )
        import mcp_types as types

        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=data,
            is_error=False,
        )

    async def _tools_changed(self, ctx: ServerRequestContext[Any, Any]) -> None:
        """Tell the client the tool list changed, where the protocol lets the server say it."""
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS

        try:
            if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
                await ctx.session.send_tool_list_changed()
            elif self.bus is not None:
                from mcp.server.subscriptions import ToolsListChanged

                await self.bus.publish(ToolsListChanged())
        except Exception:  # advisory: a client without a channel for it misses nothing else
            logger.debug("tools/list_changed was not delivered", exc_info=True)


def _unknown_handle(key: str) -> str:
    return (
        f"no open episode {key!r:.60}: it was never opened, was closed, or was reclaimed after "
        "idling; call reset without a handle to open a new one"
    )


def call_result(result: CallResult, extra: dict[str, Any] | None = None) -> Any:
    """A :class:`~toolgym.integrations.episode.CallResult` as an MCP ``CallToolResult``.

    The structured content is the result's fields (``observation``, ``reward``, ``done``,
    ``truncated``, ``error``, ``metrics``, ``step``) and ``extra``; the text is the observation,
    followed by the reward and metrics when the episode ended.
    """
    import mcp_types as types

    data = result.to_dict()
    if not flat_json(data):  # a step's text, numbers, flags and error need no JSON round trip
        data = _jsonable(data)
    data.update(extra or {})
    text = result.observation
    if result.done:
        metrics = json.dumps(data.get("metrics") or {}, sort_keys=True)
        text += f"\n\nEpisode ended: reward {result.reward:g}; metrics {metrics}"
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=data,
        is_error=result.error is not None,
    )


def error_result(category: str, message: str) -> Any:
    """A ``CallToolResult`` with ``is_error=True`` for a failure a client caused."""
    import mcp_types as types

    return types.CallToolResult(
        content=[types.TextContent(type="text", text=f"Error ({category}): {message}")],
        structured_content={"error": {"category": category, "message": message}},
        is_error=True,
    )

"""``toolgym mcp ENV_ID``: serve an env's episodes to MCP clients over stdio or streamable HTTP.

Over stdio nothing but protocol messages goes to stdout; every log line goes to stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

from toolgym.cli.allocator import add_allocator_argument, use_allocator
from toolgym.cli.training_commands import _positive_number, _whole
from toolgym.integrations.mcp_server import DEFAULT_PORT
from toolgym.integrations.sessions import DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_SESSIONS


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return value


def _cmd_mcp(args: argparse.Namespace) -> int:
    if args.transport == "http":
        use_allocator(args.allocator, args.argv)
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.INFO if getattr(args, "debug", False) else logging.WARNING,
        format="toolgym mcp: %(levelname)s %(name)s: %(message)s",
    )
    from toolgym.integrations.mcp_server import require_mcp, run_http, run_stdio

    require_mcp()
    if args.transport == "stdio":
        run_stdio(
            args.env_id,
            split=args.split,
            world_seed=args.world_seed,
        )
        return 0
    run_http(
        args.env_id,
        host=args.host,
        port=args.port,
        split=args.split,
        world_seed=args.world_seed,
        max_sessions=args.max_sessions,
        idle_timeout_s=args.idle_timeout,
        json_response=not args.sse,
    )
    return 0


def add_parser(sub: Any) -> None:
    """Add ``mcp`` to the command line's subcommands."""
    mcp = sub.add_parser(
        "mcp",
        help="serve an env's episodes to MCP clients (stdio or streamable HTTP)",
        description="Serve one env as an MCP server: the task's tools, a reset tool (seed, "
        "task_id) that starts an episode and returns the user's request, and the reward and "
        "metrics with the call that ends it. One episode per MCP session.",
    )
    mcp.add_argument("env_id", metavar="ENV_ID", help="the env to serve (toolgym list)")
    mcp.add_argument(
        "--transport",
        default="stdio",
        choices=("stdio", "http"),
        help="stdio (default: one client on stdin/stdout) or http (streamable HTTP at /mcp)",
    )
    mcp.add_argument("--host", default="127.0.0.1", help="with http: the host (127.0.0.1)")
    mcp.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"with http: the port ({DEFAULT_PORT})"
    )
    mcp.add_argument(
        "--max-sessions",
        type=_whole(1),
        default=DEFAULT_MAX_SESSIONS,
        help=f"with http: open sessions at most ({DEFAULT_MAX_SESSIONS}); more get HTTP 503",
    )
    mcp.add_argument(
        "--idle-timeout",
        type=_positive_number,
        default=DEFAULT_IDLE_TIMEOUT_S,
        metavar="SECONDS",
        help="with http: seconds without a request after which a session and its episode are "
        "reclaimed "
        f"({DEFAULT_IDLE_TIMEOUT_S:g})",
    )
    mcp.add_argument(
        "--sse",
        action="store_true",
        help="with http: answer each POST with an SSE stream instead of JSON",
    )
    add_allocator_argument(mcp, "with http: ")
    mcp.add_argument(
        "--split", choices=("test", "demo", "train"), help="the tasks' split (default test)"
    )
    mcp.add_argument(
        "--world-seed", type=_whole(0), help="seed of the simulated world (the env's default)"
    )
    mcp.set_defaults(func=_cmd_mcp)


__all__ = ["add_parser"]

"""``toolgym serve-env ENV_ID``: an env served over OpenEnv's protocol (HTTP and WebSocket)."""

from __future__ import annotations

import argparse
import math
from typing import Any

from toolgym.cli.allocator import add_allocator_argument, use_allocator
from toolgym.errors import UserInputError
from toolgym.integrations.sessions import DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_SESSIONS


def _whole(low: int, high: int | None, expected: str) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def _cmd_serve_env(args: argparse.Namespace) -> int:
    use_allocator(args.allocator, args.argv)
    from toolgym.cli.eval_setup import _check_env_ids
    from toolgym.integrations.openenv_server import require_openenv, serve

    _check_env_ids([args.env_id])
    require_openenv()
    try:
        serve(
            args.env_id,
            args.host,
            args.port,
            env_kwargs={"split": args.split, "world_seed": args.world_seed},
            max_sessions=args.max_sessions,
            idle_timeout_s=args.idle_timeout,
        )
    except OSError as e:  # the address is taken, or not this machine's
        raise UserInputError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from e
    return 0


def add_parser(sub: Any) -> None:
    """Add ``serve-env`` to the command line's subcommands."""
    p = sub.add_parser(
        "serve-env",
        help="serve an env over OpenEnv's protocol (HTTP and WebSocket) for remote agents and "
        "trainers",
        description="Serve ENV_ID as an OpenEnv environment server (openenv-core's protocol; "
        'install with pip install "toolgym[openenv]"). Each WebSocket connection to /ws is a '
        "session with an episode of its own: reset (seed, task_id), step with call_tool "
        "(tool_name, arguments) or list_tools actions, state. OpenEnv clients "
        "(GenericEnvClient, MCPToolClient) and TRL environments built on them play it.",
    )
    p.add_argument("env_id", metavar="ENV_ID", help="the env to serve (toolgym list)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (127.0.0.1)")
    p.add_argument(
        "--port",
        type=_whole(0, 65535, "a port from 0 to 65535"),
        default=8000,
        help="the port (8000; 0: a free one, printed)",
    )
    p.add_argument(
        "--max-sessions",
        type=_whole(1, None, "a whole number >= 1"),
        default=DEFAULT_MAX_SESSIONS,
        help=f"sessions open at once at most; more are refused ({DEFAULT_MAX_SESSIONS})",
    )
    p.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=DEFAULT_IDLE_TIMEOUT_S,
        metavar="SECONDS",
        help="a session idle this long is reclaimed (a client that vanished) "
        f"({DEFAULT_IDLE_TIMEOUT_S:g})",
    )
    p.add_argument(
        "--split",
        default="test",
        choices=("test", "demo", "train"),
        help="the task split reset draws from and task ids name (test)",
    )
    p.add_argument(
        "--world-seed",
        type=_whole(0, None, "a whole number >= 0"),
        default=0,
        help="seed of the simulated world (0)",
    )
    add_allocator_argument(p, "")
    p.set_defaults(func=_cmd_serve_env)


__all__ = ["add_parser"]

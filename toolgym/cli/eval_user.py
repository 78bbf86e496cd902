"""``eval``'s user of conversation envs: the rule-based one, a recording, or a model.

``--user-replay FILE`` replays a recorded user exactly; ``--user-model MODEL`` lets a model play
the user and records every reply in the run's folder (:data:`USER_RECORDING`), so that the run
can be replayed with ``--user-replay``. Neither is given: the env's rule-based user.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolgym.errors import UserInputError

USER_RECORDING = "user-recording.jsonl"
"""The recording of a model-played user, in the run's ``--out`` folder."""

EMBEDDED = "embedded"
"""``--user-model``'s name for the embedded model."""

DEFAULT_USER_TIMEOUT_S = 60.0
"""How long a model-played user may take over one reply, unless ``--user-timeout`` says."""

UNSCORED_EXIT = 4
"""``eval``'s exit status when the simulated user failed in some episodes."""


def user_label(args: argparse.Namespace) -> str:
    """How the results' manifests name a model-played user: ``llm:<model>[@<server>]``."""
    server = f"@{args.user_base_url}" if args.user_base_url else ""
    return f"llm:{args.user_model}{server}"


def check_user_options(
    args: argparse.Namespace,
    ids: Sequence[str],
    options: Callable[[str], dict[str, Any]],
    env_kwargs: dict[str, Any],
) -> None:
    """Check ``--user-replay``/``--user-model`` and put what they give into ``env_kwargs``.

    A model-played user is named by its label until :func:`attach_user` builds it (after every
    check, so that no model loads before a bad option is reported).

    Args:
        args: ``eval``'s options.
        ids: the env ids of the run.
        options: an env id's toolkit options.
        env_kwargs: the run's env keyword arguments (changed in place).

    Raises:
        UserInputError: both options, a missing recording, a user option for an env that has
            no user, ``--user-base-url`` without ``--user-model``, or a model-played user with
            episodes outside this process.
    """
    replay, model = getattr(args, "user_replay", None), getattr(args, "user_model", None)
    if getattr(args, "user_base_url", None) and not model:
        raise UserInputError("--user-base-url names the server of --user-model; give both")
    if getattr(args, "user_timeout", None) is not None and not model:
        raise UserInputError("--user-timeout is the timeout of --user-model's replies; give both")
    if not (replay or model):
        return
    if replay and model:
        raise UserInputError(
            "--user-replay replays a recorded user and --user-model records a new one; give one"
        )
    if model and getattr(args, "backend", "local") != "local":
        raise UserInputError(
            f"--user-model runs the user's model in this process; it needs --backend local, "
            f"not {args.backend} (record with local episodes, then replay anywhere with "
            "--user-replay)"
        )
    flag = "--user-replay" if replay else "--user-model"
    others = [i for i in ids if "user" not in options(i)]
    if others:
        raise UserInputError(
            f"{flag} sets the user of conversation envs (…Chat-v0); not of {', '.join(others)}"
        )
    if replay:
        path = Path(replay).expanduser()
        if not path.is_file():
            raise UserInputError(
                f"--user-replay must be a recording (JSONL); no file at {replay!r}"
            )
        env_kwargs["user_replay"] = str(path)
        return
    env_kwargs["user"] = user_label(args)


def attach_user(args: argparse.Namespace, env_kwargs: dict[str, Any]) -> None:
    """Replace ``--user-model``'s label in ``env_kwargs`` by the model-played user.

    Its replies are recorded in ``<out>/``:data:`USER_RECORDING` (in memory without ``--out``);
    a reply the file holds already is answered from it, so a resumed run asks the model only
    for conversations it has not had.
    """
    if "user" not in env_kwargs:
        return
    from toolgym.agents.backends import make_backend
    from toolgym.agents.llm_user import LLMUser
    from toolgym.conversation.recording import UserRecording

    model = None if args.user_model == EMBEDDED else args.user_model
    timeout = getattr(args, "user_timeout", None) or DEFAULT_USER_TIMEOUT_S
    if args.user_base_url:
        backend = make_backend(
            "openai",
            model=model,
            base_url=args.user_base_url,
            api_key=args.api_key,
            timeout=timeout,
        )
    else:
        backend = make_backend("hf", model=model)
    path = Path(args.out) / USER_RECORDING if args.out else None
    env_kwargs["user"] = LLMUser(
        backend, recording=UserRecording(path), label=user_label(args), timeout_s=timeout
    )


def unscored_status(args: argparse.Namespace, summaries: Sequence[Mapping[str, Any]]) -> int:
    """Warn of the episodes a simulated user's failure left unscored; the exit status.

    Such episodes (``user_failed``, ``user_replay_miss``) are out of every score already; the
    warning names how many and why, and the status is :data:`UNSCORED_EXIT` unless
    ``--allow-unscored``.
    """
    lost = sum(int(s.get("unscored") or 0) for s in summaries)
    if not lost:
        return 0
    why: dict[str, int] = {}
    for summary in summaries:
        for category, count in (summary.get("unscored_errors") or {}).items():
            why[category] = why.get(category, 0) + int(count)
    causes = ", ".join(f"{k}: {v}" for k, v in sorted(why.items()))
    allowed = getattr(args, "allow_unscored", False)
    print(
        f"warning: {lost} episode(s) not scored for the agent: the simulated user failed "
        f"({causes}); they are left out of the scores and counted as 'unscored'"
        + ("" if allowed else f"; exit status {UNSCORED_EXIT} (--allow-unscored accepts them)"),
        file=sys.stderr,
    )
    return 0 if allowed else UNSCORED_EXIT

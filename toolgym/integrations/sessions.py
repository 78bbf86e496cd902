"""Many isolated episodes in one process: what the servers keep per client session.

A :class:`SessionPool` holds one :class:`~toolgym.integrations.episode.ToolEpisode` per open
session of one env id, each under its own id, with nothing shared between them but the env's
read-only world data. It bounds what a server can hold:

* at most ``max_sessions`` open sessions; opening one more first reclaims idle ones, then refuses
  (:class:`SessionLimitError`) rather than growing;
* a session not used for ``idle_timeout_s`` seconds (a client that vanished mid-episode) is
  closed by :meth:`SessionPool.reap`, which the servers call on a timer and on every open;
* a closed session's env goes back to a small free list (at most ``spare_envs``) and is reused
  by the next session, so that a run opening and closing thousands of sessions makes few envs
  and its memory stays flat.

Every method is thread-safe. An episode's own calls are serialised by its lock
(:attr:`ToolEpisode.lock`); :meth:`SessionPool.run` takes it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from toolgym.errors import ToolgymError, UserInputError
from toolgym.integrations.episode import ToolEpisode

T = TypeVar("T")

DEFAULT_MAX_SESSIONS = 1024
"""Open sessions a pool holds at most by default."""

DEFAULT_IDLE_TIMEOUT_S = 600.0
"""Seconds after its last use at which a session is reclaimed, by default."""

DEFAULT_SPARE_ENVS = 64
"""Closed sessions' envs kept for reuse, by default."""

SPARE_FLOOR = 4
"""Spare envs kept once no env has been taken or handed back for ``idle_timeout_s``: the
others are closed, so the memory a burst of sessions took comes back when the burst ends."""

BURST_SESSIONS = 64
"""Sessions opened since the last full collection that make a burst (see :class:`MemoryReturn`)."""

MAX_SESSION_ID_CHARS = 128
"""The longest session id a pool accepts from a client."""


class SessionError(ToolgymError):
    """A session cannot be used as asked; the message says why (servers send it to clients)."""


class UnknownSessionError(SessionError, KeyError):
    """No open session has this id (never opened, closed, or reclaimed after idling)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class SessionLimitError(SessionError):
    """The pool holds ``max_sessions`` busy sessions already."""


@dataclass
class _Session:
    episode: ToolEpisode
    last_used: float
    busy: int = 0


class SessionPool:
    """Open sessions of one env id (see the module docstring).

    Args:
        env_id: the env every session plays.
        env_kwargs: more ``gym.make`` arguments (``split``, ``world_seed``, family options).
        max_sessions: open sessions at most.
        idle_timeout_s: seconds after which an unused session is reclaimed.
        spare_envs: closed sessions' envs kept for reuse.
        clock: the time source (``time.monotonic``).

    Raises:
        UserInputError: a limit that is not a positive number, or an env that cannot be made.
    """

    def __init__(
        self,
        env_id: str,
        *,
        env_kwargs: dict[str, Any] | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
        spare_envs: int = DEFAULT_SPARE_ENVS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        for name, value in (("max_sessions", max_sessions), ("spare_envs", spare_envs)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise UserInputError(f"{name} is an int >= 0; got {value!r}")
        if max_sessions < 1:
            raise UserInputError(f"max_sessions is at least 1; got {max_sessions}")
        if isinstance(idle_timeout_s, bool) or not isinstance(idle_timeout_s, int | float):
            raise UserInputError(f"idle_timeout_s is a number of seconds; got {idle_timeout_s!r}")
        if not idle_timeout_s > 0:
            raise UserInputError(f"idle_timeout_s is > 0; got {idle_timeout_s!r}")
        self.env_id = env_id
        self.env_kwargs = dict(env_kwargs or {})
        self.max_sessions = max_sessions
        self.idle_timeout_s = float(idle_timeout_s)
        self.spare_envs = spare_envs
        self.clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, _Session] = {}
        self._spare: list[ToolEpisode] = [self._make()]  # fails here, not at the first client
        self.steps_inline = self._spare[0].steps_inline
        """Whether the env's calls never block (:attr:`ToolEpisode.steps_inline`): servers run
        them on their event loop, and the others on :meth:`blocking_worker`."""
        self._worker: ThreadPoolExecutor | None = None
        self._spare_moved = self.clock()  # when an env last went into or out of the spares
        self.opened = 0
        """Sessions opened since the pool was made."""
        self.reclaimed = 0
        """Sessions closed for idling."""
        self.envs_made = 1
        """Envs made since the pool was made (reused ones are not counted again)."""
        self.spares_closed = 0
        """Spare envs closed after a burst of sessions ended (see :data:`SPARE_FLOOR`)."""

    def _make(self) -> ToolEpisode:
        return ToolEpisode(self.env_id, **self.env_kwargs)

    # -- opening and closing ------------------------------------------------------------------

    def open(self, session_id: str | None = None) -> tuple[str, ToolEpisode]:
        """Open a session (under ``session_id``, or a fresh random id); returns it.

        The episode is not started: the client resets it.

        Raises:
            SessionLimitError: ``max_sessions`` sessions are open and none is idle.
            SessionError: ``session_id`` is taken or is not a short printable id.
        """
        if session_id is not None:
            check_session_id(session_id)
        self.reap()
        with self._lock:
            if session_id is None:
                session_id = secrets.token_hex(16)
            if session_id in self._sessions:
                raise SessionError(f"session {session_id!r} is open already")
            if len(self._sessions) >= self.max_sessions:
                raise SessionLimitError(
                    f"{self.env_id}: {self.max_sessions} sessions are open (the server's "
                    "max_sessions); close one, or start the server with more"
                )
            episode = self._spare.pop() if self._spare else None
            self._spare_moved = self.clock()
        if episode is None:
            episode = self._make()
            with self._lock:
                self.envs_made += 1
        with self._lock:
            self._sessions[session_id] = _Session(episode, self.clock())
            self.opened += 1
        return session_id, episode

    def close(self, session_id: str) -> bool:
        """Close a session; ``False`` if none was open under that id (closing twice is safe)."""
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            return False
        self._recycle(session.episode)
        return True

    def _recycle(self, episode: ToolEpisode) -> None:
        episode.release()
        with self._lock:
            if len(self._spare) < self.spare_envs:
                self._spare.append(episode)
                self._spare_moved = self.clock()
                return
        episode.close()

    def reap(self) -> int:
        """Close the sessions idle for ``idle_timeout_s`` or more; returns how many.

        Spare envs past :data:`SPARE_FLOOR` that no session has taken for ``idle_timeout_s``
        are closed too.
        """
        now = self.clock()
        with self._lock:
            stale = [
                sid
                for sid, s in self._sessions.items()
                if not s.busy and now - s.last_used >= self.idle_timeout_s
            ]
            sessions = [self._sessions.pop(sid) for sid in stale]
            self.reclaimed += len(sessions)
        for session in sessions:
            self._recycle(session.episode)
        with self._lock:
            surplus: list[ToolEpisode] = []
            if now - self._spare_moved >= self.idle_timeout_s and len(self._spare) > SPARE_FLOOR:
                surplus, self._spare = self._spare[SPARE_FLOOR:], self._spare[:SPARE_FLOOR]
        for episode in surplus:
            episode.close()
        self.spares_closed += len(surplus)
        return len(sessions)

    def blocking_worker(self) -> ThreadPoolExecutor:
        """The one thread that runs the calls of an env whose steps may block.

        Off the event loop, so the server goes on answering meanwhile, and one at a time, as
        they ran before: the sandbox runs one program at a time anyway, and a model user may
        not be safe to call from several threads at once.
        """
        with self._lock:
            if self._worker is None:
                self._worker = ThreadPoolExecutor(1, thread_name_prefix="toolgym-blocking")
            return self._worker

    def close_all(self) -> None:
        """Close every session and every spare env."""
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
            spare, self._spare = self._spare, []
        for episode in [s.episode for s in sessions] + spare:
            episode.close()
        if self._worker is not None:
            self._worker.shutdown(wait=False)

    # -- using a session ----------------------------------------------------------------------

    def get(self, session_id: Any) -> ToolEpisode:
        """The episode of an open session (and mark it used).

        Raises:
            UnknownSessionError: no open session has this id.
        """
        with self._lock:
            session = self._sessions.get(session_id) if isinstance(session_id, str) else None
            if session is None:
                raise UnknownSessionError(_unknown(session_id))
            session.last_used = self.clock()
            return session.episode

    def run(self, session_id: Any, work: Callable[[ToolEpisode], T]) -> T:
        """``work(episode)`` under the session's lock; the session is not reaped meanwhile.

        Raises:
            UnknownSessionError: no open session has this id.
        """
        with self._lock:
            session = self._sessions.get(session_id) if isinstance(session_id, str) else None
            if session is None:
                raise UnknownSessionError(_unknown(session_id))
            session.busy += 1
        try:
            with session.episode.lock:
                return work(session.episode)
        finally:
            with self._lock:
                session.busy -= 1
                session.last_used = self.clock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def count(self, prefix: str) -> int:
        """How many open sessions have ids starting with ``prefix``."""
        with self._lock:
            return sum(1 for session_id in self._sessions if session_id.startswith(prefix))

    def __contains__(self, session_id: object) -> bool:
        with self._lock:
            return session_id in self._sessions

    def stats(self) -> dict[str, Any]:
        """Open sessions, spare envs, envs made, sessions opened and reclaimed."""
        with self._lock:
            return {
                "env_id": self.env_id,
                "open": len(self._sessions),
                "spare_envs": len(self._spare),
                "envs_made": self.envs_made,
                "opened": self.opened,
                "reclaimed": self.reclaimed,
                "max_sessions": self.max_sessions,
                "idle_timeout_s": self.idle_timeout_s,
            }


def check_session_id(session_id: Any) -> str:
    """``session_id`` if it is a short printable id.

    Raises:
        SessionError: it is not text, is empty, too long or holds unprintable characters.
    """
    if (
        not isinstance(session_id, str)
        or not 0 < len(session_id) <= MAX_SESSION_ID_CHARS
        or not session_id.isprintable()
    ):
        raise SessionError(
            f"a session id is printable text of 1 to {MAX_SESSION_ID_CHARS} characters; "
            f"got {session_id!r:.60}"
        )
    return session_id


def _unknown(session_id: Any) -> str:
    return (
        f"no open session {session_id!r:.60}: it was never opened, was closed, or was "
        "reclaimed after idling; open a new one"
    )


class MemoryReturn:
    """Hands the memory of ended sessions back to the system, on the servers' reaper ticks.

    A tick that ended something trims the C allocator (:func:`release_memory`). A session's
    objects are in reference cycles (the SDK's tasks, streams and scopes), which CPython frees
    only at a full collection, and a full collection comes seldom in a server; so once a burst is
    over, one is run. A burst is at least :data:`BURST_SESSIONS` sessions opened since the last
    collection; it is over on the first tick that ends nothing once no session has been opened
    for ``settle_s`` (by then the sessions its clients abandoned, and the spare envs past
    :data:`SPARE_FLOOR`, have been closed), with at most a quarter of the most sessions seen
    open at a tick since the last collection (or of :data:`BURST_SESSIONS`) still open. The
    collection pauses the event loop (tens of milliseconds with few sessions open) once per burst,
    never while sessions keep coming.

    Args:
        pool: the sessions whose counts and clock say when a burst is over.
        settle_s: seconds without a new session after which a burst is over (default: the
            pool's idle timeout; a server whose framework reclaims sessions of its own later
            says when it has).
    """

    def __init__(self, pool: SessionPool, settle_s: float | None = None) -> None:
        self.pool = pool
        self.settle_s = pool.idle_timeout_s if settle_s is None else settle_s
        self._opened = self._seen = pool.opened
        self._last_open = pool.clock()
        self._peak = 0
        self.collections = 0
        """Full collections run after bursts."""

    def tick(self, ended: int) -> None:
        """After a reaper tick that ended ``ended`` sessions or spare envs."""
        now, open_now, opened = self.pool.clock(), len(self.pool), self.pool.opened
        self._peak = max(self._peak, open_now)
        if opened != self._seen:
            self._seen, self._last_open = opened, now
        if ended:
            release_memory()
        elif (
            opened - self._opened >= BURST_SESSIONS
            and now - self._last_open >= self.settle_s
            and 4 * open_now <= max(self._peak, BURST_SESSIONS)
        ):
            self._opened, self._peak = opened, open_now
            gc.collect()
            self.collections += 1
            release_memory()


def release_memory() -> None:
    """Hand memory that reclaimed sessions freed back to the system.

    CPython frees objects into its own arenas and the C allocator's free lists; after thousands
    of sessions end, the process keeps that memory unless asked. glibc's ``malloc_trim`` (where
    the C library has it) returns what is free; no collection is forced here (a full one would
    pause the event loop while thousands of sessions are live: :class:`MemoryReturn` runs one
    once a burst is over).
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Any:
    """Glibc's ``malloc_trim``, or ``None`` (another C library, another system)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None

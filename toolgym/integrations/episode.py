"""One toolgym episode played by tool calls: what every protocol adapter serves.

A :class:`ToolEpisode` holds one env in ``call`` mode and offers it the way tool-calling stacks
see an environment: the current task's tools as OpenAI function schemas (plus a ``finish`` tool
where the env's language ends an episode with a word), :meth:`~ToolEpisode.reset` with a seed and
a task id, and :meth:`~ToolEpisode.call` of one tool by name with JSON arguments. The TRL
environment (:mod:`.trl`), the OpenEnv and MCP servers and the verifiers environment are thin
layers over it, so an episode scores the same through every one of them as through
``env.step``.

Agent input is untrusted. :meth:`~ToolEpisode.call` never raises for what a client sends: an
unknown tool, arguments that are not an object, values past the budgets and calls after the
episode ended come back as a :class:`CallResult` whose ``error`` has a category, and the episode
loses nothing. Only programmer misuse raises (a call before any reset, a bad env id).

Example:
    >>> episode = ToolEpisode("toolbench/HomeSearch-v0")
    >>> start = episode.reset(seed=0, task_id="test-000")
    >>> result = episode.call("set_location", {"value": "Tulsa"})
    >>> result.done, result.error is None
    (False, True)
"""

from __future__ import annotations

import json
import keyword
import re
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym

from toolgym.envs.protocol import task_env
from toolgym.errors import ToolgymError, UserInputError
from toolgym.tools.budgets import DEFAULT_BUDGETS
from toolgym.tools.errors import ToolCallError, register_category
from toolgym.tools.json_calls import carrying, load_json
from toolgym.tools.tool import ToolSet

EPISODE_ENDED = register_category(
    "episode_ended",
    "a call after the episode ended; the client starts a new one (reset) to go on",
)


FINISH_DESCRIPTION = (
    "End the episode: call it once the task is done (the answer is what the last call returned)."
)

FINISH_WORDS_DESCRIPTION = (
    "End your turn: reply to the user in words (message). After the user's last turn, your "
    "reply is your final answer, and the episode ends."
)
MESSAGE_DESCRIPTION = "Your reply to the user, in words (your final answer after the last turn)."
MAX_TASK_ID_CHARS = 200
"""The longest task id a client may name."""


@dataclass(frozen=True)
class EpisodeStart:
    """What a reset gives a client.

    Attributes:
        observation: the first observation (the user's request).
        task_id: the task's id, as text.
        tools: the task's tools, as OpenAI function-tool schemas.
        info: the env's reset info, as JSON-ready values.
    """

    observation: str
    task_id: str
    tools: list[dict[str, Any]]
    info: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The start as JSON-ready values."""
        return asdict(self)


@dataclass(frozen=True, init=False)
class CallResult:
    """What one tool call did.

    Attributes:
        observation: the text the agent sees (the tool's answer, or why the call failed).
        reward: the step's reward (the episode's reward when it ended, else 0).
        done: whether the episode ended (finished, or truncated after its step limit).
        truncated: whether it ended at the step limit.
        error: ``{"category", "message"}`` when the call failed, else ``None``.
        metrics: the episode's metrics when it ended (``success``, ``executable``, ...).
        step: the number of steps taken in the episode.
    """

    observation: str
    reward: float = 0.0
    done: bool = False
    truncated: bool = False
    error: dict[str, Any] | None = None
    metrics: dict[str, Any] | None = None
    step: int = 0

    def __init__(
        self,
        observation: str,
        reward: float = 0.0,
        done: bool = False,
        truncated: bool = False,
        error: dict[str, Any] | None = None,
        metrics: dict[str, Any] | None = None,
        step: int = 0,
    ) -> None:
        # Frozen: the fields are written once, here, straight into the instance's dict (a
        # frozen dataclass's own __init__ sets each through object.__setattr__, which costs
        # four times as much, on every call).
        fields = self.__dict__
        fields["observation"] = observation
        fields["reward"] = reward
        fields["done"] = done
        fields["truncated"] = truncated
        fields["error"] = error
        fields["metrics"] = metrics
        fields["step"] = step

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready values (``error`` and ``metrics`` copied, as ``asdict`` does)."""
        error, metrics = self.error, self.metrics
        if (error is None or _flat(error)) and (metrics is None or _flat(metrics)):
            return {  # most steps: no copy, or one level of plain values (as asdict makes it)
                "observation": self.observation,
                "reward": self.reward,
                "done": self.done,
                "truncated": self.truncated,
                "error": None if error is None else dict(error),
                "metrics": None if metrics is None else dict(metrics),
                "step": self.step,
            }
        return asdict(self)


JSON_ATOMS = frozenset({str, int, float, bool, type(None)})
"""Types whose values JSON writes and reads back unchanged (a text's lone surrogates too), and
that ``copy.deepcopy`` returns as they are."""


def _flat(value: Any) -> bool:
    """Whether ``value`` is a dict of text keys and :data:`JSON_ATOMS` values."""
    return type(value) is dict and all(
        type(k) is str and type(v) in JSON_ATOMS for k, v in value.items()
    )


def flat_json(values: dict[str, Any]) -> bool:
    """Whether JSON reads ``values`` back as they are: atoms, and dicts of atoms by text keys."""
    return all(type(v) in JSON_ATOMS or _flat(v) for v in values.values())


MAX_JSON_ACTION_CHARS = 4_000
"""The longest call :class:`ToolEpisode` steps with as JSON (a longer one is rendered)."""
_PLAIN_NUMBER = 1e15
"""Numbers a call steps with as JSON: well within every budget's ``max_number``."""


_SURROGATE = re.compile(r"[\ud800-\udfff]")
"""A surrogate code unit (a pair of them is one character once JSON reads it back)."""
_PLAIN_KEYS: set[str] = set()
"""Argument names found plain already, each checked once (at most :data:`_MAX_PLAIN_KEYS` of
them, of at most 64 characters: a client's odd names cannot grow it past 300 KB)."""
_MAX_PLAIN_KEYS = 4_096


def _plain_arguments(arguments: dict[Any, Any]) -> str | None:
    """``"flat"`` or ``"nested"`` where the arguments are plain, else ``None``.

    Plain: every key is an ASCII identifier and no keyword, and every value plain
    (:func:`_plain`). Flat: every value a text with no surrogate code unit, ``None``, a boolean
    or a number, each of its exact type (told apart in line), so that the value ``json.loads``
    reads back from the call's JSON equals the arguments; nested: any other plain value.
    """
    flat = True
    for key, value in arguments.items():
        if type(key) is not str or (key not in _PLAIN_KEYS and not _plain_key(key)):
            return None
        kind = type(value)
        if kind is str:
            if not value.isascii() and _SURROGATE.search(value):
                flat = False  # JSON reads "\ud83d\ude00" back as one character: parsed
            continue
        if value is None or kind is bool:
            continue
        if kind is int or kind is float:
            if -_PLAIN_NUMBER < value < _PLAIN_NUMBER:  # (NaN compares false)
                continue
            return None
        if not _plain(value, 0):
            return None
        flat = False
    return "flat" if flat else "nested"


_KEY_HEADS: dict[str, str] = {}
"""For each argument name found plain already, its JSON up to its value (``"value": ``); at
most :data:`_MAX_PLAIN_KEYS` of them, of at most 64 characters."""
_JSON_TEXT = json.encoder.encode_basestring_ascii
_JSON_ATOM_TEXT = {None: "null", True: "true", False: "false"}


def _flat_arguments_json(arguments: dict[Any, Any]) -> str | None:
    """The JSON ``json.dumps`` writes of flat plain arguments (:func:`_plain_arguments`).

    ``None`` where they are not flat and plain: a key that is no plain name, a value that is
    not a text without surrogates, ``None``, a boolean or a number within :data:`_PLAIN_NUMBER`,
    each of its exact type. Written value by value: the C encoder's call costs more than a few
    arguments' own text.
    """
    parts = []
    for key, value in arguments.items():
        head = _KEY_HEADS.get(key) if type(key) is str else None
        if head is None:
            if type(key) is not str or not _plain_key(key):
                return None
            head = f'"{key}": '  # (an ASCII identifier: nothing to escape)
        kind = type(value)
        if kind is str:
            if not value.isascii() and _SURROGATE.search(value):
                return None
            parts.append(head + _JSON_TEXT(value))
        elif value is None or kind is bool:
            parts.append(head + _JSON_ATOM_TEXT[value])
        elif kind is int or kind is float:
            if not -_PLAIN_NUMBER < value < _PLAIN_NUMBER:  # (NaN compares false)
                return None
            parts.append(head + (int.__repr__(value) if kind is int else float.__repr__(value)))
        else:
            return None
    return "{" + ", ".join(parts) + "}"


def _plain_key(key: str) -> bool:
    """Whether ``key`` is an ASCII identifier and no keyword (remembered when it is)."""
    if not (key.isascii() and key.isidentifier()) or keyword.iskeyword(key):
        return False
    if len(key) <= 64 and len(_PLAIN_KEYS) < _MAX_PLAIN_KEYS:
        _PLAIN_KEYS.add(key)
        _KEY_HEADS[key] = f'"{key}": '
    return True


def _plain(value: Any, depth: int) -> bool:
    """A string, bool, null, a finite number below 1e15, or a short list or object of them."""
    if value is None or isinstance(value, bool | str):
        return True
    if isinstance(value, int | float):  # (compared, not converted: 10**400 is no float)
        return bool(-_PLAIN_NUMBER < value < _PLAIN_NUMBER)
    if depth >= 3:
        return False
    if isinstance(value, list):
        return len(value) <= 100 and all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return (
            len(value) <= 100
            and all(isinstance(k, str) for k in value)
            and all(_plain(v, depth + 1) for v in value.values())
        )
    return False


def _plain_encoder() -> Callable[[Any], str]:
    """``json.dumps`` of plain values (:func:`_plain`), the same text from one encoder made once.

    ``json.dumps`` makes its C encoder anew at every call, which costs as much as the encoding
    of a call's few arguments. Plain values are at most three levels deep, so they hold no
    cycle to watch for. Without the C encoder, ``json.dumps`` itself.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return json.dumps
    encode = make(
        None, None, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True
    )
    return lambda value: "".join(encode(value, 0))


_dumps_plain = _plain_encoder()


class ToolEpisode:
    """An env in call mode, played one tool call at a time (see the module docstring).

    Args:
        env_id: a registered toolgym env id.
        env: an env made already (its ``action_mode`` must be ``call``); ``env_id`` is then
            read from it.
        **env_kwargs: more keyword arguments for ``gym.make`` (``split``, ``world_seed``, the
            family's options).

    Raises:
        UserInputError: the env id is unknown, or the env cannot be played by tool calls.
    """

    def __init__(self, env_id: str | None = None, *, env: gym.Env | None = None, **env_kwargs: Any):
        if env is None:
            if not isinstance(env_id, str):
                raise UserInputError(
                    f"expected a registered env id (toolgym.envs.env_ids()); got {env_id!r}"
                )
            kwargs = {"action_mode": "call", **env_kwargs}
            if kwargs["action_mode"] != "call":
                raise UserInputError(
                    f"a tool episode plays action_mode='call'; got {kwargs['action_mode']!r}"
                )
            try:
                env = gym.make(env_id, **kwargs)
            except gym.error.Error as e:
                raise UserInputError(f"cannot make {env_id}: {e}") from e
        base = task_env(env)
        if getattr(base, "action_mode", "call") != "call":
            raise UserInputError(
                f"a tool episode plays an env made with action_mode='call'; got "
                f"{getattr(base, 'action_mode', None)!r}"
            )
        self.env = env
        self._base = base
        self._finish: str | None = None
        self._finish_known = False
        spec = env.unwrapped.spec  # a wrapper's spec is a deep copy, made and kept per wrapper
        self.env_id: str = spec.id if spec is not None else str(env_id)
        self.lock = threading.Lock()
        """Held by the servers around each call, so one episode's calls never interleave."""
        self._started = False
        self._done = False
        self._steps = 0
        self._reward = 0.0
        self._metrics: dict[str, Any] | None = None
        self._task_id: str | None = None
        self._seed: int | None = None
        language = getattr(base, "language", None)
        self._reads_json: bool = bool(getattr(language, "reads_json_calls", False))
        self._json_tools: ToolSet | None = None
        self._json_heads: dict[str, str] = {}
        """The tool set last read; for each name of its tools that finds the tool
        (``tools.get``), a call's JSON text up to its arguments (``{"name": "...", "arguments": ``)."""

    @property
    def steps_inline(self) -> bool:
        """Whether a call never waits on another process or a model.

        A server may then run it on its event loop. The language's and the user's
        ``may_block`` say: a sandbox worker or a model user may hold a step for seconds.
        """
        language = getattr(self._base, "language", None)
        if language is None or getattr(language, "may_block", True):
            return False
        user = getattr(getattr(self._base, "toolkit", None), "user", None)
        return user is None or not getattr(user, "may_block", True)

    # -- the task's tools ---------------------------------------------------------------------

    @property
    def finish_tool(self) -> str | None:
        """The name of the tool that ends the episode with the language's word, if it has one."""
        if not self._finish_known:
            self._finish, self._finish_known = self._base.finish_tool, True
        return self._finish

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The current task's tools as OpenAI function-tool schemas, then the finish tool."""
        schemas = [json.loads(json.dumps(s)) for s in self._base.tools.openai_schemas]
        finish = self.finish_tool
        if finish is not None:
            words = self._base.finish_words
            properties = {"message": {"type": "string", "description": MESSAGE_DESCRIPTION}}
            schemas.append(
                {
                    "type": "function",
                    "function": {
                        "name": finish,
                        "description": FINISH_WORDS_DESCRIPTION if words else FINISH_DESCRIPTION,
                        "parameters": {
                            "type": "object",
                            "properties": properties if words else {},
                            "required": [],
                        },
                    },
                }
            )
        return schemas

    @property
    def tool_set(self) -> ToolSet:
        """The tools offered now: a new set once a step offers more (BFCL's held-back ones)."""
        return self._base.tools

    def tool_names(self) -> list[str]:
        """The names of the tools offered now."""
        return [tool.name for tool in self.tool_set]

    # -- playing ------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, task_id: Any = None) -> EpisodeStart:
        """Start an episode: on ``task_id`` when given, else on a task the seed draws.

        A task id is one of the split's ids (``test-007``), or ``train-<k>`` on the ``train``
        split.

        Raises:
            UserInputError: the seed is not an int >= 0, or the env has no such task.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise UserInputError(f"seed is an int >= 0 or None; got {seed!r:.80}")
        options = None if task_id is None else {"task_id": self._task_key(task_id)}
        try:
            observation, info = self.env.reset(seed=seed, options=options)
        except (ToolgymError, KeyError, ValueError) as e:
            raise UserInputError(f"{self.env_id} cannot start task {task_id!r:.80}: {e}") from e
        self._finish_known = False  # the task's tools may differ
        self._started = True
        self._done = False
        self._steps = 0
        self._reward = 0.0
        self._metrics = None
        self._seed = seed
        self._task_id = str(info.get("task_id"))
        public = {k: v for k, v in info.items() if k in ("task_id", "instruction", "split")}
        public["task_id"] = self._task_id
        return EpisodeStart(str(observation), self._task_id, self.tool_schemas(), public)

    def _task_key(self, task_id: Any) -> Any:
        """A client's task id, checked (an int, or text of at most :data:`MAX_TASK_ID_CHARS`)."""
        if isinstance(task_id, bool) or not isinstance(task_id, int | str):
            raise UserInputError(f"a task id is text or an int; got {type(task_id).__name__}")
        if isinstance(task_id, str) and len(task_id) > MAX_TASK_ID_CHARS:
            raise UserInputError(f"a task id has at most {MAX_TASK_ID_CHARS} characters")
        return task_id

    def call(self, name: Any, arguments: Any = None) -> CallResult:
        """Call the tool ``name`` with ``arguments`` (an object, or its JSON text).

        Never raises for what a client sends; see :class:`CallResult`.

        Raises:
            gymnasium.error.ResetNeeded: no episode was started (programmer misuse).
        """
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before calling a tool")
        if self._done:
            return CallResult(
                "The episode has ended; start a new one (reset) to go on.",
                done=True,
                error={
                    "category": EPISODE_ENDED,
                    "message": "the episode has ended; reset starts a new one",
                },
                metrics=self._metrics,
                step=self._steps,
            )
        finish = self.finish_tool
        base = self._base
        if finish is not None and name == finish:
            action = self._said(arguments) or base.finish_word or ""
        else:
            arguments = {} if arguments is None else arguments
            action = self._json_action(name, arguments) or base.native_action(
                [{"name": name, "arguments": arguments}]
            )
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._steps += 1
        done = bool(terminated or truncated)
        metrics = info.get("metrics")
        if truncated and not terminated:
            metrics = base.score().metrics_dict()
        if done:
            self._done = True
            self._reward = float(reward)
            self._metrics = dict(metrics or {})
        return CallResult(
            str(observation),
            float(reward),
            done,
            bool(truncated and not terminated),
            info.get("error"),
            dict(metrics) if done and metrics is not None else None,
            self._steps,
        )

    def _json_action(self, name: Any, arguments: Any) -> str | None:
        """The call as one JSON call, where the language runs that as the call rendered in it.

        Only for a task's tool by its own name, with plain argument names and ordinary JSON
        values well within the budgets (:func:`_plain_arguments`): anything else takes
        :meth:`~toolgym.envs.tool_env.ToolEnv.native_action`'s path, which reports what is
        wrong as the language does.
        """
        if not self._reads_json or not isinstance(arguments, dict):
            return None
        tools = self._base.tools
        if tools is not self._json_tools:  # once per tool set: each call's JSON up to its arguments
            self._json_heads = {
                t.name: _dumps_plain({"name": t.name, "arguments": {}})[:-3]
                for t in tools
                if tools.get(t.name) is t
            }
            self._json_tools = tools
        head = self._json_heads.get(name) if type(name) is str else None
        if head is None:
            return None
        if type(arguments) is dict and (flat := _flat_arguments_json(arguments)) is not None:
            text = f"{head}{flat}}}"
            if len(text) > MAX_JSON_ACTION_CHARS:
                return None
            return carrying(text, {"name": name, "arguments": dict(arguments)})  # (read once)
        try:
            plain = _plain_arguments(arguments)
        except Exception:  # a value of a subtype whose comparison fails: the language's path
            plain = None
        if plain is None:
            return None  # "API.search", keywords, odd keys or values: the language's own path
        text = f"{head}{_dumps_plain(arguments)}}}"
        if len(text) > MAX_JSON_ACTION_CHARS:
            return None
        if plain == "nested" or type(arguments) is not dict:
            return text
        return carrying(text, {"name": name, "arguments": dict(arguments)})  # (read once)

    def _said(self, arguments: Any) -> str | None:
        """The finish call's ``message`` (its words), where the language takes words."""
        if not self._base.finish_words:
            return None
        if isinstance(arguments, str):
            try:  # within the budgets: deep nesting or a huge number is no message
                arguments = load_json(arguments, DEFAULT_BUDGETS, "the finish call's arguments")
            except ToolCallError:
                return None
        if isinstance(arguments, dict) and isinstance(arguments.get("message"), str):
            return arguments["message"].strip() or None
        return None

    # -- what clients read --------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether :meth:`reset` has started an episode (since the last :meth:`close`)."""
        return self._started

    @property
    def done(self) -> bool:
        """Whether the episode has ended."""
        return self._done

    @property
    def reward(self) -> float:
        """The episode's reward (0 until it ends)."""
        return self._reward

    def state(self) -> dict[str, Any]:
        """The episode as JSON-ready values: env, task, seed, steps, done, reward, metrics."""
        return {
            "env_id": self.env_id,
            "task_id": self._task_id,
            "seed": self._seed,
            "step_count": self._steps,
            "done": self._done,
            "reward": self._reward,
            "metrics": self._metrics,
        }

    def oracle_calls(self) -> list[dict[str, Any]] | None:
        """The current task's gold as tool calls (``{"name", "arguments"}``), in order.

        ``None`` when the gold is not a sequence of single tool calls in this env's language
        (a program with variables, a general Python program).
        """
        calls = self._base.oracle_calls()
        return None if calls is None else [dict(c) for c in calls]

    def release(self) -> None:
        """Forget the episode (the env is kept): the next client must reset before calling."""
        self._started = False
        self._done = False
        self._steps = 0
        self._reward = 0.0
        self._metrics = None
        self._task_id = None
        self._seed = None

    def close(self) -> None:
        """Close the env."""
        self.env.close()

"""toolgym envs as the environments of TRL's ``GRPOTrainer`` (multi-turn GRPO).

TRL's trainer takes ``environment_factory``: a callable that makes an environment object, or a
dict of them by name. The object's public methods are the model's tools (TRL reads each one's
name, type hints and Google docstring into a JSON schema, and calls it with the model's
arguments), ``reset(**row)`` starts a rollout from a dataset row and returns text appended to
the prompt, and ``get_reward()`` scores the finished rollout from the environment's state.

:func:`environment_class` builds such a class for an env id and a set of tools: one method per
tool, whose signature and docstring carry the tool's JSON Schema (types, required parameters,
enums, descriptions), so the schema TRL renders into the prompt is the task's own. A method
calls the tool through :class:`~toolgym.integrations.episode.ToolEpisode`, so a rollout scores
exactly as ``env.step`` scores it; ``get_reward`` is the episode's reward (0 if it never ended).

Tasks whose tools differ (a RapidAPI query offers its own APIs) need one class per tool set:
:func:`environment_factories` groups tasks by their tools and returns TRL's dict form, with the
name of each task's group for the dataset's ``environment`` column (TRL then shows each rollout
only its own tools).

Example:
    >>> import toolgym  # registers the envs
    >>> from toolgym.envs import env_ids
    >>> Env = environment_class(env_ids()[0])
    >>> env = Env()
    >>> prompt = env.reset(task_id="test-000", seed=0)
    >>> for call in env.oracle_calls():
    ...     _ = getattr(env, call["name"])(**call["arguments"])
    >>> env.get_reward()
    1.0
"""

from __future__ import annotations

import inspect
import json
import keyword
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import gymnasium as gym

from toolgym.integrations.episode import ToolEpisode
from toolgym.integrations.rows import start_row

RESERVED = frozenset({"reset", "get_reward", "oracle_calls", "episode"})
"""Method names of the environment class that no tool may take."""

_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "object": dict,
}


def python_name(name: str, taken: Iterable[str] = ()) -> str:
    """``name`` as a Python identifier that is no keyword and not in ``taken``.

    >>> python_name("from"), python_name("Accept-Language"), python_name("reset", {"reset"})
    ('from_', 'Accept_Language', 'reset_')
    """
    out = re.sub(r"\W", "_", name) or "_"
    if out[0].isdigit():
        out = f"_{out}"
    out = out.lstrip("_") or "arg"
    if out[0].isdigit():
        out = f"p{out}"
    taken = set(taken)
    while keyword.iskeyword(out) or out in taken:
        out += "_"
    return out


def annotation_of(schema: Mapping[str, Any]) -> Any:
    """The Python type TRL turns back into ``schema``'s JSON type (``Any`` when it has none).

    >>> annotation_of({"type": "array", "items": {"type": "string"}})
    list[str]
    >>> annotation_of({"type": ["integer", "null"]}) is int
    True
    """
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "array":
        items = schema.get("items")
        inner = annotation_of(items) if isinstance(items, Mapping) else Any
        return list if inner is Any else list[inner]  # type: ignore[valid-type]
    return _JSON_TYPES.get(kind, Any) if isinstance(kind, str) else Any


def _one_line(text: Any) -> str:
    return " ".join(str(text or "").split())


def _docstring(description: str, params: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """A Google docstring TRL reads back into the tool's schema (enums as ``(choices: ...)``)."""
    lines = [_one_line(description) or "Call the tool."]
    if params:
        lines += ["", "Args:"]
        for name, schema in params:
            text = _one_line(schema.get("description")) or name
            enum = schema.get("enum")
            if enum is None and isinstance(schema.get("items"), Mapping):
                enum = None  # list items' enums stay in the description only
            if isinstance(enum, list) and enum:
                text += f" (choices: {json.dumps(enum)})"
            lines.append(f"    {name}: {text}")
    lines += ["", "Returns:", "    What the tool answered (or why the call failed)."]
    return "\n".join(lines)


def _tool_method(
    tool: str, description: str, parameters: Mapping[str, Any], taken: set[str]
) -> tuple[str, Callable[..., str]]:
    """A method calling ``tool`` whose signature and docstring carry its JSON Schema."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or ())
    names: dict[str, str] = {}
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    documented = []
    ordered = sorted(properties.items(), key=lambda kv: kv[0] not in required)
    for original, schema in ordered:
        schema = schema if isinstance(schema, Mapping) else {}
        name = python_name(original, [*names, "self"])
        names[name] = original
        annotation = annotation_of(schema)
        annotations[name] = annotation
        signature.append(
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=annotation,
                default=inspect.Parameter.empty if original in required else None,
            )
        )
        documented.append((name, schema))
    annotations["return"] = str

    def method(self: ToolgymEnvironment, **arguments: Any) -> str:
        sent = {names.get(k, k): v for k, v in arguments.items() if v is not None}
        return self._call(tool, sent)

    method_name = python_name(tool, taken | RESERVED)
    taken.add(method_name)
    method.__name__ = method.__qualname__ = method_name
    method.__doc__ = _docstring(description, documented)
    method.__annotations__ = annotations
    method.__signature__ = inspect.Signature(signature, return_annotation=str)  # type: ignore[attr-defined]
    method.argument_names = names  # type: ignore[attr-defined]
    return method_name, method


class ToolgymEnvironment:
    """The base of the classes :func:`environment_class` makes: one toolgym episode per object.

    Attributes:
        env_id: the env the class plays (a class attribute).
        env_kwargs: more ``gym.make`` arguments (a class attribute).
        tool_names: the tools' names by method name (a class attribute).
        episode: this object's episode.
    """

    env_id: str = ""
    env_kwargs: Mapping[str, Any] = {}
    tool_names: Mapping[str, str] = {}

    def __init__(self) -> None:
        self.episode = ToolEpisode(self.env_id, **dict(self.env_kwargs))

    def reset(self, **row: Any) -> str:
        """Start the rollout on the row's ``task_id`` (and ``seed``); returns the task's text.

        Other columns of the row (the prompt, the environment's name) are ignored.

        Raises:
            RowError: the row's ``task_id`` or ``seed`` is wrong (the message names the row, the
                field, what was expected and what came).
        """
        return start_row(self.episode, row).observation

    def get_reward(self) -> float:
        """The episode's reward: what the env gave when it ended, 0 if it has not."""
        return float(self.episode.reward)

    def oracle_calls(self) -> list[dict[str, Any]]:
        """The gold as calls of this object's methods: ``{"name": method, "arguments": ...}``.

        Raises:
            ValueError: the gold is not a sequence of tool calls.
        """
        calls = self.episode.oracle_calls()
        if calls is None:
            raise ValueError(f"the gold of {self.episode.state()['task_id']} is not tool calls")
        by_tool = {tool: method for method, tool in self.tool_names.items()}
        out = []
        for call in calls:
            method = getattr(type(self), by_tool[call["name"]])
            names = {v: k for k, v in _argument_names(method).items()}
            arguments = {names.get(k, k): v for k, v in call["arguments"].items()}
            out.append({"name": method.__name__, "arguments": arguments})
        return out

    def _call(self, tool: str, arguments: dict[str, Any]) -> str:
        if not self.episode.started:
            raise gym.error.ResetNeeded(
                f"{type(self).__name__}.{tool}: call reset(**row) with a dataset row (its "
                "task_id and seed) before the rollout calls a tool"
            )
        result = self.episode.call(tool, arguments)
        text = result.observation
        if result.done:
            text += f"\n(The episode has ended; reward {result.reward:g}.)"
        return text


def _argument_names(method: Callable[..., Any]) -> dict[str, str]:
    """The method's argument names to the tool's parameter names."""
    return dict(getattr(method, "argument_names", {}))


def environment_class(
    env_id: str,
    tools: Sequence[Mapping[str, Any]] | None = None,
    *,
    name: str | None = None,
    **env_kwargs: Any,
) -> type[ToolgymEnvironment]:
    """A class TRL's ``environment_factory`` can take, playing ``env_id`` with ``tools``.

    Args:
        env_id: a registered env id.
        tools: the OpenAI function schemas to offer (default: every tool of the env, as the
            env lists them before a reset, plus its finish tool).
        name: the class's name (default: from the env id).
        **env_kwargs: more ``gym.make`` arguments (``split``, ``world_seed``, options).

    Raises:
        toolgym.errors.UserInputError: the env cannot be played by tool calls.
    """
    if tools is None:
        probe = ToolEpisode(env_id, **env_kwargs)
        tools = probe.tool_schemas()
        probe.close()
    taken: set[str] = set()
    namespace: dict[str, Any] = {
        "env_id": env_id,
        "env_kwargs": dict(env_kwargs),
        "__doc__": f"{env_id}, played one tool call at a time (toolgym).",
    }
    tool_names: dict[str, str] = {}
    for schema in tools:
        function = schema.get("function", schema)
        tool = str(function["name"])
        method_name, method = _tool_method(
            tool,
            str(function.get("description") or ""),
            function.get("parameters") or {},
            taken,
        )
        namespace[method_name] = method
        tool_names[method_name] = tool
    namespace["tool_names"] = tool_names
    class_name = name or python_name(env_id.split("/")[-1].replace("-", "_")) + "Environment"
    return type(class_name, (ToolgymEnvironment,), namespace)


def environment_factories(
    env_id: str, task_ids: Sequence[str], **env_kwargs: Any
) -> tuple[dict[str, type[ToolgymEnvironment]], dict[str, str]]:
    """TRL's dict form of ``environment_factory`` for ``task_ids``, grouped by their tools.

    Args:
        env_id: a registered env id.
        task_ids: the tasks a run plays (``test-000``, ``train-17``).
        **env_kwargs: more ``gym.make`` arguments.

    Returns:
        The environment classes by name (each a factory: calling it makes an environment), and
        each task's environment name (the dataset's ``environment`` column).
    """
    probe = ToolEpisode(env_id, **env_kwargs)
    groups: dict[str, str] = {}
    classes: dict[str, type[ToolgymEnvironment]] = {}
    of_task: dict[str, str] = {}
    try:
        for task_id in task_ids:
            start = probe.reset(seed=0, task_id=task_id)
            key = json.dumps(start.tools, sort_keys=True)
            if key not in groups:
                group = f"tools{len(groups)}"
                groups[key] = group
                classes[group] = environment_class(
                    env_id,
                    start.tools,
                    name=f"{python_name(env_id.split('/')[-1].replace('-', '_'))}_{group}",
                    **env_kwargs,
                )
            of_task[str(task_id)] = groups[key]
    finally:
        probe.close()
    return classes, of_task

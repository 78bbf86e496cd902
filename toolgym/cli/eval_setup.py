"""What ``toolgym eval`` settles before it runs.

Its inputs checked, the agent and its label, and the per-family defaults (strategy, task limit,
action mode).
"""

from __future__ import annotations

import argparse
import copy
import functools
import importlib.util
import json
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import gymnasium as gym

from toolgym.agents.defaults import prompt_defaults
from toolgym.cli.eval_user import check_user_options
from toolgym.envs import env_entries, env_ids, family_of
from toolgym.envs.protocol import task_env
from toolgym.errors import TaskFileError, TaskFileWarning, UserInputError
from toolgym.tools.language import language_class

DEFAULT_LLM_LIMIT = 8
"""Tasks per env in the default LLM evaluation (the first ones of each test split)."""


def _agent_setup(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The agent's label and the settings that describe it, known without loading a model."""
    if args.agent in ("oracle", "random"):
        return args.agent, {}
    from toolgym.agents.backends import model_identity

    identity = model_identity(args.model_backend, model=args.model, base_url=args.base_url)
    if args.adapter:
        identity["adapter"] = adapter_identity(args.adapter)
    system = not args.no_system_prompt
    constrained = constrained_decoding(args)
    label = (
        f"{identity['name']}{'+' + Path(args.adapter).name if args.adapter else ''}"
        f"-{{strategy}}-{{shots}}shot"
        + ("" if system else "-nosys")
        + ("{grammar}" if constrained else "")
        + ("-native" if args.tool_calling == "native" else "")
    )
    settings = {
        "agent_kind": "llm",
        "model": identity,
        "retriever": args.retriever,
        "top_k_api": args.top_k_api,
        "max_new_tokens": args.max_new_tokens,
        "system_prompt": system,
        "chat": args.chat,
        "constrained": constrained,
    }
    if args.tool_calling == "native":
        settings["tool_calling"] = "native"
    for option in ("dtype", "weights"):  # numerics: records of other ones never mix
        value = getattr(args, option, None)
        if value not in (None, "auto"):
            settings[option] = value
    return label, settings


def _served(args: argparse.Namespace) -> bool:
    return args.model_backend == "openai" or (args.model_backend is None and bool(args.base_url))


def constrained_decoding(args: argparse.Namespace) -> bool:
    """Whether ``eval`` decodes under the action grammars (``--constrained``).

    ``auto`` is on for local models when ``llguidance`` is installed (the embedded model writes
    runnable actions far more often under the grammar; docs/results.md has the numbers), and off
    for servers, which take grammars only in fields of their own (``--grammar-format``).
    """
    if getattr(args, "tool_calling", "text") == "native":
        if args.constrained == "on":
            raise UserInputError(
                "--constrained on follows the action language's grammar, which native tool "
                "calls do not write; use it with --tool-calling text"
            )
        return False
    if args.constrained == "on":
        if _served(args) and args.grammar_format is None:
            raise UserInputError(
                "--constrained on with a server needs --grammar-format vllm|guided|llamacpp "
                "(the request field the server reads a grammar from)"
            )
        return True
    if args.constrained == "off" or _served(args):
        return False
    return importlib.util.find_spec("llguidance") is not None


def main_configurations(args: argparse.Namespace) -> list[tuple[str, argparse.Namespace]]:
    """The configurations ``eval`` runs, each named, with ``--adapter`` resolved in its args.

    ``--adapter none``: the base model alone. A folder: that adapter. ``auto`` (the default):
    for the embedded model (an LLM agent on the local ``hf`` backend), the adapter shipped with
    toolgym with the prompt settings it was trained with (its recorded shots, unless ``--shots``
    says otherwise), and with ``--compare-base`` then the base model with the same prompt
    settings, so that the rows differ by the alignment alone; for any other model, the model
    alone. ``--ablation`` takes ``auto`` as the shipped adapter.
    """
    from toolgym.agents.aligned import shipped_adapter_path, shipped_prompt_settings

    choice = args.adapter
    if choice not in ("auto", "none"):
        return [("", args)]
    base = copy.copy(args)
    base.adapter = None
    shipped = shipped_adapter_path()
    embedded = args.model in (None, "smollm2-135m")
    local = args.model_backend in (None, "hf") and not _served(args)
    if choice == "none" or shipped is None or args.agent != "llm" or not (embedded and local):
        return [("", base)]
    tuned = copy.copy(args)
    tuned.adapter = str(shipped)
    recorded = shipped_prompt_settings()
    if args.shots is None and recorded.get("shots") is not None:
        tuned.shots = base.shots = recorded["shots"]
    if getattr(args, "ablation", False) or not getattr(args, "compare_base", False):
        return [("", tuned)]
    return [("with the shipped adapter", tuned), ("the base model, same prompts", base)]


def adapter_identity(path: str) -> dict[str, Any]:
    """What identifies a LoRA adapter folder in results manifests."""
    from toolgym.agents.backends import model_identity

    folder = Path(path).expanduser()
    if not (folder / "adapter_config.json").is_file():
        raise UserInputError(
            f"--adapter {path!r} is not a LoRA adapter folder (no adapter_config.json)"
        )
    identity = model_identity("hf", model=str(folder))
    return {"path": identity.get("path"), "fingerprint": identity.get("fingerprint")}


def _backend_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The model backend's arguments from ``eval``'s options."""
    kwargs: dict[str, Any] = {"model": args.model, "base_url": args.base_url}
    kwargs["api_key"] = args.api_key
    local_hf = args.model_backend == "hf" or (args.model_backend is None and not args.base_url)
    if args.model_backend == "openai" or (args.model_backend is None and args.base_url):
        kwargs["max_retries"] = args.retries
    if local_hf and args.threads:
        kwargs["num_threads"] = args.threads
    if local_hf and args.chat != "auto":
        kwargs["chat"] = args.chat == "on"
    if local_hf and args.adapter:
        kwargs["adapter"] = args.adapter
    if local_hf:
        for option in ("device", "dtype", "weights"):
            value = getattr(args, option, None)
            if value not in (None, "auto"):
                kwargs[option] = value
    if _served(args) and args.grammar_format:
        kwargs["grammar_format"] = args.grammar_format
    if _served(args) and args.tool_calling == "native":
        kwargs["native_tools"] = True
    return kwargs


def llm_agent(env: Any, backend: Any, *, options: dict[str, Any]) -> Any:
    """An LLM agent for ``env`` over ``backend`` with ``eval``'s options (a picklable factory)."""
    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.agents.prompting import SYSTEM_PROMPT

    args = argparse.Namespace(**options)
    env_id = env.unwrapped.env_id
    try:
        return LLMAgent.for_env(
            env,
            backend,
            shots=_shots(args, env_id),
            retriever=args.retriever,
            system_prompt=None if args.no_system_prompt else SYSTEM_PROMPT,
            strategy=_strategy(args, env_id),
            max_new_tokens=args.max_new_tokens,
            top_k_api=args.top_k_api,
            constrained=args.constrained_on,
            tool_calling=args.tool_calling,
        )
    except ValueError as e:  # a model without native tool calling, say
        raise UserInputError(str(e)) from e


_AGENT_OPTIONS = (
    "agent",
    "shots",
    "retriever",
    "no_system_prompt",
    "strategy",
    "max_new_tokens",
    "top_k_api",
    "constrained_on",
    "tool_calling",
)
"""The options of ``eval`` an LLM agent is built from."""


def _agent_factory(args: argparse.Namespace) -> Any:
    """The agent for ``eval``'s options.

    ``oracle`` and ``random`` by name; an LLM agent as a factory over its loaded backend or, with
    ``--backend ray``, as a recipe the workers build it from (the model loaded once per node, or
    a client per worker for a served model).
    """
    if args.agent in ("oracle", "random"):
        return args.agent
    from toolgym.agents.backends import make_backend

    args.constrained_on = constrained_decoding(args)
    options = {k: getattr(args, k) for k in _AGENT_OPTIONS}
    kwargs = _backend_kwargs(args)
    if args.backend == "ray":
        from toolgym.evaluation.distributed import AgentRecipe

        served = args.model_backend == "openai" or (args.model_backend is None and args.base_url)
        return AgentRecipe(
            backend_factory=functools.partial(make_backend, args.model_backend, **kwargs),
            agent_factory=functools.partial(llm_agent, options=options),
            shared=not served,
        )
    backend = make_backend(args.model_backend, **kwargs)
    return functools.partial(llm_agent, backend=backend, options=options)


def _check_env_ids(ids: list[str]) -> None:
    unknown = [i for i in ids if i not in gym.registry and i.rsplit("-v", 1)[0] not in _names()]
    if unknown:
        raise UserInputError(f"unknown env id(s) {unknown}; known: {', '.join(env_ids())}")


def env_options(pairs: list[str]) -> dict[str, Any]:
    """``--env-option KEY=VALUE`` pairs as env kwargs (a value is JSON when it parses).

    >>> env_options(["category=live_parallel", "max_results=3"])
    {'category': 'live_parallel', 'max_results': 3}

    Raises:
        UserInputError: a pair without ``=`` or a key that is not a name.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.isidentifier():
            raise UserInputError(f"--env-option takes KEY=VALUE with KEY a name; got {pair!r}")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out


def _check_eval_inputs(args: argparse.Namespace, ids: list[str]) -> dict[str, Any]:
    """Check every input of ``eval`` before anything heavy loads; the env kwargs to use.

    Each env's number of tasks is kept in ``args.task_counts`` (for the run's progress bar).

    Raises:
        UserInputError: an unknown env, a task file that is missing, broken or for another env,
            a model that is not there, a results folder that cannot be written.
    """
    _check_env_ids(ids)
    if args.split == "train" and args.limit is None:
        raise UserInputError("--split train is unlimited; pass --limit N")
    if args.strategy == "dfsdt" and args.agent != "llm":
        raise UserInputError(
            f"--strategy dfsdt searches with a model's proposals; it needs --agent llm, "
            f"not {args.agent!r}"
        )
    env_kwargs: dict[str, Any] = {}
    args.task_counts = {}
    args.grammar_envs = {}
    if args.task_file:
        path = Path(args.task_file).expanduser()
        if not path.is_file():
            raise UserInputError(f"--task-file must be a JSONL task file; no file at {str(path)!r}")
        env_kwargs["task_file"] = str(path)
    env_kwargs.update(env_options(getattr(args, "env_option", None) or []))
    check_user_options(args, ids, _options, env_kwargs)
    for env_id in ids:  # the task files load and their golds run: checked before the model
        kwargs = {k: v for k, v in env_kwargs.items() if k != "user"}  # a model: built later
        kwargs["action_mode"] = _action_mode(args, env_id)
        if "task_file" not in kwargs:
            kwargs["split"] = args.split
        try:
            with warnings.catch_warnings():  # the issues are printed below, once
                warnings.simplefilter("ignore", TaskFileWarning)
                env = gym.make(env_id, **kwargs)
        except TaskFileError as e:
            first = str(e).splitlines()[0]
            raise UserInputError(
                f"--task-file {args.task_file!r} does not hold tasks of {env_id}: {first}"
            ) from e
        except (TypeError, ValueError) as e:
            if not getattr(args, "env_option", None):
                raise
            raise UserInputError(f"--env-option: {env_id} refuses the options: {e}") from e
        _print_file_issues(env_id, env)
        args.task_counts[env_id] = len(task_env(env).task_ids)  # 0: an unlimited split
        hints = task_env(env).hints
        args.grammar_envs[env_id] = (
            language_class(hints.action_language).has_grammar() and not hints.free_text
        )
        env.close()
    if args.adapter and (_served(args) or args.model_backend == "llamacpp"):
        raise UserInputError(
            "--adapter applies a LoRA adapter to a local hf model; it cannot change a served "
            "or llama.cpp model (merge the adapter into the weights and serve those instead)"
        )
    if args.agent == "llm":
        from toolgym.agents.backends import check_model

        check_model(args.model_backend, model=args.model, base_url=args.base_url)
    if args.out:
        try:
            Path(args.out).mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=args.out):
                pass
        except OSError as e:
            raise UserInputError(f"--out {args.out!r} cannot be written: {e.strerror}") from e
    return env_kwargs


def _strategy(args: argparse.Namespace, env_id: str) -> str:
    """``--strategy``, else the family's default (``single``, or ``react`` for multi-step tool use)."""
    if args.strategy:
        return str(args.strategy)
    return prompt_defaults(family_of(env_id).name).strategy if args.agent == "llm" else "single"


def _shots(args: argparse.Namespace, env_id: str) -> int | str:
    """``--shots``, else the family's (the original's ``top_k_example``)."""
    if args.shots is not None:
        return args.shots
    return prompt_defaults(family_of(env_id).name).shots


def env_label(args: argparse.Namespace, label: str, env_id: str) -> str:
    """The agent's label on ``env_id``: its strategy and shots filled in."""
    strategy = _strategy(args, env_id)
    grammar = "-grammar" if getattr(args, "grammar_envs", {}).get(env_id, True) else ""
    return (
        label.replace("{strategy}", strategy)
        .replace("{shots}", str(_shots(args, env_id)))
        .replace("{grammar}", grammar)
    )


def row_label(label: str) -> str:
    """The agent's row in the headline table: its label without the per-env parts.

    >>> row_label("hf:smollm2-135m-{strategy}-{shots}shot{grammar}")
    'hf:smollm2-135m'
    """
    return label.replace("-{strategy}", "").replace("-{shots}shot", "").replace("{grammar}", "")


def env_settings(args: argparse.Namespace, settings: dict[str, Any], env_id: str) -> dict[str, Any]:
    """What describes the agent on ``env_id`` (its shots added for an LLM agent)."""
    if args.agent != "llm":
        return settings
    out = {**settings, "shots": _shots(args, env_id)}
    if out.get("constrained") and not getattr(args, "grammar_envs", {}).get(env_id, True):
        out["constrained"] = False  # a language without a grammar (general Python) runs free
    return out


MODEL_BACKENDS = ("hf", "openai", "llamacpp")
"""The model backends ``--model-backend`` names."""


def normalize_backends(args: argparse.Namespace) -> None:
    """Settle ``--backend`` (where episodes run) and ``--model-backend`` (how the model runs).

    ``--backend hf|openai|llamacpp`` is the older spelling of ``--model-backend``.

    Raises:
        UserInputError: the two flags name two different model backends, or Ray options come
            without ``--backend ray``.
    """
    if args.backend in MODEL_BACKENDS:
        if args.model_backend not in (None, args.backend):
            raise UserInputError(
                f"--backend {args.backend} and --model-backend {args.model_backend} name two "
                "model backends; give one (--backend is local or ray, where episodes run)"
            )
        args.model_backend, args.backend = args.backend, "local"
    args.backend = args.backend or "local"
    if args.backend != "ray" and args.ray_address:
        raise UserInputError(
            f"--ray-address {args.ray_address!r} needs --backend ray; got --backend {args.backend}"
        )


def _limit(args: argparse.Namespace, env_id: str, limit: int | None) -> int | None:
    """``--limit``, else the family's default for LLM agents (its ``eval_limit``), else ``limit``."""
    if args.limit is None and limit is not None:
        own = prompt_defaults(family_of(env_id).name).eval_limit
        return limit if own is None else min(own, limit)
    return limit


def _options(env_id: str) -> dict[str, Any]:
    """The family options of ``env_id``'s toolkit."""
    from toolgym.envs.spec import load_ref

    spec = family_of(env_id)
    return dict(load_ref(spec.latest.toolkit or spec.toolkit).options())


def _action_mode(args: argparse.Namespace, env_id: str) -> str:
    """``--action-mode``, else the family's protocol for a single-turn agent, else ``call``."""
    if args.action_mode:
        return str(args.action_mode)
    if _strategy(args, env_id) != "single":
        return "call"
    return family_of(env_id).action_mode


def _print_file_issues(env_id: str, env: gym.Env[Any, Any]) -> None:
    """List, on stderr, the task file's lines that cannot be played as written."""
    unwrapped = task_env(env)
    issues = unwrapped.file_issues
    if not issues:
        return
    marked = sum(1 for i in issues if i.kind == "marked")
    skipped = sum(1 for i in issues if i.kind == "skipped")
    total = len(unwrapped.task_ids)
    print(
        f"{env_id}: {marked} of {total} tasks are kept but cannot be scored (they score 0, "
        f"error invalid_task); {skipped} line(s) are not tasks and were skipped; "
        f"{len(issues) - marked - skipped} are played without some gold alternatives:",
        file=sys.stderr,
    )
    for issue in issues:
        print(f"  line {issue.line} ({issue.kind}): {issue.reason}", file=sys.stderr)
    newest = unwrapped.family.versions[-1].version
    if marked and unwrapped.version < newest:
        print(f"  {unwrapped.family.env_id(newest)} may play them (a newer world)", file=sys.stderr)


def _names() -> set[str]:
    return {e.id.rsplit("-v", 1)[0] for e in env_entries()}

"""Multi-turn GRPO: TRL's ``GRPOTrainer`` playing whole toolgym episodes by tool calls.

:func:`train_grpo_env` trains a LoRA adapter on the ``train`` tasks of any env played in ``call``
mode (the multi-step families, and the API families one call per step). Each task's episode is a
TRL environment (:mod:`toolgym.integrations.trl`): the model sees the task's tools in its chat
template, each tool call it makes runs in the episode, the answer goes back into the
conversation, and the rollout's reward is the episode's reward (``get_reward``), so it is scored
exactly as the evaluation scores an episode. Tasks with different tools are routed to
environments with their own tools (TRL's per-example environments).

The model's chat template must render tools and TRL must parse its tool calls. A template that
cannot (the embedded model's plain ChatML) is replaced for the run by the tool-calling ChatML
template TRL knows (``<tool_call>{...}</tool_call>``) when the tokenizer has the ChatML tokens.

Before and after training, :func:`play_test` plays ``eval_tasks`` tasks of the ``test`` split
greedily through the same environments and template, and reports success, reward and the
number of tool calls: the result says what training changed where it counts. Everything goes to
``toolgym_rl.json`` beside the adapter (the format of :mod:`toolgym.training.grpo`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgym.agents.backends.hf import EMBEDDED_MODEL
from toolgym.agents.native_prompting import TOOL_CALL_SYSTEM_PROMPT as SYSTEM_PROMPT
from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.integrations.trl import ToolgymEnvironment, environment_factories
from toolgym.training.checks import check_lora, check_positive, check_whole, config_dict
from toolgym.training.finetune import DEFAULT_TARGET_MODULES
from toolgym.training.grpo import RLResult, grpo_args, lora_config, require_rl, write_summary
from toolgym.training.rl_curve import log_writer

CHATML_TOKENS = ("<|im_start|>", "<|im_end|>")
"""The tokens a model needs for the tool-calling ChatML template."""


@dataclass
class EnvRLConfig:
    """A multi-turn GRPO run.

    Attributes:
        model: ``"smollm2-135m"`` (the embedded model), a model id or a local directory.
        envs: env ids, each played in ``call`` mode.
        n: ``train`` tasks per env.
        num_generations: rollouts per task (GRPO's group).
        prompts_per_step: tasks per optimizer step.
        micro_batch: rollouts per forward and backward pass.
        max_completion_length: the token budget of a whole rollout (the model's turns and the
            tools' answers).
        max_tool_calls: tool-calling turns per rollout at most.
        temperature: the sampling temperature.
        max_steps: optimizer steps.
        lr: the peak learning rate (linear decay to 0).
        beta: the KL weight (0: no reference model).
        lora_r: the LoRA rank.
        lora_alpha: the LoRA scaling numerator.
        lora_dropout: dropout on the LoRA input.
        target_modules: the module names LoRA adapts.
        seed: the seed of the task stream, the LoRA initialization and the sampling.
        world_seed: the simulated world.
        eval_tasks: ``test`` tasks played before and after training, per env (0: none).
        eval_max_new_tokens: tokens per model turn in the test episodes.
        eval_batch: test episodes played together, one batched generation per turn (1: one
            at a time); ``None``: 8 on a GPU, 1 on the CPU (where each turn reads the whole
            conversation again, work that batching does not share and padding adds to).
        out: where the adapter and ``toolgym_rl.json`` go.
        num_threads: CPU threads for torch (default: torch's choice).
        device: ``"cpu"``, ``"cuda"``, ... (default: CUDA when available).
        progress: show progress bars.
        adapter: a LoRA adapter merged into the model before anything runs (the tool-calling
            start, ``toolgym finetune --tool-calls``; its chat template comes with it), or
            ``None``.
    """

    model: str = EMBEDDED_MODEL
    envs: tuple[str, ...] = ()
    n: int = 64
    num_generations: int = 4
    prompts_per_step: int = 2
    micro_batch: int = 2
    max_completion_length: int = 768
    max_tool_calls: int = 8
    temperature: float = 0.8
    max_steps: int = 20
    lr: float = 1e-4
    beta: float = 0.0
    lora_r: int = 16
    lora_alpha: float = 32
    lora_dropout: float = 0.05
    target_modules: tuple[str, ...] = DEFAULT_TARGET_MODULES
    seed: int = 0
    world_seed: int = 0
    eval_tasks: int = 8
    eval_max_new_tokens: int = 128
    eval_batch: int | None = None
    out: str = "adapters/rl-env"
    num_threads: int | None = None
    device: str | None = None
    progress: bool = True
    adapter: str | None = None

    def check(self) -> None:
        """Raise :class:`~toolgym.errors.UserInputError` for a setting that cannot work."""
        if not self.envs:
            raise UserInputError("name at least one env id to train on; got none")
        check_whole(
            {
                "n": (self.n, 1),
                "num_generations": (self.num_generations, 2),
                "prompts_per_step": (self.prompts_per_step, 1),
                "micro_batch": (self.micro_batch, 1),
                "max_completion_length": (self.max_completion_length, 16),
                "max_tool_calls": (self.max_tool_calls, 1),
                "max_steps": (self.max_steps, 1),
                "lora_r": (self.lora_r, 1),
                "seed": (self.seed, 0),
                "world_seed": (self.world_seed, 0),
                "eval_tasks": (self.eval_tasks, 0),
                "eval_max_new_tokens": (self.eval_max_new_tokens, 1),
                "eval_batch": (self.eval_batch, 1),
                "num_threads": (self.num_threads, 1),
            },
            ("num_threads", "eval_batch"),
        )
        check_positive(
            {"lr": self.lr, "lora_alpha": self.lora_alpha, "temperature": self.temperature}
        )
        if not isinstance(self.beta, int | float) or self.beta < 0:
            raise UserInputError(f"beta is a number >= 0; got {self.beta!r}")
        check_lora(self.lora_dropout, self.target_modules)
        per_step = self.num_generations * self.prompts_per_step
        if per_step % self.micro_batch:
            raise UserInputError(
                f"micro_batch divides num_generations * prompts_per_step ({per_step}); "
                f"got {self.micro_batch}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON-ready values."""
        return config_dict(self)


MIN_TRANSFORMERS = (5, 2)
"""The oldest transformers TRL's environments run on."""


def _environments_supported(version: str) -> bool:
    """Whether transformers ``version`` runs TRL's environments.

    >>> _environments_supported("4.56.2"), _environments_supported("5.24.0")
    (False, True)
    """
    parts = [int(p) if p.isdigit() else 0 for p in version.split(".")[:2]]
    return tuple(parts) >= MIN_TRANSFORMERS


def _require_environments(version: str, what: str) -> None:
    """Refuse transformers older than TRL's environments need (``what`` runs on them)."""
    if not _environments_supported(version):
        raise DependencyNotInstalled(
            f"{what} runs on TRL's environments, which need transformers>=5.2; got {version}: "
            'pip install "transformers>=5.2"'
        )


def tool_chat_template(tokenizer: Any) -> None:
    """Give ``tokenizer`` a chat template that renders tools, if its own does not.

    Raises:
        UserInputError: the template renders no tools and the model has no ChatML tokens.
    """
    from trl import chat_template_utils

    probe = [{"role": "user", "content": "x"}]
    tool = {
        "type": "function",
        "function": {"name": "probe_tool", "description": "d", "parameters": {"type": "object"}},
    }
    template = getattr(tokenizer, "chat_template", None)
    if template is not None:
        text = tokenizer.apply_chat_template(probe, tools=[tool], tokenize=False)
        if "probe_tool" in text:
            return
    vocab = tokenizer.get_vocab()
    if not all(t in vocab for t in CHATML_TOKENS):
        raise UserInputError(
            "the model's chat template renders no tools, and the model has no ChatML tokens "
            f"({', '.join(CHATML_TOKENS)}) for toolgym's tool-calling template; use a model "
            "whose template supports tool calling"
        )
    tokenizer.chat_template = chat_template_utils.qwen2_5_chat_template


def task_ids(env_id: str, n: int, seed: int) -> list[str]:
    """The run's ``train`` tasks of ``env_id``: ``n`` of the stream ``seed``."""
    from toolgym.benchmarks.suite import TRAIN_STRIDE

    return [f"train-{seed * TRAIN_STRIDE + k}" for k in range(n)]


def _environments(
    config: EnvRLConfig, split: str, ids_of: Mapping[str, list[str]]
) -> tuple[dict[str, type[ToolgymEnvironment]], list[dict[str, Any]]]:
    """The environment classes by name, and one dataset row per task (``ids_of`` by env)."""
    classes: dict[str, type[ToolgymEnvironment]] = {}
    rows = []
    for env_id, ids in ids_of.items():
        groups, of_task = environment_factories(
            env_id, ids, split=split, world_seed=config.world_seed
        )
        for group, cls in groups.items():
            classes[f"{env_id}#{group}"] = cls
        for k, task_id in enumerate(ids):
            rows.append(
                {
                    "prompt": [
                        {"role": "system", "content": SYSTEM_PROMPT},
                        {"role": "user", "content": ""},
                    ],
                    "environment": f"{env_id}#{of_task[task_id]}",
                    "task_id": task_id,
                    "seed": config.seed + k,
                }
            )
    return classes, rows


def play_test(
    config: EnvRLConfig, model: Any, tokenizer: Any, *, label: str = "test"
) -> dict[str, dict[str, float]]:
    """Greedy episodes on each env's first ``eval_tasks`` test tasks: success, reward, calls.

    The model sees what it sees in training (the system prompt, the task, its tools in the chat
    template) and its tool calls are parsed as TRL parses them. ``eval_batch`` episodes are
    played together (by default 8 on a GPU, 1 on the CPU): each turn is one generation for all of them (their prompts padded on the
    left), and an episode leaves the batch when it ends.
    """
    import gymnasium as gym

    from toolgym.envs.protocol import task_env

    out: dict[str, dict[str, float]] = {}
    if config.eval_tasks == 0:
        return out
    for env_id in config.envs:
        probe = gym.make(env_id, action_mode="call", world_seed=config.world_seed)
        ids = [str(t) for t in task_env(probe).task_ids][: config.eval_tasks]
        probe.close()
        classes, rows = _environments(config, "test", {env_id: ids})
        played: list[tuple[float, bool, int]] = []
        size = config.eval_batch or (8 if str(model.device).startswith("cuda") else 1)
        for first in range(0, len(rows), size):
            batch = rows[first : first + size]
            played += _play_together(config, model, tokenizer, classes, batch)
        n = max(len(rows), 1)
        out[env_id] = {
            "episodes": len(rows),
            "success": sum(success for _, success, _ in played) / n,
            "reward": sum(reward for reward, _, _ in played) / n,
            "tool_calls": sum(calls for _, _, calls in played) / n,
        }
    return out


@dataclass
class _TestEpisode:
    """One test episode in a batch: its environment object, conversation and tools."""

    env: ToolgymEnvironment
    messages: list[dict[str, Any]]
    tools: dict[str, Callable[..., str]]
    calls: int = 0
    turns: int = 0
    done: bool = False


def _play_together(
    config: EnvRLConfig,
    model: Any,
    tokenizer: Any,
    classes: Mapping[str, type[ToolgymEnvironment]],
    rows: Sequence[Mapping[str, Any]],
) -> list[tuple[float, bool, int]]:
    """Play ``rows``' episodes in lockstep; each one's (reward, success, tool calls)."""
    episodes = []
    for row in rows:
        env = classes[row["environment"]]()
        messages = [dict(row["prompt"][0]), {"role": "user", "content": env.reset(**row)}]
        episodes.append(_TestEpisode(env, messages, _methods(env)))
    while active := [e for e in episodes if not e.done]:
        prompts = [
            tokenizer.apply_chat_template(
                e.messages,
                tools=list(e.tools.values()),
                add_generation_prompt=True,
                return_tensors="pt",
                return_dict=True,
            )["input_ids"][0].tolist()
            for e in active
        ]
        for episode, prompt, completion in zip(
            active, prompts, _generate(config, model, tokenizer, prompts), strict=True
        ):
            reply = _parse(tokenizer, completion, prompt, list(episode.tools.values()))
            episode.messages.append(reply)
            episode.turns += 1
            tool_calls = reply.get("tool_calls") or []
            if not tool_calls or episode.env.episode.done:
                episode.done = True
                continue
            for call in tool_calls:
                episode.calls += 1
                episode.messages.append(_answer(episode.tools, call))
            episode.done = episode.env.episode.done or episode.turns > config.max_tool_calls
    out = []
    for episode in episodes:
        metrics = episode.env.episode.state().get("metrics") or {}
        out.append((episode.env.get_reward(), bool(metrics.get("success")), episode.calls))
        episode.env.episode.close()
    return out


def _generate(
    config: EnvRLConfig, model: Any, tokenizer: Any, prompts: list[list[int]]
) -> list[list[int]]:
    """Greedy completions of ``prompts`` in one batch (padded on the left), as token ids."""
    import torch

    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    width = max(len(p) for p in prompts)
    input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts], device=model.device)
    mask = torch.tensor(
        [[0] * (width - len(p)) + [1] * len(p) for p in prompts], device=model.device
    )
    with torch.no_grad():
        generated = model.generate(
            input_ids=input_ids,
            attention_mask=mask,
            max_new_tokens=config.eval_max_new_tokens,
            do_sample=False,
            pad_token_id=pad,
        )
    return [row[width:].tolist() for row in generated]


def _answer(tools: Mapping[str, Callable[..., str]], call: Mapping[str, Any]) -> dict[str, Any]:
    """The tool message answering one parsed call (an error text for a call it cannot make)."""
    function = call.get("function", {})
    method = tools.get(function.get("name"))
    arguments = function.get("arguments")
    if method is None or not isinstance(arguments, dict):
        result = f"Error: no tool {function.get('name')!r} or arguments not an object"
    else:
        try:
            result = method(**arguments)
        except TypeError as e:  # arguments the tool does not take
            result = f"Error: {e}"
    return {"role": "tool", "name": function.get("name"), "content": result}


def evaluate_tool_calls(config: EnvRLConfig) -> dict[str, dict[str, float]]:
    """:func:`play_test` alone: the model (with ``config.adapter``) on each env's test tasks.

    Raises:
        UserInputError: a bad setting, or a model whose chat template cannot call tools.
        DependencyNotInstalled: torch, transformers, peft or trl is missing.
    """
    from toolgym.training.trainable import trainable_model

    config.check()
    _, transformers, _, _ = require_rl()
    _require_environments(transformers.__version__, "playing test episodes by tool calls")
    model, tokenizer = trainable_model(
        config.model, config.device, config.num_threads, adapter=config.adapter
    )
    model.eval()
    return play_test(config, model, tokenizer, label="eval")


def episode_success(
    environments: Sequence[ToolgymEnvironment] | None = None,
    prompts: Sequence[Any] | None = None,
    **_: Any,
) -> list[float | None]:
    """A reward function TRL logs beside the episodes' rewards: 1.0 for a solved episode.

    Given to ``GRPOTrainer`` with a weight of 0, so the run is trained on the episodes' own
    rewards (``get_reward``) and TRL logs the success rate of each step's rollouts
    (``rewards/episode_success/mean``).
    """
    if environments is None:  # no episodes to read (TRL passes them with environments)
        return [None] * len(prompts or ())
    return [
        float(bool((e.episode.state().get("metrics") or {}).get("success")))
        if e.episode.started
        else 0.0
        for e in environments
    ]


def _methods(env: ToolgymEnvironment) -> dict[str, Callable[..., str]]:
    return {name: getattr(env, name) for name in type(env).tool_names}


def _parse(
    tokenizer: Any, completion: list[int], prompt: list[int], tools: list[Any]
) -> dict[str, Any]:
    """The assistant message of a completion (with its tool calls), as TRL's rollouts parse it.

    The completion is cut after its first end-of-turn token; TRL's ``parse_response`` reads it
    with the prompt before it (newer transformers need it) and the tools (which type the
    arguments), and falls back to plain text for a reply it cannot read.
    """
    from trl.chat_template_utils import parse_response

    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    if isinstance(end, int) and end in completion:
        completion = completion[: completion.index(end) + 1]
    parsed = parse_response(tokenizer, completion, prefix=prompt, tools=tools)
    return {"role": "assistant", **{k: v for k, v in parsed.items() if k != "role"}}


def train_grpo_env(
    config: EnvRLConfig, *, callbacks: Sequence[Any] = (), on_start: Callable[[], Any] | None = None
) -> RLResult:
    """Train a LoRA adapter with multi-turn GRPO on whole episodes; save it in ``config.out``.

    Raises:
        UserInputError: a bad setting, or a model whose chat template cannot call tools.
        DependencyNotInstalled: torch, transformers, peft, trl or datasets is missing, or
            transformers is older than 5.2.
    """
    import os

    config.check()
    torch, transformers, peft, trl = require_rl()
    from toolgym.training.sft_data import datasets_module
    from toolgym.training.trainable import trainable_model

    _require_environments(transformers.__version__, "multi-turn GRPO")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    model, tokenizer = trainable_model(
        config.model, config.device, config.num_threads, adapter=config.adapter
    )
    eval_start = time.perf_counter()
    before = play_test(config, model, tokenizer, label="base")
    eval_s = time.perf_counter() - eval_start
    classes, rows = _environments(
        config, "train", {e: task_ids(e, config.n, config.seed) for e in config.envs}
    )
    dataset = datasets_module().Dataset.from_list(rows)
    if on_start is not None:
        on_start()
    start = time.perf_counter()
    args = grpo_args(
        trl,
        torch,
        config,
        str(model.device),
        max_completion_length=config.max_completion_length,
        max_tool_calling_iterations=config.max_tool_calls,
        gradient_checkpointing=False,  # the embedded model fits with room to spare
        reward_weights=[0.0],  # episode_success is logged, not trained on (TRL adds get_reward)
    )
    lora = lora_config(peft, config)
    transformers.set_seed(config.seed)
    try:
        trainer = trl.GRPOTrainer(
            model=model,
            reward_funcs=[episode_success],
            args=args,
            train_dataset=dataset,
            processing_class=tokenizer,
            peft_config=lora,
            environment_factory=dict(classes),
            callbacks=[*callbacks, log_writer(transformers, config.out)],
        )
    except ValueError as e:
        raise UserInputError(f"GRPO cannot train {config.model} as configured: {e}") from e
    if not config.progress:
        trainer.remove_callback(transformers.PrinterCallback)
    trainable = sum(p.numel() for p in trainer.model.parameters() if p.requires_grad)
    trainer.train()
    out = Path(config.out)
    trainer.model.save_pretrained(str(out))
    wall = time.perf_counter() - start
    logs = [dict(entry) for entry in trainer.state.log_history]
    eval_start = time.perf_counter()
    after = play_test(config, trainer.model, tokenizer, label="grpo")
    eval_s += time.perf_counter() - eval_start
    history = [
        {
            "step": max(int(entry.get("step", 1)) - 1, 0),
            "reward": float(entry["reward"]),
            "success": entry.get("rewards/episode_success/mean"),
            "tool_calls": entry.get("tools/call_frequency"),
            "tool_failures": entry.get("tools/failure_frequency"),
            "frac_reward_zero_std": entry.get("frac_reward_zero_std"),
        }
        for entry in logs
        if "reward" in entry
    ]
    result = RLResult(
        out=out,
        env_ids=list(config.envs),
        steps=int(trainer.state.global_step),
        history=history,
        logs=logs,
        before=before,
        after=after,
        wall_s=wall,
        eval_s=eval_s,
        device=str(model.device),
        trainable_params=int(trainable),
    )
    write_summary(config, result, {"trl": trl.__version__, "peft": peft.__version__})
    return result

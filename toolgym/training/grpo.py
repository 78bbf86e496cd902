"""GRPO on execution rewards: TRL's ``GRPOTrainer``, a LoRA adapter, any causal LM.

:func:`train_grpo` trains a LoRA adapter (``peft``) on the prompts of a single-step family's
generated ``train`` tasks (:func:`~toolgym.training.rl_data.rl_examples`: the prompt the eval
agent builds, no gold), with TRL's ``GRPOTrainer`` sampling a group of completions per prompt and
:class:`~toolgym.training.rewards.ExecutionReward` scoring each one by running it in the task's
env, exactly as the evaluation scores it. Before and after training it evaluates greedy
decoding on the family's ``test`` split with :func:`~toolgym.evaluation.runner.evaluate` and the
same prompts, so the result says what the training changed where it counts.

Generation stops. The agent's stop sequences (``------``, ``Task:``) are strings, and TRL's
generation stops only at end-of-sequence tokens; so every token of the model's vocabulary whose
text holds a stop sequence, or is a prefix of one of at least :data:`MIN_STOP_PREFIX`
characters (``---``, ``Task``), is added to the model's end-of-sequence ids for the run. The
completion then ends there, its loss stops there, and the reward cuts the text at the exact
stop sequence, as the evaluation does.

Curriculum (optional). The prompts are ordered by the task's difficulty, the number of API calls
of its reference program (fewest first), instead of shuffled. Only that count is read from the
task; the prompts never show the reference program.

Everything a run measured is written to ``toolgym_rl.json`` beside the adapter: the
configuration, the reward history of every generation batch (mean reward, success and
executable rates, error categories), TRL's logged metrics, the test results before and after,
and the wall time. :mod:`toolgym.training.rl_report` draws it.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.agents.backends.hf import EMBEDDED_MODEL
from toolgym.agents.defaults import prompt_defaults
from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.training.checks import check_lora, check_positive, check_whole, config_dict
from toolgym.training.finetune import DEFAULT_TARGET_MODULES
from toolgym.training.rewards import SHAPINGS, ExecutionReward
from toolgym.training.rl_curve import curve_summary, log_writer, with_trainer_logs
from toolgym.training.rl_data import rl_env_ids, rl_examples, task_difficulties
from toolgym.training.sft_data import program_env_ids

RESULT_FILE = "toolgym_rl.json"
"""What a GRPO run writes next to its adapter."""

MIN_STOP_PREFIX = 3
"""The shortest prefix of a stop sequence that, as a whole token, ends a sampled completion."""


@dataclass
class RLConfig:
    """A GRPO run on execution rewards.

    Attributes:
        model: ``"smollm2-135m"`` (the embedded model), a model id or a local directory.
        envs: single-step env ids to train on.
        families: family names, each meaning its newest env.
        n: ``train`` prompts per env (the dataset; a run of ``max_steps`` reads
            ``max_steps * prompts_per_step`` of them, cycling when it needs more).
        shots: demonstrations per prompt (default: the family's, as ``toolgym eval``).
        system_prompt: put the agent's system prompt in each prompt.
        top_k_api: API docs per prompt (default: the family's).
        world_seed: the simulated world the tasks are generated for.
        shaping: how an episode becomes the reward (:data:`~toolgym.training.rewards.SHAPINGS`).
        curriculum: order the prompts by the number of API calls their task needs, fewest
            first, instead of shuffling them.
        num_generations: completions sampled per prompt (GRPO's group).
        prompts_per_step: prompts per optimizer step.
        micro_batch: completions per forward and backward pass; the step's
            ``prompts_per_step * num_generations`` completions are sampled at once and then
            trained on in micro-batches (gradient accumulation), which bounds the memory.
        max_completion_length: the token budget of a completion (default: the family's
            ``max_new_tokens``).
        temperature: the sampling temperature.
        max_steps: optimizer steps.
        lr: the peak learning rate (linear decay to 0).
        beta: the weight of the KL penalty to the base model (0: none, no reference model).
        lora_r: the LoRA rank.
        lora_alpha: the LoRA scaling numerator.
        lora_dropout: dropout on the LoRA input.
        target_modules: the module names LoRA adapts.
        seed: the seed of the ``train`` stream, the LoRA initialization, the data order and
            the sampling.
        eval_tasks: ``test`` tasks evaluated before and after training, per env (0: none).
        eval_constrained: evaluate with the action grammar (constrained decoding), as
            ``toolgym eval`` does by default; off by default, since training samples freely.
        out: the folder the adapter and ``toolgym_rl.json`` are written to.
        num_threads: CPU threads for torch (default: torch's choice).
        chat: render with the model's chat template (``None``: as ``HFBackend`` decides).
        device: ``"cpu"``, ``"cuda"``, ... (default: CUDA when available, else the CPU).
        gradient_checkpointing: recompute activations in the backward pass (less memory, more
            time; TRL's default, off here since the embedded model fits with room to spare).
        progress: show progress bars.
    """

    model: str = EMBEDDED_MODEL
    envs: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    n: int = 256
    shots: int | None = None
    system_prompt: bool = True
    top_k_api: int | None = None
    world_seed: int = 0
    shaping: str = "reward"
    curriculum: bool = False
    num_generations: int = 4
    prompts_per_step: int = 2
    micro_batch: int = 2
    max_completion_length: int | None = None
    temperature: float = 0.8
    max_steps: int = 50
    lr: float = 1e-4
    beta: float = 0.0
    lora_r: int = 16
    lora_alpha: float = 32
    lora_dropout: float = 0.05
    target_modules: tuple[str, ...] = DEFAULT_TARGET_MODULES
    seed: int = 0
    eval_tasks: int = 16
    eval_constrained: bool = False
    out: str = "adapters/rl"
    num_threads: int | None = None
    chat: bool | None = None
    device: str | None = None
    gradient_checkpointing: bool = False
    progress: bool = True

    def check(self) -> None:
        """Raise :class:`~toolgym.errors.UserInputError` for a setting that cannot work."""
        whole = {
            "n": (self.n, 1),
            "num_generations": (self.num_generations, 2),
            "prompts_per_step": (self.prompts_per_step, 1),
            "micro_batch": (self.micro_batch, 1),
            "max_completion_length": (self.max_completion_length, 1),
            "max_steps": (self.max_steps, 1),
            "lora_r": (self.lora_r, 1),
            "seed": (self.seed, 0),
            "world_seed": (self.world_seed, 0),
            "eval_tasks": (self.eval_tasks, 0),
            "shots": (self.shots, 0),
            "top_k_api": (self.top_k_api, 0),
            "num_threads": (self.num_threads, 1),
        }
        optional = ("max_completion_length", "shots", "top_k_api", "num_threads")
        check_whole(whole, optional)
        check_positive(
            {"lr": self.lr, "lora_alpha": self.lora_alpha, "temperature": self.temperature}
        )
        if not isinstance(self.beta, int | float) or not math.isfinite(self.beta) or self.beta < 0:
            raise UserInputError(f"beta is a number >= 0; got {self.beta!r}")
        check_lora(self.lora_dropout, self.target_modules)
        if self.shaping not in SHAPINGS:
            raise UserInputError(f"shaping is one of {', '.join(SHAPINGS)}; got {self.shaping!r}")
        per_step = self.num_generations * self.prompts_per_step
        if per_step % self.micro_batch:
            raise UserInputError(
                f"micro_batch divides num_generations * prompts_per_step ({per_step}); "
                f"got {self.micro_batch}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON-ready values."""
        return config_dict(self)


@dataclass
class RLResult:
    """What a GRPO run did.

    Attributes:
        out: the adapter folder.
        env_ids: the envs trained on.
        steps: optimizer steps taken.
        history: one entry per generation batch: ``step``, ``reward`` (mean), ``success`` and
            ``executable`` (rates), ``completions`` and ``errors`` (error category counts), and
            TRL's ``frac_reward_zero_std`` of the step; a whole-episode run's entries hold
            ``step``, ``reward``, ``success``, ``tool_calls``, ``tool_failures`` and
            ``frac_reward_zero_std``.
        logs: TRL's logged metrics, one entry per logged step.
        before: per env, the ``test`` results of the base model (``success``, ``reward``,
            ``executable``, ``episodes``), empty without evaluation.
        after: the same for the trained adapter.
        wall_s: seconds from the end of the base model's evaluation to the adapter's saving.
        eval_s: seconds spent in the two evaluations.
        device: where it trained.
        trainable_params: parameters LoRA trains.
    """

    out: Path
    env_ids: list[str]
    steps: int
    history: list[dict[str, Any]]
    logs: list[dict[str, Any]]
    before: dict[str, dict[str, float]] = field(default_factory=dict)
    after: dict[str, dict[str, float]] = field(default_factory=dict)
    wall_s: float = 0.0
    eval_s: float = 0.0
    device: str = "cpu"
    trainable_params: int = 0


def require_rl() -> tuple[Any, Any, Any, Any]:
    """``torch``, ``transformers``, ``peft`` and ``trl``.

    Raises:
        DependencyNotInstalled: one of them is missing.
    """
    try:
        import peft
        import torch
        import transformers
        import trl
    except ImportError as e:
        raise DependencyNotInstalled(
            f"GRPO training needs torch, transformers, peft and trl ({e.name} is missing): "
            'pip install "toolgym[hf,train]"'
        ) from e
    return torch, transformers, peft, trl


def end_ids(model: Any, tokenizer: Any, stop_ids: Sequence[int]) -> list[int]:
    """The ids that end a sampled completion: the model's own end ids, the tokenizer's, the stops."""
    declared = model.generation_config.eos_token_id
    own = [declared] if isinstance(declared, int) else list(declared or [])
    ids = [*own, tokenizer.eos_token_id, *stop_ids]
    return list(dict.fromkeys(int(i) for i in ids if i is not None))


def stop_token_ids(tokenizer: Any, stops: Sequence[str]) -> list[int]:
    """The token ids whose text holds a stop sequence, or is a long enough prefix of one.

    A prefix counts from :data:`MIN_STOP_PREFIX` characters, leading spaces aside (``---`` and
    ``Task`` begin ``------`` and ``Task:``); shorter ones (``-``, ``T``) start too much else.
    """
    found = []
    for token_id in range(len(tokenizer)):
        text = tokenizer.decode([token_id])
        core = text.strip()
        if any(s in text for s in stops) or (
            len(core) >= MIN_STOP_PREFIX and any(s.startswith(core) for s in stops)
        ):
            found.append(token_id)
    return found


def trim_partial_stop(text: str, stops: Sequence[str]) -> str:
    """``text`` without a trailing beginning of a stop sequence (at least :data:`MIN_STOP_PREFIX`).

    A completion that ended on a token beginning a stop sequence (``Task`` of ``Task:``) is read
    as if the rest of the stop followed, which is where the agent's generation would have been
    cut.

    >>> trim_partial_stop('API.search()\\nTask', ["------", "Task:"])
    'API.search()\\n'
    """
    for stop in stops:
        for k in range(len(stop) - 1, MIN_STOP_PREFIX - 1, -1):
            if text.endswith(stop[:k]):
                return text[:-k]
    return text


class RewardLog:
    """An :class:`ExecutionReward` that also keeps each batch's statistics (:attr:`history`).

    It has the reward's signature and name, so TRL logs it under the same column. A completion
    whose last token is one of ``stop_ids`` (the tokens that end a sampled completion, see
    :func:`stop_token_ids`) loses a trailing beginning of a stop sequence before it is scored
    (:func:`trim_partial_stop`); a whole stop sequence is cut by the reward itself.
    """

    def __init__(
        self,
        reward: ExecutionReward,
        stop_ids: Sequence[int] = (),
        stops: Sequence[str] = (),
    ) -> None:
        self.reward = reward
        self.__name__ = reward.__name__
        self.stop_ids = frozenset(stop_ids)
        self.stops = tuple(stops)
        self.history: list[dict[str, Any]] = []

    def _trimmed(
        self, completions: Sequence[Any], ids: Sequence[Sequence[int]] | None
    ) -> list[Any]:
        out = list(completions)
        if not ids or not self.stop_ids:
            return out
        for i, (completion, tokens) in enumerate(zip(out, ids, strict=False)):
            if len(tokens) == 0 or int(tokens[-1]) not in self.stop_ids:
                continue
            if isinstance(completion, str):
                out[i] = trim_partial_stop(completion, self.stops)
            elif completion and isinstance(completion[-1].get("content"), str):
                last = dict(completion[-1])
                last["content"] = trim_partial_stop(last["content"], self.stops)
                out[i] = [*completion[:-1], last]
        return out

    def __call__(
        self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] = (), **columns: Any
    ) -> list[float]:
        """Score the batch with the reward, and keep its statistics."""
        completions = self._trimmed(completions, columns.get("completion_ids"))
        rewards = self.reward(prompts, completions, **columns)
        state = columns.get("trainer_state")
        step = int(getattr(state, "global_step", len(self.history)))
        batch = self.reward.last_batch
        n = max(len(batch), 1)
        self.history.append(
            {
                "step": step,
                "reward": sum(rewards) / max(len(rewards), 1),
                "success": sum(bool(r.metrics.get("success")) for r in batch) / n,
                "executable": sum(r.executable for r in batch) / n,
                "completions": len(batch),
                "errors": dict(Counter(r.error_category or "none" for r in batch)),
            }
        )
        return rewards


def _dataset(config: RLConfig, env_ids: list[str], chat: bool) -> Any:
    from toolgym.training.sft_data import datasets_module

    datasets = datasets_module()
    n = config.n
    if config.curriculum:
        # The run reads max_steps * prompts_per_step prompts: build and order only those (from
        # every env), so it ends on the hardest of them instead of never reaching the hard end.
        read = max(config.max_steps, 1) * config.prompts_per_step
        n = min(n, -(-read // len(env_ids)))
    records = rl_examples(
        env_ids,
        n,
        fmt="chat" if chat else "completion",
        seed=config.seed,
        world_seed=config.world_seed,
        shots=config.shots,
        system_prompt=config.system_prompt,
        top_k_api=config.top_k_api,
    )
    if config.curriculum:
        difficulty = task_difficulties(records, world_seed=config.world_seed)
        order = sorted(range(len(records)), key=lambda i: (difficulty[i], i))
        records = [records[i] for i in order]
    return datasets.Dataset.from_list(records)


def evaluate_test(
    config: RLConfig, env_ids: Sequence[str], backend: Any, label: str
) -> dict[str, dict[str, float]]:
    """Greedy test results of ``backend`` with the run's prompts: per env, success and reward."""
    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.agents.prompting import SYSTEM_PROMPT
    from toolgym.envs import family_of
    from toolgym.evaluation.runner import evaluate

    out: dict[str, dict[str, float]] = {}
    if config.eval_tasks == 0:
        return out
    for env_id in env_ids:
        shots = (
            prompt_defaults(family_of(env_id).name).shots if config.shots is None else config.shots
        )

        def factory(env: Any, shots: int = shots) -> Any:
            return LLMAgent.for_env(
                env,
                backend,
                shots=shots,
                system_prompt=SYSTEM_PROMPT if config.system_prompt else None,
                strategy="single",
                top_k_api=config.top_k_api,
                constrained=config.eval_constrained,
            )

        result = evaluate(
            env_id,
            factory,
            split="test",
            limit=config.eval_tasks,
            env_kwargs={"world_seed": config.world_seed},
            progress=config.progress,
            label=label,
        )
        records = result.records
        n = max(len(records), 1)
        out[env_id] = {
            "episodes": len(records),
            "success": sum(bool((r.metrics or {}).get("success")) for r in records) / n,
            "reward": sum(float(r.reward) for r in records) / n,
            "executable": sum(bool((r.metrics or {}).get("executable")) for r in records) / n,
        }
    return out


def train_grpo(
    config: RLConfig, *, callbacks: Sequence[Any] = (), on_start: Callable[[], Any] | None = None
) -> RLResult:
    """Train a LoRA adapter with GRPO on execution rewards; save it in ``config.out``.

    Args:
        config: the run.
        callbacks: more ``transformers.TrainerCallback`` objects for the trainer.
        on_start: called once the model is loaded and the base model evaluated.

    Raises:
        UserInputError: a bad setting, no env named, a multi-step family.
        DependencyNotInstalled: torch, transformers, peft, trl or datasets is missing.
    """
    config.check()
    torch, transformers, peft, trl = require_rl()
    from toolgym.agents.backends.base import DEFAULT_STOPS
    from toolgym.agents.backends.hf import HFBackend
    from toolgym.envs import family_of

    env_ids = rl_env_ids(program_env_ids(config.envs, config.families))
    if config.n * len(env_ids) < config.prompts_per_step:
        raise UserInputError(
            f"a step takes prompts_per_step={config.prompts_per_step} prompts; the dataset has "
            f"n * envs = {config.n * len(env_ids)} (raise n, or lower prompts_per_step)"
        )
    backend = HFBackend(
        config.model, num_threads=config.num_threads, chat=config.chat, device=config.device
    )
    dataset = _dataset(config, env_ids, backend.chat)
    eval_start = time.perf_counter()
    before = evaluate_test(config, env_ids, backend, "base")
    eval_s = time.perf_counter() - eval_start
    if on_start is not None:
        on_start()
    start = time.perf_counter()
    tokenizer, model = backend.tokenizer, backend.model
    stop_ids = stop_token_ids(tokenizer, DEFAULT_STOPS)
    model.generation_config.eos_token_id = end_ids(model, tokenizer, stop_ids)
    reward = RewardLog(
        ExecutionReward(
            env_ids,
            split="train",
            shaping=config.shaping,
            env_kwargs={"world_seed": config.world_seed},
            seed=config.seed,
        ),
        stop_ids,
        DEFAULT_STOPS,
    )
    budget = config.max_completion_length or max(
        prompt_defaults(family_of(e).name).max_new_tokens for e in env_ids
    )
    args = grpo_args(
        trl,
        torch,
        config,
        backend.device,
        max_completion_length=budget,
        shuffle_dataset=not config.curriculum,
        gradient_checkpointing=config.gradient_checkpointing,
    )
    lora = lora_config(peft, config)
    transformers.set_seed(config.seed)
    try:
        try:
            trainer = trl.GRPOTrainer(
                model=model,
                reward_funcs=[reward],
                args=args,
                train_dataset=dataset,
                processing_class=tokenizer,
                peft_config=lora,
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
    finally:
        reward.reward.close()
    wall = time.perf_counter() - start
    logs = [dict(entry) for entry in trainer.state.log_history]
    eval_start = time.perf_counter()
    after = (
        evaluate_test(
            config,
            env_ids,
            HFBackend(
                config.model,
                num_threads=config.num_threads,
                chat=config.chat,
                device=config.device,
                adapter=out,
            ),
            "grpo",
        )
        if config.eval_tasks
        else {}
    )
    eval_s += time.perf_counter() - eval_start
    result = RLResult(
        out=out,
        env_ids=env_ids,
        steps=int(trainer.state.global_step),
        history=with_trainer_logs(reward.history, logs),
        logs=logs,
        before=before,
        after=after,
        wall_s=wall,
        eval_s=eval_s,
        device=backend.device,
        trainable_params=int(trainable),
    )
    write_summary(config, result, {"trl": trl.__version__, "peft": peft.__version__})
    return result


def grpo_args(trl: Any, torch: Any, config: Any, device: str, **more: Any) -> Any:
    """TRL's ``GRPOConfig`` of a run (``RLConfig`` or ``EnvRLConfig``), with ``more`` settings.

    A step samples ``prompts_per_step * num_generations`` completions and trains on them in
    micro-batches of ``micro_batch`` (gradient accumulation); the learning rate decays linearly;
    every step is logged and nothing is saved until the end.
    """
    cuda = device.startswith("cuda")
    return trl.GRPOConfig(
        output_dir=str(config.out),
        per_device_train_batch_size=config.micro_batch,
        gradient_accumulation_steps=config.num_generations
        * config.prompts_per_step
        // config.micro_batch,
        num_generations=config.num_generations,
        temperature=config.temperature,
        max_steps=config.max_steps,
        learning_rate=config.lr,
        lr_scheduler_type="linear",
        beta=config.beta,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        seed=config.seed,
        data_seed=config.seed,
        use_cpu=device == "cpu",
        bf16=cuda and bool(torch.cuda.is_bf16_supported()),
        disable_tqdm=not config.progress,
        dataloader_num_workers=0,
        **more,
    )


def lora_config(peft: Any, config: Any) -> Any:
    """The run's ``peft.LoraConfig`` (rank, alpha, dropout, target modules)."""
    return peft.LoraConfig(
        r=config.lora_r,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.target_modules),
        task_type="CAUSAL_LM",
    )


def write_summary(config: Any, result: RLResult, versions: dict[str, str]) -> Path:
    """Write ``toolgym_rl.json`` beside the adapter; returns its path.

    ``config`` is the run's configuration (anything with ``to_dict()``).
    """
    summary = {
        "config": config.to_dict(),
        "env_ids": result.env_ids,
        "steps": result.steps,
        "history": result.history,
        "curve": curve_summary(result.history),
        "logs": result.logs,
        "test_before": result.before,
        "test_after": result.after,
        "wall_s": round(result.wall_s, 3),
        "eval_s": round(result.eval_s, 3),
        "device": result.device,
        "trainable_params": result.trainable_params,
        "versions": versions,
    }
    path = result.out / RESULT_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary, indent=2, default=str) + "\n", encoding="utf-8")
    return path

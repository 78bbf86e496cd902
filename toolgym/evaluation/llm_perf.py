"""LLM benchmark: embedded-model load time, prompt and decode tokens/s, episodes/s per batch.

Run ``toolgym bench --llm`` (or ``python -m toolgym.evaluation.llm_perf``). Each env is timed
twice: ``before`` (no prefix cache, unconstrained decoding) and ``after`` (the prefix cache and,
where the action language has a grammar, constrained decoding: the defaults of ``toolgym eval``).
Prompt tokens/s is the rate at which the env's prompts are read one by one (one new token each);
episodes/s is that of evaluating the first ``--tasks`` test tasks at batch 1, 4 and 8.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from toolgym.agents.backends.base import LLMBackend
from toolgym.envs import latest_env_ids
from toolgym.evaluation.report import format_table

_LOAD_PROBE = """
import time
t0 = time.perf_counter()
import torch, transformers
from toolgym.agents.backends.hf import HFBackend
t1 = time.perf_counter()
b = HFBackend()
t2 = time.perf_counter()
print(t1 - t0, t2 - t1, b.loaded_from_cache)
"""


def load_times(cache_dir: str) -> tuple[float, float, bool]:
    """(import s, load s, from cache) of the embedded model in a fresh process."""
    env = {**os.environ, "TOOLGYM_CACHE": cache_dir, "TRANSFORMERS_VERBOSITY": "error"}
    out = subprocess.run(
        [sys.executable, "-c", _LOAD_PROBE], capture_output=True, text=True, check=True, env=env
    ).stdout.split()
    return float(out[0]), float(out[1]), out[2] == "True"


def tokens_per_second(backend: LLMBackend, new_tokens: int = 128) -> float:
    """Decode speed of one sequence (greedy, no stops) after a warm-up."""
    prompt = "Write a long story about a cat who books a trip to Denver.\n"
    backend.generate([prompt], max_new_tokens=8, stop=[])
    start = time.perf_counter()
    generation = backend.generate([prompt], max_new_tokens=new_tokens, stop=[])[0]
    return (generation.completion_tokens or new_tokens) / (time.perf_counter() - start)


def episodes_per_second(
    backend: LLMBackend, env_id: str, tasks: int, batch: int, constrained: bool = False
) -> float:
    """Episodes/s of evaluating the first ``tasks`` tasks of ``env_id`` with batch ``batch``."""
    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.evaluation.runner import evaluate

    start = time.perf_counter()
    evaluate(
        env_id,
        lambda e: LLMAgent.for_env(e, backend, constrained=constrained),
        limit=tasks,
        batch_size=batch,
        progress=False,
    )
    return tasks / (time.perf_counter() - start)


def prompt_tokens_per_second(backend: Any, env_id: str, tasks: int) -> tuple[float, float]:
    """(prompt tokens/s, share of tokens reused) reading the env's first prompts one by one."""
    import gymnasium as gym

    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.envs.protocol import task_env

    env = gym.make(env_id)
    base = task_env(env)
    agent = LLMAgent.for_env(env, backend)
    prompts = []
    for task_id in base.task_ids[:tasks]:
        obs, info = env.reset(options={"task_id": task_id})
        agent.reset(obs, info)
        prompts.append(agent.prompt(obs, info))
    env.close()
    before = dict(backend.prefix_stats)
    start = time.perf_counter()
    for prompt in prompts:
        backend.generate([prompt], max_new_tokens=1, stop=[])
    elapsed = time.perf_counter() - start
    read = backend.prefix_stats["prompt_tokens"] - before["prompt_tokens"]
    reused = backend.prefix_stats["reused_tokens"] - before["reused_tokens"]
    return read / elapsed, reused / max(read, 1)


def main(argv: list[str] | None = None) -> int:
    """Print the LLM benchmark."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--env",
        action="append",
        help="envs to time (default: every registered env; long actions are bound by decoding, "
        "short ones by reading the prompt, which batching on a CPU speeds up less)",
    )
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument(
        "--batches", default="1,4,8", help="batch sizes to time, comma-separated (default 1,4,8)"
    )
    args = parser.parse_args(argv)
    batches = [int(b) for b in args.batches.split(",")]
    with tempfile.TemporaryDirectory() as cache:
        _, cold, hit = load_times(cache)
        assert not hit
        imp2, warm, hit2 = load_times(cache)
        assert hit2
    print(f"embedded model load in a fresh process: cold {cold:.1f} s (dequantizing the GGUF),")
    print(f"  cached {warm:.2f} s (transformers' lazy model modules and the weights),")
    print(f"  + {imp2:.2f} s to import torch and transformers: cached total {imp2 + warm:.2f} s")
    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend()
    print(f"decode speed, one sequence: {tokens_per_second(backend):.1f} tokens/s")
    rows = []
    for env_id in args.env or latest_env_ids():
        for setting in ("before", "after"):
            after = setting == "after"
            backend.prefix_cache = 4 if after else 0
            backend.prefixes.clear()
            rate, reused = prompt_tokens_per_second(backend, env_id, args.tasks)
            row: dict[str, Any] = {
                "env": env_id,
                "setting": setting,
                "prompt_tokens_per_s": rate,
                "reused": reused,
            }
            for batch in batches:
                row[f"eps_batch{batch}"] = episodes_per_second(
                    backend, env_id, args.tasks, batch, constrained=after
                )
            rows.append(row)
            print(format_table([row], list(row)), flush=True)
    print(f"\nfirst {args.tasks} test tasks of each env, 3-shot paper prompt, greedy:")
    print(format_table(rows, list(rows[0]) if rows else []))
    return 0


if __name__ == "__main__":
    sys.exit(main())

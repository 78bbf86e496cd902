"""LLM benchmark: embedded-model load time, prompt and decode tokens/s, episodes/s per batch.

Run ``toolgym bench --llm`` (or ``python -m toolgym.evaluation.llm_perf``). Decoding one sequence
on one CPU thread is timed for each ``hf`` path (``transformers``' forward pass, the lean decoder
with float32 and with int4 weights) beside llama.cpp on the same GGUF file when
``llama-cpp-python`` is installed; ``--agreement N`` compares int4's greedy actions with
float32's on the parity slice. Each env is timed
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
from typing import Any, TypedDict

from toolgym.agents.backends.base import LLMBackend
from toolgym.envs import latest_env_ids, standalone
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


class DecoderOptions(TypedDict, total=False):
    """The ``HFBackend`` options that pick a decoding path."""

    decoder: str
    weights: str


DECODERS: tuple[tuple[str, DecoderOptions], ...] = (
    ("transformers forward, float32", {"decoder": "transformers"}),
    ("lean decoder, float32 weights", {"decoder": "lean", "weights": "model"}),
    ("lean decoder, int4 weights", {"decoder": "lean", "weights": "int4"}),
)
"""The ``hf`` backend's decoding paths timed side by side with llama.cpp."""


def decode_table(threads: int = 1, new_tokens: int = 128) -> list[dict[str, Any]]:
    """Decode tokens/s of one sequence on ``threads`` CPU threads: each ``hf`` path, llama.cpp.

    llama.cpp (``llama-cpp-python``, the ``llamacpp`` extra) reads the same GGUF file; its row is
    left out when it is not installed. ``vs llama.cpp`` is each rate over llama.cpp's.
    """
    import importlib.util

    from toolgym.agents.backends.hf import HFBackend

    rows: list[dict[str, Any]] = []
    for name, options in DECODERS:
        backend = HFBackend(num_threads=threads, device="cpu", **options)
        rows.append({"decoding": name, "tokens_per_s": tokens_per_second(backend, new_tokens)})
        del backend
    if importlib.util.find_spec("llama_cpp") is not None:
        from toolgym.agents.backends.llamacpp import LlamaCppBackend

        llama = LlamaCppBackend(n_threads=threads)
        rows.append({"decoding": "llama.cpp (same GGUF)", "tokens_per_s": tokens_per_second(llama)})
        reference = rows[-1]["tokens_per_s"]
        for row in rows:
            row["vs_llama_cpp"] = row["tokens_per_s"] / reference
    return rows


def int4_agreement(tasks: int, threads: int | None = None) -> dict[str, Any]:
    """Greedy actions with int4 weights against float32 ones, on the GPU check's parity slice."""
    from toolgym.agents.backends.hf import HFBackend
    from toolgym.evaluation.parity import agreement, play_slice

    runs = {}
    for weights in ("model", "int4"):
        backend = HFBackend(num_threads=threads, device="cpu", weights=weights)
        runs[weights] = play_slice(backend, tasks, 8)
        del backend
    same = agreement(runs["int4"]["episodes"], runs["model"]["episodes"])
    return {
        "episodes": same["episodes"],
        "equal_actions": same["equal_actions"],
        "agreement": same["agreement"],
        "success_float32": runs["model"]["success"],
        "success_int4": runs["int4"]["success"],
        "wall_s_float32": runs["model"]["wall_s"],
        "wall_s_int4": runs["int4"]["wall_s"],
    }


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
    parser.add_argument(
        "--agreement",
        type=int,
        default=0,
        metavar="TASKS",
        help="also play the parity slice (TASKS test tasks of each API family) with float32 and "
        "int4 weights and print how many greedy actions agree (default: skip)",
    )
    parser.add_argument(
        "--decode-only", action="store_true", help="print the decode table (and agreement) only"
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
    print("\ndecode, one sequence, one CPU thread each, 128 new tokens:")
    decode = decode_table(threads=1)
    print(format_table(decode, list(decode[-1])))
    if args.agreement:
        same = int4_agreement(args.agreement)
        print(
            f"\nint4 against float32 weights, {same['episodes']} episodes of the parity slice: "
            f"{same['equal_actions']} equal greedy actions ({same['agreement']:.1%}); success "
            f"{same['success_float32']:.1%} vs {same['success_int4']:.1%}; wall "
            f"{same['wall_s_float32']:.0f} s vs {same['wall_s_int4']:.0f} s"
        )
    if args.decode_only:
        return 0
    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend()
    rows = []
    for env_id in args.env or standalone(latest_env_ids()):
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

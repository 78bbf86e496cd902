"""LLM benchmark: embedded-model load time (cold and cached), tokens/s, batched vs sequential.

Run ``toolgym bench --llm`` (or ``python -m toolgym.evaluation.llm_perf``). Targets on 2 CPU
cores: cached load under 3 s; batch 8 at least 2x the episodes/s of sequential evaluation.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

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


def episodes_per_second(backend: LLMBackend, env_id: str, tasks: int, batch: int) -> float:
    """Episodes/s of evaluating the first ``tasks`` tasks of ``env_id`` with batch ``batch``."""
    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.evaluation.runner import evaluate

    start = time.perf_counter()
    evaluate(
        env_id,
        lambda e: LLMAgent.for_env(e, backend),
        limit=tasks,
        batch_size=batch,
        progress=False,
    )
    return tasks / (time.perf_counter() - start)


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
    args = parser.parse_args(argv)
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
        base = None
        for batch in (1, 4, 8):
            rate = episodes_per_second(backend, env_id, args.tasks, batch)
            base = base or rate
            rows.append(
                {"env": env_id, "batch": batch, "episodes_per_s": rate, "speedup": rate / base}
            )
    print(f"\nfirst {args.tasks} test tasks of each env, 3-shot paper prompt, greedy:")
    print(format_table(rows, ["env", "batch", "episodes_per_s", "speedup"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

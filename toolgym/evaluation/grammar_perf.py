"""Grammar-engine benchmark: compile and per-token mask times on the envs' action grammars.

Run ``toolgym bench --grammars``. For each env with an action grammar it takes the grammars of
the first ``--tasks`` test tasks (the first page's, for multi-step envs), compiles each with every
engine installed (llguidance, which the ``hf`` backend uses, and xgrammar when it is importable),
then walks the gold action token by token, computing the mask of allowed tokens before each one.
An env's grammar changes with its task (and WebShop's with each page), so a generation pays one
compile plus one mask per token. Times are medians and means in milliseconds over the tasks and
tokens, with the embedded model's tokenizer.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from toolgym.agents.defaults import prompt_defaults
from toolgym.envs import family_of, latest_env_ids, standalone
from toolgym.envs.protocol import task_env
from toolgym.evaluation.report import format_table

Walk = Callable[[str, list[int]], tuple[float, list[float]]]
"""``(gbnf, token ids) -> (compile seconds, mask seconds per token)`` for one engine."""


def llguidance_walk(tokenizer: Any, vocab: int) -> Walk:
    """The llguidance timing of one grammar and one token sequence."""
    import llguidance

    from toolgym.agents.backends.constrained import GrammarEngine

    lltok = GrammarEngine(tokenizer, vocab).lltok
    bits = np.zeros((vocab + 31) // 32, dtype=np.int32)

    def walk(gbnf: str, ids: list[int]) -> tuple[float, list[float]]:
        start = time.perf_counter()
        matcher = llguidance.LLMatcher(lltok, llguidance.grammar_from("gbnf", gbnf), log_level=0)
        compiled = time.perf_counter() - start
        masks = []
        for token in ids:
            start = time.perf_counter()
            matcher.unsafe_compute_mask_ptr(bits.ctypes.data, bits.nbytes)
            masks.append(time.perf_counter() - start)
            matcher.consume_token(token)
        return compiled, masks

    return walk


def xgrammar_walk(tokenizer: Any, vocab: int) -> Walk:
    """The xgrammar timing of one grammar and one token sequence (its compile cache off)."""
    import xgrammar

    info = xgrammar.TokenizerInfo.from_huggingface(tokenizer, vocab_size=vocab)
    bitmask = xgrammar.allocate_token_bitmask(1, vocab)

    def walk(gbnf: str, ids: list[int]) -> tuple[float, list[float]]:
        compiler = xgrammar.GrammarCompiler(info, cache_enabled=False)
        start = time.perf_counter()
        compiled_grammar = compiler.compile_grammar(gbnf)
        compiled = time.perf_counter() - start
        matcher = xgrammar.GrammarMatcher(compiled_grammar)
        masks = []
        for token in ids:
            start = time.perf_counter()
            matcher.fill_next_token_bitmask(bitmask)
            masks.append(time.perf_counter() - start)
            if not matcher.accept_token(token):
                break
        return compiled, masks

    return walk


def engines(tokenizer: Any, vocab: int) -> dict[str, Walk]:
    """Every engine installed, by name."""
    found = {}
    if importlib.util.find_spec("llguidance") is not None:
        found["llguidance"] = llguidance_walk(tokenizer, vocab)
    if importlib.util.find_spec("xgrammar") is not None:
        found["xgrammar"] = xgrammar_walk(tokenizer, vocab)
    return found


def time_env(env_id: str, tasks: int, tokenizer: Any, walks: dict[str, Walk]) -> dict[str, Any]:
    """One table row: per engine, compile and mask times (ms) over the env's first tasks."""
    env = gym.make(env_id)
    base = task_env(env)
    if base.hints.page_prompts or prompt_defaults(family_of(env_id).name).strategy != "single":
        env.close()  # one step's grammar (a page's, a turn's)
        env = gym.make(env_id, action_mode="call")
        base = task_env(env)
    compiles: dict[str, list[float]] = {name: [] for name in walks}
    masks: dict[str, list[float]] = {name: [] for name in walks}
    tokens = 0
    for task_id in base.task_ids[:tasks]:
        env.reset(options={"task_id": task_id})
        grammar = base.action_grammar()
        if grammar is None:
            env.close()
            return {}
        ids = tokenizer.encode(base.oracle_actions()[0], add_special_tokens=False)
        tokens += len(ids)
        for name, walk in walks.items():
            compiled, per_token = walk(grammar.gbnf, ids)
            compiles[name].append(compiled)
            masks[name].extend(per_token)
    env.close()
    row: dict[str, Any] = {"env": env_id, "tokens": tokens}
    for name in walks:
        row[f"{name} compile ms"] = 1000 * statistics.median(compiles[name])
        row[f"{name} mask ms median"] = 1000 * statistics.median(masks[name] or [0.0])
        row[f"{name} mask ms mean"] = 1000 * statistics.mean(masks[name] or [0.0])
    return row


def main(argv: Sequence[str] | None = None) -> int:
    """``toolgym bench --grammars``: print the table."""
    parser = argparse.ArgumentParser(prog="toolgym bench --grammars")
    parser.add_argument("--env", action="append", help="an env (repeatable; default every env)")
    parser.add_argument("--tasks", type=int, default=4, help="tasks per env (default 4)")
    args = parser.parse_args(argv)
    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend()
    vocab = int(backend.model.get_output_embeddings().weight.shape[0])
    walks = engines(backend.tokenizer, vocab)
    if not walks:
        print('no grammar engine is installed: pip install "toolgym[constrained]"')
        return 1
    rows = [
        time_env(e, args.tasks, backend.tokenizer, walks)
        for e in args.env or standalone(latest_env_ids())
    ]
    rows = [r for r in rows if r]
    columns = ["env", "tokens", *(k for k in rows[0] if k not in ("env", "tokens"))] if rows else []
    print(format_table(rows, columns))
    return 0

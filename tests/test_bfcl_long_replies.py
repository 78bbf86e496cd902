"""A long Java or JavaScript reply is parsed in a child stopped in time, with BFCL's own answer."""

from __future__ import annotations

import importlib

import pytest

pytest.importorskip(
    "bfcl_eval", reason="bfcl-eval is not installed: pip install --no-deps bfcl-eval==2026.3.23"
)
pytest.importorskip("tree_sitter_java", reason="BFCL's Java parser needs tree-sitter-java")
pytest.importorskip("tree_sitter_javascript", reason="BFCL's JS parser needs its grammar")

from toolgym.families.bfcl import answers, bounded
from toolgym.families.bfcl.decoding import DecodeError

LONG_CALLS = [
    'f(a="' + "x" * 5000 + '")',
    "f(a=new int[]{" + ",".join(["7"] * 1500) + "}, b=true)",
    'configure(name="' + "ab" * 1500 + '", size=3)',
]


def _parse(language: str, text: str) -> object:
    module, name = answers.SOURCE_PARSERS[language]
    return getattr(importlib.import_module(module), name)(text)


@pytest.mark.parametrize("language", ["java", "javascript"])
@pytest.mark.parametrize("text", LONG_CALLS)
def test_a_long_reply_reads_as_bfcl_s_parser_reads_it(language: str, text: str) -> None:
    assert len(text) > answers.PARSE_AT_ONCE_CHARS  # parsed in the child
    try:
        expected = _parse(language, text)
    except Exception:
        with pytest.raises(DecodeError):
            answers.source_calls(text, language)
        return
    assert answers.source_calls(text, language) == expected


@pytest.mark.parametrize(("language", "text"), [("java", "a<" * 8000), ("javascript", '"' * 16000)])
def test_a_reply_the_parser_stalls_on_does_not_decode(
    language: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tree-sitter's error recovery takes a second or more on these (0.1 s at a quarter of the
    # length): past the limit, here a twentieth of that, the child is stopped
    monkeypatch.setattr(bounded, "TIME_LIMIT_S", 0.05)
    with pytest.raises(DecodeError, match="too long to parse"):
        answers.source_calls(text, language)

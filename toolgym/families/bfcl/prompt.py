"""BFCL's system prompt for a prompt-mode model, built from the installed ``bfcl-eval``'s text.

A prompt-mode model gets BFCL's default system prompt (its ``classic`` style, ``python`` reply
format, functions as JSON, plain text) with the entry's function docs, as BFCL shows them to a
model (:func:`.tools.model_doc`), listed in it. The prompt's words are read from
``bfcl_eval.constants.default_prompts`` (a module of constants) and put together as BFCL puts
them together; an entry with a system message of its own has it after BFCL's, as BFCL has it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.envs.gold_cache import LRUCache
from toolgym.tools.value_memo import ValueMemo


@functools.cache
def _templates() -> Any:
    import bfcl_eval.constants.default_prompts as prompts

    return prompts


def system_prompt(docs: Sequence[Mapping[str, Any]], own: str | None = None) -> str:
    """BFCL's default system prompt over ``docs`` (then ``own``, the entry's system message).

    Raises:
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    from toolgym.families.bfcl.data import data_dir

    data_dir()  # the install check, with its command
    prompts = _templates()
    style = prompts.PROMPT_STYLE_TEMPLATES["classic"]
    tool_call_format = style["tool_call_no_tag"].format(
        output_format=prompts.OUTPUT_FORMAT_MAPPING["python"],
        param_types=prompts.PARAM_TYPE_MAPPING["python"],
    )
    available = style["available_tools"].format(format="json", functions=_indented(docs))
    text = prompts.PROMPT_TEMPLATE_MAPPING["plaintext"].format(
        persona=style["persona"],
        task=style["task"],
        tool_call_format=tool_call_format,
        multiturn_behavior=style["multiturn_behavior"],
        available_tools=available,
    )
    return text if not own else f"{text}\n\n{own}"


_INDENTED_ENTRIES = 256
_INDENTED: LRUCache[str] = LRUCache(_INDENTED_ENTRIES)
_SAME_DOCS: ValueMemo[str] = ValueMemo(_INDENTED_ENTRIES)


def _indented(docs: Sequence[Mapping[str, Any]]) -> str:
    """``json.dumps(list(docs), indent=4)``, kept for the docs' compact text.

    An indented encoding runs in Python, not in C, and an episode's functions are the same at
    every reset: the compact text, encoded in C, names the indented one (both write the same
    values in the same order).
    """
    text = _SAME_DOCS.get(docs)  # the same doc objects, unchanged: no encoding at all
    if text is not None:
        return text
    key = json.dumps(list(docs), separators=(",", ":"))
    text = _INDENTED.get(key)
    if text is None:
        text = json.dumps(list(docs), indent=4)
        _INDENTED.put(key, text)
    return _SAME_DOCS.put(docs, text)

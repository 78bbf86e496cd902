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
    available = style["available_tools"].format(
        format="json", functions=json.dumps(list(docs), indent=4)
    )
    text = prompts.PROMPT_TEMPLATE_MAPPING["plaintext"].format(
        persona=style["persona"],
        task=style["task"],
        tool_call_format=tool_call_format,
        multiturn_behavior=style["multiturn_behavior"],
        available_tools=available,
    )
    return text if not own else f"{text}\n\n{own}"

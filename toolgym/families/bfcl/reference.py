"""bfcl-eval's own evaluation of a reply, to compare toolgym's verdicts with (tests, scripts).

BFCL's evaluation code imports its table of model handlers, which imports about 30 vendor SDKs
that a ``--no-deps`` install lacks. :func:`import_with` imports a module of it with stand-ins for
the modules that do not import (and that the functions used here never reach), and
:func:`bfcl_verdict` runs BFCL's per-entry evaluation (``eval_runner``'s
``_evaluate_single_ast_entry`` and ``_evaluate_single_relevance_entry``) on a model's raw reply,
decoded as BFCL's handlers decode it: its prompt-mode decoder (with its Java and JavaScript
parsers), or its function-calling handlers' decoding of tool calls. Nothing here is used by the
envs.
"""

from __future__ import annotations

import collections
import copy
import functools
import importlib
import json
import os
import sys
import tempfile
import types
from collections.abc import Mapping
from typing import Any

from toolgym.families.bfcl import data

TABLE = "bfcl_eval.constants.model_config"
"""BFCL's table of model handlers (it imports the vendor SDKs)."""


class _Renames:
    """A model of BFCL's table that renames no function (as toolgym's envs give the names)."""

    underscore_to_dot = False


def _imports(name: str) -> bool:
    """Whether the real module ``name`` imports (it then stays imported)."""
    try:
        importlib.import_module(name)
    except Exception:
        return False
    return True


def import_with(module: str, stand_ins: Mapping[str, Mapping[str, Any]]) -> Any:
    """``module`` of bfcl-eval, imported with stand-ins for modules it imports and does not need.

    A stand-in is put in place only for a module that is not imported and does not import (the
    real one is used where it can be: BFCL's Java and JavaScript parsers with their grammars
    installed, so that every importer sees the same), and removed afterwards.
    """
    placed = []
    for name, attributes in stand_ins.items():
        if name not in sys.modules and not _imports(name):
            stand_in = types.ModuleType(name)
            for attribute, value in attributes.items():
                setattr(stand_in, attribute, value)
            sys.modules[name] = stand_in
            placed.append(name)
    try:
        return importlib.import_module(module)
    finally:
        for name in placed:
            sys.modules.pop(name, None)


def model_table() -> dict[str, Any]:
    """A stand-in for BFCL's model table: every model renames no function."""
    return {"MODEL_CONFIG_MAPPING": collections.defaultdict(_Renames)}


@functools.cache
def runner() -> Any:
    """bfcl-eval's ``eval_runner`` (its result folders made in a temporary folder)."""
    os.environ.setdefault("BFCL_PROJECT_ROOT", tempfile.mkdtemp(prefix="bfcl-project-"))
    return import_with(
        "bfcl_eval.eval_checker.eval_runner",
        {
            TABLE: model_table(),
            "bfcl_eval.eval_checker.eval_runner_helper": {},
            "bfcl_eval.model_handler.base_handler": {"BaseHandler": object},
            "dotenv": {"load_dotenv": lambda *a, **k: None},
        },
    )


class Handler:
    """A BFCL model handler's decoding, in prompt mode or in function calling.

    Prompt mode: its default decoder; function calling: its OpenAI handler's ``decode_ast``,
    each tool call's JSON arguments loaded.
    """

    def __init__(self, fc: bool) -> None:
        self.fc = fc
        from bfcl_eval.model_handler.utils import default_decode_ast_prompting

        self.prompting = default_decode_ast_prompting

    def decode_execute(self, result: Any, has_tool_call_tag: bool = False) -> Any:
        """A multi-turn step's calls as BFCL's handler writes them to run (raises where it fails)."""
        from bfcl_eval.model_handler.utils import (
            convert_to_function_call,
            default_decode_execute_prompting,
        )

        if self.fc:
            return convert_to_function_call(result)
        return default_decode_execute_prompting(result, has_tool_call_tag)

    def decode_ast(self, result: Any, language: Any, has_tool_call_tag: bool = False) -> Any:
        """The reply's calls as BFCL's handler decodes them (raises where it fails)."""
        if self.fc:
            decoded = []
            for invoked in result:
                name = next(iter(invoked))
                decoded.append({name: json.loads(invoked[name])})
            return decoded
        return self.prompting(result, language, has_tool_call_tag)


def bfcl_verdict(entry: Mapping[str, Any], category: str, reply: Any, fc: bool = False) -> bool:
    """Whether bfcl-eval's own evaluation passes ``reply`` to ``entry``.

    Args:
        entry: the entry (``id``, ``question``, ``function``).
        category: its category.
        reply: a prompt-mode model's text, or (``fc``) a function-calling model's tool calls as
            BFCL's handlers hand them over (``[{name: arguments_json}, ...]``) or its text.
        fc: whether the model calls functions natively.
    """
    from bfcl_eval.constants.enums import Language, ReturnFormat

    module = runner()
    handler = Handler(fc)
    if category in data.IRRELEVANCE + data.RELEVANCE:
        result = module._evaluate_single_relevance_entry(
            handler, entry["id"], reply, entry, "toolgym", category
        )
        return bool(result["valid"])
    kind = {"python": "PYTHON", "java": "JAVA", "javascript": "JAVASCRIPT"}
    language = kind[data.language_of(category)]
    result = module._evaluate_single_ast_entry(
        handler,
        entry["id"],
        reply,
        data.answers(category)[entry["id"]],
        entry,
        "toolgym",
        category,
        Language[language],
        ReturnFormat[language],
    )
    return bool(result["valid"])


MULTI_TURN_UTILS = "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils"
"""The module where BFCL keeps each entry's backend instances (as globals)."""


def bfcl_multi_turn_verdict(
    entry: Mapping[str, Any], result: list[list[Any]], fc: bool = False
) -> tuple[bool, str | None]:
    """bfcl-eval's own evaluation of a multi-turn result: whether it passes, and its error type.

    Args:
        entry: the entry (``id``, ``involved_classes``, ``initial_config``).
        result: per turn, the model's reply at each step, as BFCL's result files hold them (a
            prompt-mode model's text; a function-calling model's ``[{name: arguments_json}]``
            or its text).
        fc: whether the model calls functions natively.
    """
    module = runner()
    category = str(entry["id"]).rsplit("_", 1)[0]
    possible = copy.deepcopy(entry["ground_truth"])
    utils = sys.modules[MULTI_TURN_UTILS]
    try:
        verdict = module._evaluate_single_multi_turn_entry(
            Handler(fc),
            entry["id"],
            copy.deepcopy(result),
            possible,
            dict(entry),
            "toolgym",
            category,
        )
    finally:  # BFCL keeps the instances by model and entry: the next evaluation starts afresh
        for name in [n for n in vars(utils) if n.endswith("_instance")]:
            del vars(utils)[name]
    return bool(verdict["valid"]), None if verdict["valid"] else verdict["error"]["error_type"]


def bfcl_agentic_verdict(
    entry: Mapping[str, Any], replies: list[Any], fc: bool = False
) -> tuple[bool, str | None]:
    """bfcl-eval's own evaluation of an agentic (web search) result: pass, and its error type.

    Args:
        entry: the entry (``id``, ``ground_truth``).
        replies: the model's reply at each step of its one turn, as BFCL's result files hold
            them.
        fc: whether the model calls functions natively.
    """
    module = runner()
    category = str(entry["id"]).rsplit("_", 1)[0]
    verdict = module._evaluate_single_agentic_entry(
        Handler(fc), entry["id"], [copy.deepcopy(replies)], list(entry["ground_truth"]),
        dict(entry), "toolgym", category,
    )  # fmt: skip
    return bool(verdict["valid"]), None if verdict["valid"] else verdict["error"]["error_type"]

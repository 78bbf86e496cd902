"""The grammar of a reply to a BFCL entry: calls of its functions, as Python calls or JSON.

A reply is a list of calls, ``[f(a=1, b='x'), g()]`` (BFCL's prompt format) or JSON calls
(``[{"name": "f", "arguments": {...}}]``); ``[]`` is a reply without a call (BFCL's irrelevance
answer). Each function's arguments come in its doc's order, the required ones always, each value
a Python literal of the doc's type (a string where the doc says ``string`` or ``any``; Java and
JavaScript values are source text, so strings). Constrained decoding with it keeps a small model
to calls BFCL can read.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolgym.families.bfcl.tools import BfclTool
from toolgym.tools.grammar import ActionGrammar, json_call, json_list, literal, one_of, sequence
from toolgym.tools.tool import ToolSet

PYTHON_RULES = (
    'pystr ::= "\'" pychar{0,300} "\'" | "\\"" pydchar{0,300} "\\""\n'
    'pychar ::= [^\'\\\\\\n] | "\\\\" [^\\n]\n'
    'pydchar ::= [^"\\\\\\n] | "\\\\" [^\\n]\n'
    'pyint ::= "-"? [0-9]{1,20}\n'
    'pynum ::= "-"? [0-9]{1,20} ("." [0-9]{1,20})? ([eE] [+-]? [0-9]{1,3})?\n'
    'pybool ::= "True" | "False"\n'
    'pylist ::= "[" ws (pyval ("," ws pyval){0,60})? ws "]"\n'
    'pytuple ::= "(" ws (pyval ("," ws pyval){0,60})? ","? ws ")"\n'
    'pydict ::= "{" ws (pyval ":" ws pyval ("," ws pyval ":" ws pyval){0,60})? ws "}"\n'
    'pyval ::= pystr | pynum | pybool | "None" | pylist | pytuple | pydict\n'
)
"""Python literals as BFCL's decoder reads them (bounded, so that no value runs on forever)."""

_TYPED = {
    "string": '(pystr | pybool | pynum | "None")',
    "integer": "(pyint | pystr)",
    "float": "(pynum | pystr)",
    "boolean": "(pybool | pystr)",
    "array": "(pylist | pytuple | pystr)",
    "tuple": "(pytuple | pylist | pystr)",
    "dict": "(pydict | pystr)",
}
"""A parameter's value by its doc type. A value of another type is allowed where BFCL's possible
answers have one: a string (a variable's name) for any type, a flag or number for a string."""


def _python_call(tool: BfclTool, language: str) -> str:
    properties = (tool.doc or {}).get("parameters", {}).get("properties", {})
    members = []
    for param in tool.params:
        kind = properties.get(param.name, {}).get("type")
        value = "pystr" if language != "python" else _TYPED.get(str(kind), "pyval")
        members.append((f"{literal(param.name + '=')} {value}", param.required))
    return f"{literal(tool.name + '(')} {sequence(members, literal(', '))} {literal(')')}"


ANSWER = '"{\'answer\': " pystr (", \'context\': " pystr)? "}" | [^\\[{\\n] [^\\n]{0,600}'
"""A final answer in words: BFCL's ``{'answer': ..., 'context': ...}`` (the context may be left
out), or one line that does not start like calls."""


def reply_grammar(
    tools: ToolSet, language: str, mode: str, reply_format: str, answers: bool = False
) -> ActionGrammar:
    """The replies to an entry with ``tools`` (see the module docstring).

    Args:
        tools: the entry's functions.
        language: the entry's language (``python``, ``java``, ``javascript``).
        mode: ``"program"`` (the whole reply) or ``"call"`` (one call a step, or ``finish``).
        reply_format: what the env reads: Python calls (``"prompt"``), JSON (``"fc"``) or both.
        answers: a step may also be a final answer in words (:data:`ANSWER`: the agentic
            categories, whose verdict reads the last reply without calls).
    """
    bfcl = [t for t in tools if isinstance(t, BfclTool)]
    python = one_of([_python_call(t, language) for t in bfcl]) if bfcl else None
    json_one = one_of([json_call(t) for t in bfcl]) if bfcl else None
    alternatives: list[str] = []
    if mode == "program":
        if python is not None and reply_format != "fc":
            alternatives.append(f'"[" {python} (", " {python}){{0,15}} "]"')
        if json_one is not None and reply_format != "prompt":
            alternatives.append(json_list(json_one, 16))
        alternatives.append('"[]"')
    else:
        if python is not None and reply_format == "prompt":
            alternatives.append(f'"[" {python} "]"')
        if json_one is not None and reply_format != "prompt":
            alternatives.extend([json_one, json_list(json_one, 16)])
        alternatives.append('"finish"')
        if answers:
            alternatives.append(ANSWER)
    return ActionGrammar(one_of(_unique(alternatives)), rules=PYTHON_RULES)


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))

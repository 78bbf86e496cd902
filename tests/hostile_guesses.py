"""Hostile guesses: steps that set a held-back detail before the user told it.

Each of the six conversation envs holds some of a task's details back
(``task.setup["conversation"]``: ``slots``, ``held``). A step that sets one of them before the
user told it must be refused (``info["error"]["category"] == "guessed_slot"``) and not run; a
guess that runs is a reward hack (an agent can skip asking). This module writes, for the stored
test tasks of every env, the worst case: an attacker who knows the held-back value and sets it
in every spelling the family's action language runs.

* Home Search and Trip Booking (API programs): positional and keyword calls, whitespace,
  comments, a call wrapped in a list, a tuple, a dict or an assignment, full-width
  names (Python reads them as ASCII), values written in hex, octal, binary, with underscores,
  as sums, quotients and floats, held in variables of earlier steps (split in two), and JSON
  calls (with the ``API.`` prefix, arguments as a JSON string, OpenAI's shapes, escaped text,
  a date as ``YYYY-MM-DD``, a list or an object, a city as an object or a list).
* The Cat API (curl): parameter names in any case or percent-encoded, repeated parameters,
  the ``breed_ids`` alias, values percent-encoded, padded or in another case, ``-G --data``,
  ``--url``, other spellings of the method, host, port, slashes and fragment, JSON calls; an
  image's id escaped in the JSON body (``\\u004c...``), sent with ``--json`` or ``--data-raw``;
  a removed favourite's line re-spaced (its task compares the line as text); a filter whose
  held-back value is the service's default (``size=med``) left out.
* Google Sheets (gspread programs): the value computed (hex, sums, ``int('1' '5')``, string
  joins, ``chr``, escapes, f-strings, ``%``-formatting, reversed strings, variables), every
  gspread method that writes it (``update``, ``update_acell``, ``update_cells``,
  ``batch_update``, ``values_update``, ``append_rows``, ``insert_rows``, ``batch_format``, a
  pandas sort, a ``sortRange`` request...), and the value carried from earlier steps through
  the unscored ``Sheet1`` (copied from there, or a formula the last step completes); a sort
  whose column the change reader cannot read as sorted (a number written as text, a cell the
  scorer reads as missing: ``NA``).
* WebShop: the option's click in any case, with any spacing (tabs, no-break spaces), and in
  every JSON shape.
* RapidAPI: the call as JSON, OpenAI's shapes, an assistant message, ToolBench's
  ``Action``/``Action Input`` text, a list, escaped names and values, numbers as text; an
  optional argument whose held-back value is the API's documented default left out.

Every slot kind of every family gets its attacks on one test task at least (then a second task,
and so on, up to :data:`TARGET_ATTACKS`); the forms aimed at a family's weak spots
(:data:`_WEAK_SPOTS`) are sent on every test task they apply to.

Every attack kept is valid: with every held-back detail told, the gold's steps with the
attack in place of the gold's step for that detail score what the gold scores (see
:func:`check_attack`). :func:`transport_attacks` sends a sample of the JSON-call guesses through
the integrations instead (:class:`~toolgym.integrations.episode.ToolEpisode`, native tool calls,
TRL's environment classes, MCP).

Run ``python tests/hostile_guesses.py`` for a table by env and every accepted guess.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import json
import re
import sys
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

import toolgym  # noqa: F401  (registers the envs)
from toolgym.envs.protocol import task_env
from toolgym.simulators.user import Slot
from toolgym.simulators.user.slots import contains_phrase, normalize, value_key

HOME = "toolbench/HomeSearchChat-v0"
TRIP = "toolbench/TripBookingChat-v0"
CAT = "toolbench/CatAPIChat-v0"
SHEETS = "toolbench/GoogleSheetsChat-v0"
SHOP = "toolbench/WebShopChat-v0"
RAPID = "toolbench/RapidAPIChat-v0"
ENV_IDS = (HOME, TRIP, CAT, SHEETS, SHOP, RAPID)
"""The conversation envs."""

MIN_ATTACKS = 200
"""The fewest attacks each env gets."""
TARGET_ATTACKS = 260
"""How many attacks an env's generator aims for (slots are added until it is reached, once
every kind of slot has one task)."""
MAX_ATTACKS = 450
"""Where the first round over the kinds stops early (RapidAPI has dozens of kinds)."""

GUESSED = "guessed_slot"
REFUSED, ACCEPTED, FAILED = "refused", "accepted", "failed"


@dataclass(frozen=True)
class GuessAttack:
    """One guess: a step that sets a held-back detail to its true value before it is told.

    Attributes:
        env_id: the conversation env.
        task_id: the stored test task.
        prelude: the steps that legitimately come first (the gold's steps the attack needs,
            questions for other held-back details, variables the attack uses).
        step: the guess.
        kind: the held-back slot kind it sets.
        form: how it is written (``json_api_prefix``, ``hex``, ``update_acell``...).
        rest: the gold's steps after it (to check that it sets what the gold sets).
    """

    env_id: str
    task_id: str
    prelude: tuple[str, ...]
    step: str
    kind: str
    form: str
    rest: tuple[str, ...] = ()

    def describe(self) -> str:
        """One attack on one line, for listings and failure messages."""
        step = self.step.replace("\n", "\\n")
        if len(step) > 150:
            step = step[:90] + " ... " + step[-50:]
        return f"[{self.form}] {self.task_id} {self.kind}: {step}"


# -- the envs and their tasks ---------------------------------------------------------------------
@functools.cache
def chat_env(env_id: str) -> gym.Env:
    """The env of ``env_id``, made once per process (every attack resets it)."""
    return gym.make(env_id)


@functools.cache
def _base(env_id: str) -> Any:
    return task_env(chat_env(env_id))


def _task(env_id: str, task_id: str) -> Any:
    return _base(env_id).get_task(task_id)


def _conversation(env_id: str, task_id: str) -> dict[str, Any]:
    return _task(env_id, task_id).setup["conversation"]


def held_slots(env_id: str, task_id: str) -> list[Slot]:
    """The task's held-back slots, in the order the task holds them."""
    conversation = _conversation(env_id, task_id)
    slots = {r["kind"]: Slot.from_record(r) for r in conversation["slots"]}
    return [slots[k] for k in conversation["held"] if k in slots]


def question(env_id: str, kind: str) -> str:
    """The oracle's question for ``kind`` (or a plain one, if the kind has none)."""
    slot_kind = _base(env_id).toolkit.vocabulary[kind]
    ask = getattr(slot_kind, "ask", None)
    text = ask() if callable(ask) else getattr(slot_kind, "question", None)
    return text or f"What {kind.replace('_', ' ')} would you like?"


def ask(env_id: str, kind: str) -> str:
    """A step asking the user for ``kind``."""
    return f"message_user({json.dumps(question(env_id, kind))})"


def _is_message(step: str) -> bool:
    return step.lstrip().startswith(("message_user(", "API.message_user("))


def gold_steps(env_id: str, task_id: str) -> list[str]:
    """The gold's steps that are no messages to the user."""
    base = _base(env_id)
    steps = base.language.gold_steps(_task(env_id, task_id).gold[0])
    return [s for s in steps if not _is_message(s)]


def _writes(step: str, slot: Slot) -> bool:
    """Whether ``step`` writes one of ``slot``'s forms (three characters or more)."""
    text = normalize(step)
    return any(len(f) >= 3 and contains_phrase(text, f) for f in slot.forms())


def _task_ids(env_id: str) -> list[str]:
    return [str(t) for t in _base(env_id).task_ids]


# -- writing values -------------------------------------------------------------------------------
def _escape_all(text: str) -> str:
    """``text`` with every character a ``\\xNN`` escape (for Python source)."""
    return "".join(f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}" for c in text)


def _json_escape_all(text: str) -> str:
    """``text`` as a JSON string body with every character a ``\\uNNNN`` escape."""
    return "".join(f"\\u{ord(c):04x}" for c in text)


def _json_escape_first(text: str, upper: bool = False) -> str:
    """``text`` as a JSON string body with its first character escaped."""
    code = f"{ord(text[0]):04x}"
    return f"\\u{code.upper() if upper else code}" + json.dumps(text[1:])[1:-1]


def _split(text: str) -> tuple[str, str]:
    """``text`` cut inside a word near its middle, so that neither part writes it."""
    inside = [p for p in range(1, len(text)) if text[p - 1].isalnum() and text[p].isalnum()]
    if not inside:
        return text[:1], text[1:]
    cut = min(inside, key=lambda p: abs(2 * p - len(text)))
    return text[:cut], text[cut:]


def _number_text(value: float) -> str:
    return repr(int(value)) if isinstance(value, int) else repr(value)


def program_numbers(value: float) -> list[tuple[str, str]]:
    """``value`` written in the expressions an API program runs: ``(form, text)``."""
    if isinstance(value, float) and not value.is_integer():
        whole, decimals = repr(value).split(".")
        return [
            ("float_sum", f"{whole} + 0.{decimals}"),
            ("float_quotient", f"{int(whole + decimals)} / {10 ** len(decimals)}"),
            ("negated", f"-(-{value!r})"),
            ("plus_zero", f"{value!r} + 0"),
        ]
    n = int(value)
    half = n // 2
    out = [
        ("hex", hex(n)),
        ("octal", oct(n)),
        ("binary", bin(n)),
        ("sum", f"{n - half} + {half}"),
        ("difference", f"{n + 7} - 7"),
        ("floor_quotient", f"{n * 3} // 3"),
        ("true_quotient", f"{n * 4} / 4"),
        ("negated", f"-(-{n})"),
        ("float_literal", f"{n}.0"),
        ("exponent", f"{n}e0"),
    ]
    if len(str(n)) > 1:
        out.append(("underscores", "_".join(str(n))))
    return out


def program_strings(text: str) -> list[tuple[str, str]]:
    """``text`` as Python string literals an API program runs: ``(form, literal)``."""
    a, b = _split(text)
    out = [
        ("single_quotes", repr(text) if '"' in text else "'" + text.replace("'", "\\'") + "'"),
        ("hex_escapes", f'"{_escape_all(text)}"'),
        ("unicode_escape", '"' + f"\\u{ord(text[0]):04x}" + json.dumps(text[1:])[1:-1] + '"'),
        ("implicit_concat", f"{json.dumps(a)} {json.dumps(b)}"),
        ("triple_quotes", f'"""{text}"""'),
    ]
    if text.isascii() and text[0].isalpha():
        out.append(("named_escape", '"\\N{LATIN ' + _letter_name(text[0]) + "}" + text[1:] + '"'))
    return out


def _letter_name(char: str) -> str:
    return f"{'CAPITAL' if char.isupper() else 'SMALL'} LETTER {char.upper()}"


def _fullwidth(text: str) -> str:
    """``text`` in full-width letters (Python reads identifiers as NFKC: ``ＡＰＩ`` is ``API``)."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c for c in text)


def _json_call(name: str, arguments: dict[str, Any], **dumps: Any) -> str:
    return json.dumps({"name": name, "arguments": arguments}, **dumps)


def _json_forms(name: str, arguments: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """A call as every JSON shape an agent may write: ``(form, text)``."""
    named = prefix + name
    string_args = json.dumps(arguments)
    escaped_name = '{"name": "' + _json_escape_all(name) + '", "arguments": ' + string_args + "}"
    out = [
        ("json", _json_call(name, arguments)),
        ("json_string_arguments", json.dumps({"name": name, "arguments": string_args})),
        (
            "json_openai",
            json.dumps({"type": "function", "function": {"name": name, "arguments": string_args}}),
        ),
        ("json_function_key", json.dumps({"function": {"name": name, "arguments": arguments}})),
        ("json_pretty", _json_call(name, arguments, indent=2)),
        ("json_escaped_name", escaped_name),
        ("json_extra_keys", json.dumps({"id": "call_0", "name": name, "arguments": arguments})),
    ]
    if _strings_in(arguments):
        escaped = (
            '{"name": ' + json.dumps(name) + ', "arguments": ' + _dumps_escaped(arguments) + "}"
        )
        out.append(("json_escaped_strings", escaped))
    if prefix:
        out += [
            ("json_api_prefix", _json_call(named, arguments)),
            (
                "json_api_prefix_openai",
                json.dumps(
                    {"type": "function", "function": {"name": named, "arguments": string_args}}
                ),
            ),
            (
                "json_api_prefix_string_arguments",
                json.dumps({"name": named, "arguments": string_args}),
            ),
        ]
    return out


def _dumps_escaped(value: Any) -> str:
    """``value`` as JSON with every character of its strings (not its keys) escaped."""
    if isinstance(value, str):
        return f'"{_json_escape_all(value)}"'
    if isinstance(value, dict):
        items = (f"{json.dumps(k)}: {_dumps_escaped(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_dumps_escaped(v) for v in value) + "]"
    return json.dumps(value)


def _strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings_in(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings_in(v)]
    return []


# -- Home Search and Trip Booking: API programs ---------------------------------------------------
def _called(step: str) -> tuple[str | None, set[str]]:
    """The ``API`` method a step calls, and the variables its arguments use."""
    try:
        tree = ast.parse(step)
    except SyntaxError:
        return None, set()
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None, set()
    call = tree.body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
        return None, set()
    arguments = (*call.args, *(k.value for k in call.keywords))
    names = {n.id for a in arguments for n in ast.walk(a) if isinstance(n, ast.Name)}
    return call.func.attr, names


def _assigned(step: str) -> str | None:
    try:
        tree = ast.parse(step)
    except SyntaxError:
        return None
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Assign):
        target = tree.body[0].targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _program_site(steps: Sequence[str], call: str) -> list[int]:
    """The gold's steps that set ``call``'s argument: the call, and the variables it uses."""
    for i, step in enumerate(steps):
        name, uses = _called(step)
        if name == call:
            return sorted({i} | {j for j in range(i) if _assigned(steps[j]) in uses})
    return []


def _date_parts(value: str) -> tuple[int, int, int]:
    year, month, day = (int(p) for p in value.split("-"))
    return month, day, year


def _program_values(type_name: str, value: Any) -> tuple[str, list[tuple[str, str]]]:
    """The plain argument text for ``value``, and its other spellings: ``(form, text)``."""
    if type_name == "Loc":
        plain = f"Loc({json.dumps(value)})"
        out = [("loc_keyword", f"Loc(location={json.dumps(value)})")]
        out += [(f"loc_{f}", f"Loc({t})") for f, t in program_strings(value)]
        return plain, out
    if type_name == "Date":
        m, d, y = _date_parts(value)
        return f"Date({m}, {d}, {y})", [
            ("date_keywords", f"Date(month={m}, day={d}, year={y})"),
            ("date_keywords_shuffled", f"Date(year={y}, day={d}, month={m})"),
            ("date_hex", f"Date({hex(m)}, {hex(d)}, {hex(y)})"),
            ("date_computed", f"Date({m * 2} // 2, {d + 7} - 7, {y - 26} + 26)"),
            ("date_underscores", f"Date({m}, {d}, {'_'.join(str(y))})"),
        ]
    if isinstance(value, list):
        items = ", ".join(json.dumps(v) for v in value)
        escaped = ", ".join(f'"{_escape_all(v)}"' for v in value)
        return f"[{items}]", [
            ("list_tuple", f"({items},)"),
            ("list_trailing_comma", f"[{items}, ]"),
            ("list_hex_escapes", f"[{escaped}]"),
            ("list_single_quotes", "[" + ", ".join(repr(v) for v in value) + "]"),
        ]
    if isinstance(value, str):
        return json.dumps(value), program_strings(value)
    return _number_text(value), program_numbers(value)


def _program_json_values(type_name: str, value: Any) -> list[tuple[str, Any]]:
    """Other JSON values a JSON call may pass for ``value`` (a constructor builds them)."""
    if type_name == "Loc":
        return [("json_loc_object", {"location": value}), ("json_loc_list", [value])]
    if type_name == "Date":
        m, d, y = _date_parts(value)
        return [
            ("json_date_object", {"month": m, "day": d, "year": y}),
            ("json_date_list", [m, d, y]),
            ("json_date_unpadded", f"{y}-{m}-{d}"),
        ]
    if isinstance(value, int) and not isinstance(value, bool):
        return [("json_float", float(value))]
    return []


def _program_variables(
    type_name: str, value: Any, plain: str
) -> list[tuple[str, tuple[str, ...], str]]:
    """Variables set in earlier steps and the argument that uses them: ``(form, steps, arg)``."""
    out = [("variable", (f"guess = {plain}",), "guess")]
    if type_name == "Date":
        m, d, y = _date_parts(value)
        steps = (f"guess_m = {m * 2} // 2", f"guess_d = {d} + 0", f"guess_y = {y - 26} + 26")
        out.append(("date_split_variables", steps, "Date(guess_m, guess_d, guess_y)"))
    elif type_name == "Loc":
        out.append(("loc_variable_name", (f"guess = {json.dumps(value)}",), "Loc(guess)"))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        a = int(value) // 2 if isinstance(value, int) else int(value)
        b = value - a
        steps = (f"guess_a = {a}", f"guess_b = {_number_text(b)}")
        out.append(("split_variables", steps, "guess_a + guess_b"))
    return out


def _program_attacks(env_id: str, task_id: str, slot: Slot) -> list[GuessAttack]:
    base = _base(env_id)
    kind = base.toolkit.vocabulary[slot.kind]
    tool = base.toolkit.inner.tools.get(kind.call)
    if tool is None:
        return []
    param = tool.param(kind.argument) if kind.argument else tool.params[0]
    steps = gold_steps(env_id, task_id)
    site = _program_site(steps, kind.call)
    if not site:
        return []
    held = held_slots(env_id, task_id)
    busy = {i for s in held for i in _program_site(steps, base.toolkit.vocabulary[s.kind].call)}
    busy |= {i for i, step in enumerate(steps) for s in held if _writes(step, s)}
    before = [i for i in range(site[0]) if i not in busy]
    prelude = tuple(steps[i] for i in before)
    rest = tuple(s for i, s in enumerate(steps) if i not in site and i not in before)
    type_name = param.type_name
    plain, values = _program_values(type_name, slot.value)
    name, arg = kind.call, param.name
    api = f"API.{name}"
    calls = [
        ("call", f"{api}({plain})"),
        ("keyword", f"{api}({arg}={plain})"),
        ("spaced", f"{api} ( {plain} )"),
        ("multiline", f"{api}(\n    {plain}\n)"),
        ("comment", f"{api}({plain})  # the user's choice"),
        ("semicolon", f"{api}({plain});"),
        ("parenthesised", f"({api}({plain}))"),
        ("assigned", f"result = {api}({plain})"),
        ("in_list", f"[{api}({plain})]"),
        ("in_tuple", f"({api}({plain}),)"),
        ("in_dict", f'({{"result": {api}({plain})}})'),
        ("fullwidth_api", f"{_fullwidth('API')}.{name}({plain})"),
        ("fullwidth_method", f"API.{_fullwidth(name)}({plain})"),
    ]
    out = [GuessAttack(env_id, task_id, prelude, s, slot.kind, f, rest) for f, s in calls]
    out += [
        GuessAttack(env_id, task_id, prelude, f"{api}({text})", slot.kind, f, rest)
        for f, text in values
    ]
    out += [
        GuessAttack(env_id, task_id, prelude + extra, f"{api}({text})", slot.kind, f, rest)
        for f, extra, text in _program_variables(type_name, slot.value, plain)
    ]
    out += [
        GuessAttack(env_id, task_id, prelude, s, slot.kind, f, rest)
        for f, s in _json_forms(name, {arg: slot.value}, prefix="API.")
    ]
    out += [
        GuessAttack(env_id, task_id, prelude, _json_call(name, {arg: v}), slot.kind, f, rest)
        for f, v in _program_json_values(type_name, slot.value)
    ]
    return out


# -- The Cat API: curl ----------------------------------------------------------------------------
_CURL_URL = re.compile(r"'(https?://[^']+)'")
_SEARCH_KINDS = ("breeds", "size", "mime_types", "order", "limit")
_OTHER_VALUES = {
    "size": ("full", "small"),
    "order": ("ASC", "DESC"),
    "mime_types": ("png", "gif"),
    "limit": ("1", "2"),
    "breeds": ("abys", "beng"),
}
"""A valid value other than the task's, per filter (a repeated parameter's first value)."""


_SEARCH_DEFAULTS = {"size": "med", "order": "random", "limit": "1"}
"""What the service reads for a filter left out (``mime_types``: every type)."""


def _is_default(key: str, value: str) -> bool:
    if key == "mime_types":
        return {m.strip().lower() for m in value.split(",")} == {"jpg", "png", "gif"}
    return _SEARCH_DEFAULTS.get(key) == value.strip().lower()


def _query_text(pairs: Sequence[tuple[str, str]], lead: str = "&") -> str:
    return lead + "&".join(f"{k}={v}" for k, v in pairs)


def _percent(text: str) -> str:
    return "".join(f"%{b:02X}" for b in text.encode())


def _cat_search_attacks(env_id: str, task_id: str, slot: Slot, step: str) -> list[tuple[str, str]]:
    url = _CURL_URL.search(step)
    if url is None:
        return []
    base_url, _, query = url.group(1).partition("?")
    pairs = [(k, v) for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True) if k]
    key = slot.kind
    at = next((i for i, (k, _) in enumerate(pairs) if k == key), None)
    if at is None:
        return []
    value = pairs[at][1]
    host = "https://api.thecatapi.com"
    path = base_url.removeprefix(host)

    def line(pairs_: Sequence[tuple[str, str]], url_base: str = base_url, lead: str = "&") -> str:
        return f"curl -X GET '{url_base}?{_query_text(pairs_, lead)}'"

    def replaced(new_key: str | None = None, new_value: str | None = None) -> list[tuple[str, str]]:
        out = list(pairs)
        out[at] = (new_key or key, value if new_value is None else new_value)
        return out

    others = [p for i, p in enumerate(pairs) if i != at]
    other_value = next(v for v in _OTHER_VALUES[key] if v.lower() != value.lower())
    changed_case = value.lower() if value != value.lower() else value.upper()
    whole = f"{base_url}?{_query_text(pairs)}"
    arguments: dict[str, Any] = {k: (int(v) if k == "limit" else v) for k, v in pairs}
    forms = [
        ("gold", step),
        ("no_method", f"curl '{whole}'"),
        ("method_lower", f"curl -X get '{whole}'"),
        ("request_option", f"curl --request GET '{whole}'"),
        ("url_option", f"curl -X GET --url '{whole}'"),
        ("double_quotes", f'curl -X GET "{whole}"'),
        ("silent_flags", f"curl -s -L -X GET '{whole}'"),
        ("api_key_header", f"curl -X GET '{whole}' -H 'x-api-key: DEMO-API-KEY'"),
        ("host_upper", line(pairs, host.upper() + path)),
        ("trailing_slash", line(pairs, base_url + "/")),
        ("http_scheme", line(pairs, base_url.replace("https://", "http://"))),
        ("explicit_port", line(pairs, base_url.replace(".com/", ".com:443/"))),
        ("fragment", f"curl -X GET '{whole}#results'"),
        ("no_leading_ampersand", line(pairs, lead="")),
        ("target_first", line([pairs[at], *others], lead="")),
        ("key_upper", line(replaced(key.upper()))),
        ("key_title", line(replaced(key.title()))),
        ("key_percent_encoded", line(replaced(_percent(key)))),
        ("key_plus_space", line(replaced("+" + key))),
        ("key_percent_space", line(replaced(key + "%20"))),
        ("repeated_parameter", line([*pairs[:at], (key, other_value), *pairs[at:]])),
        ("value_percent_encoded", line(replaced(new_value=_percent(value)))),
        ("value_other_case", line(replaced(new_value=changed_case))),
        ("value_padded", line(replaced(new_value="%20" + value))),
        ("get_data", f"curl -G '{base_url}?{_query_text(others)}' --data '{key}={value}'"),
        (
            "get_data_urlencode",
            f"curl -G '{base_url}?{_query_text(others)}' --data-urlencode '{key}={value}'",
        ),
        (
            "get_data_key_upper",
            f"curl -G '{base_url}?{_query_text(others)}' -d '{key.upper()}={value}'",
        ),
    ]
    if key == "breeds":
        forms.append(("breed_ids_alias", line(replaced("breed_ids"))))
        forms.append(("breed_ids_alias_upper", line(replaced("BREED_IDS"))))
    if key == "limit":
        forms.append(("limit_leading_zero", line(replaced(new_value="0" + value))))
        forms.append(("limit_plus_sign", line(replaced(new_value="%2B" + value))))
    if _is_default(key, value):  # the service reads the value when the filter is left out
        left_out = {k: v for k, v in arguments.items() if k != key}
        forms.append(("service_default_omitted", line(others)))
        forms.append(("json_service_default_omitted", _json_call("search_images", left_out)))
    forms += _json_forms("search_images", arguments)
    return forms


def _cat_image_attacks(env_id: str, task_id: str, slot: Slot, step: str) -> list[tuple[str, str]]:
    image = str(slot.value)
    if "DELETE" in step:  # compared as text (the original's rule): only its spellings score
        return [
            ("gold", step),
            ("extra_spaces", step.replace(" ", "  ")),
            ("tab_separated", step.replace(" ", "\t")),
            ("padded", f"  {step}  "),
            ("json", _json_call("delete_favourite", {"image_id": image})),
            (
                "json_escaped_strings",
                '{"name": "delete_favourite", "arguments": {"image_id": '
                + _dumps_escaped(image)
                + "}}",
            ),
            (
                "json_openai",
                json.dumps(
                    {
                        "type": "function",
                        "function": {
                            "name": "delete_favourite",
                            "arguments": json.dumps({"image_id": image}),
                        },
                    }
                ),
            ),
        ]
    url = _CURL_URL.search(step)
    body = re.search(r"--data '([^']*)'", step)
    if url is None or body is None:
        return []
    fields = json.loads(body.group(1))
    target = url.group(1)
    quoted = json.dumps(image)[1:-1]

    def with_body(text: str, option: str = "--data") -> str:
        return f"curl -X POST '{target}' {option} '{text}'"

    raw = body.group(1)
    endpoint = "add_favourite"
    if "value" in fields:
        endpoint = "vote_up" if fields["value"] == 1 else "vote_down"
    forms = [
        ("gold", step),
        ("body_escape_first", with_body(raw.replace(quoted, _json_escape_first(image), 1))),
        (
            "body_escape_first_upper",
            with_body(raw.replace(quoted, _json_escape_first(image, True), 1)),
        ),
        ("body_escape_all", with_body(raw.replace(quoted, _json_escape_all(image), 1))),
        (
            "body_escape_last",
            with_body(raw.replace(quoted, quoted[:-1] + f"\\u{ord(image[-1]):04x}", 1)),
        ),
        ("data_raw", with_body(raw, "--data-raw")),
        ("data_short", with_body(raw, "-d")),
        ("data_binary", with_body(raw, "--data-binary")),
        ("json_option", with_body(raw, "--json")),
        (
            "json_option_escaped",
            with_body(raw.replace(quoted, _json_escape_all(image), 1), "--json"),
        ),
        ("content_type_header", step + " -H 'Content-Type: application/json'"),
        (
            "no_method_escaped",
            f"curl '{target}' -d '{raw.replace(quoted, _json_escape_all(image), 1)}'",
        ),
        (
            "body_spaced_escaped",
            with_body(" " + raw.replace(quoted, _json_escape_all(image), 1) + " "),
        ),
    ]
    arguments = {"image_id": image}
    forms += _json_forms(endpoint, arguments)
    return forms


def _cat_attacks(env_id: str, task_id: str, slot: Slot) -> list[GuessAttack]:
    steps = gold_steps(env_id, task_id)
    site = next((i for i, s in enumerate(steps) if s.startswith("curl")), None)
    if site is None:
        return []
    step = steps[site]
    others = tuple(ask(env_id, s.kind) for s in held_slots(env_id, task_id) if s.kind != slot.kind)
    prelude = others + tuple(steps[:site])
    rest = tuple(steps[site + 1 :])
    if slot.kind in _SEARCH_KINDS:
        forms = _cat_search_attacks(env_id, task_id, slot, step)
    elif slot.kind == "image":
        forms = _cat_image_attacks(env_id, task_id, slot, step)
    else:
        forms = []
    return [GuessAttack(env_id, task_id, prelude, s, slot.kind, f, rest) for f, s in forms]


# -- Google Sheets: gspread programs --------------------------------------------------------------
def sheet_numbers(value: float) -> list[tuple[str, str]]:
    """Python expressions (the sandbox's) that compute the number ``value``: ``(form, text)``."""
    if isinstance(value, float) and not value.is_integer():
        whole, decimals = str(value).split(".")
        scaled = int(whole + decimals)
        return [
            ("float_quotient", f"{scaled} / {10 ** len(decimals)}"),
            ("float_sum", f"{whole} + 0.{decimals}"),
            ("float_of_concat", f"float('{whole}' '.{decimals}')"),
            ("exponent", f"{scaled}e-{len(decimals)}"),
            ("rounded", f"round({value!r} + 0.001, {len(decimals)})"),
            ("fstring", f"float(f'{{{whole}}}.{decimals}')"),
            ("float_of_join", f"float(''.join({list(str(value))!r}))"),
        ]
    n = int(value)
    digits = str(n)
    half = n // 2
    a, b = (digits[:-1], digits[-1]) if len(digits) > 1 else ("0", digits)
    out = [
        ("hex", hex(n)),
        ("octal", oct(n)),
        ("binary", bin(n)),
        ("sum", f"({n - half} + {half})"),
        ("difference", f"({n + 7} - 7)"),
        ("floor_quotient", f"({n * 3} // 3)"),
        ("int_of_concat", f"int('{a}' '{b}')"),
        ("int_of_join", f"int(''.join({list(digits)!r}))"),
        ("int_of_reversed", f"int('{digits[::-1]}'[::-1])"),
        ("sum_of_list", f"sum([{n - half}, {half}])"),
        ("abs_negative", f"abs(-{n})"),
        ("int_of_float_text", f"int(float('{n}e0'))"),
        ("fstring", f"int(f'{{{a}}}{b}')"),
        ("chr_digits", " + ".join(f"chr({ord(c)})" for c in digits).join(("int(", ")"))),
    ]
    if len(digits) > 1:
        out.append(("underscores", "_".join(digits)))
    if 0 < n <= 40:
        out.append(("length", f"len('{'x' * n}')"))
    return out


def sheet_strings(text: str) -> list[tuple[str, str]]:
    """Python expressions (the sandbox's) that compute the text ``text``: ``(form, text)``."""
    a, b = _split(text)
    first, tail = text[0], text[1:]
    out = [
        ("concat", f"{a!r} + {b!r}"),
        ("implicit_concat", f"{a!r} {b!r}"),
        ("hex_escape", "'" + f"\\x{ord(first):02x}" + tail.replace("'", "\\'") + "'"),
        ("unicode_escape", "'" + f"\\u{ord(first):04x}" + tail.replace("'", "\\'") + "'"),
        ("octal_escape", "'" + f"\\{ord(first):03o}" + tail.replace("'", "\\'") + "'"),
        ("all_hex_escapes", f"'{_escape_all(text)}'"),
        ("chr_concat", f"chr({ord(first)}) + {tail!r}"),
        ("join_characters", f"''.join({list(text)!r})"),
        ("reversed", f"{text[::-1]!r}[::-1]"),
        ("fstring", f'f"{{{a!r}}}{b}"'),
        ("percent_format", f"'%s{b}' % {a!r}"),
    ]
    if b:
        out.append(("replace", f"{a + '#' + b[1:]!r}.replace('#', {b[0]!r})"))
    if first.isalpha() and text.isascii():
        out.append(("named_escape", "'\\N{LATIN " + _letter_name(first) + "}" + tail + "'"))
    if " " in text:
        out.append(("hyphens_replaced", f"{text.replace(' ', '-')!r}.replace('-', ' ')"))
    return [(f, t) for f, t in out if t is not None]


def _targets(tree: ast.AST, slot: Slot) -> list[ast.AST]:
    """The gold's literals that write ``slot``'s value (what an attack computes instead)."""
    value = slot.value
    found: list[ast.AST] = []
    skip = _index_literals(tree)
    if slot.kind in ("value", "cell"):
        numbers = _slot_numbers(slot)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, int | float)
                and not isinstance(node.value, bool)
                and node.value in numbers
                and id(node) not in skip
            ):
                found.append(node)
        return found
    if slot.kind == "format" and value not in ("bold", "CURRENCY"):  # a colour's numbers
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict) and any(
                isinstance(k, ast.Constant) and k.value == "backgroundColor" for k in node.keys
            ):
                colour = node.values[0]
                found += [v for v in ast.walk(colour) if isinstance(v, ast.Constant)]
                found = [v for v in found if not isinstance(v.value, str)]
        return found
    texts = {str(value).lower()}
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.lower() in texts
        and id(node) not in skip
    ]


def _slot_numbers(slot: Slot) -> set[float]:
    value = slot.value
    if isinstance(value, list):
        return {v for v in value if isinstance(v, int | float) and not isinstance(v, bool)}
    if isinstance(value, int | float) and not isinstance(value, bool):
        return {value}
    if slot.kind == "cell":
        return {int(a.split()[-1]) for a in slot.aliases if a.startswith("columnindex ")}
    numbers = set()
    for alias in slot.aliases:
        try:
            numbers.add(float(alias))
        except ValueError:
            continue
    return numbers


def _index_literals(tree: ast.AST) -> set[int]:
    """Literals that are a row, a column or an index (never the value itself)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "update_cell":
                skip |= {id(a) for a in node.args[:2]}
            elif node.func.attr in ("insert_row", "insert_rows"):
                skip |= {id(a) for a in node.args[1:2]}
            elif node.func.attr == "sort":
                for spec in node.args:
                    if isinstance(spec, ast.Tuple) and spec.elts:
                        skip.add(id(spec.elts[0]))
        if isinstance(node, ast.Dict):  # a request's indexes, but a pivot's column and a colour
            skip |= {
                id(val)
                for key, val in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant)
                and key.value not in ("columnIndex", "red", "green", "blue")
                and isinstance(val, ast.Constant)
                and isinstance(val.value, int)
            }
    return skip


def _replace(source: str, nodes: Sequence[ast.AST], text: Callable[[ast.AST], str]) -> str:
    """``source`` with each node's text replaced by ``text(node)``."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode()))
    data = source.encode()
    spans = []
    for node in nodes:
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        spans.append((start, end, text(node)))
    for start, end, new in sorted(spans, reverse=True):
        data = data[:start] + new.encode() + data[end:]
    return data.decode()


def _disguised(source: str, slot: Slot) -> list[tuple[str, str]]:
    """The gold step with each literal of ``slot``'s value computed in other ways."""
    nodes = _targets(ast.parse(source), slot)
    if not nodes:
        return []
    values = [n.value for n in nodes]  # type: ignore[attr-defined]
    spelled = {
        id(n): dict(sheet_strings(v) if isinstance(v, str) else sheet_numbers(v))
        for n, v in zip(nodes, values, strict=True)
    }

    def spell(node: ast.AST, form: str) -> str:
        return spelled[id(node)].get(form, repr(node.value))  # type: ignore[attr-defined]

    out = [
        (form, _replace(source, nodes, lambda n, f=form: spell(n, f)))
        for form in spelled[id(nodes[0])]
    ]
    if all(v == values[0] for v in values):  # the value in a variable of the same step
        out.append(
            (
                "same_step_variable",
                f"guess = {values[0]!r}\n" + _replace(source, nodes, lambda n: "guess"),
            )
        )
        if isinstance(values[0], str):
            a, b = _split(values[0])
            body = _replace(source, nodes, lambda n: f"guess + {b!r}")
            out.append(("same_step_variable_concat", f"guess = {a!r}\n" + body))
    return out


def _a1(row: int, col: int) -> str:
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters}{row}"


def _call_args(source: str, method: str) -> list[list[Any]]:
    """The literal positional arguments of each call of ``worksheet.<method>`` in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == method
        ):
            try:
                out.append([ast.literal_eval(a) for a in node.args])
            except ValueError:
                continue
    return out


def _sheet_method_forms(source: str, slot: Slot, task: Any) -> list[tuple[str, str]]:
    """The gold's writes done by other gspread methods (the value written plainly)."""
    one_line = "\n" not in source
    cells = _call_args(source, "update_cell")
    rows = _call_args(source, "append_row")
    inserts = _call_args(source, "insert_row")
    formats = _call_args(source, "format")
    sorts = _call_args(source, "sort")
    forms: list[tuple[str, str]] = []
    if cells and all(len(c) == 3 for c in cells) and source.count("\n") + 1 == len(cells):
        forms += _cell_writes([(r, c, v) for r, c, v in cells], task)
    if len(rows) == 1 and one_line:
        forms += _appended_rows(rows[0][0], len(_table(task)) + 1)
    if len(inserts) == 1 and len(inserts[0]) == 2 and one_line:
        row, index = inserts[0]
        forms += [
            ("insert_row_keywords", f"worksheet.insert_row(values={row!r}, index={index})"),
            ("insert_rows", f"worksheet.insert_rows([{row!r}], {index})"),
            ("insert_row_hex_index", f"worksheet.insert_row({row!r}, {hex(index)})"),
        ]
    if len(formats) == 1 and len(formats[0]) == 2:
        forms += _formats(*formats[0])
    if len(sorts) == 1 and slot.kind == "order":
        forms += _sorts(source, sorts[0], task)
    return forms


def _cell_writes(cells: Sequence[tuple[int, int, Any]], task: Any) -> list[tuple[str, str]]:
    """Cells' writes (``update_cell(row, col, value)`` each) by every method that writes cells."""

    def each(render: Callable[[int, int, Any, str], str]) -> str:
        return "\n".join(render(r, c, v, _a1(r, c)) for r, c, v in cells)

    def listed(render: Callable[[int, int, Any, str], str]) -> str:
        return ", ".join(render(r, c, v, _a1(r, c)) for r, c, v in cells)

    def request(r: int, c: int, v: Any, a1: str) -> str:
        kind = "stringValue" if isinstance(v, str) else "numberValue"
        start = f"{{'sheetId': worksheet.id, 'rowIndex': {r - 1}, 'columnIndex': {c - 1}}}"
        rows = f"[{{'values': [{{'userEnteredValue': {{'{kind}': {v!r}}}}}]}}]"
        return (
            f"{{'updateCells': {{'rows': {rows}, 'fields': 'userEnteredValue', 'start': {start}}}}}"
        )

    update = "worksheet.update_cell"
    forms = [
        (
            "update_cell_keywords",
            each(lambda r, c, v, a: f"{update}(row={r}, col={c}, value={v!r})"),
        ),
        ("update_cell_value_keyword", each(lambda r, c, v, a: f"{update}({r}, {c}, value={v!r})")),
        ("update_cell_row_computed", each(lambda r, c, v, a: f"{update}({r - 1} + 1, {c}, {v!r})")),
        ("update_cell_hex_row", each(lambda r, c, v, a: f"{update}({hex(r)}, {c}, {v!r})")),
        ("update_acell", each(lambda r, c, v, a: f"worksheet.update_acell('{a}', {v!r})")),
        (
            "update_acell_keywords",
            each(lambda r, c, v, a: f"worksheet.update_acell(label='{a}', value={v!r})"),
        ),
        ("update_a1_first", each(lambda r, c, v, a: f"worksheet.update('{a}', [[{v!r}]])")),
        ("update_values_first", each(lambda r, c, v, a: f"worksheet.update([[{v!r}]], '{a}')")),
        (
            "update_keywords",
            each(lambda r, c, v, a: f"worksheet.update(values=[[{v!r}]], range_name='{a}')"),
        ),
        (
            "update_cells",
            "worksheet.update_cells(["
            + listed(lambda r, c, v, a: f"gspread.Cell({r}, {c}, {v!r})")
            + "])",
        ),
        (
            "update_cells_keywords",
            "worksheet.update_cells(["
            + listed(lambda r, c, v, a: f"gspread.Cell(row={r}, col={c}, value={v!r})")
            + "])",
        ),
        (
            "batch_update",
            "worksheet.batch_update(["
            + listed(lambda r, c, v, a: f"{{'range': '{a}', 'values': [[{v!r}]]}}")
            + "])",
        ),
        (
            "values_update",
            each(
                lambda r, c, v, a: (
                    f"sheet.values_update(\"'sheet_1'!{a}\", params="
                    f"{{'valueInputOption': 'USER_ENTERED'}}, body={{'values': [[{v!r}]]}})"
                )
            ),
        ),
        ("update_cells_request", f"sheet.batch_update({{'requests': [{listed(request)}]}})"),
    ]
    if all(_row_key(task, r) for r, _, _ in cells):
        find = "worksheet.find({!r}).row"
        forms.append(
            (
                "find_row",
                each(lambda r, c, v, a: f"{update}({find.format(_row_key(task, r))}, {c}, {v!r})"),
            )
        )
    if all(isinstance(v, int | float) for _, _, v in cells):
        formula = each(lambda r, c, v, a: f"{update}({r}, {c}, '=({v!r} * 2) / 2')")
        forms.append(("formula", formula))
    return forms


def _appended_rows(row: list[Any], below: int) -> list[tuple[str, str]]:
    """A new row appended (``append_row(row)``) by every method that adds or writes a row."""
    return [
        ("append_row_keyword", f"worksheet.append_row(values={row!r})"),
        ("append_rows", f"worksheet.append_rows([{row!r}])"),
        (
            "append_row_input_option",
            f"worksheet.append_row({row!r}, value_input_option='USER_ENTERED')",
        ),
        ("insert_row_at_end", f"worksheet.insert_row({row!r}, {below})"),
        ("update_next_row", f"worksheet.update('A{below}', [{row!r}])"),
        ("update_next_row_values_first", f"worksheet.update([{row!r}], 'A{below}')"),
    ]


def _formats(cells: str, fmt: dict[str, Any]) -> list[tuple[str, str]]:
    """A format (``format(cells, fmt)``) written by every method that formats."""
    forms = [
        ("batch_format", f"worksheet.batch_format([{{'range': {cells!r}, 'format': {fmt!r}}}])"),
        ("format_keywords", f"worksheet.format(ranges={cells!r}, format={fmt!r})"),
        ("format_dict_call", f"worksheet.format({cells!r}, dict({_dict_call(fmt)}))"),
    ]
    colour = fmt.get("backgroundColor")
    if isinstance(colour, dict):
        shuffled = {"backgroundColor": dict(reversed(list(colour.items())))}
        floats = {"backgroundColor": {k: float(v) for k, v in colour.items()}}
        forms += [
            ("colour_keys_reordered", f"worksheet.format({cells!r}, {shuffled!r})"),
            ("colour_floats", f"worksheet.format({cells!r}, {floats!r})"),
        ]
    return forms


_FRAME_SORT = (
    "df = get_as_dataframe(worksheet)\n"
    "df = df.sort_values({column!r}, ascending={ascending}, kind='stable')\n"
    "worksheet.clear()\n"
    "set_with_dataframe(worksheet, df, include_index=False, include_column_header=True)"
)
"""A sort done by pandas (the order written without its words)."""


def _sorts(source: str, arguments: list[Any], task: Any) -> list[tuple[str, str]]:
    """A sort (``sort((column, order), range=...)``) done by pandas or a ``sortRange`` request."""
    ((column, order),) = [a for a in arguments if isinstance(a, tuple)]
    header = _table(task)[0][column - 1]
    ascending = order == "asc"
    found = re.search(r"range='([A-Z]+)(\d+):([A-Z]+)(\d+)'", source)
    if found is None:
        return []
    first_row, last_col, last_row = int(found.group(2)), found.group(3), int(found.group(4))
    a, b = _split("ASCENDING" if ascending else "DESCENDING")
    bounds = (
        f"'sheetId': worksheet.id, 'startRowIndex': {first_row - 1}, 'endRowIndex': {last_row}, "
        f"'startColumnIndex': 0, 'endColumnIndex': {_column_number(last_col)}"
    )
    spec = f"{{'dimensionIndex': {column - 1}, 'sortOrder': {a!r} + {b!r}}}"
    request = f"{{'sortRange': {{'range': {{{bounds}}}, 'sortSpecs': [{spec}]}}}}"
    return [
        ("sort_pandas_flag", _FRAME_SORT.format(column=header, ascending=int(ascending))),
        (
            "sort_pandas_negated",
            _FRAME_SORT.format(column=header, ascending=f"not {not ascending}"),
        ),
        ("sort_range_request", f"sheet.batch_update({{'requests': [{request}]}})"),
        *_unseen_sorts(source, column, order, last_row, _column_number(last_col)),
    ]


def _unseen_sorts(
    source: str, column: int, order: str, last_row: int, last_col: int
) -> list[tuple[str, str]]:
    """The gold's sort, and a write that leaves the sorted column unreadable as an order.

    A text cell among the column's numbers (``'48``: the scorer's parser reads it as ``48``; in
    every column of a row, for the columns the sort put in order too), or a cell below the table that the scorer reads as missing (``NA``, ``N/A``, ``#N/A``:
    its row is dropped) while a spreadsheet holds it as text.
    """
    one, two = _split(order)
    sort = source.replace(repr(order), f"{one!r} {two!r}")

    def as_text(row: int) -> str:
        return (
            f'worksheet.update_cell({row}, {column}, "\'" + worksheet.cell({row}, {column}).value)'
        )

    return [
        ("sort_text_number_first_row", f"{sort}\n{as_text(2)}"),
        ("sort_text_number_last_row", f"{sort}\n{as_text(last_row)}"),
        (
            "sort_text_numbers_whole_row",  # other columns the sort put in order too
            f"{sort}\nfor c in range(1, {last_col} + 1):\n"
            f'    worksheet.update_cell(2, c, "\'" + worksheet.cell(2, c).value)',
        ),
        ("sort_na_far_cell", f"{sort}\nworksheet.update_acell('Z900', 'NA')"),
        ("sort_na_below_table", f"{sort}\nworksheet.update_acell('A{last_row + 3}', 'N/A')"),
        (
            "sort_error_text_below_table",
            f"{sort}\nworksheet.update_acell('B{last_row + 3}', '#N/A')",
        ),
    ]


def _dict_call(fmt: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in fmt.items())


def _column_number(letters: str) -> int:
    n = 0
    for c in letters:
        n = n * 26 + ord(c) - 64
    return n


def _table(task: Any) -> list[list[Any]]:
    inner = task.setup.get("inner") or {}
    return inner.get("table") or []


def _row_key(task: Any, row: int) -> str | None:
    table = _table(task)
    if 1 < row <= len(table) and table[row - 1]:
        key = str(table[row - 1][0])
        keys = [str(r[0]) for r in table if r]
        return key if keys.count(key) == 1 else None
    return None


def _sheets_attacks(env_id: str, task_id: str, slot: Slot) -> list[GuessAttack]:
    steps = gold_steps(env_id, task_id)
    site = next((i for i, s in enumerate(steps) if s.strip() != "finish"), None)
    if site is None:
        return []
    source = steps[site]
    task = _task(env_id, task_id)
    others = tuple(ask(env_id, s.kind) for s in held_slots(env_id, task_id) if s.kind != slot.kind)
    prelude = others + tuple(steps[:site])
    rest = tuple(steps[site + 1 :])
    forms = [("gold", source), *_disguised(source, slot)]
    forms += _sheet_method_forms(source, slot, task)
    out = [GuessAttack(env_id, task_id, prelude, s, slot.kind, f, rest) for f, s in forms]
    out += [
        GuessAttack(env_id, task_id, prelude + extra, s, slot.kind, f, rest)
        for f, extra, s in _across_steps(source, slot)
    ]
    return out


_SCRATCH = "sheet.sheet1"
"""The spreadsheet's first worksheet (``Sheet1``): never scored (the last worksheet is)."""


def _across_steps(source: str, slot: Slot) -> list[tuple[str, tuple[str, ...], str]]:
    """The value carried from earlier steps through the unscored ``Sheet1``.

    ``scratch_sheet_copy``: earlier steps write the value's parts to ``Sheet1``, the guess
    copies them into the gold's literals. ``delayed_formula``: an earlier step writes a formula
    adding (or joining) two cells of ``Sheet1`` where the gold writes the value, and writes
    one part; the guess writes the other part, which only then makes the formula the value.

    Returns:
        ``(form, earlier steps, the guess)``.
    """
    nodes = _targets(ast.parse(source), slot)
    if not nodes:
        return []
    values = [n.value for n in nodes]  # type: ignore[attr-defined]
    writes = tuple(f"{_SCRATCH}.update_acell('A{k + 1}', {v!r})" for k, v in enumerate(values))
    index = {id(n): k for k, n in enumerate(nodes)}

    def read(node: ast.AST) -> str:
        cell = f"A{index[id(node)] + 1}"
        return f"{_SCRATCH}.acell('{cell}', value_render_option='UNFORMATTED_VALUE').value"

    copied = _replace(source, nodes, read)
    out = [("scratch_sheet_copy", writes[:-1], writes[-1] + "\n" + copied)]
    out.append(("scratch_sheet_copy_later", writes, copied))
    cells = _call_args(source, "update_cell")
    if len(cells) != source.count("\n") + 1 or any(len(c) != 3 for c in cells):
        return out
    formulas, firsts, seconds = [], [], []
    for k, (row, col, value) in enumerate(cells):
        one, two = f"A{2 * k + 1}", f"A{2 * k + 2}"
        if isinstance(value, str) and len(value) > 1:
            a, b = _split(value)
            join = "&"
        elif isinstance(value, int | float) and not isinstance(value, bool):
            b = 3
            a = round(value - b, 10)
            join = "+"
            if a + b != value:
                return out
        else:
            return out
        formulas.append(f"worksheet.update_cell({row}, {col}, '=Sheet1!{one}{join}Sheet1!{two}')")
        firsts.append(f"{_SCRATCH}.update_acell('{one}', {a!r})")
        seconds.append(f"{_SCRATCH}.update_acell('{two}', {b!r})")
    earlier = ("\n".join(formulas), "\n".join(firsts))
    out.append(("delayed_formula", earlier, "\n".join(seconds)))
    return out


# -- WebShop: clicks ------------------------------------------------------------------------------
_CLICK = re.compile(r"^click\[(.+)\]$")
_OPTION_KINDS = ("color", "size", "flavor", "scent", "style")


def _shop_attacks(env_id: str, task_id: str, slot: Slot) -> list[GuessAttack]:
    if slot.kind not in _OPTION_KINDS:
        return []  # the price cap: no step sets it
    steps = gold_steps(env_id, task_id)
    value = str(slot.value).lower()

    def clicks(step: str, target: str) -> bool:
        match = _CLICK.match(step.strip())
        return match is not None and match.group(1).lower() == target

    site = next((i for i, s in enumerate(steps) if clicks(s, value)), None)
    if site is None:
        return []
    held = [str(s.value).lower() for s in held_slots(env_id, task_id) if s.kind in _OPTION_KINDS]
    busy = {i for i, s in enumerate(steps) for v in held if clicks(s, v)}
    prelude = tuple(s for i, s in enumerate(steps) if i < site and i not in busy)
    rest = tuple(s for i, s in enumerate(steps) if i != site and s not in prelude)
    target = _CLICK.match(steps[site].strip()).group(1)  # type: ignore[union-attr]
    forms = [
        ("click", f"click[{target}]"),
        ("click_upper", f"click[{target.upper()}]"),
        ("click_title", f"click[{target.title()}]"),
        ("click_space_before_bracket", f"click [{target}]"),
        ("click_tab_before_bracket", f"click\t[{target}]"),
        ("click_padded", f"  click[{target}]  "),
        ("click_nbsp_prefix", f"\u00a0click[{target}]"),
        ("click_trailing_newline", f"click[{target}]\n"),
        ("click_ideographic_space", f"\u3000click[{target}]"),
        ("json_upper_value", _json_call("click", {"target": target.upper()})),
    ]
    forms += _json_forms("click", {"target": target})
    return [GuessAttack(env_id, task_id, prelude, s, slot.kind, f, rest) for f, s in forms]


# -- RapidAPI: function calls ---------------------------------------------------------------------
def _documented_default(slot: Slot) -> str | None:
    """The documented default of ``slot``'s optional argument, when it is the slot's value.

    An API reads its default when the argument is left out. ``None``: no such default.
    """
    if slot.call is None or slot.argument is None:
        return None
    tool = _base(RAPID).toolkit.inner.tools.get(slot.call)
    param = None if tool is None else tool.param(slot.argument)
    if param is None or param.required:
        return None
    doc = next((d for d in getattr(tool, "docs", ()) if d.name == slot.argument), None)
    if doc is None or doc.default in (None, "") or value_key(doc.default) != value_key(slot.value):
        return None
    return str(doc.default)


def _rapid_attacks(env_id: str, task_id: str, slot: Slot) -> list[GuessAttack]:
    if slot.call is None or slot.argument is None:
        return []
    steps = gold_steps(env_id, task_id)
    calls = [json.loads(s) for s in steps]
    site = next(
        (
            i
            for i, c in enumerate(calls)
            if c["name"] == slot.call and slot.argument in c.get("arguments", {})
        ),
        None,
    )
    if site is None:
        return []
    held = held_slots(env_id, task_id)
    before = []
    for other in held:
        if other.kind == slot.kind or other.call is None:
            continue
        at = next((i for i, c in enumerate(calls) if c["name"] == other.call), None)
        if at is not None and at <= site:
            before.append(ask(env_id, other.kind))
    prelude = tuple(before) + tuple(steps[:site])
    rest = tuple(steps[site + 1 :])
    name, arguments = calls[site]["name"], dict(calls[site]["arguments"])
    value = arguments[slot.argument]
    text_args = json.dumps(arguments)
    forms = list(_json_forms(name, arguments))
    forms += [
        ("json_list", json.dumps([{"name": name, "arguments": arguments}])),
        (
            "tool_calls_message",
            json.dumps(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_0",
                            "type": "function",
                            "function": {"name": name, "arguments": text_args},
                        }
                    ],
                }
            ),
        ),
        (
            "function_call_message",
            json.dumps(
                {"role": "assistant", "function_call": {"name": name, "arguments": text_args}}
            ),
        ),
        ("toolbench_text", f"Action: {name}\nAction Input: {text_args}"),
        (
            "toolbench_thought",
            f"Thought: I know what the user wants.\nAction: {name}\nAction Input: {text_args}",
        ),
        ("toolbench_bare_name", f"{name}\nAction Input: {text_args}"),
        (
            "toolbench_observation_after",
            f"Action: {name}\nAction Input: {text_args}\nObservation: ok",
        ),
        ("toolbench_lowercase_input", f"Action: {name}\naction input: {text_args}"),
        (
            "json_target_first",
            _json_call(
                name,
                {
                    slot.argument: value,
                    **{k: v for k, v in arguments.items() if k != slot.argument},
                },
            ),
        ),
    ]
    if isinstance(value, str) and value:
        body = _dumps_escaped(arguments)
        message = {"type": "function", "function": {"name": name, "arguments": body}}
        forms += [
            ("toolbench_text_escaped", f"Action: {name}\nAction Input: {body}"),
            ("json_string_arguments_escaped", json.dumps({"name": name, "arguments": body})),
            (
                "tool_calls_message_escaped",
                json.dumps({"role": "assistant", "tool_calls": [message]}),
            ),
        ]
    if _documented_default(slot) is not None:  # the API reads the value when it is left out
        left_out = {k: v for k, v in arguments.items() if k != slot.argument}
        forms.append(("documented_default_omitted", _json_call(name, left_out)))
    if isinstance(value, int | float) and not isinstance(value, bool):
        forms += [
            ("number_as_text", _json_call(name, {**arguments, slot.argument: _number_text(value)})),
            ("number_as_float", _json_call(name, {**arguments, slot.argument: float(value)})),
        ]
    return [GuessAttack(env_id, task_id, prelude, s, slot.kind, f, rest) for f, s in forms]


# -- all attacks ----------------------------------------------------------------------------------
_BUILDERS: dict[str, Callable[[str, str, Slot], list[GuessAttack]]] = {
    HOME: _program_attacks,
    TRIP: _program_attacks,
    CAT: _cat_attacks,
    SHEETS: _sheets_attacks,
    SHOP: _shop_attacks,
    RAPID: _rapid_attacks,
}


def _spread_key(env_id: str, task_id: str, slot: Slot) -> str:
    """What attacks are spread over: a slot's kind, and what writes it where that varies."""
    if env_id == SHEETS:  # a value is written by a cell, a row, a column's sum...
        operation = _task(env_id, task_id).meta.get("operation")
        return f"{slot.kind}/{operation}" + (f"/{slot.value}" if slot.kind == "order" else "")
    if env_id == CAT and slot.kind == "image":  # a vote, a new favourite, a removed one
        step = next(iter(gold_steps(env_id, task_id)), "")
        return f"image/{step.split(chr(39))[0]}/{'votes' in step}"
    if env_id == CAT and _is_default(slot.kind, str(slot.value)):
        return f"{slot.kind}/default"
    if env_id == RAPID and _documented_default(slot) is not None:
        return "documented default"
    return slot.kind


def _slots_to_attack(env_id: str) -> Iterator[tuple[int, str, Slot]]:
    """The test tasks' held-back slots, spread over the kinds: each kind once, then twice...

    Yields:
        ``(round, task_id, slot)``: round 1 takes each kind once, round 2 a second time...
    """
    tasks = [(t, held_slots(env_id, t)) for t in _task_ids(env_id)]
    taken: set[tuple[str, str]] = set()
    counts: Counter[str] = Counter()
    for cap in range(1, 50):
        added = False
        for task_id, slots in tasks:
            for slot in slots:
                key = _spread_key(env_id, task_id, slot)
                if (task_id, slot.kind) in taken or counts[key] >= cap:
                    continue
                taken.add((task_id, slot.kind))
                counts[key] += 1
                added = True
                yield cap, task_id, slot
        if not added:
            return


_WEAK_SPOTS: dict[str, tuple[Callable[[Slot], bool], Callable[[str], bool]]] = {
    CAT: (lambda s: _is_default(s.kind, str(s.value)), lambda f: f.endswith("default_omitted")),
    SHEETS: (lambda s: s.kind == "order", lambda f: f.startswith("sort_")),
    RAPID: (lambda s: _documented_default(s) is not None, lambda f: f.endswith("_omitted")),
}
"""Forms aimed at what a family's service reads without being told (a default) or what its
change reader cannot see (a sort), sent on every test task they apply to: which slots, and
which of their forms."""


@functools.cache
def _attacks(env_id: str) -> tuple[GuessAttack, ...]:
    builder = _BUILDERS[env_id]
    attacks: list[GuessAttack] = []
    covered: set[tuple[str, str]] = set()
    for round_, task_id, slot in _slots_to_attack(env_id):
        if len(attacks) >= TARGET_ATTACKS and (round_ > 1 or len(attacks) >= MAX_ATTACKS):
            break
        attacks += builder(env_id, task_id, slot)
        covered.add((task_id, slot.kind))
    if env_id in _WEAK_SPOTS:
        applies, chosen = _WEAK_SPOTS[env_id]
        for task_id in _task_ids(env_id):
            for slot in held_slots(env_id, task_id):
                if (task_id, slot.kind) not in covered and applies(slot):
                    attacks += [a for a in builder(env_id, task_id, slot) if chosen(a.form)]
    return tuple(attacks)


def guess_attacks(env_id: str) -> list[GuessAttack]:
    """The guesses for ``env_id``'s stored test tasks (at least :data:`MIN_ATTACKS`)."""
    return list(_attacks(env_id))


# -- running them ---------------------------------------------------------------------------------
def _category(info: dict[str, Any]) -> str | None:
    error = info.get("error")
    return error.get("category") if isinstance(error, dict) else None


def run_attack(attack: GuessAttack, told: bool = False) -> str:
    """Play ``attack`` on a fresh episode of its task.

    Args:
        attack: the guess.
        told: ask the user for the attack's kind first (then the guess must run).

    Returns:
        ``"refused"`` when a step of it (the guess, or a step of its prelude) is refused as a
        guess; ``"accepted"`` when every step ran with no error; ``"failed"`` when one failed
        otherwise (or ended the episode before the guess).
    """
    env = chat_env(attack.env_id)
    env.reset(options={"task_id": attack.task_id})
    steps = [ask(attack.env_id, attack.kind)] if told else []
    for step in [*steps, *attack.prelude, attack.step]:
        _, _, terminated, truncated, info = env.step(step)
        category = _category(info)
        if category == GUESSED:
            return REFUSED
        if category is not None:
            return FAILED
        if (terminated or truncated) and step is not attack.step:
            return FAILED
    return ACCEPTED


def _play_told(env_id: str, task_id: str, steps: Sequence[str]) -> tuple[float, str | None]:
    """The final reward of ``steps`` after every held-back kind was asked for, and any error."""
    env = chat_env(env_id)
    env.reset(options={"task_id": task_id})
    for slot in held_slots(env_id, task_id):
        env.step(ask(env_id, slot.kind))
    reward, problem = 0.0, None
    for step in steps:
        _, reward, terminated, truncated, info = env.step(step)
        category = _category(info)
        if category is not None and problem is None:
            problem = f"{category} at {step[:60]!r}"
        if terminated or truncated:
            break
    return float(reward), problem


@functools.cache
def gold_reward(env_id: str, task_id: str) -> float:
    """The reward of the gold's steps, every held-back kind told."""
    return _play_told(env_id, task_id, gold_steps(env_id, task_id))[0]


def check_attack(attack: GuessAttack) -> str | None:
    """Why ``attack`` is no valid guess, or ``None`` when it is.

    Valid: the prelude tells the user nothing of the attack's kind (when the backend says what
    was told), and with every held-back kind told, the prelude, the guess and the gold's
    remaining steps score what the gold scores, each step with no error.
    """
    env = chat_env(attack.env_id)
    env.reset(options={"task_id": attack.task_id})
    for step in attack.prelude:
        if _is_message(step):
            env.step(step)
    backend = getattr(_base(attack.env_id), "_backend", None)
    untold = getattr(backend, "untold", None)
    if callable(untold) and attack.kind not in untold():
        return "the prelude tells the user's value"
    steps = [s for s in attack.prelude if not _is_message(s)] + [attack.step, *attack.rest]
    reward, problem = _play_told(attack.env_id, attack.task_id, steps)
    if problem is not None:
        return problem
    expected = gold_reward(attack.env_id, attack.task_id)
    if abs(reward - expected) > 1e-9:
        return f"reward {reward:g}, the gold's {expected:g}"
    return None


# -- transports -----------------------------------------------------------------------------------
TRANSPORTS = ("episode", "native", "trl", "mcp")
"""How a transport attack is sent: ToolEpisode.call, native tool calls through env.step, a
TRL environment class's method, an MCP client's call_tool."""
TRANSPORT_ENVS = (HOME, TRIP, CAT, SHOP, RAPID)
"""The envs whose tools are tool calls (Google Sheets' steps are gspread programs: its tool
episodes offer only ``message_user`` and ``finish``)."""
TRANSPORT_SAMPLE = 6
"""The attacks per env sent through every transport."""


@dataclass(frozen=True)
class TransportAttack:
    """A guess sent as a tool call through an integration.

    Attributes:
        attack: the guess (a JSON call) whose call is sent.
        prelude: the prelude as tool calls (``{"name", "arguments"}``).
        call: the guess as a tool call.
    """

    attack: GuessAttack
    prelude: tuple[dict[str, Any], ...]
    call: dict[str, Any]


def _as_tool_calls(env_id: str, step: str) -> list[dict[str, Any]] | None:
    base = _base(env_id)
    calls = base.language.tool_calls(step, base.tools)
    if calls is None:
        return None
    return [{"name": c.name, "arguments": dict(c.arguments)} for c in calls]


TRANSPORT_FORMS = (
    "json",
    "json_float",
    "json_upper_value",
    "json_loc_object",
    "json_loc_list",
    "json_date_object",
    "json_date_list",
    "json_date_unpadded",
    "number_as_text",
    "number_as_float",
    "json_service_default_omitted",
    "documented_default_omitted",
)
"""The forms whose call is sent through the transports (a call by the tool's own name)."""


@functools.cache
def transport_attacks(env_id: str) -> tuple[TransportAttack, ...]:
    """A sample of ``env_id``'s JSON-call guesses as tool calls: each kind once, then twice..."""
    candidates = []
    for attack in guess_attacks(env_id):
        if attack.form not in TRANSPORT_FORMS:
            continue
        prelude = [_as_tool_calls(env_id, step) for step in attack.prelude]
        if all(calls is not None and len(calls) == 1 for calls in prelude):
            payload = json.loads(attack.step)
            call = {"name": payload["name"], "arguments": payload.get("arguments") or {}}
            calls = tuple(c[0] for c in prelude if c is not None)
            candidates.append(TransportAttack(attack, calls, call))
    chosen: list[TransportAttack] = []
    kinds: Counter[str] = Counter()
    forms: Counter[str] = Counter()
    for cap in range(1, TRANSPORT_SAMPLE + 1):
        for candidate in candidates:
            attack = candidate.attack
            if len(chosen) >= TRANSPORT_SAMPLE:
                return tuple(chosen)
            if candidate in chosen or kinds[attack.kind] >= cap or forms[attack.form] >= cap:
                continue
            kinds[attack.kind] += 1
            forms[attack.form] += 1
            chosen.append(candidate)
    return tuple(chosen)


def _outcome(category: str | None) -> str:
    return REFUSED if category == GUESSED else FAILED if category else ACCEPTED


_ERROR = re.compile(r"^Error \((\w+)\)")
"""How an observation names a failed call's category (``Error (guessed_slot): ...``)."""


@functools.cache
def _tool_episode(env_id: str) -> Any:
    from toolgym.integrations.episode import ToolEpisode

    return ToolEpisode(env_id)


def _send_episode(attack: TransportAttack) -> str:
    episode = _tool_episode(attack.attack.env_id)
    episode.reset(task_id=attack.attack.task_id)
    for call in (*attack.prelude, attack.call):
        result = episode.call(call["name"], call["arguments"])
        if result.error is not None:
            break
    return _outcome((result.error or {}).get("category"))


def _send_native(attack: TransportAttack) -> str:
    env = chat_env(attack.attack.env_id)
    base = _base(attack.attack.env_id)
    env.reset(options={"task_id": attack.attack.task_id})
    category = None
    for call in (*attack.prelude, attack.call):
        function = {"name": call["name"], "arguments": json.dumps(call["arguments"])}
        action = base.native_action([{"id": "call_0", "type": "function", "function": function}])
        *_, info = env.step(action)
        category = _category(info)
        if category is not None:
            break
    return _outcome(category)


@functools.cache
def _trl_environment(env_id: str, tools: str) -> Any:
    """An object of the TRL environment class of ``env_id`` offering ``tools`` (JSON)."""
    from toolgym.integrations.trl import environment_class

    return environment_class(env_id, json.loads(tools))()


def _send_trl(attack: TransportAttack) -> str:
    tools = _tool_episode(attack.attack.env_id).reset(task_id=attack.attack.task_id).tools
    environment = _trl_environment(attack.attack.env_id, json.dumps(tools, sort_keys=True))
    environment.reset(task_id=attack.attack.task_id)
    by_tool = {tool: method for method, tool in environment.tool_names.items()}
    category = None
    for call in (*attack.prelude, attack.call):
        method = getattr(environment, by_tool[call["name"]])
        names = {v: k for k, v in getattr(method, "argument_names", {}).items()}
        text = method(**{names.get(k, k): v for k, v in call["arguments"].items()})
        match = _ERROR.match(text)
        category = match.group(1) if match else None
        if category is not None:
            break
    return _outcome(category)


def _send_mcp(attacks: Sequence[TransportAttack]) -> list[str]:
    import mcp_types as types
    from mcp import Client

    from toolgym.integrations.mcp_handlers import EPISODE_META_KEY
    from toolgym.integrations.mcp_server import make_server

    if not attacks:
        return []
    server = make_server(attacks[0].attack.env_id, max_sessions=1)

    def category(result: types.CallToolResult) -> str | None:
        data = result.structured_content or {}
        error = data.get("error")
        if isinstance(error, dict):
            return error.get("category")
        block = result.content[0] if result.content else None
        text = block.text if isinstance(block, types.TextContent) else ""
        match = _ERROR.match(text)
        return match.group(1) if match else None

    async def play() -> list[str]:
        out = []
        async with Client(server) as client:
            meta: dict[str, Any] = {}
            for attack in attacks:
                start = await client.call_tool(
                    "reset", {"task_id": attack.attack.task_id}, meta=meta
                )
                episode = (start.structured_content or {}).get("episode")
                if episode is not None:  # the first reset opens the episode the others reuse
                    meta = {EPISODE_META_KEY: episode}
                await client.list_tools(meta=meta)  # the task's tools
                outcome = ACCEPTED
                for call in (*attack.prelude, attack.call):
                    result = await client.call_tool(call["name"], call["arguments"], meta=meta)
                    outcome = _outcome(category(result))
                    if outcome != ACCEPTED:
                        break
                out.append(outcome)
        return out

    return asyncio.run(play())


def run_transports(
    env_id: str, transports: Sequence[str] = TRANSPORTS
) -> list[tuple[TransportAttack, str, str]]:
    """Each transport attack of ``env_id`` through each of ``transports``: ``(attack, transport, outcome)``."""
    attacks = transport_attacks(env_id)
    out = []
    for transport in transports:
        if transport == "mcp":
            out += [(a, "mcp", o) for a, o in zip(attacks, _send_mcp(attacks), strict=True)]
            continue
        send = {"episode": _send_episode, "native": _send_native, "trl": _send_trl}[transport]
        out += [(a, transport, send(a)) for a in attacks]
    return out


# -- the report -----------------------------------------------------------------------------------
def _report(env_id: str) -> tuple[str, list[str]]:
    """One env's row of the table, and the lines that list what was not refused."""
    attacks = guess_attacks(env_id)
    outcomes = [run_attack(a) for a in attacks]
    told = [run_attack(a, told=True) for a in attacks]
    invalid = [(a, why) for a in attacks if (why := check_attack(a)) is not None]
    counts = Counter(outcomes)
    row = (
        f"{env_id:<32} {len(attacks):>7} {counts[REFUSED]:>8} {counts[ACCEPTED]:>9} "
        f"{counts[FAILED]:>7} {told.count(ACCEPTED):>11} {len(invalid):>8}"
    )
    lines = []
    by_form: dict[str, list[GuessAttack]] = defaultdict(list)
    for attack, outcome in zip(attacks, outcomes, strict=True):
        if outcome == ACCEPTED:
            by_form[attack.form].append(attack)
    if by_form:
        lines.append(f"\n{env_id}: {counts[ACCEPTED]} accepted, by form (one example each):")
        for form, group in sorted(by_form.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            tasks = len({a.task_id for a in group})
            lines.append(f"  {form}: {len(group)} ({tasks} tasks)  {group[0].describe()}")
    lines += [
        f"  FAILED {a.describe()}" for a, o in zip(attacks, outcomes, strict=True) if o == FAILED
    ]
    lines += [
        f"  NOT RUN AFTER TOLD ({o}) {a.describe()}"
        for a, o in zip(attacks, told, strict=True)
        if o != ACCEPTED
    ]
    lines += [f"  INVALID ({why}) {a.describe()}" for a, why in invalid]
    return row, lines


def main(env_ids: Sequence[str] = ()) -> int:
    """Print a table by env, the accepted guesses by form, and the transports' table.

    Args:
        env_ids: the envs to attack (default: all six).
    """
    chosen = [e for e in ENV_IDS if not env_ids or e in env_ids]
    rows = [
        f"{'env':<32} {'attacks':>7} {'refused':>8} {'accepted':>9} {'failed':>7} "
        f"{'after told':>11} {'invalid':>8}"
    ]
    listings: list[str] = []
    for env_id in chosen:
        row, lines = _report(env_id)
        rows.append(row)
        listings += lines
    rows.append(
        f"\n{'transports (sent x 4 ways)':<32} {'sent':>7} {'refused':>8} {'accepted':>9} {'failed':>7}"
    )
    for env_id in (e for e in TRANSPORT_ENVS if e in chosen):
        results = run_transports(env_id)
        counts = Counter(o for _, _, o in results)
        rows.append(
            f"{env_id:<32} {len(results):>7} {counts[REFUSED]:>8} {counts[ACCEPTED]:>9} "
            f"{counts[FAILED]:>7}"
        )
        sent = [(a, t, o) for a, t, o in results if o != REFUSED]
        if sent:
            listings.append(f"\n{env_id}: through the transports, not refused:")
        listings += [f"  {t} -> {o}: {a.attack.describe()}" for a, t, o in sent]
    print("\n".join(rows))
    print("\n".join(listings))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

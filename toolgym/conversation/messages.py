"""Messages to the user as actions: the ``message_user`` tool and the forms an action takes.

In a conversation env an agent's step either calls the family's tools or sends the user a
message, written ``message_user("...")`` (or ``message_user(text="...")``, or with the tools'
owner, ``API.message_user(...)``) or as a JSON call ``{"name": "message_user", "arguments":
{"text": "..."}}``. A gold label starts with its questions, one ``message_user(...)`` line each,
before the family's own gold.
"""

from __future__ import annotations

import ast
import json
import re

from toolgym.tools.ast_parse import parse
from toolgym.tools.budgets import RESOURCE_LIMIT
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError, register_category
from toolgym.tools.tool import Param, Tool

MESSAGE_TOOL_NAME = "message_user"
MAX_MESSAGE_CHARS = 4000
"""A longer message to the user is refused (``resource_limit``) before the user reads it."""

GUESSED_SLOT = register_category(
    "guessed_slot",
    "In a conversation, a call that sets a detail of the goal the user has not told yet: the "
    "agent acted on a guess instead of asking. The step is undone.",
)

USER_FAILED = register_category(
    "user_failed",
    "In a conversation, the simulated user could not answer: its model failed (a server "
    "unreachable, a backend error, past its timeout). Not the agent's mistake: the episode is "
    "not scored for the agent.",
    unscored=True,
)

MESSAGE_TOOL = Tool(
    MESSAGE_TOOL_NAME,
    "Send a message to the user and get the reply: ask for a detail the request leaves out, "
    "check what you understood, or say that you are done.",
    (Param("text", "str", "the message to the user"),),
)

_START = re.compile(rf"^\s*(?:[A-Za-z_]\w*\s*\.\s*)?{MESSAGE_TOOL_NAME}\s*\(")
_JSON_NAME = re.compile(rf'"name"\s*:\s*"{MESSAGE_TOOL_NAME}"')


def render_message(text: str) -> str:
    """The action that sends ``text`` to the user.

    >>> render_message('What is your "budget"?')
    'message_user("What is your \\\\"budget\\\\"?")'
    """
    return f"{MESSAGE_TOOL_NAME}({json.dumps(text, ensure_ascii=False)})"


def is_message(action: str) -> bool:
    """Whether ``action`` is written as a message to the user (well-formed or not)."""
    head = action.lstrip()[:200]
    return _START.match(head) is not None or (
        head.startswith("{") and _JSON_NAME.search(action[:400]) is not None
    )


def read_message_action(action: str) -> str:
    """The text of a message action (see :func:`is_message`).

    Raises:
        ToolCallError: ``resource_limit`` for a message past :data:`MAX_MESSAGE_CHARS`,
            ``wrong_arguments`` for one without a non-empty text, ``wrong_api`` for a message
            together with other calls or text.
    """
    stripped = action.strip()
    text = _json_text(stripped) if stripped.startswith("{") else _call_text(stripped)
    if len(text) > MAX_MESSAGE_CHARS:
        raise ToolCallError(
            RESOURCE_LIMIT,
            f"a message to the user has at most {MAX_MESSAGE_CHARS} characters; got {len(text)}",
        )
    if not text.strip():
        raise ToolCallError(WRONG_ARGUMENTS, "a message to the user needs some text; got none")
    return text


def _json_text(action: str) -> str:
    try:
        call = json.loads(action)
    except (ValueError, RecursionError):
        raise ToolCallError(
            WRONG_API, 'a JSON message is one object: {"name": "message_user", ...}'
        ) from None
    if not isinstance(call, dict) or call.get("name") != MESSAGE_TOOL_NAME:
        raise ToolCallError(WRONG_API, "a step sends one message or calls tools, not both")
    arguments = call.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except (ValueError, RecursionError):
            arguments = None
    if not isinstance(arguments, dict) or set(arguments) - {"text"}:
        raise ToolCallError(
            WRONG_ARGUMENTS, f"message_user takes one argument, text; got {arguments!r:.120}"
        )
    text = arguments.get("text")
    if not isinstance(text, str):
        raise ToolCallError(WRONG_ARGUMENTS, f"message_user's text is a string; got {text!r:.120}")
    return text


def _call_text(action: str) -> str:
    try:
        tree = parse(action, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise ToolCallError(
            WRONG_API,
            'a message is one call, message_user("..."), with nothing after it; '
            f"got {action[:120]!r}",
        ) from None
    node = tree.body
    if not isinstance(node, ast.Call):
        raise ToolCallError(WRONG_API, "a step sends one message or calls tools, not both")
    values = [*node.args, *(k.value for k in node.keywords)]
    names = [k.arg for k in node.keywords]
    if len(values) != 1 or names not in ([], ["text"]):
        raise ToolCallError(
            WRONG_ARGUMENTS, f"message_user takes one argument, text; got {len(values)}"
        )
    value = values[0]
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        raise ToolCallError(
            WRONG_ARGUMENTS, 'message_user\'s text is one string literal, as message_user("...")'
        )
    return value.value


def split_gold(gold: str) -> tuple[list[str], str]:
    """A conversation gold's questions (its leading ``message_user`` lines) and the rest."""
    lines = gold.split("\n")
    questions = []
    while lines and lines[0].startswith(f"{MESSAGE_TOOL_NAME}("):
        questions.append(json.loads(lines.pop(0)[len(MESSAGE_TOOL_NAME) + 1 : -1]))
    return questions, "\n".join(lines)


def inner_gold(gold: str) -> str:
    """The family's own gold inside a conversation gold."""
    return split_gold(gold)[1]

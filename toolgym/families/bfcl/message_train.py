"""Generated multi-turn conversations over BFCL's messaging backend (``MessageAPI``).

Each starts a workspace of three to five users, the first of them logged in, and a few messages
already sent, and asks two to four things, one user turn each: send a message to someone by
name (look their id up, then send), add a contact, send to that new contact, delete the last
message sent to someone, search the sent messages for a word, show them, or list the users.
Every request names what it acts on, so each turn has one right sequence of calls; BFCL's
verdict scores the conversation like any entry. Rebuilt from ``(k, world_seed)`` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl.turn_train import Turn, _call, draw_turns, generated_task

NAMES = ("Alice", "Bruno", "Chen", "Dalia", "Emeka", "Fatima", "Goran", "Hana", "Ivo", "Jade")
NEW_NAMES = ("Kofi", "Leila", "Mateo", "Nadia", "Oskar", "Pia")
MESSAGES = ("The report is ready for review", "Lunch at noon tomorrow?",
            "Please send the invoice today", "The meeting moved to Friday",
            "Can you check the server logs", "Thanks for the quick fix",
            "Budget numbers are attached", "See you at the workshop")  # fmt: skip


@dataclass
class _Workspace:
    rng: np.random.Generator
    users: dict[str, str]
    sent: list[tuple[str, str]] = field(default_factory=list)
    new: list[str] = field(default_factory=list)

    def pick(self, items: Any) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def others(self) -> list[str]:
        me = next(iter(self.users))
        return [name for name in self.users if name != me]


def _send(w: _Workspace) -> Turn | None:
    name, text = w.pick(w.others()), w.pick(MESSAGES)
    w.sent.append((w.users[name], text))
    ask = w.pick(("Send '{t}' to {n}.", "Message {n}: '{t}'."))
    return ask.format(t=text, n=name), [
        _call("get_user_id", user=name),
        _call("send_message", receiver_id=w.users[name], message=text),
    ]


def _new_contact(w: _Workspace) -> str | None:
    """A name not in the contacts yet, added with the next id (``None``: none is left)."""
    free = [n for n in NEW_NAMES if n not in w.users]
    if not free:
        return None
    name = w.pick(free)
    w.users[name] = f"USR{len(w.users) + 1:03d}"
    return name


def _add_and_send(w: _Workspace) -> Turn | None:
    name = _new_contact(w)
    if name is None:
        return None
    text = w.pick(MESSAGES)
    w.sent.append((w.users[name], text))
    return f"Add {name} as a contact, then send them '{text}'.", [
        _call("add_contact", user_name=name),
        _call("send_message", receiver_id=w.users[name], message=text),
    ]


def _add(w: _Workspace) -> Turn | None:
    name = _new_contact(w)
    if name is None:
        return None
    return f"Please add {name} to my contacts.", [_call("add_contact", user_name=name)]


def _delete(w: _Workspace) -> Turn | None:
    named = {i: n for n, i in w.users.items()}
    targets = sorted({named[i] for i, _ in w.sent if i in named})
    if not targets:
        return None
    name = w.pick(targets)
    last = max(k for k, (i, _) in enumerate(w.sent) if i == w.users[name])
    w.sent.pop(last)
    return f"Delete the last message I sent to {name}.", [
        _call("get_user_id", user=name),
        _call("delete_message", receiver_id=w.users[name]),
    ]


def _search(w: _Workspace) -> Turn | None:
    if not w.sent:
        return None
    word = w.pick(w.pick(w.sent)[1].split())
    return f"Search my messages for '{word}'.", [_call("search_messages", keyword=word)]


def _view(w: _Workspace) -> Turn | None:
    return w.pick(("Show me the messages I have sent.", "What have I sent so far?")), [
        _call("view_messages_sent")
    ]


def _list(w: _Workspace) -> Turn | None:
    return "Who is in this workspace?", [_call("list_users")]


REQUESTS: tuple[Callable[[_Workspace], Turn | None], ...] = (
    _send, _send, _add_and_send, _add, _delete, _search, _view, _list,
)  # fmt: skip
"""The kinds of request a turn makes (sending twice as often)."""


def message_task(k: int, rng: np.random.Generator) -> Task:
    """The generated messaging conversation ``train-{k}`` (see the module docstring)."""
    names = [str(n) for n in rng.permutation(NAMES)[: int(rng.integers(3, 6))]]
    users = {name: f"USR{i + 1:03d}" for i, name in enumerate(names)}
    workspace = _Workspace(rng, dict(users))
    for _ in range(int(rng.integers(1, 4))):
        receiver = users[workspace.pick(workspace.others())]
        workspace.sent.append((receiver, workspace.pick(MESSAGES)))
    config = {
        "user_count": len(users),
        "user_map": dict(users),
        "inbox": [{receiver: text} for receiver, text in workspace.sent],
        "message_count": len(workspace.sent),
        "current_user": users[names[0]],
        "random_seed": int(rng.integers(1, 10**6)),
    }
    turns = draw_turns(rng, REQUESTS, workspace)
    opening = f"I am {names[0]}, logged in to the workspace. "
    return generated_task(k, {"MessageAPI": config}, turns, opening)

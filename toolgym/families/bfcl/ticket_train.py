"""Generated multi-turn conversations over BFCL's support-ticket backend (``TicketAPI``).

Each starts a ticket queue of one to four tickets, some the logged-in user's, and asks two to four
things, one user turn each: open a ticket (title, description, priority), show a ticket, close
one, resolve one with a note, change a ticket's priority, or list the user's tickets of a status.
Every request names what it acts on, so each turn has one right sequence of calls; BFCL's verdict
scores the conversation like any entry. Rebuilt from ``(k, world_seed)`` alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl.turn_train import Turn, _call, draw_turns, generated_task

USERS = ("jdoe", "mlopez", "akim", "tnguyen", "rpatel")
TITLES = ("Printer offline", "VPN drops hourly", "Laptop battery swelling", "Email quota full",
          "Badge not working", "Monitor flickers", "Software licence expired", "Wi-Fi slow")  # fmt: skip
DETAILS = ("Started this morning", "Happens on the third floor", "Needed before Friday",
           "Affects the whole team", "Restarting did not help")  # fmt: skip
NOTES = ("Replaced the cable", "Reset the account", "Installed the update", "Ordered a new one")


@dataclass
class _Queue:
    rng: np.random.Generator
    me: str
    tickets: list[dict[str, Any]]

    def pick(self, items: Any) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def mine(self, *statuses: str) -> list[dict[str, Any]]:
        return [t for t in self.tickets if t["created_by"] == self.me and t["status"] in statuses]


def _open(q: _Queue) -> Turn | None:
    title, details, priority = q.pick(TITLES), q.pick(DETAILS), int(q.rng.integers(1, 6))
    q.tickets.append({"id": len(q.tickets) + 1, "title": title, "status": "Open",
                      "created_by": q.me})  # fmt: skip
    ask = f"Open a ticket titled '{title}', priority {priority}, saying '{details}'."
    return ask, [_call("create_ticket", title=title, description=details, priority=priority)]


def _show(q: _Queue) -> Turn | None:
    ticket = q.pick(q.tickets)
    return f"Show me ticket {ticket['id']}.", [_call("get_ticket", ticket_id=ticket["id"])]


def _close(q: _Queue) -> Turn | None:
    open_ = q.mine("Open")
    if not open_:
        return None
    ticket = q.pick(open_)
    ticket["status"] = "Closed"
    return f"Close ticket {ticket['id']}, please.", [_call("close_ticket", ticket_id=ticket["id"])]


def _resolve(q: _Queue) -> Turn | None:
    open_ = q.mine("Open")
    if not open_:
        return None
    ticket, note = q.pick(open_), q.pick(NOTES)
    ticket["status"] = "Resolved"
    return f"Resolve ticket {ticket['id']} with the note '{note}'.", [
        _call("resolve_ticket", ticket_id=ticket["id"], resolution=note)
    ]


def _priority(q: _Queue) -> Turn | None:
    open_ = q.mine("Open")
    if not open_:
        return None
    ticket, priority = q.pick(open_), int(q.rng.integers(1, 6))
    return f"Set the priority of ticket {ticket['id']} to {priority}.", [
        _call("edit_ticket", ticket_id=ticket["id"], updates={"priority": priority})
    ]


def _list(q: _Queue) -> Turn | None:
    held = [s for s in ("Open", "Closed", "Resolved") if q.mine(s)]  # a list with tickets in it
    if not held:
        return None
    status = q.pick(held)
    return f"Which of my tickets are {status.lower()}?", [_call("get_user_tickets", status=status)]


REQUESTS: tuple[Callable[[_Queue], Turn | None], ...] = (
    _open, _open, _show, _close, _resolve, _priority, _list,
)  # fmt: skip
"""The kinds of request a turn makes (opening twice as often)."""


def ticket_task(k: int, rng: np.random.Generator) -> Task:
    """The generated ticket conversation ``train-{k}`` (see the module docstring)."""
    me = str(rng.choice(USERS))
    queue = _Queue(rng, me, [])
    for i in range(int(rng.integers(1, 5))):
        owner = me if rng.random() < 0.6 else str(rng.choice(USERS))
        queue.tickets.append({"id": i + 1, "title": queue.pick(TITLES),
                              "description": queue.pick(DETAILS), "status": "Open",
                              "priority": int(rng.integers(1, 6)), "created_by": owner})  # fmt: skip
    config = {
        "ticket_queue": [dict(t) for t in queue.tickets],
        "ticket_counter": len(queue.tickets) + 1,
        "current_user": me,
    }
    turns = draw_turns(rng, REQUESTS, queue)
    opening = f"I am logged in to the ticket system as {me}. "
    return generated_task(k, {"TicketAPI": config}, turns, opening)

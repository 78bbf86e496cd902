"""Generated multi-turn conversations for training, over BFCL's file, math and messaging backends.

BFCL's entries are its test set; these conversations are for learning to play it. A fifth of
them are over the messaging backend (``k % 5 == 2``, :mod:`.message_train`), a fifth over the
support tickets (``k % 5 == 3``, :mod:`.ticket_train`), a fifth over the social posts
(``k % 5 == 4``, :mod:`.posting_train`); each other one
starts a ``GorillaFileSystem`` in a generated folder (a few files with text, a few subfolders),
with ``MathAPI`` beside it in half of them, and asks two to four things, one user turn each:
make a folder or a file, write into a file, read it, count its lines, words or characters,
copy or move it, list the folder, go into a subfolder and make a file there, or (with
``MathAPI``) add, multiply or average numbers. Every request names what it acts on, so each
turn has one right sequence of calls, which is the turn's possible answer; the conversation is
scored by BFCL's verdict like any entry (state and results after each turn).

A conversation is rebuilt from ``(k, world_seed)`` alone: ``train_task(k)`` is the same task
everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl import data
from toolgym.simulators.seeding import stable_rng

FOLDERS = ("reports", "archive", "drafts", "data", "notes", "backup", "photos", "projects",
           "invoices", "research")  # fmt: skip
FILES = ("summary.txt", "todo.txt", "budget.csv", "notes.md", "log.txt", "draft.doc",
         "results.csv", "ideas.txt", "plan.txt", "readme.md", "minutes.txt", "agenda.md")  # fmt: skip
LINES = ("Quarterly numbers look strong", "Call the supplier on Monday", "Review the draft again",
         "Budget approved for the next phase", "Meeting moved to Thursday",
         "Backup finished without errors", "Order more printer paper", "Ship the release notes")  # fmt: skip
ROOTS = ("workspace", "home", "office", "lab", "studio")


@dataclass
class _Folder:
    files: dict[str, str] = field(default_factory=dict)
    folders: dict[str, _Folder] = field(default_factory=dict)

    def config(self) -> dict[str, Any]:
        contents: dict[str, Any] = {
            name: {"type": "file", "content": text} for name, text in self.files.items()
        }
        for name, folder in self.folders.items():
            contents[name] = {"type": "directory", "contents": folder.config()}
        return contents


@dataclass
class _State:
    rng: np.random.Generator
    here: _Folder
    math: bool

    def pick(self, items: Any) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def new_name(self, pool: tuple[str, ...]) -> str | None:
        taken = set(self.here.files) | set(self.here.folders)
        free = [name for name in pool if name not in taken]
        return self.pick(free) if free else None


Turn = tuple[str, list[str]]
"""A user request and its calls."""


def _call(name: str, **arguments: Any) -> str:
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in arguments.items())})"


def _make_folder(s: _State) -> Turn | None:
    name = s.new_name(FOLDERS)
    if name is None:
        return None
    s.here.folders[name] = _Folder()
    ask = s.pick(("Create a folder named '{}' here.", "I need a new directory called '{}'."))
    return ask.format(name), [_call("mkdir", dir_name=name)]


def _make_file(s: _State) -> Turn | None:
    name = s.new_name(FILES)
    if name is None:
        return None
    s.here.files[name] = ""
    ask = s.pick(("Make an empty file called '{}'.", "Please create a new file named '{}'."))
    return ask.format(name), [_call("touch", file_name=name)]


def _write(s: _State) -> Turn | None:
    if not s.here.files:
        return None
    name, text = s.pick(sorted(s.here.files)), s.pick(LINES)
    s.here.files[name] = text
    ask = s.pick(("Write '{t}' into '{f}'.", "Put the text '{t}' in the file '{f}'."))
    return ask.format(t=text, f=name), [_call("echo", content=text, file_name=name)]


def _read(s: _State) -> Turn | None:
    if not s.here.files:
        return None
    name = s.pick(sorted(s.here.files))
    ask = s.pick(("What does '{}' say?", "Show me the contents of '{}'."))
    return ask.format(name), [_call("cat", file_name=name)]


def _count(s: _State) -> Turn | None:
    if not s.here.files:
        return None
    name = s.pick(sorted(s.here.files))
    mode, what = s.pick((("l", "lines"), ("w", "words"), ("c", "characters")))
    return f"How many {what} are in '{name}'?", [_call("wc", file_name=name, mode=mode)]


def _copy(s: _State) -> Turn | None:
    if not s.here.files:
        return None
    source, target = s.pick(sorted(s.here.files)), s.new_name(FILES)
    if target is None:
        return None
    s.here.files[target] = s.here.files[source]
    ask = f"Make a copy of '{source}' named '{target}'."
    return ask, [_call("cp", source=source, destination=target)]


def _move(s: _State) -> Turn | None:
    if not s.here.files or not s.here.folders:
        return None
    name, folder = s.pick(sorted(s.here.files)), s.pick(sorted(s.here.folders))
    if name in s.here.folders[folder].files:
        return None
    s.here.folders[folder].files[name] = s.here.files.pop(name)
    ask = s.pick(("Move '{f}' into the '{d}' folder.", "Put '{f}' in '{d}', please."))
    return ask.format(f=name, d=folder), [_call("mv", source=name, destination=folder)]


def _list(s: _State) -> Turn | None:
    ask = s.pick(("What is in the current folder?", "List the files and folders here."))
    return ask, [_call("ls")]


def _enter(s: _State) -> Turn | None:
    if not s.here.folders:
        return None
    folder = s.pick(sorted(s.here.folders))
    inside = s.here.folders[folder]
    free = [n for n in FILES if n not in inside.files and n not in inside.folders]
    if not free:
        return None
    name = s.pick(free)
    inside.files[name] = ""
    s.here = inside
    ask = f"Go into '{folder}' and create a file called '{name}' there."
    return ask, [_call("cd", folder=folder), _call("touch", file_name=name)]


def _arithmetic(s: _State) -> Turn | None:
    if not s.math:
        return None
    a, b = int(s.rng.integers(2, 500)), int(s.rng.integers(2, 500))
    kind = s.pick(("add", "multiply", "mean"))
    if kind == "add":
        return f"What is {a} plus {b}?", [_call("add", a=a, b=b)]
    if kind == "multiply":
        return f"Multiply {a} by {b} for me.", [_call("multiply", a=a, b=b)]
    numbers = [a, b, int(s.rng.integers(2, 500))]
    listed = ", ".join(map(str, numbers))
    return f"What is the average of {listed}?", [_call("mean", numbers=numbers)]


REQUESTS: tuple[Callable[[_State], Turn | None], ...] = (
    _make_folder, _make_file, _write, _read, _count, _copy, _move, _list, _enter, _arithmetic,
)  # fmt: skip
"""The kinds of request a turn makes."""


def train_task(k: int, world_seed: int = 0) -> Task:
    """The generated conversation ``train-{k}`` (see the module docstring)."""
    rng = stable_rng("bfcl-multi-turn-train", world_seed, k)
    if k % 5 == 2:  # a fifth each over the messages, the tickets and the posts
        from toolgym.families.bfcl.message_train import message_task

        return message_task(k, rng)
    if k % 5 == 3:
        from toolgym.families.bfcl.ticket_train import ticket_task

        return ticket_task(k, rng)
    if k % 5 == 4:
        from toolgym.families.bfcl.posting_train import posting_task

        return posting_task(k, rng)
    root = _Folder()
    for _ in range(int(rng.integers(2, 5))):
        root.files[str(rng.choice(FILES))] = str(rng.choice(LINES))
    for _ in range(int(rng.integers(1, 3))):
        root.folders.setdefault(str(rng.choice(FOLDERS)), _Folder())
    math = bool(rng.integers(2))
    state = _State(rng, root, math)
    config = {"root": {str(rng.choice(ROOTS)): {"type": "directory", "contents": root.config()}}}
    turns = draw_turns(rng, REQUESTS, state)
    configs = {"GorillaFileSystem": config, **({"MathAPI": {}} if math else {})}
    return generated_task(k, configs, turns)


def draw_turns(rng: np.random.Generator, requests: Sequence[Callable[[Any], Turn | None]],
               state: Any) -> list[Turn]:  # fmt: skip
    """Two to four turns, each a request drawn from ``requests`` that fits ``state``."""
    turns: list[Turn] = []
    wanted = int(rng.integers(2, 5))
    while len(turns) < wanted:
        turn = requests[int(rng.integers(len(requests)))](state)
        if turn is not None:
            turns.append(turn)
    return turns


def generated_task(k: int, configs: dict[str, Any], turns: list[Turn], opening: str = "") -> Task:
    """The task ``train-{k}`` over the classes of ``configs``, in their starting state.

    One user turn per request (the first after ``opening``), each turn's calls its possible
    answer.
    """
    classes = list(configs)
    asks = [f"{opening}{turns[0][0]}", *(ask for ask, _ in turns[1:])]
    setup = {
        "category": "multi_turn_base",
        "involved_classes": classes,
        "initial_config": configs,
        "functions": [dict(doc) for name in classes for doc in data.class_docs(name)],
        "missed_function": {},
        "turns": [[{"role": "user", "content": ask}] for ask in asks],
    }
    truth = [calls for _, calls in turns]
    meta = {"category": "multi_turn_base", "ground_truth": truth, "generated": True}
    return Task(f"train-{k}", asks[0], (json.dumps(truth),), meta, setup=setup)

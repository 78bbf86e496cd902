"""Generated memory questions for training: facts told in earlier conversations, asked later.

A ``train-<k>`` task is made from ``k`` alone, like BFCL's memory questions: one of BFCL's five
scenario roles, one to three earlier conversations of two to four user turns in which the user
tells personal facts among small talk (a fact is sometimes corrected in a later conversation:
the latest value is the answer), then a question about one of the facts. The memory backend is
``memory_kv``, ``memory_vector`` and ``memory_rec_sum`` in turn (``k`` modulo 3). BFCL's agentic
verdict scores it; its possible answer is the fact's value. Generated tasks never read or write
snapshots (their conversations are their own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl import data
from toolgym.families.bfcl.memory_tasks import entry_task
from toolgym.simulators.seeding import stable_rng


@dataclass(frozen=True)
class Fact:
    """A kind of personal fact: how the user says it, how it is asked, what it can be."""

    key: str
    said: str
    corrected: str
    asked: str
    values: tuple[str, ...]


FACTS = (
    Fact("name", "By the way, my name is {v}.", "I go by {v} these days, actually.",
         "What is my first name?",
         ("Amara", "Bastian", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi")),
    Fact("city", "I live in {v} at the moment.", "I just moved, so now I live in {v}.",
         "Which city do I live in now?",
         ("Lisbon", "Denver", "Osaka", "Nairobi", "Montreal", "Krakow", "Perth", "Tucson")),
    Fact("pet", "My dog is called {v}.", "We renamed the dog {v}, it suits him better.",
         "What is my dog's name?",
         ("Biscuit", "Pepper", "Nacho", "Juniper", "Waffles", "Pixel", "Mango", "Ziggy")),
    Fact("job", "I work as a {v}.", "I changed careers, I am a {v} now.",
         "What do I do for a living?",
         ("pharmacist", "welder", "cartographer", "paramedic", "sommelier", "locksmith",
          "translator", "beekeeper")),
    Fact("food", "My favourite food is {v}.", "Lately my favourite food is {v}.",
         "What is my favourite food?",
         ("ramen", "falafel", "paella", "pierogi", "ceviche", "gnocchi", "bibimbap", "moussaka")),
    Fact("sport", "On weekends I play {v}.", "I gave that up; on weekends I play {v} now.",
         "Which sport do I play on weekends?",
         ("badminton", "squash", "volleyball", "curling", "lacrosse", "handball", "cricket",
          "water polo")),
    Fact("sister", "My sister's name is {v}.", "My sister changed her name to {v}.",
         "What is my sister's name?",
         ("Ingrid", "Lucia", "Noor", "Odette", "Priya", "Rosalind", "Svetlana", "Thandiwe")),
    Fact("car", "I drive a {v}.", "I sold my car and now I drive a {v}.",
         "What car do I drive?",
         ("Volvo", "Subaru", "Peugeot", "Tesla", "Skoda", "Mazda", "Fiat", "Hyundai")),
    Fact("allergy", "I am allergic to {v}.", "It turns out I am allergic to {v}, not the other.",
         "What am I allergic to?",
         ("penicillin", "peanuts", "shellfish", "pollen", "latex", "sesame", "gluten", "mustard")),
    Fact("language", "I am learning {v} in the evenings.", "I switched, I am learning {v} now.",
         "Which language am I learning?",
         ("Portuguese", "Korean", "Swahili", "Icelandic", "Turkish", "Finnish", "Tagalog",
          "Hungarian")),
)  # fmt: skip
"""The facts a generated conversation tells."""

SMALL_TALK = (
    "The weather has been all over the place this week.",
    "I had a long day, so bear with me.",
    "Work has been busy, but nothing dramatic.",
    "I finally finished that book I kept putting off.",
    "The trains were late again this morning.",
    "I tried a new coffee place near the office.",
    "My neighbour is renovating, so it is noisy here.",
    "I have been trying to sleep earlier.",
)
"""Sentences around the facts."""

CLOSING = (
    "Anyway, thanks for listening.",
    "That's all for today.",
    "Just wanted you to know.",
    "Talk soon.",
)


def train_task(index: int, world_seed: int = 0) -> Task:
    """The generated memory question ``train-<index>`` (see the module docstring)."""
    rng = stable_rng("bfcl-memory-train", world_seed, index)
    category = data.MEMORY[index % len(data.MEMORY)]
    scenario = data.MEMORY_SCENARIOS[int(rng.integers(len(data.MEMORY_SCENARIOS)))]
    chosen = [FACTS[int(k)] for k in rng.permutation(len(FACTS))[: int(rng.integers(3, 7))]]
    values = {f.key: f.values[int(rng.integers(len(f.values)))] for f in chosen}
    conversations: list[list[list[dict[str, str]]]] = []
    told = list(chosen)
    for _ in range(int(rng.integers(1, 4))):
        turns = []
        for _ in range(int(rng.integers(2, 5))):
            sentences = [SMALL_TALK[int(rng.integers(len(SMALL_TALK)))]]
            if told:
                fact = told.pop(0)
                sentences.append(fact.said.format(v=values[fact.key]))
            sentences.append(CLOSING[int(rng.integers(len(CLOSING)))])
            turns.append([{"role": "user", "content": " ".join(sentences)}])
        conversations.append(turns)
    for fact in told:  # facts left over join the last conversation's last turn
        conversations[-1][-1][0]["content"] += " " + fact.said.format(v=values[fact.key])
    asked = chosen[int(rng.integers(len(chosen)))]
    if len(conversations) > 1 and rng.random() < 0.3:  # corrected in a later conversation
        others = [v for v in asked.values if v != values[asked.key]]
        values[asked.key] = others[int(rng.integers(len(others)))]
        turn = [{"role": "user", "content": asked.corrected.format(v=values[asked.key])}]
        conversations[-1].append(turn)
    memory_class = data.memory_class(category)
    entry = {
        "id": f"train-{index}",
        "scenario": scenario,
        "question": [[{"role": "user", "content": asked.asked}]],
        "involved_classes": [memory_class],
        "function": list(data.class_docs(memory_class)),
        "ground_truth": [values[asked.key]],
    }
    prereq: list[dict[str, Any]] = [
        {"id": f"train-{index}-conversation-{k}", "turns": turns}
        for k, turns in enumerate(conversations)
    ]
    return entry_task(entry, category, prereq=prereq)  # a memory of its own

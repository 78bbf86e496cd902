"""The Home Search goal templates: about thirty ways to write a goal.

Statements, questions, requests, lists and several sentences; each template mentions every
criterion once, in some order, and nothing else (``needs`` says which setter sets it can express).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolgym.benchmarks.phrasing import join, pick
from toolgym.families.home_search.tasks.criteria import GROUPS
from toolgym.families.home_search.tasks.phrasing.writer import HAVE_GROUPS, Writer, capitalize


@dataclass(frozen=True)
class Template:
    """One way to write a goal; ``needs`` says which setter sets it can express."""

    tid: str
    render: Callable[[Writer], str]
    modes: tuple[str, ...] = ("buy", "rent")
    needs: Callable[[frozenset[str]], bool] | None = None

    def fits(self, setters: frozenset[str], mode: str) -> bool:
        """Whether the template can write a goal with ``setters`` to ``mode``."""
        return mode in self.modes and (self.needs is None or self.needs(setters))


def _needs_max(setters: frozenset[str]) -> bool:
    return "set_max_price" in setters


def _needs_price(setters: frozenset[str]) -> bool:
    return bool(setters & {"set_min_price", "set_max_price"})


def _needs_have(setters: frozenset[str]) -> bool:
    return any(GROUPS[g][0] in setters for g in HAVE_GROUPS)


def _needs_two(setters: frozenset[str]) -> bool:
    groups = {g for g, names in GROUPS.items() if setters & set(names)}
    return len(groups) >= 2


def _t_find_me(w: Writer) -> str:
    opener = pick(w.rng, ("Find me", "Find", "Look for", "Search for", "Locate"))
    return f"{opener} {w.noun()} {w.for_mode()} in {w.city}{w.tail()}."


def _t_relocating(w: Writer) -> str:
    moving = pick(w.rng, ("relocating to", "moving to", "moving over to"))
    return f"I'm {moving} {w.city} and want to {w.verb()} {w.noun()}{w.tail()}."


def _t_can_you(w: Writer) -> str:
    ask = pick(w.rng, ("Can you", "Could you", "Would you"))
    act = pick(w.rng, ("search for", "find", "look up", "pull up"))
    return f"{ask} {act} {w.noun()} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_budget_first(w: Writer) -> str:
    budget = w.budget()
    if w.rng.random() < 0.5:
        lead = f"My budget is {budget} — what's available {w.for_mode()} in {w.city}?"
    else:
        lead = f"My budget is {budget}. What can I find {w.for_mode()} in {w.city}?"
    want = pick(w.rng, ("I'd like", "I'm after", "I want"))
    return f"{lead} {want} {w.noun()}{w.tail()}."


def _t_it_should(w: Writer) -> str:
    text = f"I want to {w.verb()} {w.noun(premods=w.rng.random() < 0.5)} in {w.city}."
    if w.pending:
        modal = pick(w.rng, ("It should", "It must", "It has to", "It needs to"))
        text += f" {modal} {w.preds()}."
    return text


def _t_must_haves(w: Writer) -> str:
    lead = pick(w.rng, ("Looking to", "Hoping to", "I want to", "Planning to"))
    label = pick(w.rng, ("Must-haves", "Requirements", "My criteria", "What I need"))
    return f"{lead} {w.verb()} in {w.city}. {label}: {', '.join(w.items())}."


def _t_semicolon(w: Writer) -> str:
    lead = pick(w.rng, (f"To {w.verb()}", capitalize(w.gerund())))
    return f"{lead} in {w.city}: {'; '.join(w.items())}."


def _t_imperative(w: Writer) -> str:
    # Like the original goals: "Rent a 2-bed home with a garage in Austin", then the rest.
    head = f"{capitalize(w.verb())} {w.noun()}"
    if any(g in HAVE_GROUPS for g in w.pending):
        head += f" with {w.haves()}"
    return f"{head} in {w.city}{w.tail(lead=', ')}."


def _t_family(w: Writer) -> str:
    who = pick(w.rng, ("a growing family", "a family", "a young family", "a couple"))
    need = pick(w.rng, ("We need", "We're looking for", "We'd like"))
    return f"We're {who} looking to {w.verb()} in {w.city}. {need} {w.noun()}{w.tail()}."


def _t_any_available(w: Writer) -> str:
    return f"Are there any {w.noun(plural=True)} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_show_me(w: Writer) -> str:
    opener = pick(w.rng, ("Show me", "List", "Pull up"))
    return f"{opener} {w.noun(plural=True)} {w.for_mode()} in {w.city}{w.tail()}."


def _t_help_find(w: Writer) -> str:
    return f"Help me find {w.noun()} in {w.city} that I can {w.verb()}.{w.sentences()}"


def _t_looking_for(w: Writer) -> str:
    return f"I'm looking for {w.noun()} {w.for_mode()} in {w.city}{w.tail()}."


def _t_need_place(w: Writer) -> str:
    where = pick(w.rng, ("a place", "somewhere"))
    return f"I need {where} to {w.verb()} in {w.city}.{w.sentences()}"


def _t_what_listings(w: Writer) -> str:
    if w.mode == "buy":
        avail = pick(w.rng, ("for sale", "up for sale", "available to buy"))
    else:
        avail = pick(w.rng, ("for rent", "available to rent", "up for rent"))
    return f"What {w.noun(plural=True)} are {avail} in {w.city}{w.tail()}?"


def _t_look_up(w: Writer) -> str:
    ask = pick(w.rng, ("Could you look up", "Can you check for", "Please look up"))
    mark = "." if ask.startswith("Please") else "?"
    return f"{ask} {w.noun()} {w.for_mode()} in {w.city}{mark}{w.sentences()}"


def _t_please_search(w: Writer) -> str:
    kind = "for-sale" if w.mode == "buy" else pick(w.rng, ("rental", "for-rent"))
    return f"Please search {kind} listings in {w.city} for {w.noun()}{w.tail()}."


def _t_first_home(w: Writer) -> str:
    after = pick(w.rng, ("I'm after", "I'd like", "I have my eye out for"))
    return f"I'm buying my first home in {w.city}. {after} {w.noun()}{w.tail()}."


def _t_lease_ending(w: Writer) -> str:
    return f"My lease is ending soon and I need to rent {w.noun()} in {w.city}{w.tail()}."


def _t_in_city(w: Writer) -> str:
    want = pick(w.rng, ("I'd like to", "I want to", "I'm hoping to"))
    return f"In {w.city}, {want} {w.verb()} {w.noun()}{w.tail()}."


def _t_partner(w: Writer) -> str:
    who = pick(
        w.rng, ("My partner and I", "My wife and I", "My husband and I", "My roommate and I")
    )
    text = f"{who} want to {w.verb()} {w.noun()} in {w.city}."
    if w.pending:
        label = pick(w.rng, ("requirements", "must-haves", "non-negotiables"))
        text += f" Our {label}: {join(w.items())}."
    return text


def _t_paren(w: Writer) -> str:
    head = f"Home search in {w.city} ({w.gerund()}): {w.noun()}"
    return ", ".join([head, *w.items()]) + "."


def _t_that_has(w: Writer) -> str:
    noun = w.noun(premods=False)
    has = w.haves()
    return f"I want {noun} {w.for_mode()} in {w.city} that has {has}{w.tail(lead=', ')}."


def _t_new_job(w: Writer) -> str:
    event = pick(w.rng, ("just got a job", "just started a new job", "accepted a job offer"))
    return f"I {event} in {w.city} and need to {w.verb()} {w.noun()}.{w.sentences()}"


def _t_is_there(w: Writer) -> str:
    return f"Is there {w.noun()} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_budget_end(w: Writer) -> str:
    opener = pick(w.rng, ("Search for", "Look for", "Find"))
    text = f"{opener} {w.noun()} {w.for_mode()} in {w.city}{w.tail(exclude=('price',))}."
    return f"{text}{w.sentences()}"


def _t_numbered(w: Writer) -> str:
    if w.mode == "buy":
        what = pick(w.rng, ("homes for sale", "properties to buy"))
    else:
        what = pick(w.rng, ("rentals", "places to rent"))
    items = ", ".join(f"({i}) {item}" for i, item in enumerate(w.items(), 1))
    return f"Search {w.city} for {what} with these criteria: {items}."


def _t_what_can_i(w: Writer) -> str:
    lead = f"What can I {w.verb()} in {w.city} with a budget of {w.budget()}?"
    want = pick(w.rng, ("I'd like", "I want", "Ideally I'd get"))
    return f"{lead} {want} {w.noun()}{w.tail()}."


def _t_any_short(w: Writer) -> str:
    return f"Any {w.noun(plural=True)} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_wondering(w: Writer) -> str:
    return f"I'm wondering if there's {w.noun()} {w.for_mode()} in {w.city}{w.tail()}."


def _t_hello(w: Writer) -> str:
    hello = pick(w.rng, ("Hi!", "Hello!", "Hey there."))
    thanks = pick(w.rng, ("Thanks!", "Thank you!", "Thanks in advance."))
    return f"{hello} I'd love to {w.verb()} {w.noun()} in {w.city}.{w.sentences()} {thanks}"


TEMPLATES: tuple[Template, ...] = (
    Template("find_me", _t_find_me),
    Template("relocating", _t_relocating),
    Template("can_you", _t_can_you),
    Template("budget_first", _t_budget_first, needs=_needs_max),
    Template("it_should", _t_it_should),
    Template("must_haves", _t_must_haves),
    Template("semicolon_list", _t_semicolon),
    Template("imperative", _t_imperative),
    Template("family", _t_family),
    Template("any_available", _t_any_available),
    Template("show_me", _t_show_me),
    Template("help_find", _t_help_find),
    Template("looking_for", _t_looking_for),
    Template("need_place", _t_need_place),
    Template("what_listings", _t_what_listings),
    Template("look_up", _t_look_up),
    Template("please_search", _t_please_search),
    Template("first_home", _t_first_home, modes=("buy",)),
    Template("lease_ending", _t_lease_ending, modes=("rent",)),
    Template("in_city", _t_in_city),
    Template("partner", _t_partner),
    Template("paren_list", _t_paren),
    Template("that_has", _t_that_has, needs=_needs_have),
    Template("new_job", _t_new_job),
    Template("is_there", _t_is_there),
    Template("budget_end", _t_budget_end, needs=_needs_price),
    Template("numbered", _t_numbered, needs=_needs_two),
    Template("what_can_i", _t_what_can_i, needs=_needs_max),
    Template("any_short", _t_any_short),
    Template("wondering", _t_wondering),
    Template("hello", _t_hello),
)
"""The goal templates (the id is stored in ``Task.meta["template"]``)."""

TEMPLATE_BY_ID = {t.tid: t for t in TEMPLATES}

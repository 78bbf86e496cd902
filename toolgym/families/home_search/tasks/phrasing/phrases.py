"""How each Home Search criterion is said: the phrases of one criteria group in each role.

:class:`CriterionPhrases` renders the groups of a
:class:`~toolgym.families.home_search.tasks.criteria.Spec` one at a time (bedrooms, bathrooms,
features, square feet, price, floor, commute) as noun phrases, pre- and post-modifiers,
predicates, sentences and list items, and records the order in which they are mentioned: the gold
program sets the criteria in that order. :class:`~toolgym.families.home_search.tasks.phrasing.writer.Writer`
builds whole goals from them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from toolgym.benchmarks.phrasing import count, money, number, ordinal, pick
from toolgym.families.home_search.tasks.criteria import GROUPS, Spec

_WORDS = ("zero", "one", "two", "three", "four")


def capitalize(text: str) -> str:
    """``text`` with its first letter upper-cased."""
    return text[:1].upper() + text[1:]


def _plural(n: float, singular: str, plural: str) -> str:
    return singular if n == 1 else plural


class CriterionPhrases:
    """The phrases of each criteria group, mentioned once each, in the order recorded.

    Each criteria group is mentioned exactly once: rendering it removes it from ``pending`` and
    appends its setters to ``order`` (the order of the gold program).

    Args:
        rng: the generator the wording is drawn from.
        spec: the criteria to word.
    """

    def __init__(self, rng: np.random.Generator, spec: Spec) -> None:
        self.rng = rng
        self.spec = spec
        self.city = spec.city
        self.mode = spec.mode
        present = [g for g, names in GROUPS.items() if any(n in spec.values for n in names)]
        self.pending: list[str] = [present[int(i)] for i in rng.permutation(len(present))]
        self.order: list[str] = []

    # -- bookkeeping ------------------------------------------------------------------------------

    def has(self, group: str) -> bool:
        """Whether ``group`` is still to be mentioned."""
        return group in self.pending

    def _take(self, group: str) -> None:
        self.pending.remove(group)
        self.order.extend(n for n in GROUPS[group] if n in self.spec.values)

    def _value(self, name: str) -> Any:
        return self.spec.values.get(name)

    # -- beds -------------------------------------------------------------------------------------

    def _beds_premod(self) -> str:
        self._take("beds")
        n = self._value("set_num_beds")
        return f"{count(self.rng, n)}-{pick(self.rng, ('bedroom', 'bed', 'bedroom'))}"

    def _beds_np(self) -> str:
        n = self._value("set_num_beds")
        c = count(self.rng, n)
        one, many = pick(self.rng, (("bedroom", "bedrooms"), ("bed", "beds")))
        word = _plural(n, one, many)
        forms = [f"{c} {word}", f"at least {c} {word}", f"a minimum of {c} {word}"]
        if n > 1:
            forms.append(f"{n}+ {many}")
        return pick(self.rng, forms)

    # -- baths ------------------------------------------------------------------------------------

    def _baths_text(self, *, premod: bool = False) -> str:
        b = self._value("set_num_baths")
        if isinstance(b, int):
            return count(self.rng, b)
        whole = int(b)
        if not premod and 1 <= whole <= 4 and self.rng.random() < 0.3:
            return f"{_WORDS[whole]} and a half"
        return f"{b:g}"

    def _baths_premod(self) -> str:
        self._take("baths")
        return f"{self._baths_text(premod=True)}-{pick(self.rng, ('bath', 'bathroom'))}"

    def _baths_np(self) -> str:
        b = self._value("set_num_baths")
        text = self._baths_text()
        one, many = pick(self.rng, (("bathroom", "bathrooms"), ("bath", "baths")))
        word = _plural(b, one, many) if "half" not in text else many
        return pick(self.rng, (f"{text} {word}", f"at least {text} {word}"))

    # -- garages, pools, balconies ----------------------------------------------------------------

    def _feature_np(self, name: str, ones: tuple[str, ...], many: str) -> str:
        n = self._value(name)
        if n == 1:
            return pick(self.rng, ones)
        c = count(self.rng, n)
        return pick(self.rng, (f"{c} {many}", f"at least {c} {many}"))

    def _garages_np(self) -> str:
        ones = ("a garage", "a garage", "one garage", "1 garage", "at least one garage")
        return self._feature_np("set_num_garages", ones, "garages")

    def _pools_np(self) -> str:
        ones = ("a pool", "a swimming pool", "one swimming pool", "at least one pool")
        n = self._value("set_num_swimming_pools")
        if n == 1:
            return pick(self.rng, ones)
        c = count(self.rng, n)
        word = pick(self.rng, ("pools", "swimming pools"))
        return pick(self.rng, (f"{c} {word}", f"at least {c} {word}"))

    def _balconies_np(self) -> str:
        ones = ("a balcony", "a balcony", "one balcony", "at least one balcony")
        return self._feature_np("set_num_balconies", ones, "balconies")

    # -- square feet ------------------------------------------------------------------------------

    def _sqft_parts(self) -> tuple[str | None, str | None, str]:
        lo, hi = self._value("set_min_square_feet"), self._value("set_max_square_feet")
        unit = pick(self.rng, ("square feet", "square feet", "sq ft", "sq. ft.", "sqft"))
        lo_text = number(self.rng, lo) if lo is not None else None
        hi_text = number(self.rng, hi) if hi is not None else None
        return lo_text, hi_text, unit

    def _sqft_np(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms: tuple[str, ...] = (
                f"between {lo} and {hi} {u}",
                f"{lo} to {hi} {u}",
                f"{lo}-{hi} {u}",
            )
        elif lo:
            forms = (
                f"at least {lo} {u}",
                f"{lo}+ {u}",
                f"a minimum of {lo} {u}",
                f"{lo} {u} or more",
            )
        else:
            forms = (f"no more than {hi} {u}", f"at most {hi} {u}", f"{hi} {u} or less")
        return pick(self.rng, forms)

    def _sqft_post(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms: tuple[str, ...] = (f"of {lo} to {hi} {u}", f"between {lo} and {hi} {u} in size")
        elif lo:
            forms = (
                f"of at least {lo} {u}",
                f"that's at least {lo} {u}",
                f"no smaller than {lo} {u}",
            )
        else:
            forms = (f"no bigger than {hi} {u}", f"of at most {hi} {u}", f"no larger than {hi} {u}")
        return pick(self.rng, forms)

    def _sqft_pred(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms: tuple[str, ...] = (f"be between {lo} and {hi} {u}", f"measure {lo} to {hi} {u}")
        elif lo:
            forms = (f"be at least {lo} {u}", f"have at least {lo} {u}")
        else:
            forms = (f"be no larger than {hi} {u}", f"be at most {hi} {u}")
        return pick(self.rng, forms)

    def _sqft_sent(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms = (
                f"It should be between {lo} and {hi} {u}.",
                f"Size-wise, I'm looking at {lo} to {hi} {u}.",
            )
        elif lo:
            forms = (f"It should be at least {lo} {u}.", f"I need at least {lo} {u} of space.")
        else:
            forms = (f"It shouldn't be larger than {hi} {u}.", f"Nothing over {hi} {u}, please.")
        return pick(self.rng, forms)

    # -- price ------------------------------------------------------------------------------------

    def _price_parts(self) -> tuple[str | None, str | None, str]:
        lo, hi = self._value("set_min_price"), self._value("set_max_price")
        # The same sub-generator writes both ends, so a range reads "$300k to $450k".
        seed = int(self.rng.integers(2**32))
        lo_text = money(np.random.default_rng(seed), lo) if lo is not None else None
        hi_text = money(np.random.default_rng(seed), hi) if hi is not None else None
        suffix = ""
        if self.mode == "rent":
            suffix = pick(self.rng, (" a month", " per month", "/month", "/mo", " monthly"))
        return lo_text, hi_text, suffix

    def _price_np(self) -> str:
        a, b, s = self._price_parts()
        rent = self.mode == "rent"
        if a and b:
            forms = [f"a price between {a} and {b}{s}", f"a price range of {a} to {b}{s}"]
            if rent:
                forms.append(f"rent between {a} and {b}{s}")
        elif b:
            if rent:
                forms = [f"rent under {b}{s}", f"rent of at most {b}{s}", f"a max rent of {b}{s}"]
            else:
                forms = [f"a price under {b}", f"a price of at most {b}", f"a maximum price of {b}"]
        elif rent:
            forms = [f"rent of at least {a}{s}", f"a minimum rent of {a}{s}"]
        else:
            forms = [f"a price of at least {a}", f"a minimum price of {a}"]
        return pick(self.rng, forms)

    def _price_post(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [
                f"between {a} and {b}{s}",
                f"priced between {a} and {b}{s}",
                f"for {a} to {b}{s}",
            ]
            if self.mode == "buy":
                forms.append(f"in the {a} to {b} range")
        elif b:
            forms = [
                f"under {b}{s}",
                f"for under {b}{s}",
                f"for no more than {b}{s}",
                f"for {b}{s} or less",
                f"priced at or below {b}{s}",
            ]
        else:
            forms = [f"priced at {a}{s} or more", f"for at least {a}{s}", f"priced from {a}{s} up"]
        return pick(self.rng, forms)

    def _price_pred(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [f"cost between {a} and {b}{s}", f"be priced between {a} and {b}{s}"]
        elif b:
            forms = [
                f"cost no more than {b}{s}",
                f"cost under {b}{s}",
                f"be priced at {b}{s} or less",
            ]
            if self.mode == "rent":
                forms.append(f"rent for under {b}{s}")
        else:
            forms = [f"cost at least {a}{s}", f"be priced at {a}{s} or more"]
        return pick(self.rng, forms)

    def _price_sent(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [
                f"My budget is between {a} and {b}{s}.",
                f"I'd like to spend between {a} and {b}{s}.",
                f"The price should be {a} to {b}{s}.",
            ]
        elif b:
            forms = [
                f"My budget is {b}{s}.",
                f"I can't spend more than {b}{s}.",
                f"I don't want to pay more than {b}{s}.",
                f"Keep it under {b}{s}.",
                f"The most I can pay is {b}{s}.",
            ]
        else:
            forms = [
                f"Nothing under {a}{s}, please.",
                f"The price should be at least {a}{s}.",
                f"I'm looking at places priced {a}{s} and up.",
            ]
        return pick(self.rng, forms)

    def _price_item(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [f"{a} to {b}{s}", f"between {a} and {b}{s}", f"price range {a}-{b}{s}"]
        elif b:
            forms = [f"max {b}{s}", f"under {b}{s}", f"budget up to {b}{s}", f"no more than {b}{s}"]
        else:
            forms = [f"at least {a}{s}", f"min price {a}{s}", f"priced {a}{s} or more"]
        return pick(self.rng, forms)

    def budget(self) -> str:
        """The price as a budget (``$450k``, ``between $1,500 and $2,000 a month``)."""
        self._take("price")
        a, b, s = self._price_parts()
        if a and b:
            forms = [f"{a} to {b}{s}", f"between {a} and {b}{s}"]
        else:
            forms = [f"{b}{s}", f"up to {b}{s}", f"{b}{s} max", f"at most {b}{s}"]
        return pick(self.rng, forms)

    # -- floor ------------------------------------------------------------------------------------

    def _floor_premod(self) -> str:
        self._take("floor")
        return f"{ordinal(self.rng, self._value('set_floor_number'))}-floor"

    def _floor_post(self) -> str:
        f = self._value("set_floor_number")
        return pick(self.rng, (f"on the {ordinal(self.rng, f)} floor", f"on floor {f}"))

    def _floor_pred(self) -> str:
        return f"be {self._floor_post()}"

    def _floor_sent(self) -> str:
        f = self._value("set_floor_number")
        o = ordinal(self.rng, f)
        forms = (
            f"I want to live on the {o} floor.",
            f"It has to be on floor {f}.",
            f"It should be on the {o} floor.",
            f"{capitalize(o)} floor only, please.",
        )
        return pick(self.rng, forms)

    def _floor_item(self) -> str:
        f = self._value("set_floor_number")
        o = ordinal(self.rng, f)
        return pick(self.rng, (f"{o} floor", f"floor {f}", f"on the {o} floor"))

    # -- commute ----------------------------------------------------------------------------------

    def _minutes(self) -> str:
        return count(self.rng, self._value("set_max_commute_time"))

    def _commute_np(self) -> str:
        m = self._minutes()
        forms = (
            f"a commute under {m} minutes",
            f"a commute of at most {m} minutes",
            f"a commute time of {m} minutes or less",
            f"a maximum commute of {m} minutes",
        )
        return pick(self.rng, forms)

    def _commute_post(self) -> str:
        m = self._minutes()
        forms = (
            f"within a {m}-minute commute",
            f"with a commute under {m} minutes",
            f"no more than {m} minutes from work",
        )
        return pick(self.rng, forms)

    def _commute_pred(self) -> str:
        m = self._minutes()
        forms = (
            f"be within a {m}-minute commute",
            f"keep my commute under {m} minutes",
            f"be at most {m} minutes from work",
        )
        return pick(self.rng, forms)

    def _commute_sent(self) -> str:
        m = self._minutes()
        forms = (
            f"I don't want to commute more than {m} minutes.",
            f"My commute should be {m} minutes or less.",
            f"The commute can't be longer than {m} minutes.",
            f"Commute time must be under {m} minutes.",
        )
        return pick(self.rng, forms)

    def _commute_item(self) -> str:
        m = self._minutes()
        forms = (f"max commute {m} min", f"commute under {m} minutes", self._commute_np())
        return pick(self.rng, forms)

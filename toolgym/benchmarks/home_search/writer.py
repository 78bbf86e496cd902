"""Home Search goals in words: the phrases that name a task's criteria, each exactly once.

A :class:`Writer` renders the criteria of a :class:`~toolgym.benchmarks.home_search.criteria.Spec`
as noun phrases, post-modifiers, predicates, sentences and list items, and records the order in
which the goal mentions them: the gold program sets the criteria in that order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from toolgym.benchmarks.home_search.criteria import GROUPS, Spec
from toolgym.benchmarks.phrasing import count, join, money, number, ordinal, pick

# Groups a home "has" (rendered after "with" / "have" as a noun phrase).
HAVE_GROUPS = ("beds", "baths", "garages", "pools", "balconies")
# Groups that can also follow the home directly ("... under $450k", "... on the 3rd floor").
POST_GROUPS = ("price", "sqft", "commute")

# (singular, plural) ways to name each home type; the first is the plainest.
_TYPE_NOUNS: dict[str, tuple[tuple[str, str], ...]] = {
    "House": (("house", "houses"), ("single-family home", "single-family homes")),
    "Townhouse": (("townhouse", "townhouses"), ("townhome", "townhomes")),
    "Condo": (("condo", "condos"), ("condominium", "condominiums")),
    "Land": (("plot of land", "plots of land"), ("vacant lot", "vacant lots")),
    "Multi-family": (
        ("multi-family home", "multi-family homes"),
        ("multi-family property", "multi-family properties"),
    ),
    "Mobile": (("mobile home", "mobile homes"),),
    "Co-op": (("co-op", "co-ops"),),
    "Apartment": (("apartment", "apartments"),),
}
_GENERIC = {
    "buy": (("home", "homes"), ("property", "properties"), ("place", "places")),
    "rent": (("place", "places"), ("home", "homes")),
}


def _article(phrase: str) -> str:
    """``a`` or ``an`` for the phrase (``an 8-bedroom``, ``a one-bedroom``, ``an apartment``)."""
    word = phrase.split()[0].lower()
    digits = ""
    for ch in word:
        if not ch.isdigit():
            break
        digits += ch
    if digits:
        return "an" if digits.startswith("8") or digits in ("11", "18") else "a"
    vowel = word[0] in "aeiou" and not word.startswith(("one", "uni", "use", "eu"))
    return "an" if vowel else "a"


_WORDS = ("zero", "one", "two", "three", "four")


def capitalize(text: str) -> str:
    """``text`` with its first letter upper-cased."""
    return text[:1].upper() + text[1:]


def _plural(n: float, singular: str, plural: str) -> str:
    return singular if n == 1 else plural


class Writer:
    """Renders the criteria of a spec into phrases, recording the order they are mentioned.

    Each criteria group is mentioned exactly once: rendering it removes it from ``pending`` and
    appends its setters to ``order`` (the order of the gold program).
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

    # -- buy / rent words -------------------------------------------------------------------------

    def for_mode(self) -> str:
        """``for sale`` / ``to rent`` ... (after a noun)."""
        if self.mode == "buy":
            return pick(self.rng, ("for sale", "to buy", "to purchase"))
        return pick(self.rng, ("for rent", "to rent", "to lease"))

    def verb(self) -> str:
        """``buy`` / ``rent`` (after ``to``)."""
        if self.mode == "buy":
            return pick(self.rng, ("buy", "buy", "purchase"))
        return pick(self.rng, ("rent", "rent", "lease"))

    def gerund(self) -> str:
        """``buying`` / ``renting``."""
        return "buying" if self.mode == "buy" else "renting"

    # -- the home ---------------------------------------------------------------------------------

    def _type_names(self, plural: bool) -> list[str]:
        return [
            pick(self.rng, _TYPE_NOUNS[t])[int(plural)] for t in self._value("select_home_type")
        ]

    def _types_bare(self, plural: bool = False) -> str:
        """``townhouse or condo`` / ``townhouses or condos`` (no article)."""
        return join(self._type_names(plural), "or")

    def _types_a(self) -> str:
        """``a townhouse or condo`` / ``a townhouse or a condo``."""
        names = self._type_names(False)
        if len(names) > 1 and self.rng.random() < 0.5:
            return join([f"{_article(n)} {n}" for n in names], "or")
        text = join(names, "or")
        return f"{_article(text)} {text}"

    def _generic(self, plural: bool) -> str:
        return pick(self.rng, _GENERIC[self.mode])[int(plural)]

    def noun(self, *, plural: bool = False, premods: bool = True, types: bool | None = None) -> str:
        """The home as a noun phrase: ``a 3-bedroom townhouse or condo``, ``apartments``, ``a home``.

        Args:
            plural: plural, without an article.
            premods: allow beds, baths or floor before the noun (``3-bed, 2-bath``, ``third-floor``).
            types: name the home types as the noun (None: usually, when the goal has them).
        """
        rng = self.rng
        mods: list[str] = []
        if premods:
            use_beds = self.has("beds") and rng.random() < 0.55
            use_baths = self.has("baths") and rng.random() < (0.6 if use_beds else 0.15)
            if self.has("floor") and not (use_beds or use_baths) and rng.random() < 0.4:
                mods.append(self._floor_premod())
            if use_beds:
                mods.append(self._beds_premod())
            if use_baths:
                mods.append(self._baths_premod())
        if types is None:
            types = rng.random() < 0.85
        if types and self.has("type"):
            self._take("type")
            if not plural and not mods:
                return self._types_a()
            head = self._types_bare(plural)
        else:
            head = self._generic(plural)
        sep = ", " if len(mods) == 2 and rng.random() < 0.5 else " "
        phrase = " ".join(x for x in (sep.join(mods), head) if x)
        return phrase if plural else f"{_article(phrase)} {phrase}"

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
            forms = (f"between {lo} and {hi} {u}", f"{lo} to {hi} {u}", f"{lo}-{hi} {u}")
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
            forms = (f"of {lo} to {hi} {u}", f"between {lo} and {hi} {u} in size")
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
            forms = (f"be between {lo} and {hi} {u}", f"measure {lo} to {hi} {u}")
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

    # -- one group in one role --------------------------------------------------------------------

    def _np(self, group: str) -> str:
        """A noun phrase (after ``with`` / ``have`` / in a list)."""
        self._take(group)
        return {
            "beds": self._beds_np,
            "baths": self._baths_np,
            "garages": self._garages_np,
            "pools": self._pools_np,
            "balconies": self._balconies_np,
            "sqft": self._sqft_np,
            "price": self._price_np,
            "commute": self._commute_np,
        }[group]()

    def _post(self, group: str) -> str:
        """A phrase right after the home or the city (``under $450k``, ``on the 3rd floor``)."""
        if group in HAVE_GROUPS:
            return f"with {self._np(group)}"
        self._take(group)
        return {
            "sqft": self._sqft_post,
            "price": self._price_post,
            "commute": self._commute_post,
            "floor": self._floor_post,
            "type": lambda: f"{self._types_bare(plural=True)} only",
        }[group]()

    def _pred(self, group: str) -> str:
        """A verb phrase after ``It should`` (``have a garage``, ``cost under $450k``)."""
        if group in HAVE_GROUPS:
            return f"{pick(self.rng, ('have', 'have', 'come with'))} {self._np(group)}"
        self._take(group)
        return {
            "sqft": self._sqft_pred,
            "price": self._price_pred,
            "commute": self._commute_pred,
            "floor": self._floor_pred,
            "type": lambda: f"be {self._types_a()}",
        }[group]()

    def _sent(self, group: str) -> str:
        """A sentence of its own."""
        if group in HAVE_GROUPS:
            np_ = self._np(group)
            forms = (
                f"It should have {np_}.",
                f"I need {np_}.",
                f"It must have {np_}.",
                f"{capitalize(np_)} is a must.",
            )
            return pick(self.rng, forms)
        self._take(group)
        return {
            "sqft": self._sqft_sent,
            "price": self._price_sent,
            "commute": self._commute_sent,
            "floor": self._floor_sent,
            "type": self._type_sent,
        }[group]()

    def _type_sent(self) -> str:
        forms = (
            lambda: f"It should be {self._types_a()}.",
            lambda: f"Only {self._types_bare(plural=True)}, please.",
            lambda: f"I'm only interested in {self._types_bare(plural=True)}.",
        )
        return pick(self.rng, forms)()

    def _item(self, group: str) -> str:
        """A terse list item (``at least 3 bedrooms``, ``max $450k``, ``floor 3``)."""
        if group in HAVE_GROUPS or group == "sqft":
            return self._np(group)
        self._take(group)
        return {
            "price": self._price_item,
            "commute": self._commute_item,
            "floor": self._floor_item,
            "type": lambda: pick(self.rng, (self._types_a, self._types_bare))(),
        }[group]()

    # -- all remaining groups ---------------------------------------------------------------------

    def tail(self, *, exclude: tuple[str, ...] = (), lead: str = " ") -> str:
        """The remaining groups as phrases after the home (``with 3 beds and a pool, under $2M``).

        Returns "" when nothing is left, else the text starting with ``lead`` (or ``, `` before a
        ``... only`` type phrase).
        """
        groups = [g for g in self.pending if g not in exclude]
        if not groups:
            return ""
        floor = [g for g in groups if g == "floor"]
        posts = [g for g in groups if g in POST_GROUPS and self.rng.random() < 0.6]
        withs = [g for g in groups if g in HAVE_GROUPS or (g in POST_GROUPS and g not in posts)]
        first = [self._post(g) for g in floor]
        if withs:
            first.append(f"with {join([self._np(g) for g in withs])}")
        rest = [self._post(g) for g in posts]
        if "type" in groups:
            rest.append(self._post("type"))
        head = " ".join(first)
        text = ", ".join(x for x in [head, *rest] if x)
        return (lead if head or "type" not in groups or posts else ", ") + text

    def _units(self, groups: list[str]) -> list[list[str]]:
        """Groups in order, consecutive "have" groups sometimes merged into one unit."""
        merge = self.rng.random() < 0.6
        units: list[list[str]] = []
        for g in groups:
            if merge and g in HAVE_GROUPS and units and units[-1][-1] in HAVE_GROUPS:
                units[-1].append(g)
            else:
                units.append([g])
        return units

    def sentences(self, *, exclude: tuple[str, ...] = ()) -> str:
        """The remaining groups as sentences, each starting with a space ("" if none)."""
        out = []
        for unit in self._units([g for g in self.pending if g not in exclude]):
            if len(unit) == 1:
                out.append(self._sent(unit[0]))
            else:
                opener = pick(self.rng, ("It should have", "It needs", "It must have", "I need"))
                out.append(f"{opener} {join([self._np(g) for g in unit])}.")
        return "".join(f" {s}" for s in out)

    def preds(self) -> str:
        """The remaining groups as verb phrases joined with "and" (``have 3 beds and cost ...``)."""
        vps = []
        for unit in self._units(list(self.pending)):
            if len(unit) == 1:
                vps.append(self._pred(unit[0]))
            else:
                vps.append(f"have {join([self._np(g) for g in unit])}")
        return join(vps)

    def items(self) -> list[str]:
        """The remaining groups as terse list items."""
        return [self._item(g) for g in list(self.pending)]

    def haves(self) -> str:
        """The remaining "have" groups as one noun-phrase list (``3 bedrooms and a garage``)."""
        return join([self._np(g) for g in list(self.pending) if g in HAVE_GROUPS])

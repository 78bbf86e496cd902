"""Home Search goals in words: the phrases that name a task's criteria, each exactly once.

A :class:`Writer` renders the criteria of a :class:`~toolgym.families.home_search.tasks.criteria.Spec`
as noun phrases, post-modifiers, predicates, sentences and list items (each group's own phrases
come from :class:`~toolgym.families.home_search.tasks.phrasing.phrases.CriterionPhrases`), and records the
order in which the goal mentions them: the gold program sets the criteria in that order.
"""

from __future__ import annotations

from toolgym.benchmarks.phrasing import join, pick
from toolgym.families.home_search.tasks.phrasing.phrases import CriterionPhrases, capitalize

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


class Writer(CriterionPhrases):
    """Renders the criteria of a spec into phrases, recording the order they are mentioned.

    Each criteria group is mentioned exactly once: rendering it removes it from ``pending`` and
    appends its setters to ``order`` (the order of the gold program).
    """

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

"""The Cat API goals in words: searches described by their filters, and the id templates.

A :class:`Search` writer turns search parameters (size, mime types, order, limit, breeds) into
phrases; the templates write a goal around them. Goals about one image (favourite, delete, vote)
and about the list of favourites come from fixed sentence templates with the image id filled in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from toolgym.benchmarks.phrasing import count, join, pick
from toolgym.families.cat_api.world import BREEDS

_SIZE_WORDS: dict[str, tuple[str, ...]] = {
    "thumb": ("thumbnail-sized", "thumbnail-size", "thumbnail"),
    "small": ("small-sized", "small", "small-size"),
    "med": ("medium-sized", "medium-size", "medium"),
    "full": ("full-size", "full-sized", "full-resolution"),
}


_MIME_WORDS: dict[str, tuple[str, ...]] = {
    "jpg": ("JPG", "JPEG"),
    "png": ("PNG",),
    "gif": ("GIF",),
}


_ORDER_WORDS: dict[str, tuple[str, ...]] = {
    "ASC": ("ascending order", "ascending"),
    "DESC": ("descending order", "descending"),
}


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass
class Search:
    """A search request and the pieces of the goal that still have to be said."""

    rng: np.random.Generator
    params: dict[str, object]
    by_name: bool
    pending: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.pending = set(self.params)

    @property
    def plural(self) -> bool:
        """Whether the goal asks for several images (a limit)."""
        return "limit" in self.params

    def noun(self, *, with_size: bool = True, with_breeds: bool = True) -> str:
        """``a small-sized picture of a chee or sphy cat`` / ``5 images of Bengal cats``."""
        word = pick(self.rng, ("picture", "image", "photo", "pic"))
        if self.plural:
            word += "s"
        words = [word]
        if with_size and "size" in self.pending:
            self.pending.discard("size")
            words.insert(0, pick(self.rng, _SIZE_WORDS[str(self.params["size"])]))
        if self.plural:
            self.pending.discard("limit")
            limit = self.params["limit"]
            assert isinstance(limit, int), f"a search's limit is an int, got {limit!r}"
            head = f"{count(self.rng, int(limit))} {' '.join(words)}"
        else:
            head = f"{_article(words[0])} {' '.join(words)}"
        if with_breeds and "breeds" in self.pending:
            return f"{head} of {self.breeds()}"
        if "breeds" not in self.params and self.rng.random() < 0.8:
            return f"{head} of {'cats' if self.plural else pick(self.rng, ('a cat', 'cats'))}"
        return head

    def breeds(self, *, plural: bool | None = None, conj: str = "or") -> str:
        """The breeds, as a noun phrase (``chee, sphy or kuri cats``)."""
        self.pending.discard("breeds")
        plural = self.plural if plural is None else plural
        ids = list(self.params["breeds"])  # type: ignore[call-overload]
        if self.by_name:
            names = [BREEDS[b] for b in ids]
            listed = join(names, conj)
            if len(names) == 1 and names[0].endswith(" Cat"):
                return f"{names[0]}s" if plural else f"{_article(names[0])} {names[0]}"
            if any(n.endswith(" Cat") for n in names) or self.rng.random() < 0.3:
                return f"cats of the {listed} breed" + ("s" if len(names) > 1 else "")
            return f"{listed} cats" if plural else f"{_article(listed)} {listed} cat"
        listed = join(ids, conj)
        form = int(self.rng.integers(3))
        if form == 0:
            return f"{listed} cats" if plural else f"{_article(listed)} {listed} cat"
        noun = "cats" if plural else "a cat"
        if form == 1:
            return f"{noun} with the {listed} breed"
        return f"{noun} from the {listed} breed" + ("s" if len(ids) > 1 else "")

    def mime_phrase(self) -> str:
        """``only GIFs`` / ``in PNG or JPG format``."""
        self.pending.discard("mime_types")
        words = [pick(self.rng, _MIME_WORDS[m]) for m in self.params["mime_types"]]  # type: ignore[attr-defined]
        form = int(self.rng.integers(3))
        if form == 0:
            return f"only {join([w + 's' for w in words], 'or')}"
        if form == 1:
            return f"in {join(words, 'or')} format"
        if self.plural:
            return f"as {join(words, 'or')} files"
        return f"as {_article(words[0])} {join(words, 'or')} file"

    def order_phrase(self) -> str:
        """``using ascending order`` / ``sorted in descending order``."""
        self.pending.discard("order")
        word = pick(self.rng, _ORDER_WORDS[str(self.params["order"])])
        if not word.endswith("order"):
            return pick(self.rng, (f"sorted {word}", f"in {word} order", f"ordered {word}"))
        return pick(self.rng, (f"using {word}", f"in {word}", f"sorted in {word}", f"by {word}"))

    def sentences(self) -> str:
        """Whatever is still pending, as short sentences (each starts with a space)."""
        out = []
        if "size" in self.pending:
            self.pending.discard("size")
            size = pick(self.rng, _SIZE_WORDS[str(self.params["size"])])
            out.append(pick(self.rng, (f"I want the {size} version.", f"Make it {size}.")))
        if "breeds" in self.pending:
            what = self.breeds(plural=True)
            out.append(pick(self.rng, (f"I'm interested in {what}.", f"It should show {what}.")))
        if "limit" in self.pending:  # pragma: no cover - the noun always says the count
            self.pending.discard("limit")
            out.append(f"Return {self.params['limit']} of them.")
        if "mime_types" in self.pending:
            phrase = self.mime_phrase()
            out.append(f"{phrase[0].upper()}{phrase[1:]}, please.")
        if "order" in self.pending:
            phrase = self.order_phrase()
            verb = pick(self.rng, ("Make a get request", "Send a get request", "Search"))
            out.append(f"{verb} {phrase}.")
        return "".join(f" {s}" for s in out)

    def inline(self, *keys: str) -> str:
        """The pending ``mime_types`` / ``order`` among ``keys`` as clauses joined in the text."""
        parts = []
        for key in keys:
            if key in self.pending:
                parts.append(self.mime_phrase() if key == "mime_types" else self.order_phrase())
        return "".join(
            f", {p}" if i or p.startswith("only") else f" {p}" for i, p in enumerate(parts)
        )


def _one(s: Search) -> str:
    return "them" if s.plural else pick(s.rng, ("one", "it"))


def _s_looking_for(s: Search) -> str:
    text = f"I'm looking for {s.noun()}{s.inline('mime_types')}."
    if "order" in s.pending:
        return f"{text} Can you find {_one(s)} for me {s.order_phrase()}?{s.sentences()}"
    return f"{text} Can you find {_one(s)} for me?{s.sentences()}"


def _s_need_to_see(s: Search) -> str:
    return f"I need to see {s.noun()}.{s.sentences()}"


def _s_show_me(s: Search) -> str:
    return f"Show me {s.noun()}{s.inline('mime_types', 'order')}.{s.sentences()}"


def _s_can_you_find(s: Search) -> str:
    return f"Can you find me {s.noun()}{s.inline('mime_types')}?{s.sentences()}"


def _s_help_locate(s: Search) -> str:
    text = f"I'd like to see {s.noun()}."
    if "order" in s.pending:
        return f"{text} Can you help me locate {_one(s)} {s.order_phrase()}?{s.sentences()}"
    return f"{text} Can you help me locate {_one(s)}?{s.sentences()}"


def _s_get_with(s: Search) -> str:
    return f"Get me {s.noun()}. Can you help me find {_one(s)}?{s.sentences()}"


def _s_fetch(s: Search) -> str:
    ask = pick(s.rng, ("Please fetch", "Fetch", "Please pull up", "Pull up"))
    return f"{ask} {s.noun()}{s.inline('order', 'mime_types')}.{s.sentences()}"


def _s_search_db(s: Search) -> str:
    return f"Search the cat image database for {s.noun()}{s.inline('mime_types')}.{s.sentences()}"


def _s_love_breed(s: Search) -> str:
    who = pick(s.rng, ("My daughter", "My son", "My grandma", "My roommate"))
    what = s.breeds(plural=True, conj="and")
    return f"{who} loves {what}. Could you find {s.noun()} for them?{s.sentences()}"


def _s_settings(s: Search) -> str:
    items = []
    if "breeds" in s.params:
        listed = ", ".join(BREEDS[b] if s.by_name else b for b in s.params["breeds"])  # type: ignore[attr-defined]
        items.append(f"breeds: {listed}")
        s.pending.discard("breeds")
    if "size" in s.params:
        items.append(f"size: {pick(s.rng, _SIZE_WORDS[str(s.params['size'])])}")
        s.pending.discard("size")
    if "mime_types" in s.params:
        words = [pick(s.rng, _MIME_WORDS[m]) for m in s.params["mime_types"]]  # type: ignore[attr-defined]
        items.append(f"format: {' or '.join(words)}")
        s.pending.discard("mime_types")
    if "order" in s.params:
        items.append(f"order: {_ORDER_WORDS[str(s.params['order'])][1]}")
        s.pending.discard("order")
    if "limit" in s.params:
        items.append(f"number of images: {s.params['limit']}")
        s.pending.discard("limit")
    return f"Cat picture search with these settings: {'; '.join(items)}."


def _s_want(s: Search) -> str:
    lead = pick(s.rng, ("I want", "I'd love", "I would like"))
    return f"{lead} {s.noun()}{s.inline('order', 'mime_types')}.{s.sentences()}"


def _s_bored(s: Search) -> str:
    lead = pick(s.rng, ("I'm bored.", "I need cheering up.", "Long day at work."))
    return f"{lead} Could you show me {s.noun()}?{s.sentences()}"


@dataclass(frozen=True)
class _SearchTemplate:
    tid: str
    render: Callable[[Search], str]
    needs: tuple[str, ...] = ()


SEARCH_TEMPLATES: tuple[_SearchTemplate, ...] = (
    _SearchTemplate("search_looking_for", _s_looking_for),
    _SearchTemplate("search_need_to_see", _s_need_to_see),
    _SearchTemplate("search_show_me", _s_show_me),
    _SearchTemplate("search_can_you_find", _s_can_you_find),
    _SearchTemplate("search_help_locate", _s_help_locate),
    _SearchTemplate("search_get_me", _s_get_with),
    _SearchTemplate("search_fetch", _s_fetch),
    _SearchTemplate("search_database", _s_search_db),
    _SearchTemplate("search_loves_breed", _s_love_breed, needs=("breeds",)),
    _SearchTemplate("search_settings", _s_settings),
    _SearchTemplate("search_want", _s_want),
    _SearchTemplate("search_bored", _s_bored),
)


# Templates of the one-id call types: (template id, text with {id}); ``list_favourites`` has none.
ID_TEMPLATES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "vote_up": (
        ("vote_up_plain", ("Vote up the image with id {id}.", "Vote up the image {id}.")),
        ("vote_up_thumbs", ("Give the cat picture {id} a thumbs up.", "Thumbs up for image {id}!")),
        (
            "vote_up_love",
            ("I love the cat image {id}, please upvote it.", "Image {id} is adorable. Upvote it."),
        ),
        (
            "vote_up_cast",
            ("Cast a positive vote for the image with id = {id}.", "Cast an upvote on {id}."),
        ),
        ("vote_up_like", ("Like the cat photo {id} for me.", "Register a like for image {id}.")),
    ),
    "vote_down": (
        ("vote_down_plain", ("Vote down the image with id {id}.", "Vote down the image {id}.")),
        (
            "vote_down_thumbs",
            ("Give the cat picture {id} a thumbs down.", "Thumbs down for image {id}."),
        ),
        (
            "vote_down_dislike",
            ("I don't like the image {id}; downvote it.", "Image {id} is blurry. Downvote it."),
        ),
        (
            "vote_down_cast",
            ("Cast a negative vote for the image with id = {id}.", "Cast a downvote on {id}."),
        ),
        (
            "vote_down_dislike_photo",
            ("Register a dislike for cat photo {id}.", "Please dislike the cat photo {id}."),
        ),
    ),
    "add_favourite": (
        ("fav_add_plain", ("Add the image {id} to my favorites.", "Add image {id} to favourites.")),
        (
            "fav_add_save",
            ("Save the cat picture {id} as a favourite.", "Save {id} to my favorites."),
        ),
        (
            "fav_add_please",
            ("Please favourite the image with id = {id}.", "Please favorite the cat photo {id}."),
        ),
        (
            "fav_add_love",
            (
                "I really like image {id}, put it in my favourites list.",
                "Cat image {id} is so cute! Add it to my favorites.",
            ),
        ),
        (
            "fav_add_mark",
            ("Mark {id} as one of my favorite cat images.", "Mark image {id} as a fave."),
        ),
    ),
    "delete_favourite": (
        (
            "fav_del_plain",
            (
                "Delete the cat image with id = {id} from my favorites.",
                "Delete {id} from favourites.",
            ),
        ),
        (
            "fav_del_remove",
            ("Remove the image {id} from my favorites.", "Remove image {id} from my favourites."),
        ),
        ("fav_del_unfavourite", ("Unfavourite the image {id}.", "Please unfavorite image {id}.")),
        (
            "fav_del_take_off",
            ("Take image {id} off my favourites list.", "Take the picture {id} off my favorites."),
        ),
        (
            "fav_del_no_longer",
            (
                "I no longer want {id} in my favorites; please remove it.",
                "I'm tired of image {id}. Drop it from my favourites.",
            ),
        ),
    ),
}


LIST_TEMPLATES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "fav_list_all",
        ("List all my favorite cat images.", "List all of my favourite cat pictures."),
    ),
    ("fav_list_show", ("Show me my favourites.", "Show me my favorite cat photos.")),
    (
        "fav_list_what",
        ("What cat pictures have I saved as favorites?", "Which images are in my favourites?"),
    ),
    (
        "fav_list_pull_up",
        ("Can you pull up my list of favourite cat images?", "Could you pull up my favorites?"),
    ),
    ("fav_list_get", ("Get all the images I've favourited.", "Get my favourite cat images.")),
    (
        "fav_list_review",
        (
            "I want to review the cat photos in my favorites.",
            "I'd like to go through my favourite cat pictures.",
        ),
    ),
    ("fav_list_saved", ("Which cats did I favorite?", "Remind me which cat images I favorited.")),
)


def template_ids() -> tuple[str, ...]:
    """Every template id (``Task.meta["template"]``)."""
    out = [t.tid for t in SEARCH_TEMPLATES] + [t for t, _ in LIST_TEMPLATES]
    out += [t for group in ID_TEMPLATES.values() for t, _ in group]
    return tuple(out)

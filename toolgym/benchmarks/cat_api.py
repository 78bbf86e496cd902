"""The Cat API tasks: user goals phrased like real people, gold curl lines that succeed offline.

Every task is one request to the simulated service :class:`~toolgym.simulators.catapi.CatApiApp`
(seed 0), written as one curl line in the original benchmark's format::

    curl -X GET 'https://api.thecatapi.com/v1/images/search?&size=small&order=ASC&breeds=chee,sphy'
    curl -X GET 'https://api.thecatapi.com/v1/favourites'
    curl -X POST 'https://api.thecatapi.com/v1/favourites' --data '{"image_id":"abc123"}'
    curl -X DELETE 'https://api.thecatapi.com/v1/favourites/dv0'
    curl -X POST 'https://api.thecatapi.com/v1/votes' --data '{"image_id":"alp", "value":1}'

Call types (:data:`CALL_TYPES`): ``search`` (optional size, mime types, order, limit and breeds,
in that order in the query string, each only when the goal asks for it; the goal names breeds by
id, ``"chee, sphy or kuri cats"``, or by name, ``"Norwegian Forest Cats"``, and the gold always
uses ids), ``list_favourites``, ``add_favourite`` (an image of the catalogue that is not a
favourite in the seeded state), ``delete_favourite`` (a favourite of the seeded state, named by its
image id, which the simulator accepts as a favourite reference), ``vote_up`` and ``vote_down``.
Every record carries ``compare_string_only`` (true exactly for ``delete_favourite``, as in the
original) and the meta keys ``call_type`` and ``template``.

Splits:

* ``test`` (100 tasks): 36 searches, 30 votes (15 up, 15 down), 14 favourites POST, 12 favourites
  GET and 8 favourites DELETE, as the original test set.
* ``demo`` (12 tasks): two of each call type.
* train: an unlimited stream (:func:`train_pairs`, :func:`train_task`) with the test mix that never
  repeats a test or demo goal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from toolgym.benchmarks.phrasing import count, join, pick
from toolgym.benchmarks.suite import first_unseen, sample_train, train_stream
from toolgym.benchmarks.tasks import Task
from toolgym.simulators.catapi import BREEDS, CatApiApp
from toolgym.simulators.http import Request
from toolgym.simulators.seeding import stable_seed

FAMILY = "cat_api"
VERSION = 0
SPLITS: dict[str, int] = {"test": 100, "demo": 12}

BASE_URL = "https://api.thecatapi.com/v1"
CALL_TYPES: tuple[str, ...] = (
    "search",
    "list_favourites",
    "add_favourite",
    "delete_favourite",
    "vote_up",
    "vote_down",
)
TEST_MIX: dict[str, int] = {
    "search": 36,
    "vote_up": 15,
    "vote_down": 15,
    "add_favourite": 14,
    "list_favourites": 12,
    "delete_favourite": 8,
}
"""Tasks of each call type in the test split (the original's mix)."""

SEARCH_PARAM_RATES: dict[str, float] = {
    "size": 0.45,
    "mime_types": 0.3,
    "order": 0.75,
    "limit": 0.35,
    "breeds": 0.75,
}
"""Chance that a search goal asks for each parameter (at least one is always asked)."""

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


# --------------------------------------------------------------------------------------------------
# The account and catalogue the tasks are built on


@functools.lru_cache(maxsize=1)
def _app() -> CatApiApp:
    return CatApiApp(seed=0)


@functools.lru_cache(maxsize=1)
def _pools() -> dict[str, tuple[str, ...]]:
    """Image ids the POST and DELETE tasks draw from."""
    app = _app()
    favourite_images = {f["image_id"] for f in app.favourites}
    images = [im.image_id for im in app.catalog.images]
    return {
        "favourites": tuple(sorted(favourite_images)),
        "not_favourite": tuple(i for i in images if i not in favourite_images),
        "all": tuple(images),
    }


def _search_hits(query: str) -> int:
    request = Request.build("GET", f"{BASE_URL}/images/search?{query}", {"x-api-key": "k"})
    response = _app().handle(request)
    return len(response.json()) if response.status == 200 else 0


# --------------------------------------------------------------------------------------------------
# Goal writing


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


@dataclass
class _Search:
    """A search request and the pieces of the goal that still have to be said."""

    rng: np.random.Generator
    params: dict[str, object]
    by_name: bool
    pending: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.pending = set(self.params)

    @property
    def plural(self) -> bool:
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
            head = f"{count(self.rng, int(self.params['limit']))} {' '.join(words)}"
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


def _one(s: _Search) -> str:
    return "them" if s.plural else pick(s.rng, ("one", "it"))


def _s_looking_for(s: _Search) -> str:
    text = f"I'm looking for {s.noun()}{s.inline('mime_types')}."
    if "order" in s.pending:
        return f"{text} Can you find {_one(s)} for me {s.order_phrase()}?{s.sentences()}"
    return f"{text} Can you find {_one(s)} for me?{s.sentences()}"


def _s_need_to_see(s: _Search) -> str:
    return f"I need to see {s.noun()}.{s.sentences()}"


def _s_show_me(s: _Search) -> str:
    return f"Show me {s.noun()}{s.inline('mime_types', 'order')}.{s.sentences()}"


def _s_can_you_find(s: _Search) -> str:
    return f"Can you find me {s.noun()}{s.inline('mime_types')}?{s.sentences()}"


def _s_help_locate(s: _Search) -> str:
    text = f"I'd like to see {s.noun()}."
    if "order" in s.pending:
        return f"{text} Can you help me locate {_one(s)} {s.order_phrase()}?{s.sentences()}"
    return f"{text} Can you help me locate {_one(s)}?{s.sentences()}"


def _s_get_with(s: _Search) -> str:
    return f"Get me {s.noun()}. Can you help me find {_one(s)}?{s.sentences()}"


def _s_fetch(s: _Search) -> str:
    ask = pick(s.rng, ("Please fetch", "Fetch", "Please pull up", "Pull up"))
    return f"{ask} {s.noun()}{s.inline('order', 'mime_types')}.{s.sentences()}"


def _s_search_db(s: _Search) -> str:
    return f"Search the cat image database for {s.noun()}{s.inline('mime_types')}.{s.sentences()}"


def _s_love_breed(s: _Search) -> str:
    who = pick(s.rng, ("My daughter", "My son", "My grandma", "My roommate"))
    what = s.breeds(plural=True, conj="and")
    return f"{who} loves {what}. Could you find {s.noun()} for them?{s.sentences()}"


def _s_settings(s: _Search) -> str:
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


def _s_want(s: _Search) -> str:
    lead = pick(s.rng, ("I want", "I'd love", "I would like"))
    return f"{lead} {s.noun()}{s.inline('order', 'mime_types')}.{s.sentences()}"


def _s_bored(s: _Search) -> str:
    lead = pick(s.rng, ("I'm bored.", "I need cheering up.", "Long day at work."))
    return f"{lead} Could you show me {s.noun()}?{s.sentences()}"


@dataclass(frozen=True)
class _SearchTemplate:
    tid: str
    render: Callable[[_Search], str]
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
_ID_TEMPLATES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
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

_LIST_TEMPLATES: tuple[tuple[str, tuple[str, ...]], ...] = (
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
    out = [t.tid for t in SEARCH_TEMPLATES] + [t for t, _ in _LIST_TEMPLATES]
    out += [t for group in _ID_TEMPLATES.values() for t, _ in group]
    return tuple(out)


# --------------------------------------------------------------------------------------------------
# Tasks


def _gold(call_type: str, *, query: str = "", image_id: str = "") -> str:
    if call_type == "search":
        return f"curl -X GET '{BASE_URL}/images/search?{query}'"
    if call_type == "list_favourites":
        return f"curl -X GET '{BASE_URL}/favourites'"
    if call_type == "add_favourite":
        return f"""curl -X POST '{BASE_URL}/favourites' --data '{{"image_id":"{image_id}"}}'"""
    if call_type == "delete_favourite":
        return f"curl -X DELETE '{BASE_URL}/favourites/{image_id}'"
    value = 1 if call_type == "vote_up" else -1
    return (
        f"curl -X POST '{BASE_URL}/votes' "
        f"""--data '{{"image_id":"{image_id}", "value":{value}}}'"""
    )


def _search_params(rng: np.random.Generator) -> dict[str, object]:
    """Parameters of a search whose gold finds at least one image."""
    while True:
        keys = [k for k, p in SEARCH_PARAM_RATES.items() if rng.random() < p]
        if not keys:
            continue
        params: dict[str, object] = {}
        if "size" in keys:
            params["size"] = pick(rng, ("small", "small", "med", "full", "full", "thumb"))
        if "mime_types" in keys:
            n = 1 if rng.random() < 0.6 else 2
            params["mime_types"] = [str(m) for m in rng.choice(["jpg", "png", "gif"], n, False)]
        if "order" in keys:
            params["order"] = pick(rng, ("ASC", "DESC"))
        if "limit" in keys:
            params["limit"] = int(rng.integers(2, 15))
        if "breeds" in keys:
            n = int(rng.choice([1, 2, 3, 4], p=[0.35, 0.3, 0.2, 0.15]))
            params["breeds"] = [str(b) for b in rng.choice(list(BREEDS), n, replace=False)]
        if _search_hits(_query(params)) >= 1:
            return params


def _query(params: dict[str, object]) -> str:
    parts = [""]
    for key in ("size", "mime_types", "order", "limit", "breeds"):
        if key in params:
            value = params[key]
            text = ",".join(value) if isinstance(value, list) else str(value)
            parts.append(f"{key}={text}")
    return "&".join(parts)


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    return text[0].upper() + text[1:]


def _build_task(
    rng: np.random.Generator, task_id: str, call_type: str, template: str | None = None
) -> Task:
    meta: dict[str, object] = {}
    if call_type == "search":
        params = _search_params(rng)
        fits = [t for t in SEARCH_TEMPLATES if set(t.needs) <= set(params)]
        chosen = next((t for t in fits if t.tid == template), None) or pick(rng, fits)
        breeds = params.get("breeds", [])
        by_name = bool(breeds) and len(breeds) <= 2 and rng.random() < 0.4  # type: ignore[arg-type]
        writer = _Search(rng, params, by_name)
        text = chosen.render(writer)
        text += writer.sentences()
        tid = chosen.tid
        query = _query(params)
        gold = _gold(call_type, query=query)
        meta["params"] = params
        meta["breeds_named"] = by_name
    elif call_type == "list_favourites":
        options = dict(_LIST_TEMPLATES)
        tid = template if template in options else pick(rng, list(options))
        text = pick(rng, options[tid])
        lead = pick(rng, ("", "", "", "Hi! ", "Hey, ", "Quick one: ", "Hello. "))
        tail = pick(rng, ("", "", "", " Thanks!", " Thank you.", " Appreciate it.", " Cheers!"))
        text = lead + (text[0].lower() + text[1:] if lead.endswith(", ") else text) + tail
        gold = _gold(call_type)
    elif call_type in _ID_TEMPLATES:
        options = dict(_ID_TEMPLATES[call_type])
        tid = template if template in options else pick(rng, list(options))
        pools = _pools()
        pool = {
            "add_favourite": pools["not_favourite"],
            "delete_favourite": pools["favourites"],
        }.get(call_type, pools["all"])
        image_id = pick(rng, pool)
        text = pick(rng, options[tid]).format(id=image_id)
        gold = _gold(call_type, image_id=image_id)
        meta["image_id"] = image_id
    else:
        raise ValueError(f"unknown Cat API call type {call_type!r}; known: {list(CALL_TYPES)}")
    meta = {
        "call_type": call_type,
        "template": tid,
        **meta,
        "compare_string_only": call_type == "delete_favourite",
    }
    return Task(task_id, _tidy(text), (gold,), meta)


def _templates_of(call_type: str) -> list[str]:
    if call_type == "search":
        return [t.tid for t in SEARCH_TEMPLATES]
    if call_type == "list_favourites":
        return [t for t, _ in _LIST_TEMPLATES]
    return [t for t, _ in _ID_TEMPLATES[call_type]]


def _sample_call_type(rng: np.random.Generator) -> str:
    names = list(TEST_MIX)
    weights = np.array([TEST_MIX[n] for n in names], dtype=float)
    return names[int(rng.choice(len(names), p=weights / weights.sum()))]


def generate_task(rng: np.random.Generator, task_id: str, *, call_type: str | None = None) -> Task:
    """Generate one task with ``rng``.

    Args:
        rng: the generator every choice is drawn from.
        task_id: the id of the task.
        call_type: one of :data:`CALL_TYPES`; by default drawn with the test mix.

    Returns:
        A task whose gold curl line succeeds on a fresh ``CatApiApp()``.

    Raises:
        ValueError: an unknown call type.
    """
    if call_type is None:
        call_type = _sample_call_type(rng)
    if call_type not in CALL_TYPES:
        raise ValueError(f"unknown Cat API call type {call_type!r}; known: {list(CALL_TYPES)}")
    return _build_task(rng, task_id, call_type)


def _task_rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(FAMILY, VERSION, *parts))


def _split_tasks(split: str, types: list[str], seen: set[str], used_ids: set[str]) -> list[Task]:
    """Tasks of ``types`` in order, cycling through each type's templates, with unique goals."""
    rng = _task_rng(split, "decks")
    decks = {
        c: [_templates_of(c)[int(i)] for i in rng.permutation(len(_templates_of(c)))]
        for c in CALL_TYPES
    }
    tasks = []
    for i, call_type in enumerate(types):
        deck = decks[call_type]
        tid = deck.pop(0)
        deck.append(tid)
        attempt = 0
        while True:
            task = _build_task(_task_rng(split, i, attempt), f"{split}-{i:03d}", call_type, tid)
            image_id = task.meta.get("image_id")
            if task.instruction not in seen and image_id not in used_ids:
                break
            attempt += 1
        seen.add(task.instruction)
        if isinstance(image_id, str) and call_type in ("add_favourite", "delete_favourite"):
            used_ids.add(image_id)
        tasks.append(task)
    return tasks


@functools.lru_cache(maxsize=1)
def _splits() -> dict[str, tuple[Task, ...]]:
    seen: set[str] = set()
    used: set[str] = set()
    demo_types = [c for c in CALL_TYPES for _ in range(2)]
    order = _task_rng("demo", "order").permutation(len(demo_types))
    demos = _split_tasks("demo", [demo_types[int(i)] for i in order], seen, used)
    test_types = [c for c, n in TEST_MIX.items() for _ in range(n)]
    order = _task_rng("test", "order").permutation(len(test_types))
    tests = _split_tasks("test", [test_types[int(i)] for i in order], seen, used)
    return {"demo": tuple(demos), "test": tuple(tests)}


def generate_split(split: str) -> list[Task]:
    """Generate the tasks of a fixed split (``"test"`` or ``"demo"``), the same on every machine.

    Raises:
        ValueError: an unknown split.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown Cat API split {split!r}; splits: {sorted(SPLITS)}")
    return list(_splits()[split])


@functools.lru_cache(maxsize=1)
def _held_out_instructions() -> frozenset[str]:
    return frozenset(t.instruction for tasks in _splits().values() for t in tasks)


def train_task(k: int) -> Task:
    """The train task with id ``f"train-{k}"``, regenerated from ``k`` alone.

    A draw whose goal equals a test or demo goal is replaced by the next draw for the same ``k``.
    """
    return first_unseen(
        lambda attempt: generate_task(_task_rng("train", k, attempt), f"train-{k}"),
        _held_out_instructions(),
    )


def train_pairs(n: int | None = 1800, seed: int = 0) -> Iterator[Task]:
    """Yield train tasks: ``train_task(seed * 2**32 + i)`` for ``i = 0, 1, ...``.

    Args:
        n: how many (None: without end).
        seed: which stream; streams of different seeds do not share tasks.
    """
    return train_stream(train_task, n, seed)


def sample_train_task(rng: np.random.Generator) -> Task:
    """One train task: ``train_task(k)`` with ``k`` drawn from ``rng``."""
    return sample_train(train_task, rng)

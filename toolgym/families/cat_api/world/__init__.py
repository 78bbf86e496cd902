"""An offline, deterministic re-creation of The Cat API (``api.thecatapi.com/v1``).

Content (generated from the seed, never from the network):

* the 67 real breeds with their 4-letter ids (``abys`` Abyssinian, ``norw`` Norwegian Forest Cat,
  ...) and the 7 real categories (``hats`` 1, ``space`` 2, ``sunglasses`` 4, ``boxes`` 5,
  ``ties`` 7, ``sinks`` 14, ``clothes`` 15);
* in the version-1 world, an open image-id space (:mod:`toolgym.families.cat_api.world.catalog`):
  every well-formed id, in one of the real formats (legacy ``dv0``, 9-character ``tF_6-Beo_``,
  base64 number ``MTY3ODIyMQ``), names an image, whose ``https://cdn2.thecatapi.com/images/<id>.<ext>`` url,
  width, height, mime type (jpg/png/gif), 0 to 2 breeds and sometimes a category are a stable
  hash of the id;
* a catalogue of :data:`N_IMAGES` of them that search pages through, in the catalogue version
  the app is built with (``catalog_version``: 0 for the ``-v0`` world, 1, the default, for
  ``-v1``, where the catalogue's ids come in the real formats). The ids quoted by the original
  benchmark (``dv0``, ``tu``, ``alp``, ``tF_6-Beo_``, ``-8roc4viS``) are part of it;
* an account with a seeded favourites store (:data:`N_SEED_FAVOURITES` favourites) and votes store.

Endpoints:

* ``GET /v1/images/search`` with ``size`` (thumb/small/med/full, default med: it scales the
  returned width/height), ``mime_types`` (a comma list, used as a set), ``order`` (ASC/DESC by image
  id in code-point order, or RANDOM, the default: a permutation seeded by the episode seed and the
  filters, so it reproduces within an episode), ``limit`` (default 1, clamped to 1..25 without a
  valid key and 1..100 with one), ``page`` (0-based), ``breed_ids`` or the benchmark's alias
  ``breeds`` (an image matches if it has any), ``category_ids``, ``has_breeds`` (1/true: only
  images with breeds, 0/false: only without). A query string may start with ``?&``.
* ``GET /v1/images/{image_id}`` (version-1 world): the image, at its original size, for any
  well-formed id.
* ``GET /v1/breeds``, ``GET /v1/categories``: all of them, or with ``limit`` (and ``page``,
  from 0) that page of them, as the real API pages them (``Pagination-Count`` gives the total).
* ``GET /v1/favourites`` (``sub_id``, ``limit`` default 100, ``page``, ``order`` ASC/DESC by id),
  ``GET|DELETE /v1/favourites/{ref}``, ``POST /v1/favourites`` ``{"image_id", "sub_id"?}``.
* ``GET /v1/votes`` (same parameters), ``GET|DELETE /v1/votes/{id}``,
  ``POST /v1/votes`` ``{"image_id", "value": 1 | -1, "sub_id"?}``.

**Favourite references.** Favourite ids are ints, as in the real API, but the benchmark's labels
delete favourites by image-id-like strings (``dv0``, ``tF_6-Beo_``). ``{ref}`` in
``/v1/favourites/{ref}`` is therefore resolved in this order: a string of digits that is the id of
a favourite names that favourite; otherwise ``ref`` is read as an image id and names the favourite
of that image with the lowest id (only 2- and 3-digit legacy image ids are all digits, and a
favourite with such an id wins over them, as on the real service). The
same rule backs :meth:`CatApiApp.favourite_exists`. In the version-1 world, favouriting, voting
on and deleting the favourite of any well-formed image id works, in the catalogue or not; the
version-0 world is kept as it was: only its catalogue's ids are images. Any other ``image_id`` in
a POST body is ``400 INVALID_IMAGE_ID``.

**Task setups.** :meth:`CatApiApp.arrange_favourites` makes sure some images are not favourites
and some references name a favourite, before an episode starts (a task whose gold favourites an
image, or deletes a favourite, runs from a state where that succeeds); it can also declare
*extra* images, ids of another shape that a task quotes, which then name images in that state.

**Errors** are JSON objects ``{"message": <text>, "status": <code>}`` (the real service answers
plain text with the same words): 401 ``AUTHENTICATION_ERROR`` when favourites or votes are used
without a valid ``x-api-key``; 400 ``DUPLICATE_FAVOURITE``, ``INVALID_IMAGE_ID``,
``INVALID_BODY``, ``INVALID_VALUE``, ``INVALID_PARAMETER``; 404 ``NO_FAVOURITE_FOUND``,
``NO_VOTE_FOUND`` and ``NOT_FOUND`` (unknown path or host); 405 for a known path with a wrong
method. Success bodies of POST echo ``image_id`` (and ``value`` for votes), so a wrong id lowers the
dict F1 of the original scoring even after its ``id`` key is removed.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from toolgym.families.cat_api.world.catalog import (
    BENCHMARK_IMAGE_IDS,
    BREEDS,
    CATALOG_VERSIONS,
    CATEGORIES,
    IMAGE_ID_RULE,
    LATEST_CATALOG_VERSION,
    MIME_TYPES,
    N_IMAGES,
    SHORT_ID_CHARS,
    SIZES,
    Catalog,
    CatImage,
    get_catalog,
    image_attributes,
    is_extra_image_id,
    is_image_id,
)
from toolgym.families.cat_api.world.requests_rules import (
    FALSE_WORDS,
    MAX_LIST_LIMIT,
    MAX_STORED,
    MAX_SUB_ID_CHARS,
    TRUE_WORDS,
    HttpError,
    body_fields,
    check_room,
    csv_items,
    csv_lower,
    int_param,
)
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.simulators.seeding import stable_rng, stable_seed
from toolgym.tools.plain_copy import plain_deepcopy

N_SEED_FAVOURITES = 36
N_SEED_VOTES = 12
SEED_FAVOURITE_IMAGE_IDS: tuple[str, ...] = ("dv0", "tu", "tF_6-Beo_", "-8roc4viS")
"""Benchmark ids that are favourites in every seeded initial state."""

API_HOST = "api.thecatapi.com"
_EPOCH = dt.datetime(2023, 1, 9, 8, 0, 0)
_NUMERIC_ID = re.compile(r"[0-9]{1,16}")
_ALL_MIMES = frozenset(MIME_TYPES)
_MIME_ALIASES = {"jpeg": "jpg"}
_NONE: frozenset[Any] = frozenset()


def _timestamp(seconds: int) -> str:
    return (_EPOCH + dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _paged(items: list[dict[str, Any]], params: dict[str, str]) -> Response:
    """A listing as the real API pages it: all of it, or ``limit`` items of page ``page``.

    The ``Pagination-Count``, ``Pagination-Page`` and ``Pagination-Limit`` headers say how many
    there are in all and which page this is.
    """
    headers = {"Pagination-Count": str(len(items))}
    if "limit" in params:
        limit = max(int_param(params, "limit", len(items)), 1)
        page = max(int_param(params, "page", 0), 0)
        items = items[page * limit : (page + 1) * limit]
        headers.update({"Pagination-Page": str(page), "Pagination-Limit": str(limit)})
    response = Response.json_body(200, items)
    response.headers.update(headers)
    return response


class CatApiApp(HttpApp):
    """The simulated The Cat API service (see the module docstring for its rules).

    Args:
        seed: the content seed (catalogue, initial favourites and votes, user id).
        api_key: the accepted ``x-api-key`` (None: any non-empty key).
        catalog_version: the world's catalogue version (one of ``CATALOG_VERSIONS``; the newest
            by default); the initial account is drawn from it.

    Raises:
        ValueError: an unknown catalogue version.
    """

    name = "cat_api"
    answers_inline = True  # every answer is bounded: under 0.2 ms
    plain_state = True  # snapshots are dicts of plain values; restore copies with plain_deepcopy
    hosts = (API_HOST,)

    def __init__(
        self,
        seed: int = 0,
        api_key: str | None = None,
        *,
        catalog_version: int = LATEST_CATALOG_VERSION,
    ) -> None:
        self.seed = seed
        self.api_key = api_key
        self.catalog = get_catalog(seed, catalog_version)
        self._random_cache: OrderedDict[tuple[Any, ...], np.ndarray] = OrderedDict()
        self._state = self._initial_state(seed)

    # ---------------------------------------------------------------------------------- state

    def _initial_state(self, seed: int) -> dict[str, Any]:
        rng = stable_rng("catapi", "account", seed)
        user_id = "".join(SHORT_ID_CHARS[int(i)] for i in rng.integers(len(SHORT_ID_CHARS), size=6))
        images = self.catalog.images
        others = [i for i in range(len(images)) if images[i].image_id not in BENCHMARK_IMAGE_IDS]
        n_extra = N_SEED_FAVOURITES - len(SEED_FAVOURITE_IMAGE_IDS)
        picked = [self.catalog.by_id[i] for i in SEED_FAVOURITE_IMAGE_IDS]
        picked += [int(i) for i in rng.choice(others, n_extra, replace=False)]
        picked = [picked[int(i)] for i in rng.permutation(len(picked))]
        clock = 0
        fav_id = 232_000_000 + int(rng.integers(0, 400_000))
        favourites: dict[int, dict[str, Any]] = {}
        for index in picked:
            clock += int(rng.integers(600, 400_000))
            fav_id += int(rng.integers(1, 5_000))
            sub_id = None if rng.random() < 0.7 else f"user-{int(rng.integers(100, 1000))}"
            image = images[index]
            favourites[fav_id] = {
                "id": fav_id,
                "user_id": user_id,
                "image_id": image.image_id,
                "sub_id": sub_id,
                "created_at": _timestamp(clock),
                "image": {"id": image.image_id, "url": image.url},
            }
        votes: dict[int, dict[str, Any]] = {}
        vote_id = 1_000_000 + int(rng.integers(0, 90_000))
        for index in rng.choice(len(images), N_SEED_VOTES, replace=False):
            clock += int(rng.integers(600, 100_000))
            vote_id += int(rng.integers(1, 500))
            image = images[int(index)]
            votes[vote_id] = {
                "id": vote_id,
                "image_id": image.image_id,
                "sub_id": None,
                "created_at": _timestamp(clock),
                "value": 1 if rng.random() < 0.7 else -1,
                "country_code": "US",
                "image": {"id": image.image_id, "url": image.url},
            }
        return {
            "user_id": user_id,
            "favourites": favourites,
            "votes": votes,
            "next_favourite_id": fav_id + 1,
            "next_vote_id": vote_id + 1,
            "clock": clock,
            "episode_seed": seed,
        }

    def set_episode_seed(self, seed: int) -> None:
        """Set the seed of ``order=RANDOM`` permutations."""
        self._state["episode_seed"] = int(seed)

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of the mutable state (favourites, votes, counters, clock, episode seed)."""
        return plain_deepcopy(self._state)

    def restore(self, state: Any) -> None:
        """Restore a state returned by :meth:`snapshot` (the argument is copied, not kept)."""
        self._state = plain_deepcopy(state)

    def reset_state(self) -> None:
        """Return to the seeded initial state."""
        self._state = self._initial_state(self.seed)

    @property
    def favourites(self) -> list[dict[str, Any]]:
        """Copies of the current favourites, by ascending id."""
        return plain_deepcopy(
            [self._state["favourites"][k] for k in sorted(self._state["favourites"])]
        )

    @property
    def votes(self) -> list[dict[str, Any]]:
        """Copies of the current votes, by ascending id."""
        return plain_deepcopy([self._state["votes"][k] for k in sorted(self._state["votes"])])

    def _resolve_favourite(self, ref: str | int) -> int | None:
        favourites = self._state["favourites"]
        text = str(ref)
        if _NUMERIC_ID.fullmatch(text) and int(text) in favourites:
            return int(text)
        matches = [k for k, f in favourites.items() if f["image_id"] == text]
        return min(matches) if matches else None

    def favourite_exists(self, fav_id: str | int) -> bool:
        """Whether ``fav_id`` (a favourite id, or an image id: see the module docstring) exists."""
        return self._resolve_favourite(fav_id) is not None

    def has_image(self, image_id: str) -> bool:
        """Whether ``image_id`` names an image: it is well-formed (the space is open) or extra."""
        return self._image_of(image_id) is not None

    def _image_of(self, image_id: str) -> CatImage | None:
        image = self.catalog.image(image_id)
        if image is None and image_id in self._state.get("extra_images", ()):
            image = image_attributes(image_id, extra=True)
        return image

    def _image(self, image_id: str) -> CatImage:
        image = self._image_of(image_id)
        assert image is not None  # checked before: by _body, or by check_arrangement
        return image

    def in_catalog(self, image_id: str) -> bool:
        """Whether ``image_id`` is one of the catalogue's images (those search returns)."""
        return image_id in self.catalog.by_id

    @staticmethod
    def is_favourite_ref(ref: object) -> bool:
        """Whether ``ref`` can name a favourite: a well-formed image id or up to 16 digits."""
        return is_image_id(ref) or (isinstance(ref, str) and bool(_NUMERIC_ID.fullmatch(ref)))

    @classmethod
    def check_arrangement(
        cls, absent: Sequence[str], present: Sequence[str], extra: Sequence[str] = ()
    ) -> None:
        """Check the arguments of :meth:`arrange_favourites`.

        Raises:
            ValueError: a malformed id or reference, or one that is in both lists.
        """
        bad = [i for i in extra if not is_extra_image_id(i)]
        if bad:
            raise ValueError(
                "extra images are 1 to 64 characters from A-Z, a-z, 0-9, '_' and '-', not all "
                f"digits; got {bad!r}"
            )
        bad = [r for r in absent if not is_image_id(r) and r not in extra]
        bad += [r for r in present if not cls.is_favourite_ref(r) and r not in extra]
        if bad:
            raise ValueError(
                "favourites to arrange are image ids (or extra images) or, when present, "
                f"favourite ids (up to 16 digits); {IMAGE_ID_RULE}; got {bad!r}"
            )
        both = sorted(set(absent) & set(present))
        if both:
            raise ValueError(f"an id is either absent or present; got {both} in both")

    def arrange_favourites(
        self, absent: Sequence[str] = (), present: Sequence[str] = (), extra: Sequence[str] = ()
    ) -> None:
        """Make the current state hold no favourite of ``absent`` and one for each of ``present``.

        ``extra`` are ids of another shape that name an image from now on (see the module
        docstring). ``absent`` are image ids: their favourites are removed. ``present`` are
        favourite references (see the module docstring); each one that names no favourite gets
        one: for an image id, a favourite of that image with the next favourite id; for a
        favourite id, that favourite, of a catalogue image that is not a favourite yet, picked by
        a stable hash of the id. Later favourites get larger ids, so none collides. Changes
        nothing that is already so, and the same arguments always give the same state.

        Raises:
            ValueError: a malformed id or reference, or one that is in both lists.
        """
        self.check_arrangement(absent, present, extra)
        state = self._state
        known = state.get("extra_images", [])
        new = [i for i in dict.fromkeys(extra) if i not in known and self.catalog.image(i) is None]
        if new:  # the state changes only when an image is really added
            state["extra_images"] = [*known, *new]
        favourites = state["favourites"]
        gone = set(absent)
        for key in [k for k, f in favourites.items() if f["image_id"] in gone]:
            del favourites[key]
        missing = [r for r in present if not _NUMERIC_ID.fullmatch(r) and self._image_of(r) is None]
        if missing:
            raise ValueError(
                f"favourites to arrange must be of images of this world; {missing!r} are not "
                "(declare them as extra images)"
            )
        for ref in present:
            if self._resolve_favourite(ref) is not None:
                continue
            if not _NUMERIC_ID.fullmatch(ref):
                image = self._image(ref)
                fav_id = state["next_favourite_id"]
            else:
                image = self._free_image(stable_seed("catapi", "setup-favourite", ref))
                fav_id = int(ref)
            state["next_favourite_id"] = max(state["next_favourite_id"], fav_id + 1)
            favourites[fav_id] = self._favourite(fav_id, image, None)

    def _free_image(self, start: int) -> CatImage:
        """Catalogue image number ``start`` (modulo) of those no favourite holds (or of all)."""
        taken = {f["image_id"] for f in self._state["favourites"].values()}
        free = [im for im in self.catalog.images if im.image_id not in taken]
        images = free or self.catalog.images
        return images[start % len(images)]

    # -------------------------------------------------------------------------------- routing

    def handle(self, request: Request) -> Response:
        """Answer one request; never raises."""
        try:
            return self._route(request)
        except HttpError as e:
            return Response.json_body(e.status, {"message": e.message, "status": e.status})
        except Exception as e:  # pragma: no cover - a bug must not crash an episode
            message = f"INTERNAL_ERROR - {type(e).__name__}"
            return Response.json_body(500, {"message": message, "status": 500})

    def _route(self, request: Request) -> Response:
        if request.host != API_HOST:
            raise HttpError(404, f"NOT_FOUND - unknown host {request.host!r}")
        parts = request.path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "v1":
            raise HttpError(404, f"NOT_FOUND - no route for {request.path}")
        resource, rest, method = parts[1], parts[2:], request.method
        if resource == "images" and rest == ["search"]:
            self._allow(method, "GET")
            return Response.json_body(200, self._search(request))
        if resource == "images" and len(rest) == 1 and self.catalog.version >= 1:
            self._allow(method, "GET")
            image = self._image_of(rest[0])
            if image is None:
                raise HttpError(
                    400, f"INVALID_IMAGE_ID - no image with id {rest[0][:40]!r} ({IMAGE_ID_RULE})"
                )
            return Response.json_body(200, image.as_json("full"))
        if resource in ("breeds", "categories") and not rest:
            self._allow(method, "GET")
            table = BREEDS if resource == "breeds" else CATEGORIES
            return _paged([{"id": k, "name": v} for k, v in table.items()], request.params)
        if resource in ("favourites", "votes") and len(rest) <= 1:
            self._authenticate(request)
            if not rest:
                self._allow(method, "GET", "POST")
                if method == "GET":
                    return Response.json_body(200, self._list(request, resource))
                if resource == "favourites":
                    return Response.json_body(200, self._add_favourite(request))
                return Response.json_body(200, self._add_vote(request))
            self._allow(method, "GET", "DELETE")
            if resource == "favourites":
                key = self._resolve_favourite(rest[0])
                if key is None:
                    raise HttpError(404, "NO_FAVOURITE_FOUND - no favourite with this id")
            else:
                key = int(rest[0]) if _NUMERIC_ID.fullmatch(rest[0]) else None
                if key not in self._state["votes"]:
                    raise HttpError(404, "NO_VOTE_FOUND - no vote with this id")
            store = self._state[resource]
            if method == "GET":
                return Response.json_body(200, store[key])
            del store[key]
            return Response.json_body(200, {"message": "SUCCESS"})
        raise HttpError(404, f"NOT_FOUND - no route for {request.path}")

    @staticmethod
    def _allow(method: str, *allowed: str) -> None:
        if method not in allowed:
            raise HttpError(405, f"METHOD_NOT_ALLOWED - use {' or '.join(allowed)}")

    def _key_ok(self, request: Request) -> bool:
        key = request.header("x-api-key")
        return bool(key) and (self.api_key is None or key == self.api_key)

    def _authenticate(self, request: Request) -> None:
        if not self._key_ok(request):
            raise HttpError(
                401,
                "AUTHENTICATION_ERROR - you need to send your API Key as the 'x-api-key' header",
            )

    # ------------------------------------------------------------------------------- handlers

    def _search(self, request: Request) -> list[dict[str, Any]]:
        params = {k.strip().lower(): v for k, v in request.query if k.strip()}
        size = params.get("size", "med").strip().lower() or "med"
        if size not in SIZES:
            raise HttpError(400, f"INVALID_PARAMETER - size must be one of {', '.join(SIZES)}")
        mimes = _ALL_MIMES
        if raw_mimes := params.get("mime_types"):
            mimes = frozenset(_MIME_ALIASES.get(m, m) for m in csv_lower(raw_mimes)) or mimes
        if not mimes <= MIME_TYPES.keys():
            raise HttpError(400, "INVALID_PARAMETER - mime_types are jpg, png and gif")
        order = params.get("order", "RANDOM").strip().upper() or "RANDOM"
        if order not in ("ASC", "DESC", "RANDOM"):
            raise HttpError(400, "INVALID_PARAMETER - order must be ASC, DESC or RANDOM")
        cap = 100 if self._key_ok(request) else 25
        limit = min(max(int_param(params, "limit", 1), 1), cap)
        page = max(int_param(params, "page", 0), 0)
        breeds: frozenset[str] = _NONE
        if "breed_ids" in params or "breeds" in params:
            breeds = frozenset(
                csv_lower(params.get("breed_ids", "")) + csv_lower(params.get("breeds", ""))
            )
        categories: frozenset[int] = _NONE
        if raw_categories := params.get("category_ids"):
            try:
                categories = frozenset(int(c) for c in csv_items(raw_categories))
            except ValueError:
                raise HttpError(400, "INVALID_PARAMETER - category_ids must be integers") from None
        has_raw = params.get("has_breeds", "").strip().lower()
        has_breeds = True if has_raw in TRUE_WORDS else False if has_raw in FALSE_WORDS else None
        hits = self.catalog.select(mimes, has_breeds, breeds, categories)
        start = page * limit
        if order == "ASC":
            chosen = hits[start : start + limit]
        elif order == "DESC":
            end = len(hits) - start
            chosen = hits[max(end - limit, 0) : max(end, 0)][::-1]
        else:
            perm = self._permutation(len(hits), (mimes, has_breeds, breeds, categories))
            chosen = tuple(hits[i] for i in perm[start : start + limit].tolist())
        return [self.catalog.image_json(size, i) for i in chosen]

    def _permutation(self, n: int, filters: tuple[Any, ...]) -> np.ndarray:
        episode = self._state["episode_seed"]
        key = (episode, *filters)
        perm = self._random_cache.get(key)
        if perm is None:
            norm = [sorted(f) if isinstance(f, frozenset) else f for f in filters]
            seed = stable_seed("catapi", "random", episode, *norm)
            perm = np.random.Generator(np.random.PCG64(seed)).permutation(n)
            self._random_cache[key] = perm
            if len(self._random_cache) > 256:
                self._random_cache.popitem(last=False)
        return perm

    def _list(self, request: Request, resource: str) -> list[dict[str, Any]]:
        params = request.params
        limit = min(max(int_param(params, "limit", MAX_LIST_LIMIT), 1), MAX_LIST_LIMIT)
        page = max(int_param(params, "page", 0), 0)
        order = params.get("order", "ASC").strip().upper() or "ASC"
        if order not in ("ASC", "DESC"):
            raise HttpError(400, "INVALID_PARAMETER - order must be ASC or DESC")
        store = self._state[resource]
        keys = sorted(store, reverse=order == "DESC")
        if "sub_id" in params:
            sub = params["sub_id"]
            keys = [k for k in keys if store[k]["sub_id"] == sub]
        return [store[k] for k in keys[page * limit : page * limit + limit]]

    def _body(self, request: Request) -> tuple[str, str | None, dict[str, Any]]:
        image_id, sub_id, body = body_fields(request)
        if self._image_of(image_id) is None:
            if self.catalog.version == 0:  # the words of the version-0 world, kept as they were
                raise HttpError(400, f"INVALID_IMAGE_ID - no image with id {image_id!r}")
            raise HttpError(
                400,
                f"INVALID_IMAGE_ID - no image with id {image_id[:40]!r} ({IMAGE_ID_RULE})",
            )
        return image_id, sub_id, body

    def _tick(self) -> str:
        self._state["clock"] += 1
        return _timestamp(self._state["clock"])

    def _add_favourite(self, request: Request) -> dict[str, Any]:
        image_id, sub_id, _ = self._body(request)
        state = self._state
        check_room(state["favourites"], "favourites")
        for fav in state["favourites"].values():
            if fav["image_id"] == image_id and fav["sub_id"] == sub_id:
                raise HttpError(
                    400,
                    "DUPLICATE_FAVOURITE - favourites are unique for account + image_id + sub_id",
                )
        fav_id = state["next_favourite_id"]
        state["next_favourite_id"] += 1
        state["favourites"][fav_id] = self._favourite(fav_id, self._image(image_id), sub_id)
        return {"message": "SUCCESS", "id": fav_id, "image_id": image_id}

    def _favourite(self, fav_id: int, image: CatImage, sub_id: str | None) -> dict[str, Any]:
        return {
            "id": fav_id,
            "user_id": self._state["user_id"],
            "image_id": image.image_id,
            "sub_id": sub_id,
            "created_at": self._tick(),
            "image": {"id": image.image_id, "url": image.url},
        }

    def _add_vote(self, request: Request) -> dict[str, Any]:
        image_id, sub_id, body = self._body(request)
        value = body.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or value not in (1, -1):
            raise HttpError(400, "INVALID_VALUE - value must be 1 (up) or -1 (down)")
        state = self._state
        check_room(state["votes"], "votes")
        vote_id = state["next_vote_id"]
        state["next_vote_id"] += 1
        image = self._image(image_id)
        state["votes"][vote_id] = {
            "id": vote_id,
            "image_id": image_id,
            "sub_id": sub_id,
            "created_at": self._tick(),
            "value": value,
            "country_code": "US",
            "image": {"id": image_id, "url": image.url},
        }
        return {
            "message": "SUCCESS",
            "id": vote_id,
            "image_id": image_id,
            "value": value,
            "country_code": "US",
        }


__all__ = [
    "API_HOST",
    "BENCHMARK_IMAGE_IDS",
    "BREEDS",
    "CATALOG_VERSIONS",
    "CATEGORIES",
    "IMAGE_ID_RULE",
    "LATEST_CATALOG_VERSION",
    "MAX_STORED",
    "MAX_SUB_ID_CHARS",
    "MIME_TYPES",
    "N_IMAGES",
    "N_SEED_FAVOURITES",
    "N_SEED_VOTES",
    "SEED_FAVOURITE_IMAGE_IDS",
    "SIZES",
    "CatApiApp",
    "CatImage",
    "Catalog",
    "get_catalog",
    "image_attributes",
    "is_extra_image_id",
    "is_image_id",
]

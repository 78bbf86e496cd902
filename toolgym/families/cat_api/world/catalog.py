"""The content of the simulated Cat API: breeds, categories, image ids and the catalogue of a seed.

The 67 real breeds with their 4-letter ids and the 7 real categories.

**Image ids.** The id space is open: every *well-formed* id names an image (:func:`is_image_id`),
so requests about images that no search returns (favourite, vote, delete a favourite) work as
they do on the real service, whose ids come in three formats, and the rule is those formats:

* a legacy id: 2 or 3 characters from ``[a-z0-9]`` (``tu``, ``dv0``, and the oldest images'
  numbers, ``264``, ``959``);
* a 9-character id from ``[A-Za-z0-9_-]`` (``tF_6-Beo_``, ``-8roc4viS``);
* a newer id: a decimal number of 4 to 12 digits (no leading zero) in base64, unpadded
  (``MTY3ODIyMQ``, 10 characters, is 1678221).

Only legacy ids may be all digits; ``/v1/favourites/{ref}`` reads digits as a favourite id
first, and as an image id when no favourite has that id. The catalogues draw no all-digit id
(they are as they were before legacy numbers were accepted). A rule of
formats, rather than "any short string", keeps refused what the real service refuses: a word
such as ``Austin`` or ``kitten`` names no image, and the service answers
``400 INVALID_IMAGE_ID`` to it as to any other malformed id. An id's attributes (mime type, size, breeds, category, CDN url)
are a pure function of the id (:func:`image_attributes`, a stable hash, the same on every
machine).

A task may still quote an image id of another shape (the original labels came from the live
service, and this rule cannot prove it has seen every format): its setup can declare such an
*extra* image, any 1 to 64 characters from ``[A-Za-z0-9_-]`` that are not all digits
(:func:`is_extra_image_id`), which then names an image in that task's world, attributes by the
same hash.

**The catalogue** (:class:`Catalog`) is the finite, ordered set of :data:`N_IMAGES` images that
search pages through; the ids quoted by the original benchmark (:data:`BENCHMARK_IMAGE_IDS`) are
always part of it. It has versions (:data:`CATALOG_VERSIONS`):

* version 0 (the ``-v0`` world): 9-character ids and short lowercase ones, with attributes drawn
  in sequence from the seed; images outside it take :func:`image_attributes`;
* version 1 (the ``-v1`` world): ids in the real formats (legacy 2-3 characters, 9 characters,
  10-character base64 numbers) whose attributes *are* :func:`image_attributes`, one rule for
  every id.

Everything is drawn from the seed, never from the network, and a catalogue is immutable
(:func:`get_catalog` shares it between apps).
"""

from __future__ import annotations

import base64
import functools
import re
import string
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.simulators.seeding import stable_rng

BREEDS: dict[str, str] = {
    "abys": "Abyssinian",
    "aege": "Aegean",
    "abob": "American Bobtail",
    "acur": "American Curl",
    "asho": "American Shorthair",
    "awir": "American Wirehair",
    "amau": "Arabian Mau",
    "amis": "Australian Mist",
    "bali": "Balinese",
    "bamb": "Bambino",
    "beng": "Bengal",
    "birm": "Birman",
    "bomb": "Bombay",
    "bslo": "British Longhair",
    "bsho": "British Shorthair",
    "bure": "Burmese",
    "buri": "Burmilla",
    "cspa": "California Spangled",
    "ctif": "Chantilly-Tiffany",
    "char": "Chartreux",
    "chau": "Chausie",
    "chee": "Cheetoh",
    "csho": "Colorpoint Shorthair",
    "crex": "Cornish Rex",
    "cymr": "Cymric",
    "cypr": "Cyprus",
    "drex": "Devon Rex",
    "dons": "Donskoy",
    "lihu": "Dragon Li",
    "emau": "Egyptian Mau",
    "ebur": "European Burmese",
    "esho": "Exotic Shorthair",
    "hbro": "Havana Brown",
    "hima": "Himalayan",
    "jbob": "Japanese Bobtail",
    "java": "Javanese",
    "khao": "Khao Manee",
    "kora": "Korat",
    "kuri": "Kurilian",
    "lape": "LaPerm",
    "mcoo": "Maine Coon",
    "mala": "Malayan",
    "manx": "Manx",
    "munc": "Munchkin",
    "nebe": "Nebelung",
    "norw": "Norwegian Forest Cat",
    "ocic": "Ocicat",
    "orie": "Oriental",
    "pers": "Persian",
    "pixi": "Pixie-bob",
    "raga": "Ragamuffin",
    "ragd": "Ragdoll",
    "rblu": "Russian Blue",
    "sava": "Savannah",
    "sfol": "Scottish Fold",
    "srex": "Selkirk Rex",
    "siam": "Siamese",
    "sibe": "Siberian",
    "sing": "Singapura",
    "snow": "Snowshoe",
    "soma": "Somali",
    "sphy": "Sphynx",
    "tonk": "Tonkinese",
    "toyg": "Toyger",
    "tang": "Turkish Angora",
    "tvan": "Turkish Van",
    "ycho": "York Chocolate",
}
"""The breeds of the real API: 4-letter id -> name."""

CATEGORIES: dict[int, str] = {
    1: "hats",
    2: "space",
    4: "sunglasses",
    5: "boxes",
    7: "ties",
    14: "sinks",
    15: "clothes",
}
"""The image categories of the real API: id -> name."""

MIME_TYPES: dict[str, str] = {"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif"}
"""File extension -> mime type of the catalogue's images."""

SIZES: dict[str, int | None] = {"thumb": 100, "small": 250, "med": 500, "full": None}
"""``size`` -> the longest side of the returned image (None: the original size)."""


N_IMAGES = 1200
CATALOG_VERSIONS: tuple[int, ...] = (0, 1)
"""The catalogue versions (see the module docstring); the last is the newest."""
LATEST_CATALOG_VERSION = CATALOG_VERSIONS[-1]
BENCHMARK_IMAGE_IDS: tuple[str, ...] = ("dv0", "tu", "alp", "tF_6-Beo_", "-8roc4viS")
"""Image ids quoted by the original benchmark's labels; the catalogue always has them."""
CDN = "https://cdn2.thecatapi.com/images"
ID_CHARS = string.ascii_letters + string.digits + "_-"
SHORT_ID_CHARS = string.ascii_lowercase + string.digits
IMAGE_ID_RULE = (
    "an image id is a legacy id (2 or 3 characters from a-z and 0-9), 9 characters from A-Z, "
    "a-z, 0-9, '_' and '-', or a 4- to 12-digit number in unpadded base64 (MTY3ODIyMQ); only "
    "a legacy id may be all digits"
)
"""The id rule in words, for error messages."""
_LEGACY_OR_NINE = re.compile(r"[a-z0-9]{2,3}|[A-Za-z0-9_-]{9}")
_BASE64 = re.compile(r"[A-Za-z0-9]{6,16}")
_EXTRA = re.compile(r"[A-Za-z0-9_-]{1,64}")
_EXTS = ["jpg", "png", "gif"]
_EXT_WEIGHTS = [0.7, 0.15, 0.15]


def is_image_id(text: object) -> bool:
    """Whether ``text`` is a well-formed image id (see the module docstring).

    >>> [is_image_id(t) for t in ("dv0", "tF_6-Beo_", "MTY3ODIyMQ", "264", "1234", "Austin")]
    [True, True, True, True, False, False]
    """
    if isinstance(text, str) and text.isascii() and text.isdigit():
        return 2 <= len(text) <= 3  # a legacy number
    return _drawable_id(text)


def _drawable_id(text: object) -> bool:
    """:func:`is_image_id`, all-digit legacy ids left out: the ids catalogues are drawn from."""
    if not isinstance(text, str) or text.isdigit():
        return False
    if _LEGACY_OR_NINE.fullmatch(text):
        return True
    return bool(_BASE64.fullmatch(text)) and _is_base64_number(text)


def is_extra_image_id(text: object) -> bool:
    """Whether ``text`` may be declared an extra image of a task (see the module docstring).

    >>> [is_extra_image_id(t) for t in ("abc123", "Austin", "x", "123", "1234", "a b", "")]
    [True, True, True, True, False, False, False]
    """
    if not isinstance(text, str) or not _EXTRA.fullmatch(text):
        return False
    return not text.isdigit() or is_image_id(text)


def _is_base64_number(text: str) -> bool:
    """Whether ``text`` is :func:`base64_number_id` of a 4- to 12-digit number."""
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except ValueError:  # binascii.Error is a ValueError
        return False
    return (
        4 <= len(raw) <= 12
        and raw.isdigit()
        and not raw.startswith(b"0")
        and base64_number_id(int(raw)) == text
    )


def base64_number_id(number: int) -> str:
    """The id format of the real service's newer images: a decimal number in base64, unpadded.

    >>> base64_number_id(1678221)
    'MTY3ODIyMQ'
    """
    return base64.b64encode(str(number).encode("ascii")).decode("ascii").rstrip("=")


@dataclass(frozen=True)
class CatImage:
    """One image of the catalogue.

    Attributes:
        image_id: the id (``0XYvRd7oD``, ``dv0``).
        ext: ``jpg``, ``png`` or ``gif``.
        width: original width in pixels.
        height: original height in pixels.
        breed_ids: ids of the breeds shown (often none).
        category_ids: ids of the categories (often none).
    """

    image_id: str
    ext: str
    width: int
    height: int
    breed_ids: tuple[str, ...]
    category_ids: tuple[int, ...]

    @property
    def url(self) -> str:
        """The CDN url."""
        return f"{CDN}/{self.image_id}.{self.ext}"

    def as_json(self, size: str) -> dict[str, Any]:
        """The search-result object for ``size`` (width/height scaled down to fit)."""
        longest = SIZES[size]
        w, h = self.width, self.height
        if longest is not None and max(w, h) > longest:
            scale = longest / max(w, h)
            w, h = max(1, round(w * scale)), max(1, round(h * scale))
        out: dict[str, Any] = {
            "id": self.image_id,
            "url": self.url,
            "width": w,
            "height": h,
            "breeds": [{"id": b, "name": BREEDS[b]} for b in self.breed_ids],
        }
        if self.category_ids:
            out["categories"] = [{"id": c, "name": CATEGORIES[c]} for c in self.category_ids]
        return out


def _draw_image(rng: np.random.Generator, image_id: str) -> CatImage:
    """An image's attributes drawn from ``rng``: 70% jpg, half without breeds, some categories."""
    ext = str(rng.choice(_EXTS, p=_EXT_WEIGHTS))
    width = int(rng.integers(60, 241)) * 10
    height = int(rng.integers(40, 201)) * 10
    roll = rng.random()
    n_breeds = 0 if roll < 0.5 else (1 if roll < 0.96 else 2)
    breeds = tuple(sorted(str(b) for b in rng.choice(list(BREEDS), n_breeds, replace=False)))
    cats: tuple[int, ...] = ()
    if not breeds and rng.random() < 0.3:
        cats = (int(rng.choice(list(CATEGORIES))),)
    return CatImage(image_id, ext, width, height, breeds, cats)


@functools.lru_cache(maxsize=16_384)
def image_attributes(image_id: str, *, extra: bool = False) -> CatImage:
    """The image an id names, a pure function of the id (the same in every world).

    Args:
        image_id: a well-formed id, or with ``extra`` one that may be declared an extra image.
        extra: accept :func:`is_extra_image_id` ids too.

    Raises:
        ValueError: ``image_id`` is malformed (see :func:`is_image_id`).
    """
    if not (is_extra_image_id if extra else is_image_id)(image_id):
        raise ValueError(f"{IMAGE_ID_RULE}; got {image_id!r}")
    return _draw_image(stable_rng("catapi", "image", image_id), image_id)


def draw_image_id(rng: np.random.Generator, *, base64_share: float = 0.3) -> str:
    """A random id in the real formats (it may be all digits: check with :func:`is_image_id`).

    12% legacy ids (2 or 3 lowercase letters and digits), ``base64_share`` 10-character base64
    numbers, the rest 9 characters from ``[A-Za-z0-9_-]``. With ``base64_share=0`` the draws are
    those of the version 0 catalogue.
    """
    roll = rng.random()
    if roll < 0.12:
        n = int(rng.integers(2, 4))
        return "".join(SHORT_ID_CHARS[int(i)] for i in rng.integers(len(SHORT_ID_CHARS), size=n))
    if roll >= 1 - base64_share:
        return base64_number_id(int(rng.integers(1_000_000, 10_000_000)))
    return "".join(ID_CHARS[int(i)] for i in rng.integers(len(ID_CHARS), size=9))


def _catalogue_ids(rng: np.random.Generator, base64_share: float) -> list[str]:
    ids = set(BENCHMARK_IMAGE_IDS)
    while len(ids) < N_IMAGES:
        new = draw_image_id(rng, base64_share=base64_share)
        if _drawable_id(new):
            ids.add(new)
    return sorted(ids)


def _v0_images(seed: int) -> list[CatImage]:
    """The version 0 catalogue: ids first, then every image's attributes in sequence."""
    rng = stable_rng("catapi", "catalog", seed)
    return [_draw_image(rng, image_id) for image_id in _catalogue_ids(rng, 0.0)]


def _v1_images(seed: int) -> list[CatImage]:
    """The version 1 catalogue: ids in the real formats, attributes by :func:`image_attributes`."""
    rng = stable_rng("catapi", "catalog", seed, 1)
    return [image_attributes(image_id) for image_id in _catalogue_ids(rng, 0.3)]


class Catalog:
    """The immutable image catalogue of one seed and version, indexed for search (shared).

    Args:
        seed: the content seed.
        version: one of :data:`CATALOG_VERSIONS`.

    Raises:
        ValueError: an unknown version.
    """

    def __init__(self, seed: int, version: int = LATEST_CATALOG_VERSION) -> None:
        if version not in CATALOG_VERSIONS:
            raise ValueError(
                f"the Cat API catalogue versions are {list(CATALOG_VERSIONS)}; got {version!r}"
            )
        self.version = version
        images = _v0_images(seed) if version == 0 else _v1_images(seed)
        self.images: tuple[CatImage, ...] = tuple(images)
        """All images in ascending id order."""
        self.by_id: dict[str, int] = {im.image_id: i for i, im in enumerate(self.images)}
        """Image id -> position in :attr:`images`."""
        self.by_breed: dict[str, tuple[int, ...]] = {
            b: tuple(i for i, im in enumerate(images) if b in im.breed_ids) for b in BREEDS
        }
        self.by_category: dict[int, tuple[int, ...]] = {
            c: tuple(i for i, im in enumerate(images) if c in im.category_ids) for c in CATEGORIES
        }
        self._mime_sets: dict[tuple[frozenset[str], bool | None], tuple[int, ...]] = {}
        for k in range(1, 8):
            mimes = frozenset(m for j, m in enumerate(MIME_TYPES) if k >> j & 1)
            for has in (None, True, False):
                self._mime_sets[mimes, has] = tuple(
                    i
                    for i, im in enumerate(images)
                    if im.ext in mimes and (has is None or bool(im.breed_ids) == has)
                )
        self._json: dict[str, list[dict[str, Any]]] = {}

    def image(self, image_id: str) -> CatImage | None:
        """The image ``image_id`` names: the catalogue's, else :func:`image_attributes`.

        None when the id is malformed (see :func:`is_image_id`), and, in the version-0 world
        (kept as it was), when it is not one of the catalogue's images.
        """
        index = self.by_id.get(image_id)
        if index is not None:
            return self.images[index]
        if self.version == 0:
            return None
        return image_attributes(image_id) if is_image_id(image_id) else None

    def select(
        self,
        mimes: frozenset[str],
        has_breeds: bool | None,
        breeds: frozenset[str],
        categories: frozenset[int],
    ) -> tuple[int, ...]:
        """Positions (ascending id order) of the images that pass every filter."""
        base = self._mime_sets[mimes, has_breeds]
        if not breeds and not categories:
            return base
        allowed = set(base)
        if breeds:
            hits = {i for b in breeds for i in self.by_breed.get(b, ())}
            allowed &= hits
        if categories:
            allowed &= {i for c in categories for i in self.by_category.get(c, ())}
        return tuple(sorted(allowed))

    def image_json(self, size: str, index: int) -> dict[str, Any]:
        """The (shared, never mutated) search-result object of one image at ``size``."""
        table = self._json.get(size)
        if table is None:
            table = self._json[size] = [im.as_json(size) for im in self.images]
        return table[index]


@functools.lru_cache(maxsize=8)
def get_catalog(seed: int = 0, version: int = LATEST_CATALOG_VERSION) -> Catalog:
    """The catalogue of ``seed`` and ``version`` (cached: it is immutable)."""
    return Catalog(seed, version)

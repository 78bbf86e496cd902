"""The content of the simulated Cat API: breeds, categories and the image catalogue of a seed.

The 67 real breeds with their 4-letter ids and the 7 real categories; :data:`N_IMAGES` images with
ids of 9 characters from ``[A-Za-z0-9_-]`` or short alphanumeric ones (``dv0``), CDN urls, sizes,
mime types, 0 to 2 breeds and sometimes a category. The ids quoted by the original benchmark
(:data:`BENCHMARK_IMAGE_IDS`) are always part of it. Everything is drawn from the seed, never
from the network, and a catalogue is immutable (:func:`get_catalog` shares it between apps).
"""

from __future__ import annotations

import functools
import string
from dataclasses import dataclass
from typing import Any

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
BENCHMARK_IMAGE_IDS: tuple[str, ...] = ("dv0", "tu", "alp", "tF_6-Beo_", "-8roc4viS")
"""Image ids quoted by the original benchmark's labels; the catalogue always has them."""
CDN = "https://cdn2.thecatapi.com/images"
ID_CHARS = string.ascii_letters + string.digits + "_-"
SHORT_ID_CHARS = string.ascii_lowercase + string.digits


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


class Catalog:
    """The immutable image catalogue of one seed, indexed for search (shared by all apps).

    Args:
        seed: the content seed.
    """

    def __init__(self, seed: int) -> None:
        rng = stable_rng("catapi", "catalog", seed)
        ids = set(BENCHMARK_IMAGE_IDS)
        while len(ids) < N_IMAGES:
            if rng.random() < 0.12:
                n = int(rng.integers(2, 4))
                new = "".join(
                    SHORT_ID_CHARS[int(i)] for i in rng.integers(len(SHORT_ID_CHARS), size=n)
                )
            else:
                new = "".join(ID_CHARS[int(i)] for i in rng.integers(len(ID_CHARS), size=9))
            if not new.isdigit():
                ids.add(new)
        breed_ids = list(BREEDS)
        images = []
        for image_id in sorted(ids):
            ext = str(rng.choice(["jpg", "png", "gif"], p=[0.7, 0.15, 0.15]))
            width = int(rng.integers(60, 241)) * 10
            height = int(rng.integers(40, 201)) * 10
            roll = rng.random()
            n_breeds = 0 if roll < 0.5 else (1 if roll < 0.96 else 2)
            breeds = tuple(sorted(str(b) for b in rng.choice(breed_ids, n_breeds, replace=False)))
            cats: tuple[int, ...] = ()
            if not breeds and rng.random() < 0.3:
                cats = (int(rng.choice(list(CATEGORIES))),)
            images.append(CatImage(image_id, ext, width, height, breeds, cats))
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


@functools.lru_cache(maxsize=4)
def get_catalog(seed: int = 0) -> Catalog:
    """The catalogue of ``seed`` (cached: it is immutable)."""
    return Catalog(seed)

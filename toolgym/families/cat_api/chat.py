"""The Cat API as a conversation: the user holds back some search filters, or the image.

The slots of a task are the details its gold request sends, read as a call of its endpoint: a
search's filters (each an argument of ``search_images``: ``breeds``, ``size``, ``mime_types``,
``order``, ``limit``), up to three of them held back; or, for a vote or a favourite, the image
(held back) and what to do with it (to vote it up or down, to add or remove it: always given).
Listing the favourites has no detail to hold back.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.conversation.opening import compose_opening
from toolgym.conversation.tasks import ChatProfile, chat_suite
from toolgym.conversation.toolkit import ChatToolkit
from toolgym.families.cat_api.toolkit import ENDPOINTS, CatApiV1Toolkit
from toolgym.families.cat_api.world import BREEDS
from toolgym.simulators.user import Slot, SlotKind, Vocabulary
from toolgym.tools.curl_language import CurlLanguage
from toolgym.tools.tool import ToolSet

_SEARCH = "search_images"


def _words(text: str) -> tuple[str, ...]:
    """The comma-separated words of a slot kind, most natural first."""
    return tuple(w.strip() for w in text.split(","))


_WORD_IDS = frozenset({"bali", "bomb", "char", "dons", "java", "siam", "sing", "snow", "tang"})
"""Breed ids that are words too (``snow``, ``sing``): no breed when written alone."""


def _breed_names() -> tuple[tuple[str, ...], ...]:
    """Each breed's name (and its plural) and id: a value an agent may write to check the breeds.

    An id that is also a word (:data:`_WORD_IDS`) is left out.
    """
    return tuple(
        (
            *((name, f"{name}s") if name[-1] not in "sxe" else (name,)),
            *((breed,) if breed not in _WORD_IDS and breed != name.lower() else ()),
        )
        for breed, name in BREEDS.items()
    )


def _favourites(verb: str, preposition: str) -> tuple[str, ...]:
    """``add it to my favourites``, ``add to favorites``...: a favourite's action as written."""
    return tuple(
        f"{verb} {it}{preposition} {whose}{word}"
        for it in ("it ", "")
        for whose in ("my ", "your ", "the ", "")
        for word in ("favourites", "favorites")
    )


_VALUES = {
    "size": (
        ("thumb", "thumbnail", "thumbnails", "thumbnail-sized", "thumbnail size"),
        ("small", "small-sized", "small size"),
        ("med", "medium", "medium-sized", "medium size"),
        (
            "full",
            "full-size",
            "full size",
            "full-sized",
            "full resolution",
            "full-resolution",
            "large",
        ),
    ),
    "mime_types": (("jpg", "jpgs", "jpeg", "jpegs"), ("png", "pngs"), ("gif", "gifs")),
    "order": (
        ("ascending", "ascending order", "asc"),
        ("descending", "descending order", "desc"),
        ("random", "random order", "randomly"),
    ),
    "vote": (
        (
            "an upvote",
            "upvote",
            "upvoted",
            "upvoting",
            "up-vote",
            "vote up",
            "vote it up",
            "thumbs up",
        ),
        (
            "a downvote",
            "downvote",
            "downvoted",
            "downvoting",
            "down-vote",
            "vote down",
            "vote it down",
            "thumbs down",
        ),
    ),
    "favourite": (
        (
            *(f for verb in ("add", "added", "adding") for f in _favourites(verb, "to")),
            "favouriting",
            "favoriting",
        ),
        (
            *(
                f
                for verb in ("remove", "removed", "removing", "delete", "deleted", "deleting")
                for f in _favourites(verb, "from")
            ),
            "unfavourite",
            "unfavorite",
        ),
    ),
}
"""The values of the kinds that have few, each as the ways an agent writes it."""


VOCABULARY = Vocabulary(
    [
        SlotKind(
            "breeds",
            _words(
                "breeds, breed, cat breed, cat breeds, which breed, which cat breed, what breed, "
                "breed id, breed ids, how many breeds, kind of cat, kinds of cats, kind of cats, "
                "type of cat, types of cats, type of cats, which cats, what cats"
            ),
            "{text}",
            _SEARCH,
            "breeds",
            values=_breed_names(),
            question="Which cat breeds would you like to see?",
        ),
        SlotKind(
            "size",
            _words(
                "image size, size, sizes, picture size, photo size, which size, what size, "
                "which image size, what image size, how big, how large, resolution, dimensions, "
                "thumbnail, small or large, large or small"
            ),
            "the {text} size",
            _SEARCH,
            "size",
            values=_VALUES["size"],
            question="What image size would you like?",
        ),
        SlotKind(
            "mime_types",
            _words(
                "file format, file formats, format, formats, file type, file types, image format, "
                "image formats, image type, image types, which image format, what image format, "
                "which image type, what image type, mime type, mime types, extension, "
                "type of file, kind of file, jpg or png, png or jpg, gifs"
            ),
            "{text} files",
            _SEARCH,
            "mime_types",
            values=_VALUES["mime_types"],
            question="Which file format should the images be?",
        ),
        SlotKind(
            "order",
            _words(
                "order, sort order, sort, sorted, sorting, ordering, ordered, which order, "
                "what order, ascending or descending, descending or ascending"
            ),
            "{text} order",
            _SEARCH,
            "order",
            values=_VALUES["order"],
            question="In which order should the images be sorted?",
        ),
        SlotKind(
            "limit",
            _words(
                "number of images, how many, how many images, how many pictures, how many photos, "
                "how many pics, how many cats, how many results, number of pictures, "
                "number of photos, number of results, limit, count, quantity, amount"
            ),
            "{text}",
            _SEARCH,
            "limit",
            question="How many images do you want?",
            counted=("images", "image", "pictures", "picture", "photos", "photo", "pics", "cats"),
        ),
        SlotKind(  # the image of a vote or a favourite: a step that writes its id guesses it
            "image",
            _words(
                "image id, id, ids, identifier, image reference, picture reference, reference, "
                "image ref, which image, what image, which picture, "
                "what picture, which photo, which pic, which cat picture, which cat photo, "
                "which cat image, which favourite, which favorite, which one"
            ),
            "the image {text}",
            question="Which image is it? What is its id?",
        ),
        SlotKind(
            "vote",
            _words(
                "vote, votes, voting, upvote or downvote, up or down, vote up or down, "
                "vote up or vote down, "
                "thumbs up or down, thumbs up or thumbs down, like or dislike, positive or negative"
            ),
            "{text}",
            values=_VALUES["vote"],
            question="Do you want to upvote or downvote it?",
        ),
        SlotKind(
            "favourite",
            _words(
                "add or remove, remove or add, add it or remove it, adding or removing, "
                "favourite or unfavourite, favorite or unfavorite"
            ),
            "to {text}",
            values=_VALUES["favourite"],
            question="Should I add or remove the image?",
        ),
    ],
    topic="cat pictures",
)

ALWAYS_GIVEN = ("vote", "favourite")
"""What a request about one image is (the image itself is then the detail held back)."""

_SIZES = {
    "thumb": ("thumbnail", ("thumb", "thumbnail-sized")),
    "small": ("small", ("small-sized",)),
    "med": ("medium", ("med", "medium-sized")),
    "full": ("full", ("full-size", "full-sized", "full resolution", "full-resolution")),
}
_ORDERS = {"ASC": "ascending", "DESC": "descending", "RANDOM": "random"}
_NUMBERS = _words(
    "zero, one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve, thirteen, "
    "fourteen, fifteen, sixteen, seventeen, eighteen, nineteen, twenty"
)
_SHORT_ID = 3
"""An image id shorter than this also gets the forms a request writes it in (its guess check)."""


def _either(parts: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def _items(value: Any) -> list[str]:
    return [v.strip() for v in str(value).split(",") if v.strip()]


def _search_slot(kind: str, value: Any, named: bool) -> Slot:
    """How the user says search filter ``kind`` of value ``value``."""
    if kind == "breeds":
        ids = _items(value)
        names = [BREEDS.get(b, b) for b in ids]
        said = names if named else ids
        text = f"the {_either(said)} breed" + ("s" if len(said) > 1 else "")
        return Slot(kind, value, text, tuple(dict.fromkeys([*ids, *names, _either(said)])))
    if kind == "size":
        text, aliases = _SIZES.get(str(value), (str(value), ()))
        return Slot(kind, value, text, (*aliases, f"{text} size"))
    if kind == "mime_types":
        types = _items(value)
        jpeg = ("jpeg",) if "jpg" in types else ()
        return Slot(kind, value, _either([t.upper() for t in types]), (*types, *jpeg))
    if kind == "order":
        word = _ORDERS.get(str(value).upper(), str(value).lower())
        return Slot(kind, value, word, (f"{word} order",))
    n = int(value)
    unit = "image" if n == 1 else "images"
    words = (_NUMBERS[n], f"{_NUMBERS[n]} {unit}") if 0 <= n < len(_NUMBERS) else ()
    return Slot(kind, value, f"{n} {unit}", (str(n), *words))


def _image_slot(image_id: str) -> Slot:
    """The image, said by its id (a short id also as a request writes it)."""
    short = (f"image_id {image_id}", f"favourites/{image_id}")
    return Slot("image", image_id, image_id, short if len(image_id) < _SHORT_ID else ())


def slots(task: Task) -> list[Slot]:
    """The details of the task's gold request, in the request's order."""
    calls = CurlLanguage().tool_calls(task.gold[0], ToolSet(ENDPOINTS)) or []
    named = bool(task.meta.get("breeds_named"))
    found: dict[str, Slot] = {}
    for call in calls:
        if call.name == _SEARCH:
            for name, value in call.arguments.items():
                if name in VOCABULARY and value not in (None, ""):
                    found[name] = _search_slot(name, value, named)
        elif call.name in ("vote_up", "vote_down"):
            up = call.name == "vote_up"
            found["vote"] = Slot("vote", 1 if up else -1, "an upvote" if up else "a downvote")
        elif call.name in ("add_favourite", "delete_favourite"):
            add = call.name == "add_favourite"
            text = "add it to my favourites" if add else "remove it from my favourites"
            found["favourite"] = Slot("favourite", add, text)
        image_id = call.arguments.get("image_id")
        if isinstance(image_id, str) and image_id:
            found["image"] = _image_slot(image_id)
    return list(found.values())


def opening(task: Task, given: Sequence[Slot]) -> str:
    """The opening request: ``I'd like to upvote a cat picture.``, ``I'm looking for cat pictures.``.

    A request with no details (the favourites' list) is the family's own.
    """
    kinds = {s.kind: s for s in given}
    image = kinds.get("image")
    what = VOCABULARY.state(image) if image is not None else "a cat picture"
    rest = [s for s in given if s.kind not in ("image", *ALWAYS_GIVEN)]
    if "vote" in kinds:
        intent = f"I'd like to {'upvote' if kinds['vote'].value == 1 else 'downvote'} {what}"
    elif "favourite" in kinds:
        add = bool(kinds["favourite"].value)
        intent = f"I'd like to {'add' if add else 'remove'} {what} {'to' if add else 'from'}"
        intent += " my favourites"
    elif rest:
        intent = "I'm looking for cat pictures"
    else:
        return task.instruction
    return compose_opening(intent, rest, VOCABULARY)


PROFILE = ChatProfile(
    name="cat_api_chat",
    inner_tasks="toolgym.families.cat_api.tasks:SUITE_V1",
    vocabulary=VOCABULARY,
    slots=slots,
    opening=opening,
    data_dir=str(Path(__file__).parent / "data"),
    always_given=ALWAYS_GIVEN,
)


class CatApiChatToolkit(ChatToolkit):
    """The Cat API's toolkit (``CatAPI-v1``'s world) with the user channel."""

    inner_class = CatApiV1Toolkit
    vocabulary = VOCABULARY


SUITE = chat_suite("toolgym.families.cat_api.chat:PROFILE")

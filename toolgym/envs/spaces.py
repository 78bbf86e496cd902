"""Text spaces that admit real text, and how observations and infos batch in vector envs.

:class:`TextSpace` admits any printable Unicode (spaces, quotes, newlines, JSON). Importing this
module also teaches Gymnasium's vector envs (``SyncVectorEnv``, ``AsyncVectorEnv``) to batch what
toolgym's envs return: a ``TextSpace``'s texts in shared memory (any character, read at every
step), and :class:`InfoDict` infos, whose values may differ in kind between sub-envs.
"""

from __future__ import annotations

import multiprocessing
import string
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, overload

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

_WHITESPACE = frozenset("\n\r\t")
_NO_WHITESPACE = {ord(c): None for c in _WHITESPACE}
"""A ``str.translate`` table that drops the whitespace a text space allows."""


SAMPLE_CHARSET = string.printable.replace("\x0b", "").replace("\x0c", "")
"""What :meth:`TextSpace.sample` draws from: :data:`string.printable` without the vertical tab
and form feed, which :meth:`TextSpace.contains` refuses (a sample is always in the space)."""

_PRINTABLE = spaces.Text(1, charset=SAMPLE_CHARSET)
"""The charset tables every :class:`TextSpace` shares (``sample`` draws from them)."""


class TextSpace(spaces.Text):
    r"""A :class:`gymnasium.spaces.Text` whose ``contains`` accepts any printable Unicode text.

    ``Text`` only admits characters of a fixed charset, and its default is alphanumeric, so
    ``"API.search()"`` or any JSON would be outside it. This space accepts every string of allowed
    length made of printable characters plus newline, carriage return and tab; ``sample()`` draws
    from :data:`SAMPLE_CHARSET`.

    >>> TextSpace(64).contains('API.set_location("São Paulo")\nAPI.search()')
    True
    >>> TextSpace(64).contains("bell\x07")
    False
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        # ``Text`` builds four tables of its charset per space (about 15 KB and 300 objects for
        # the 100 printable characters); every TextSpace has the same charset, so they share
        # one set of tables, built once (a server holding many envs holds them once).
        super().__init__(max_length=max_length, min_length=min_length, charset="0", seed=seed)
        self._char_set = _PRINTABLE._char_set
        self._char_list = _PRINTABLE._char_list
        self._char_index = _PRINTABLE._char_index
        self._char_str = _PRINTABLE._char_str

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a string of allowed length made of printable text."""
        return (
            isinstance(x, str)
            and self.min_length <= len(x) <= self.max_length
            and _printable_text(x)
        )

    def __repr__(self) -> str:
        return f"TextSpace({self.min_length}, {self.max_length}, printable unicode)"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TextSpace)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
        )


def _printable_text(text: str) -> bool:
    """Whether every character of ``text`` is printable or allowed whitespace (at C speed).

    Most texts that are not printable hold new lines only: dropping those is a ``replace``,
    several times faster than the ``translate`` that drops every allowed whitespace.
    """
    return (
        text.isprintable()
        or text.replace("\n", "").isprintable()
        or text.translate(_NO_WHITESPACE).isprintable()
    )


def printable(text: str) -> str:
    r"""``text`` with every character a :class:`TextSpace` refuses written as an escape.

    Observations echo agent text (an unknown parameter name, a bad value); this keeps them inside
    the observation space whatever the agent wrote.

    >>> printable("ok\nbell\x07 \ud800")
    'ok\nbell\\x07 \\ud800'
    """
    if _printable_text(text):
        return text
    return "".join(
        c
        if c.isprintable() or c in _WHITESPACE
        else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )


# -- batching in Gymnasium's vector envs -------------------------------------------------------
#
# Observations. Gymnasium's shared memory for a ``Text`` space stores each character as its index
# in the space's charset, and reads the texts once, when the vector env is made: a character
# outside ``string.printable`` cannot be written, and the observations an ``AsyncVectorEnv``
# returns never change. A ``TextSpace`` keeps each sub-env's text as its length and its code
# points, and reads them when they are asked for.


@create_shared_memory.register(TextSpace)
def _create_text_memory(space: TextSpace, n: int = 1, ctx: Any = multiprocessing) -> Any:
    return ctx.Array(np.dtype(np.int32).char, n * (space.max_length + 1))


def _rows(space: TextSpace, shared_memory: Any) -> np.ndarray:
    data = np.frombuffer(shared_memory.get_obj(), dtype=np.int32)
    return data.reshape(-1, space.max_length + 1)


class SharedTexts(Sequence[str]):
    """The texts of a vector env's sub-envs in shared memory, decoded when indexed.

    ``AsyncVectorEnv`` returns a copy of it (``copy=True``, the default), a tuple of the texts of
    that moment; with ``copy=False`` it returns this live view.
    """

    def __init__(self, rows: np.ndarray) -> None:
        self._rows = rows

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        row = self._rows[index]
        codes = row[1 : 1 + int(row[0])]
        return codes.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@read_from_shared_memory.register(TextSpace)
def _read_texts(space: TextSpace, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(_rows(space, shared_memory)[:n])


@write_to_shared_memory.register(TextSpace)
def _write_text(space: TextSpace, index: int, value: Any, shared_memory: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"a TextSpace observation is a str; got {type(value).__name__}")
    codes = np.frombuffer(value.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    if len(codes) > space.max_length:
        raise ValueError(
            f"an observation of {len(codes)} characters does not fit a TextSpace of at most "
            f"{space.max_length}"
        )
    row = _rows(space, shared_memory)[index]
    row[0] = len(codes)
    row[1 : 1 + len(codes)] = codes.view(np.int32)


# Infos. Gymnasium batches infos key by key: a dict value recursively, a number into an array of
# its type, anything else into an object array. A key that is ``None`` in one sub-env and a dict
# in another (``error``), a number in one and ``None`` or a string in another, or a free-form
# payload whose nested values differ from episode to episode (``prediction``, an API's answer)
# breaks it: an exception in ``step``, or a number silently cast. An env's info is therefore an
# :class:`InfoDict`, which the vector envs batch tolerantly.


class InfoDict(dict[str, Any]):
    """An env's ``info``: a plain ``dict`` to every reader, batched tolerantly by vector envs.

    A Gymnasium vector env batches an ``InfoDict`` as it batches any dict, with two differences:
    the keys of :attr:`WHOLE` (``error``, ``prediction``) keep each sub-env's value whole in an
    object array (``infos["error"][i]`` is ``None`` or ``{"category", "message"}``), and a key
    whose values differ in kind between sub-envs (a dict and ``None``, an ``int`` and a
    ``float``) falls back to an object array of each sub-env's own value instead of failing or
    casting. :func:`info_at` gives one sub-env's info back, equal to the one it returned.
    """

    WHOLE: ClassVar[frozenset[str]] = frozenset({"error", "prediction"})
    """Keys whose values are batched whole, never key by key."""


def _element(array: np.ndarray, index: int) -> Any:
    item = array[index]
    return item.item() if isinstance(item, np.generic) else item


def info_at(infos: Mapping[Any, Any], index: int) -> dict[Any, Any]:
    """The info of sub-env ``index`` in a vector env's batched ``infos``.

    Every key the sub-env returned, with its value as it returned it (NumPy scalars of numeric
    arrays as Python numbers), so ``info_at(infos, i)`` equals what sub-env ``i`` returned.
    """
    out: dict[Any, Any] = {}
    for key, value in infos.items():
        mask = infos.get(f"_{key}")
        if mask is None or not mask[index]:
            continue  # a mask itself, or a key this sub-env did not return
        out[key] = info_at(value, index) if isinstance(value, dict) else _element(value, index)
    return out


def _new_array(value: Any, n: int) -> np.ndarray:
    """The array Gymnasium makes for a key whose first value is ``value``."""
    if type(value) in (int, float, bool) or isinstance(value, np.number):
        return np.zeros(n, dtype=type(value))
    if isinstance(value, np.ndarray):
        return np.zeros((n, *value.shape), dtype=value.dtype)
    return np.full(n, None, dtype=object)


def _fits(array: np.ndarray, value: Any) -> bool:
    """Whether ``value`` goes into ``array`` unchanged."""
    if array.dtype == object:
        return array.ndim == 1
    if isinstance(value, np.ndarray):
        return value.shape == array.shape[1:] and value.dtype == array.dtype
    kind = type(value)
    return (kind in (int, float, bool) or isinstance(value, np.number)) and (
        array.ndim == 1 and np.dtype(kind) == array.dtype
    )


def _objects(batched: Any, mask: np.ndarray) -> np.ndarray:
    """An object array of each sub-env's own value, from what was batched so far."""
    out = np.full(len(mask), None, dtype=object)
    for k in np.flatnonzero(mask):
        index = int(k)
        out[index] = (
            info_at(batched, index) if isinstance(batched, dict) else _element(batched, index)
        )
    return out


def batch_info(
    infos: dict[Any, Any], info: Mapping[Any, Any], index: int, num_envs: int
) -> dict[Any, Any]:
    """Add sub-env ``index``'s ``info`` to the batched ``infos`` (see :class:`InfoDict`)."""
    whole = info.WHOLE if isinstance(info, InfoDict) else frozenset()
    for key, value in info.items():
        mask = infos.get(f"_{key}")
        if mask is None:
            mask = np.zeros(num_envs, dtype=np.bool_)
        current = infos.get(key)
        if key in whole:
            batched = current if key in infos else np.full(num_envs, None, dtype=object)
            if not isinstance(batched, np.ndarray) or batched.dtype != object:
                batched = _objects(batched, mask)
            batched[index] = value
        elif isinstance(value, dict) and (key not in infos or isinstance(current, dict)):
            batched = batch_info({} if current is None else current, value, index, num_envs)
        else:
            if key not in infos:
                batched = _new_array(value, num_envs)
            elif isinstance(current, np.ndarray) and _fits(current, value):
                batched = current
            else:
                batched = _objects(current, mask)
            batched[index] = value
        mask[index] = True
        infos[key], infos[f"_{key}"] = batched, mask
    return infos


_stock_add_info = getattr(VectorEnv._add_info, "stock", VectorEnv._add_info)


def _add_info(
    self: VectorEnv[Any, Any, Any], vector_infos: dict[str, Any], env_info: Any, env_num: int
) -> dict[str, Any]:
    if isinstance(env_info, InfoDict):
        return batch_info(vector_infos, env_info, env_num, self.num_envs)
    return _stock_add_info(self, vector_infos, env_info, env_num)


_add_info.stock = _stock_add_info  # type: ignore[attr-defined]
VectorEnv._add_info = _add_info  # type: ignore[method-assign]

"""The fields an integration reads from a dataset row, checked: one error that names the row.

TRL calls ``reset(**row)`` with each row of the training dataset, verifiers hands its harness a
row of the taskset, an OpenEnv client sends ``reset`` fields: a wrong field in any of them is a
:class:`~toolgym.errors.RowError` that says which row, which field, what was expected and what
came (``row test-007: 'seed' must be a whole number >= 0 or absent; got 2.7 (float)``), never a
bare ``ValueError`` from deep inside.

>>> row_seed({"task_id": "test-000", "seed": 3})
3
>>> row_seed({"task_id": "test-000", "seed": 2.7})
Traceback (most recent call last):
...
toolgym.errors.RowError: row 'test-000': 'seed' must be a whole number >= 0 or absent; got 2.7 (float)
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Mapping
from typing import Any

from toolgym.errors import RowError, UserInputError

SEED_EXPECTED = "a whole number >= 0 or absent"
TASK_EXPECTED = "a task id of the env (a non-empty string such as 'test-007')"


def row_name(row: Mapping[str, Any], name: str | None = None) -> str:
    """How messages name ``row``: ``name`` if given, its task id if it has one, else its fields."""
    if name is not None:
        return name
    task_id = row.get("task_id")
    if isinstance(task_id, str) and task_id:
        return repr(task_id[:80])
    return f"with fields {sorted(str(k) for k in row)[:12]}"


def row_seed(row: Mapping[str, Any], field: str = "seed", name: str | None = None) -> int | None:
    """The row's seed: a whole number >= 0 (an integral float or numpy integer too), or ``None``."""
    value = row.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise RowError(row_name(row, name), field, SEED_EXPECTED, value)
    if isinstance(value, numbers.Integral):
        whole = operator.index(value)
    elif float(value).is_integer():
        whole = int(float(value))
    else:
        raise RowError(row_name(row, name), field, SEED_EXPECTED, value)
    if whole < 0:
        raise RowError(row_name(row, name), field, SEED_EXPECTED, value)
    return whole


def row_task_id(
    row: Mapping[str, Any], field: str = "task_id", name: str | None = None, required: bool = False
) -> str | None:
    """The row's task id: a non-empty string (``None`` when absent and not ``required``)."""
    value = row.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise RowError(row_name(row, name), field, TASK_EXPECTED, value)
    return value


def start_row(episode: Any, row: Mapping[str, Any], name: str | None = None) -> Any:
    """``episode.reset`` on the row's ``task_id`` and ``seed``, checked.

    Raises:
        RowError: a bad field, or a task the env does not have.
    """
    task_id = row_task_id(row, name=name)
    seed = row_seed(row, name=name)
    try:
        return episode.reset(seed=seed, task_id=task_id)
    except RowError:
        raise
    except UserInputError as e:
        expected = f"a task id of {episode.env_id} ({e.__cause__ or e})"
        raise RowError(row_name(row, name), "task_id", expected, task_id) from e

"""The sandbox's warm-up, its parent's line reader, and the floor its steps are measured against."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest

from toolgym.families.google_sheets.adapter import WARM_PROGRAMS as SHEETS_PROGRAMS
from toolgym.families.google_sheets.adapter import SheetsAdapter
from toolgym.families.tabletop.adapter import WARM_PROGRAMS as TABLETOP_PROGRAMS
from toolgym.families.tabletop.adapter import TabletopAdapter
from toolgym.tools.sandbox import Sandbox
from toolgym.tools.sandbox import worker as worker_module
from toolgym.tools.sandbox.floor import forked_run
from toolgym.tools.sandbox.zygote import ParentLines


class Counter:
    """A sandbox adapter over ``{"n": int}``: programs see ``n`` and set ``out``."""

    def setup(self, state: Any) -> dict[str, Any]:
        return {"n": (state or {}).get("n", 0)}

    def collect(self, namespace: dict[str, Any]) -> Any:
        return {"n": namespace.get("out")}


def test_the_floor_times_a_program_in_a_forked_child() -> None:
    seconds = forked_run({"code": "out = n + 1", "state": {"n": 2}, "output": 100}, Counter())
    assert 0 < seconds < 30


def test_a_failing_program_has_no_floor() -> None:
    with pytest.raises(RuntimeError, match="floor's program failed"):
        forked_run({"code": "out = 1 / 0", "state": {"n": 2}, "output": 100}, Counter())


@pytest.mark.parametrize(
    ("adapter", "programs"),
    [(SheetsAdapter, SHEETS_PROGRAMS), (TabletopAdapter, TABLETOP_PROGRAMS)],
    ids=["sheets", "tabletop"],
)
def test_every_warm_up_program_runs(
    adapter: type, programs: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The zygote ignores a failing warm-up (it costs speed only), so the programs are run here."""
    results: list[dict[str, Any]] = []
    run_job = worker_module.run_job

    def recording(job: dict[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        result = run_job(job, *args, **kwargs)
        results.append(result)
        return result

    monkeypatch.setattr(worker_module, "run_job", recording)
    adapter().warm()
    assert len(results) == len(programs)
    assert [r["error"] for r in results] == [None] * len(programs)


def test_parent_lines_read_split_and_joined_lines() -> None:
    read_end, write_end = os.pipe()
    lines = ParentLines(read_end)
    os.write(write_end, b'{"a": 1}\n{"b"')
    assert lines.ready(0.0)
    assert lines.readline() == b'{"a": 1}'
    assert lines.ready(0.0)  # the second line has begun
    threading.Timer(0.05, lambda: os.write(write_end, b": 2}\n\nlast")).start()
    assert lines.readline() == b'{"b": 2}'  # waits for the rest
    assert lines.readline() == b""
    assert lines.ready(0.0)  # "last" has begun
    os.close(write_end)
    assert lines.ready(0.0)  # the end is readable
    assert lines.readline() == b"last"
    assert lines.readline() is None
    os.close(read_end)


def test_parent_lines_wait_at_most_their_timeout() -> None:
    read_end, write_end = os.pipe()
    lines = ParentLines(read_end)
    start = time.monotonic()
    assert not lines.ready(0.05)
    assert time.monotonic() - start >= 0.04
    os.close(write_end)
    os.close(read_end)


def test_jobs_back_to_back_and_after_pauses_are_answered_in_order() -> None:
    """Spares are forked at once or once the parent is quiet; no job waits on that or mixes up."""
    with Sandbox() as box:
        for k in range(12):
            if k % 4 == 3:
                time.sleep(0.03)  # long enough for the spares to be refilled while quiet
            result = box.run("state['k'] = state['k'] + 1\nprint(state['k'])", {"k": k})
            assert result.error is None
            assert (result.state, result.stdout) == ({"k": k + 1}, f"{k + 1}\n")

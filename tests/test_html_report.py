"""Runs read back from disk and the one-file HTML report made from them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from toolgym.errors import UserInputError
from toolgym.evaluation.html_report import write_html_report
from toolgym.evaluation.profile import column_of
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.results import manifest_path
from toolgym.evaluation.runner import evaluate
from toolgym.evaluation.runs import load_run, load_runs

PLAYS = (
    ("toolbench/HomeSearch-v0", "oracle", 3),
    ("toolbench/HomeSearch-v0", "random", 3),
    ("toolbench/OpenWeather-v1", "oracle", 3),
    ("toolbench/OpenWeather-v1", "random", 3),
    ("toolbench/WebShop-v1", "oracle", 2),
    ("toolbench/WebShop-v1", "random", 2),
)
"""(env id, agent, tasks) of the fixture run: single-step families and a multi-step one."""

HOSTILE = "<script>alert(1)</script>"
"""Agent text that must come out escaped."""

TABLES = {"API complexity": [{"tool": "A", "score": 0.25}, {"tool": HOSTILE, "score": 1}]}
"""An extra table of the report (one of its cells hostile too)."""


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder: the plays above, one results file each."""
    out = tmp_path_factory.mktemp("results")
    for env_id, agent, limit in PLAYS:
        evaluate(env_id, agent, limit=limit, out_dir=out, progress=False)
    return out


@pytest.fixture(scope="module")
def hostile(results: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the results whose first HomeSearch record has script in its text fields."""
    out = tmp_path_factory.mktemp("hostile") / "hostile"
    shutil.copytree(results, out, ignore=shutil.ignore_patterns("*.lock"))
    path = next(out.glob("toolbench_HomeSearch-v0__oracle__*.jsonl"))
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["instruction"] = f"find {HOSTILE} a house"
    first["action"] = f'API.set_location("{HOSTILE}")'
    first["observation"] = HOSTILE * 40
    lines[0] = json.dumps(first)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def write_run_summary(out: Path, run_id: str = "20250101-000000") -> Path:
    """A run summary JSON of the results in ``out``, in the shape ``toolgym eval`` writes."""
    files = sorted(p.name for p in out.glob("*.jsonl"))
    summaries = [load_run(out).summaries[i] for i in range(len(files))]
    path = out / "runs" / f"{run_id}.json"
    path.parent.mkdir(exist_ok=True)
    data = {
        "run_id": run_id,
        "started": "2025-01-01T00:00:00+00:00",
        "wall_s": 12.5,
        "episodes": 16,
        "episodes_per_s": 1.28,
        "argv": ["toolgym", "eval", "--agent", "oracle"],
        "files": files,
        "summaries": summaries,
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# --- runs ---------------------------------------------------------------------------------------


def test_load_run_reads_a_results_folder(results: Path) -> None:
    run = load_run(results)
    assert run.name == results.name and run.path == results
    assert sorted(run.records) == sorted((env_id, agent) for env_id, agent, _ in PLAYS)
    for env_id, agent, limit in PLAYS:
        records = run.records[(env_id, agent)]
        assert len(records) == limit
        assert all(isinstance(r, EpisodeRecord) and r.env_id == env_id for r in records)
    assert [r.task_id for r in run.records[("toolbench/WebShop-v1", "oracle")]] == [
        "test-000",
        "test-001",
    ]
    by_pair = {(s["env"], s["agent"]): s for s in run.summaries}
    assert by_pair[("toolbench/HomeSearch-v0", "oracle")]["success"] == 1.0
    assert by_pair[("toolbench/WebShop-v1", "random")]["episodes"] == 2
    assert "reward" in by_pair[("toolbench/WebShop-v1", "oracle")]  # the family's own metrics
    assert run.meta["results_files"] == len(PLAYS)
    assert run.meta["episodes"] == sum(n for *_, n in PLAYS)


def test_load_run_reads_a_run_summary(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(results, out, ignore=shutil.ignore_patterns("*.lock"))
    path = write_run_summary(out)
    run = load_run(path)
    assert run.name == "20250101-000000" and run.path == path
    assert sorted(run.records) == sorted((env_id, agent) for env_id, agent, _ in PLAYS)
    assert len(run.summaries) == len(PLAYS)
    assert run.meta["wall_s"] == 12.5 and run.meta["episodes_per_s"] == 1.28
    assert run.meta["argv"][:2] == ["toolgym", "eval"]
    assert "files" not in run.meta and "summaries" not in run.meta


def test_load_run_names_what_it_expected_and_found(results: Path, tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match=r"expected a results folder.*found nothing there"):
        load_run(tmp_path / "missing")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("x")
    with pytest.raises(UserInputError, match=r"holds no results file.*found notes\.txt"):
        load_run(empty)
    one = next(results.glob("*.jsonl"))
    with pytest.raises(UserInputError, match=r"one results file.*give its folder"):
        load_run(one)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"hello": 1}))
    with pytest.raises(UserInputError, match=r"not a run summary.*run_id, files, summaries"):
        load_run(other)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(UserInputError, match=r"cannot read .* as JSON"):
        load_run(broken)


def test_a_run_summary_with_missing_files_names_them(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(results, out, ignore=shutil.ignore_patterns("*.lock"))
    path = write_run_summary(out)
    gone = next(out.glob("toolbench_OpenWeather-v1__random__*.jsonl"))
    gone.unlink()
    with pytest.raises(UserInputError, match=re.escape(gone.name)):
        load_run(path)


def test_records_of_an_unregistered_env_are_kept(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "gone"
    out.mkdir()
    source = next(results.glob("toolbench_HomeSearch-v0__oracle__*.jsonl"))
    target = out / "toolbench_Gone-v3__oracle__test.jsonl"
    lines = [json.loads(line) for line in source.read_text().splitlines()]
    target.write_text(
        "".join(json.dumps({**r, "env_id": "toolbench/Gone-v3"}) + "\n" for r in lines)
    )
    manifest_path(target).write_text(json.dumps({"env_id": "toolbench/Gone-v3", "agent": "oracle"}))
    run = load_run(out)
    assert len(run.records[("toolbench/Gone-v3", "oracle")]) == len(lines)
    (summary,) = run.summaries
    assert summary["env"] == "toolbench/Gone-v3" and summary["success"] == 1.0
    assert [m["key"] for m in summary["metric_specs"]] == ["success", "f1", "executable"]
    page = write_html_report([run], tmp_path / "gone.html").read_text()
    assert "Gone" in page and "<svg" in page


def test_two_splits_of_one_agent_stay_apart(tmp_path: Path) -> None:
    for split in ("test", "demo"):
        evaluate(
            "toolbench/HomeSearch-v0",
            "oracle",
            split=split,
            limit=2,
            out_dir=tmp_path,
            progress=False,
        )
    run = load_run(tmp_path)
    assert sorted(run.records) == [
        ("toolbench/HomeSearch-v0", "oracle [demo]"),
        ("toolbench/HomeSearch-v0", "oracle [test]"),
    ]
    assert sorted(s["agent"] for s in run.summaries) == ["oracle [demo]", "oracle [test]"]


def test_load_runs_makes_names_unique(results: Path, tmp_path: Path) -> None:
    copy = tmp_path / "elsewhere" / results.name
    shutil.copytree(results, copy, ignore=shutil.ignore_patterns("*.lock"))
    runs = load_runs([results, copy, results])
    names = [r.name for r in runs]
    assert len(set(names)) == 3
    assert names[1] == f"elsewhere/{results.name}"


# --- the report ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page(hostile: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of the hostile run, with an extra table."""
    out = tmp_path_factory.mktemp("report") / "report.html"
    return write_html_report(load_runs([hostile]), out, title="results", extra_tables=TABLES)


def test_the_report_holds_every_section(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    for section in ("runs", "results", "errors", "distributions", "steps", "tables", "episodes"):
        assert f'<section id="{section}">' in text
        assert f'href="#{section}"' in text  # the table of contents
    for title in ("Home Search", "OpenWeather", "WebShop", "API complexity"):
        assert title in text
    assert text.count("<svg") >= 6  # bars per family, errors, histograms, steps
    assert "Headline: success rate." in text
    steps = text.split('<section id="steps">')[1].split("</section>")[0]
    assert "WebShop" in steps and "Home Search" not in steps  # only the multi-step family
    for env_id, _, _ in PLAYS:
        assert f'data-env="{env_id}"' in text
        assert column_of(env_id) in text
    assert text.count("<tr data-env=") == sum(n for *_, n in PLAYS)
    assert "All 16 episodes." in text


def test_the_report_escapes_agent_text(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert HOSTILE not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert text.count("<script>") == 1  # the page's own


def test_the_report_loads_nothing_from_outside(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert "@import" not in text and "url(http" not in text
    assert "Content-Security-Policy" in text and "default-src 'none'" in text


def test_the_report_is_deterministic(page: Path, hostile: Path, tmp_path: Path) -> None:
    again = write_html_report(
        load_runs([hostile]), tmp_path / "again.html", title="results", extra_tables=TABLES
    )
    assert again.read_bytes() == page.read_bytes()


def test_the_report_caps_the_episodes_it_embeds(results: Path, tmp_path: Path) -> None:
    path = write_html_report(load_runs([results]), tmp_path / "capped.html", max_episodes=7)
    text = path.read_text(encoding="utf-8")
    assert text.count("<tr data-env=") == 7
    assert "7 of 16 episodes are in this page (9 left out" in text
    for env_id, agent, _ in PLAYS:  # shared evenly: every agent and env keeps one
        assert re.search(f'data-env="{re.escape(env_id)}" data-agent="{agent}"', text)


def test_several_runs_share_one_page(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(results, out, ignore=shutil.ignore_patterns("*.lock"))
    runs = load_runs([results, write_run_summary(out)])
    text = write_html_report(runs, tmp_path / "two.html").read_text(encoding="utf-8")
    assert "2 runs" in text and "20250101-000000" in text
    assert "12.5 s" in text and "1.28" in text  # the run summary's facts
    assert "20250101-000000 · oracle" in text  # series named after their run
    assert text.count("<tr data-env=") == 2 * sum(n for *_, n in PLAYS)


BROWSERS = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")


def browser() -> str | None:
    """A headless-capable Chromium on this machine, if any."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def test_the_report_renders_in_a_browser(page: Path, tmp_path: Path) -> None:
    chromium = browser()
    if chromium is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium) to render the page")
    common = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,2000",
    ]
    png = tmp_path / "shot.png"
    dom = subprocess.run(
        [*common, f"--screenshot={png}", "--dump-dom", page.resolve().as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert png.exists() and png.stat().st_size > 20_000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert re.search(r'id="ep-count"[^>]*>16 of 16 episodes shown<', dom)  # the script ran
    assert HOSTILE not in dom

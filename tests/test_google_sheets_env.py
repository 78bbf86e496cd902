"""The Google Sheets family: tasks, grading, the sandboxed programs and the gspread 5.x calls."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

import toolgym  # noqa: F401
from toolgym.families.google_sheets.client import sheets_client
from toolgym.families.google_sheets.frame import sheet_frame
from toolgym.families.google_sheets.tasks import (
    SUITE,
    generate_split,
    table_from_prompt,
    train_task,
)
from toolgym.families.google_sheets.toolkit import SheetsToolkit, read_outcome
from toolgym.families.google_sheets.world.service import SheetsApp

ENV_ID = "toolbench/GoogleSheets-v0"
ALL_TASKS = generate_split("test") + generate_split("demo")


@pytest.fixture(scope="module")
def env() -> gym.Env:
    made = gym.make(ENV_ID)
    yield made
    made.close()


@pytest.fixture(scope="module")
def backend():  # type: ignore[no-untyped-def]
    return SheetsToolkit().new_backend()


def play(env: gym.Env, task_id: str, program: str) -> tuple[str, float, dict]:
    env.reset(options={"task_id": task_id})
    obs, reward, terminated, _, info = env.step(program)
    assert terminated
    return obs, reward, info


def test_splits_have_the_papers_sizes_and_the_operation_mix() -> None:
    test, demo = generate_split("test"), generate_split("demo")
    assert len(test) == 70 and len(demo) == 10
    operations = {t.meta["operation"] for t in test}
    assert {"percent_change", "derived_column", "sort", "delete_row", "delete_column"} <= operations
    assert {"title_row", "filter", "bold_header", "pivot_table", "group_totals"} <= operations
    assert any(t.meta["check_format"] for t in test) and any(t.meta["check_layout"] for t in test)
    assert not SUITE.stale_splits()
    assert len({t.instruction for t in test + demo}) == 80
    held_out = {t.instruction for t in test + demo}
    assert all(train_task(k).instruction not in held_out for k in range(30))


@pytest.mark.parametrize("task", ALL_TASKS, ids=lambda t: str(t.task_id))
def test_every_gold_alternative_leaves_the_same_sheet(task, backend) -> None:  # type: ignore[no-untyped-def]
    outcomes = []
    for gold in task.gold:
        backend.reset(None, task.setup)
        run = backend.run_code(gold)
        assert run.error is None, (gold, run.error)
        outcomes.append(read_outcome(backend.state))
    assert all(o == outcomes[0] for o in outcomes[1:])


@pytest.mark.parametrize("task", ALL_TASKS[::7], ids=lambda t: str(t.task_id))
def test_the_frame_is_what_gspread_dataframe_reads(task, backend) -> None:  # type: ignore[no-untyped-def]
    from gspread_dataframe import get_as_dataframe

    backend.reset(None, task.setup)
    assert backend.run_code(task.gold[0]).error is None
    app = SheetsApp()
    app.load_data(backend.state["app"])
    worksheet = sheets_client(app).open_by_key(backend.state["spreadsheet"]).worksheets()[-1]
    real = get_as_dataframe(worksheet, evaluate_formulas=True)
    book = app.books[backend.state["spreadsheet"]]
    ours = sheet_frame(book, book.sheets[-1])
    assert real.equals(ours) and list(real.dtypes) == list(ours.dtypes)
    assert list(real.columns) == list(ours.columns)


def test_executed_golds_score_one_not_only_verbatim(env: gym.Env) -> None:
    base = env.unwrapped
    for task_id in base.task_ids[:30]:
        program = base.get_task(task_id).gold[0] + "\nprint('done')"  # not a label: it is compared
        obs, reward, info = play(env, task_id, program)
        assert reward == 1.0, (task_id, info["error"])
        assert obs.startswith("done") and "Worksheet 'sheet_1'" in obs


def test_a_wrong_value_fails_with_the_cell_that_differs(env: gym.Env) -> None:
    task = next(t for t in generate_split("test") if t.meta["operation"] == "set_value")
    wrong = task.gold[0].rsplit(",", 1)[0] + ", 123456)"
    _, reward, info = play(env, task.task_id, wrong)
    assert reward == 0.0 and info["metrics"]["executable"]
    assert info["error"]["category"] == "wrong_arguments" and "123456" in info["error"]["message"]
    assert 0.5 < info["metrics"]["cells"] < 1.0


def test_values_are_read_back_as_the_original_reads_them(env: gym.Env) -> None:
    task = next(t for t in generate_split("test") if t.meta["operation"] == "set_value")
    cell = task.gold[1].split("'")[1]
    value = task.gold[1].split(",")[-1].strip(" )")
    # the sheet is read through pandas' text parser: a number stored as text reads as the number
    assert play(env, task.task_id, f"worksheet.update('{cell}', [['{value}']])")[1] == 1.0
    # a word in a number column makes it a text column: the frames differ
    _, reward, info = play(env, task.task_id, f"worksheet.update('{cell}', [['many']])")
    assert reward == 0.0 and "'many'" in info["error"]["message"]


def test_formats_are_graded_where_the_task_is_about_formats(env: gym.Env) -> None:
    task = next(t for t in generate_split("test") if t.meta["operation"] == "bold_header")
    _, reward, info = play(env, task.task_id, "print('nothing')")
    assert reward == 0.0 and "formats differ" in info["error"]["message"]
    _, reward, _ = play(env, task.task_id, task.gold[1] + "\n")
    assert reward == 1.0


def test_layout_is_graded_for_filters_and_pivots(env: gym.Env) -> None:
    for operation in ("filter", "freeze", "pivot_table", "title_row"):
        task = next(t for t in generate_split("test") if t.meta["operation"] == operation)
        _, reward, info = play(env, task.task_id, "x = 1")
        assert reward == 0.0, operation


def test_program_errors_are_categorized_and_the_env_goes_on(env: gym.Env) -> None:
    task_id = env.unwrapped.task_ids[0]
    cases = {
        "worksheet.update_cell(0, 1, 'x')": "runtime_error",  # gspread refuses row 0
        "import os": "forbidden",
        "pd.io.common.os.system('true')": "forbidden",
        "worksheet.__class__": "non_executable",
        "while True:\n    pass": "timeout",
        "print('x' * 10**6)": "resource_limit",
        "worksheet.update(": "non_executable",
        "sheet.worksheet('nope')": "runtime_error",
    }
    for program, category in cases.items():
        obs, reward, info = play(env, task_id, program)
        assert reward == 0.0 and not info["metrics"]["executable"], program
        assert info["error"]["category"] == category, (program, info["error"])
        assert obs.startswith("Error") or "Error (" in obs
    _, reward, _ = play(env, task_id, env.unwrapped.get_task(task_id).gold[0] + "\n")
    assert reward == 1.0


def test_call_mode_cells_see_earlier_cells_and_a_failed_cell_changes_nothing() -> None:
    env = gym.make(ENV_ID, action_mode="call")
    task = next(t for t in generate_split("test") if t.meta["operation"] == "total_row")
    env.reset(options={"task_id": task.task_id})
    lines = task.gold[0].splitlines()
    obs, reward, terminated, _, info = env.step(lines[0])
    assert not terminated and info["error"] is None and "| Total |" in obs
    obs, _, terminated, _, info = env.step(
        "worksheet.update('A1', 'broken')\nraise ValueError('no')"
    )
    assert info["error"]["category"] == "runtime_error" and not terminated
    assert "broken" not in obs  # the failed cell's write was not kept
    env.step(lines[1])
    _, reward, terminated, _, _ = env.step("finish")
    assert terminated and reward == 1.0
    env.close()


def test_gspread_5_update_calls_run_and_6_calls_too(env: gym.Env) -> None:
    task = generate_split("test")[0]
    env.reset(options={"task_id": task.task_id})
    obs, *_ = env.step(
        "worksheet.update('F1', 'Note')\n"
        "worksheet.update('F2:F3', [[42], [43]])\n"
        "worksheet.update([['six']], 'G1')\n"
        "worksheet.update('H1', '=F2+F3', raw=False)\n"
        "print(worksheet.acell('H1').value)"
    )
    assert obs.startswith("85") and "| Note | six | 85 |" in obs
    client = sheets_client()  # plain gspread 6: the 5.x call reaches the API as sent, and fails
    import gspread

    with pytest.raises(gspread.exceptions.APIError, match="400"):
        client.create("x").sheet1.update("A2", "Hello world")


def test_original_format_records_play(tmp_path: Path) -> None:
    records = [
        {
            "prompt": "Update cell D4 to asd",
            "completion": ['worksheet.update("D4", "asd")'],
            "question_sheet_name": "Sheet3",
            "check_format": False,
        },
        {
            "prompt": "Increase beef's price by 10%\n\n| Product | Cost | Price |\n| beef | 1 | 3 |"
            "\n| pork | 5 | 4 |",
            "completion": ["worksheet.update_cell(2, 3, 3.3)", "worksheet.update('C2', 3.3)"],
            "question_sheet_name": "Sheet1",
            "check_format": False,
        },
    ]
    path = tmp_path / "test.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    env = gym.make(ENV_ID, task_file=str(path))
    for task_id in env.unwrapped.task_ids:
        _, reward, info = play(env, task_id, env.unwrapped.get_task(task_id).gold[-1] + "\n")
        assert reward == 1.0, info["error"]
    _, reward, _ = play(env, 1, "worksheet.update_cell(2, 3, 3.3000000000000003)")
    assert reward == 0.0  # the original's exact comparison
    env.close()


def test_tables_come_back_from_prompts() -> None:
    prompt = "Do it.\n\n| Item | Qty |\n|---|---|\n| pens | 3 |\n| ink | 2.5 |\n\nThanks"
    assert table_from_prompt(prompt) == [["Item", "Qty"], ["pens", 3], ["ink", 2.5]]
    assert table_from_prompt("no table") == []


def test_the_docs_cover_108_functions_from_the_library(env: gym.Env) -> None:
    _, info = env.reset(options={"task_id": env.unwrapped.task_ids[0]})
    docs = info["api_doc_list"]
    assert len(docs) == 108
    assert "worksheet.update(range_name, values=None, **kwargs)\n" in "".join(docs)
    assert any(
        d.endswith(
            "get_as_dataframe(worksheet, evaluate_formulas=False, drop_empty_rows=True, drop_empty_columns=True, **options)\n"
        )
        for d in docs
    )
    assert info["tools"] == []  # programs, not JSON calls


def test_an_oversized_table_is_refused_in_a_task_file(tmp_path: Path) -> None:
    record = {"prompt": "x", "completion": ["x = 1"], "setup": {"table": [[{"no": 1}]]}}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n")
    from toolgym.errors import TaskFileError

    with pytest.raises(TaskFileError, match="text, a number or a logical value"):
        gym.make(ENV_ID, task_file=str(path))


SLOW_OR_HEAVY = {
    "formulas over a large range, many times": (
        "worksheet.update([['=SUM(Sheet1!A1:Z1000)'] * 10 for i in range(500)], 'A1',"
        " value_input_option='USER_ENTERED')"
    ),
    "a grid grown to the cell limit, summed": (
        "sheet.sheet1.resize(rows=380000, cols=26)\n"
        "worksheet.update([['=SUM(Sheet1!A1:Z380000)'] * 40], 'A1', raw=False)"
    ),
    "text that doubles formula after formula": (
        "worksheet.update([['x' * 49000]], 'A1')\n"
        "worksheet.update([[f'=A{i}&A{i}'] for i in range(1, 16)], 'A2', raw=False)"
    ),
    "one long text concatenated a thousand times": (
        "worksheet.update([['x' * 49000]], 'A1')\n"
        "worksheet.update([['=UPPER(CONCATENATE(' + ','.join(['A1'] * 1000) + '))'] * 100],"
        " 'B1', raw=False)"
    ),
    "patterns far longer than any real one": (
        "worksheet.format('B2:C6', {'numberFormat': {'type': 'DATE', 'pattern': 'yd' * 40000}})\n"
        "worksheet.format('D2:D6', {'numberFormat': {'type': 'NUMBER', 'pattern': ',' * 60000}})"
    ),
    "a grid at the cell limit with one value in the far corner": (
        "worksheet.resize(rows=380000, cols=26)\nworksheet.update([[5]], 'Z379999')"
    ),
    "many pivot tables beside a long table": (
        "ws = sheet.add_worksheet('big', 20010, 26)\n"
        "ws.update([['h%d' % k for k in range(26)], list(range(26))] + [[i] for i in range(20000)],"
        " 'A1')\n"
        "pv = {'source': {'sheetId': ws.id, 'startRowIndex': 0, 'endRowIndex': 2,"
        " 'startColumnIndex': 0, 'endColumnIndex': 1},"
        " 'values': [{'sourceColumnOffset': 0, 'summarizeFunction': 'COUNTA'}]}\n"
        "sheet.batch_update({'requests': [{'updateCells': {'start': {'sheetId': ws.id,"
        " 'rowIndex': 2, 'columnIndex': 25}, 'rows': [{'values': [{'pivotTable': pv}]}] * 1500,"
        " 'fields': 'pivotTable'}}]})"
    ),
    "long texts read by many formulas": (
        "worksheet.update([['a ' * 24999]], 'A1')\n"
        "worksheet.update([['=SUM(' + ','.join(['LEN(TRIM($A$1))'] * 3100) + ')'] * 12],"
        " 'B1', raw=False)"
    ),
    "formulas that read the table thousands of times": (
        "worksheet.update([[i] * 26 for i in range(1000)], 'A1')\n"
        "worksheet.update([['=SUM(A1:Z1000)'] * 26 for i in range(1000)], 'A1001', raw=False)"
    ),
}


@pytest.mark.parametrize("program", list(SLOW_OR_HEAVY.values()), ids=list(SLOW_OR_HEAVY))
def test_what_a_program_leaves_is_cheap_to_read_back(env: gym.Env, program: str) -> None:
    """The outcome and the view are computed outside the sandbox: formulas cannot stall them."""
    import time

    env.reset(options={"task_id": env.unwrapped.task_ids[0]})
    start = time.perf_counter()
    obs, _, terminated, _, info = env.step(program)
    assert terminated and time.perf_counter() - start < 8.0, info["error"]


def test_the_service_model_is_out_of_reach_and_grids_keep_the_real_limits(env: gym.Env) -> None:
    task_id = env.unwrapped.task_ids[0]
    model = "app = client.http_client.session.adapters['https://sheets.googleapis.com'].apps[0]"
    _, _, info = play(env, task_id, model)
    assert info["error"]["category"] == "forbidden"
    _, _, info = play(env, task_id, "worksheet.resize(rows=400000, cols=26)")
    assert (
        info["error"]["category"] == "runtime_error"
        and "10000000 cells" in info["error"]["message"]
    )


def test_programs_start_from_a_fresh_process() -> None:
    from toolgym.tools.sandbox import Sandbox

    with Sandbox() as box:
        first = box.run("import requests\nrequests.codes.ok = 999\nstate = requests.codes.ok", None)
        again = box.run("import requests\nstate = requests.codes.ok", None)
        assert first.state == 999 and again.state == 200  # nothing carries over
        seeded = [box.run("import numpy as np\nstate = float(np.random.rand())", None).state]
        seeded.append(box.run("import numpy as np\nstate = float(np.random.rand())", None).state)
        assert seeded[0] == seeded[1]  # the same draws in every program


@pytest.mark.parametrize(
    ("program", "shown"),
    [
        ("worksheet.update([['=ROUND(1, \"nan\")']], 'F1', raw=False)", "#VALUE!"),
        (
            "worksheet.update([[1e15]], 'F1')\n"
            "worksheet.format('F1', {'numberFormat': {'type': 'DATE', 'pattern': 'yyyy'}})",
            "1.00E+15",  # past the years dates have: the default display
        ),
        (
            "worksheet.update([[1e300]], 'F1')\n"
            "worksheet.format('F1', {'numberFormat': {'type': 'NUMBER', 'pattern': '0.' + '0' * 150}})",
            "1.00E+300",
        ),
    ],
)
def test_odd_values_and_formats_render_without_failing(
    env: gym.Env, program: str, shown: str
) -> None:
    env.reset(options={"task_id": env.unwrapped.task_ids[0]})
    obs, _, _, _, info = env.step(program + "\nprint(worksheet.acell('F1').value)")
    assert obs.splitlines()[0] == shown, (obs[:200], info["error"])


def test_a_named_range_cannot_stand_in_for_a_sheet(env: gym.Env) -> None:
    program = (
        "sheet.batch_update({'requests': [{'addNamedRange': {'namedRange': {'name': 'sheet_1',"
        " 'range': {'sheetId': 0, 'startRowIndex': 0, 'endRowIndex': 5}}}}]})"
    )
    _, _, info = play(env, env.unwrapped.task_ids[0], program)
    assert (
        info["error"]["category"] == "runtime_error" and "names a sheet" in info["error"]["message"]
    )


def test_an_oversized_host_call_leaves_the_next_program_alone() -> None:
    env = gym.make("toolbench/CatAPI-v1", action_language="python")
    base = env.unwrapped
    env.reset(options={"task_id": base.task_ids[0]})
    big = "import requests\nrequests.get('https://api.thecatapi.com/v1/favourites', headers={'X': 'a' * 1500000})"
    _, reward, *_ = env.step(big)
    assert reward == 0.0
    env.reset(options={"task_id": base.task_ids[0]})
    _, reward, *_ = env.step(base.oracle_actions()[0])
    assert reward == 1.0
    env.close()


def test_the_step_bench_times_a_step_and_its_floor() -> None:
    from toolgym.families.google_sheets.bench import run

    result = run(tasks=2, repeat=1)
    assert result["runs"] == 2 and result["step_s"] > 0 and result["floor_s"] > 0
    assert result["ratio"] == result["step_s"] / result["floor_s"]
    assert result["paused_floor_s"] > 0
    assert result["paused_ratio"] == result["paused_step_s"] / result["paused_floor_s"]

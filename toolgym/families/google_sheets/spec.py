"""Google Sheets: gspread and pandas programs against a simulated spreadsheet, run in a sandbox.

## Description

The SambaNova ToolBench *Google Sheets* task as a Gymnasium environment. The user shows a table
and asks for a change that needs reasoning about it ("increase beef's price by 10%", "add a
Profit column", "sort by salary", "make a pivot table of salary per department"); the agent
writes a Python program with the real gspread, gspread_dataframe and pandas libraries. The
Sheets API v4 (and the Drive endpoints gspread uses) is simulated in memory: typed cells,
formulas that are evaluated, number formats, merges, filters, sorts, inserted and deleted rows
and columns (formulas follow them), protected and named ranges, notes and pivot tables. Programs
never run in the environment's process: they run in the sandbox worker
(:mod:`toolgym.tools.sandbox`), a confined, persistent process with a restricted language,
whitelisted imports, a system-call filter and time, memory and output limits.

## Tools

The program sees the original's names: ``sheet`` (the gspread ``Spreadsheet``), ``worksheet``
(the worksheet ``sheet_1`` holding the table), ``get_as_dataframe``, ``set_with_dataframe``,
``pd``, ``np``, ``gspread`` and ``client``, and may import ``math``, ``datetime``, ``re``,
``json``, ``numpy``, ``pandas``, ``gspread`` and ``gspread_dataframe``. The docs
(``info["api_docs"]``) cover 108 functions (79 ``worksheet`` methods, 27 ``sheet`` methods and
the two DataFrame functions), built from the installed gspread's own signatures; the four the
original documents keep its gspread 5.8 signatures. ``worksheet.update`` accepts both the 5.8
order ``update('A2', 'Hello')`` (a single value is wrapped) and the 6.x order
``update([['Hello']], 'A2')``.

## Action Space

A string: Python source. In ``program`` mode (the paper's protocol) the whole program runs and
the episode ends. In ``call`` mode each step is one code cell that sees what earlier cells left
(a cell that fails changes nothing), and ``finish`` ends the episode. A fenced code block is
taken from a generation by agents. Escapes (private attributes, ``os`` through pandas internals,
frames, ``ctypes``, files, sockets, processes) are refused with the ``forbidden`` category;
infinite loops end as ``timeout``; memory, recursion and output bombs as ``resource_limit``.

## Observation Space

A string: the goal and the table after ``reset``; after a program or cell, what it printed, its
error (``Error (<category>): <message>``) and the last worksheet as a table.

## Rewards

The original metric: a program equal to a gold label succeeds without running; otherwise the
last worksheet, read back as the original reads it (``get_as_dataframe(evaluate_formulas=True)``
with empty rows and columns dropped), must equal the one the gold program leaves on a copy of the
same starting sheet, dtypes included (``1``, ``1.0`` and ``"1"`` differ). ``check_format`` tasks
also compare the effective formats of the cells the original checks (``A1`` onwards, as many
rows as the DataFrame has: the last row is not checked, as in the original); ``check_layout``
tasks (an extension) compare merges, the filter, frozen rows and columns and pivot tables. The
reward is 1 or 0; ``info["metrics"]["cells"]`` gives the share of the gold table's cells that are
right.

## Starting State

A spreadsheet whose first worksheet ``Sheet1`` is empty and whose last, ``sheet_1`` (1000 x 26),
holds the task's table written as typed input, as the original's evaluator prepares it.

## Episode End

Terminated after the program (``program`` mode) or at ``finish`` (``call`` mode); truncated
after ``max_episode_steps`` (20, in the registry).

## Arguments

``split`` (``test`` 70, ``demo`` 10, ``train`` unlimited), ``action_mode``, ``task_file`` (an
original-format file; a record without a ``setup`` takes its table from the ``| a | b |`` rows of
its prompt), ``reward_type`` (``success`` only), ``world_seed`` (unused: tasks carry their
tables), ``render_mode``, ``timeout_s`` (the wall-clock and CPU limit of one program, default 5),
``memory_mb`` (default 512), ``max_output_chars`` (printed output shown, default 4000),
``show_sheet`` (whether observations show the sheet, default true).

"""

from __future__ import annotations

from toolgym.conversation.spec import chat_spec
from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.google_sheets.metrics import SHEETS_METRICS

SPEC = FamilySpec(
    name="google_sheets",
    title="Google Sheets",
    env_name="GoogleSheets",
    toolkit="toolgym.families.google_sheets.toolkit:SheetsToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=20,
            tasks="toolgym.families.google_sheets.tasks:SUITE",
            history=(
                "initial release. Unlike the original (one live spreadsheet per process, programs "
                "run with exec in the evaluator), every episode gets a fresh simulated spreadsheet "
                "and programs run in the sandbox; gspread 5.8 calls of Worksheet.update run "
                "through a compatibility layer on gspread 6; the original's format-check window "
                "(A1 onwards, the DataFrame's shape) is kept"
            ),
        ),
    ),
    prompting="toolgym.families.google_sheets.profile:PROMPTING",
    profile="toolgym.families.google_sheets.profile:PROFILE",
    metrics=SHEETS_METRICS,
    reward="success",
    service="toolgym.families.google_sheets.world.service:SheetsApp",
    aliases=("sheets", "gsheets"),
    doc=__doc__ or "",
)
"""The Google Sheets family (its prompting defaults are the original's command-line settings)."""

CHAT_SPEC = chat_spec(
    SPEC,
    toolkit="toolgym.families.google_sheets.chat:SheetsChatToolkit",
    tasks="toolgym.families.google_sheets.chat:SUITE",
    options=("timeout_s", "memory_mb", "max_output_chars", "show_sheet"),
)
"""``toolbench/GoogleSheetsChat-v0``: the user holds back which cells change and how (see ``chat.py``)."""

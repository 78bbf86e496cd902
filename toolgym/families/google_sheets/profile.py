"""How Google Sheets is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import BenchAction, EvalProfile

FIVE_CALLS = BenchAction(
    "test-000",
    "cell = worksheet.find('Jonas')\n"
    "worksheet.update_cell(cell.row, 4, 15)\n"
    "worksheet.update('F1:F2', [['Checked'], ['yes']])\n"
    "worksheet.format('A1:D1', {'textFormat': {'bold': True}})\n"
    "worksheet.append_row(['Maya', 'Sales', 61000, 2])",
    "a five-call gspread program",
)
"""A typical program for ``toolgym bench``: a find, three writes and a format."""

PROMPTING = PromptDefaults(top_k_api=0, max_new_tokens=256)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(suites=("toolbench",), bench=FIVE_CALLS)
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""

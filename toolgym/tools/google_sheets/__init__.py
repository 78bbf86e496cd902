"""Google Sheets as a tool family: gspread clients, the sandbox adapter, docs and the toolkit.

* :mod:`.client`: ready gspread clients against the simulated service, and the gspread 5.x
  ``update`` style the original labels use;
* :mod:`.adapter`: what a sandboxed program sees (``sheet``, ``worksheet``, ``pd``, ...);
* :mod:`.functions`: the 108 documented functions;
* :mod:`.toolkit`: the family's toolkit, backend and outcome.
"""

from toolgym.tools.google_sheets.client import (
    CompatSpreadsheet,
    CompatWorksheet,
    compat_spreadsheet,
    sheets_client,
    sheets_session,
)
from toolgym.tools.google_sheets.toolkit import SheetsBackend, SheetsToolkit, read_outcome

__all__ = [
    "CompatSpreadsheet",
    "CompatWorksheet",
    "SheetsBackend",
    "SheetsToolkit",
    "compat_spreadsheet",
    "read_outcome",
    "sheets_client",
    "sheets_session",
]

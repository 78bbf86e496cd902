"""The sandbox adapter of Sheets programs: the names a program sees, over a service rebuilt per run.

It runs in the sandbox worker (:mod:`toolgym.tools.sandbox`). The state is
``{"app": <SheetsApp.to_data()>, "spreadsheet": <id>}``; the program sees the original
benchmark's names:

* ``sheet``: the gspread ``Spreadsheet`` (worksheets take gspread 5.x ``update`` calls too);
* ``worksheet``: its last worksheet, the one holding the task's table;
* ``get_as_dataframe`` and ``set_with_dataframe`` (gspread_dataframe);
* ``pd``, ``np`` and ``gspread`` (whitelisted modules, behind proxies), and ``client``.

After the program, the service's state is read back as plain data. With ``"faults": true`` in the
state, the service's requests meet the faults the parent draws
(:func:`~toolgym.tools.sandbox.remote_http.consult_faults`).
"""

from __future__ import annotations

from typing import Any

from toolgym.families.google_sheets.client import compat_spreadsheet, sheets_client
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.tools.sandbox.remote_http import consult_faults


class SheetsAdapter:
    """Builds a Sheets program's names from the state, and reads the state back."""

    def __init__(self) -> None:
        self.app: SheetsApp | None = None
        self.key: str | None = None

    def setup(self, state: Any) -> dict[str, Any]:
        """The program's names over a service rebuilt from ``state``."""
        import gspread
        import gspread_dataframe
        import numpy
        import pandas

        from toolgym.tools.sandbox.policy import ModuleProxy

        state = state or {}
        self.app = SheetsApp()
        self.app.load_data(state.get("app") or {})
        if state.get("faults"):
            consult_faults(self.app)
        client = sheets_client(self.app)
        names: dict[str, Any] = {
            "client": client,
            "get_as_dataframe": gspread_dataframe.get_as_dataframe,
            "set_with_dataframe": gspread_dataframe.set_with_dataframe,
            "pd": ModuleProxy(pandas),
            "np": ModuleProxy(numpy),
            "gspread": ModuleProxy(gspread),
        }
        key = self.key = state.get("spreadsheet")
        if key:
            sheet = compat_spreadsheet(client.open_by_key(key))
            names["sheet"] = sheet
            names["worksheet"] = sheet.worksheets()[-1]
        return names

    def collect(self, namespace: dict[str, Any]) -> Any:
        """The service's state after the program (the spreadsheet id stays the same)."""
        assert self.app is not None
        return {"app": self.app.to_data(), "spreadsheet": self.key}

    def warm(self) -> None:
        """Run each kind of call programs make once (in the warm process, before any fork).

        What a first call imports or builds (pandas' Arrow glue, requests' netrc lookup, the
        service's request handlers, the policy's guards) is then ready in every child instead
        of being paid again by each program.
        """
        from toolgym.families.google_sheets.world.sheet import Worksheet
        from toolgym.tools.sandbox.worker import run_job

        app = SheetsApp()
        book = app.create("warm")
        book.sheets.append(Worksheet(1, "sheet_1", 1))
        table = [["Name", "Count", "Price"], ["apple", 3, 1.5], ["pear", 5, 2.25]]
        book.values_update("'sheet_1'!A1", table, "USER_ENTERED")
        state = {"app": app.to_data(), "spreadsheet": book.spreadsheet_id}
        for program in WARM_PROGRAMS:  # one call each: a failing one does not skip the others
            run_job({"code": program, "state": state, "output": 1000}, self, limits=False)


WARM_PROGRAMS = (
    "rows, records = worksheet.get_all_values(), worksheet.get_all_records()",
    "worksheet.update_cell(2, 2, 4)",
    "worksheet.update('A1:B1', [['Item', 'N']])",
    "worksheet.update([['Item']], 'A1')",
    "worksheet.append_row(['plum', 1, 3])",
    "worksheet.insert_row(['fig', 2, 4], 2)",
    "worksheet.delete_rows(2)",
    "worksheet.delete_columns(3)",
    "worksheet.format('A1:C1', {'textFormat': {'bold': True}})",
    "worksheet.sort((2, 'des'))",
    "worksheet.set_basic_filter()",
    "worksheet.freeze(rows=1)",
    "cell, value = worksheet.find('pear'), worksheet.acell('B2').value",
    "df = get_as_dataframe(worksheet)\ndf['Total'] = df['Count'] * 2\n"
    "set_with_dataframe(worksheet, df)",
    "sheet.batch_update({'requests': [{'updateSheetProperties': {'properties': "
    "{'sheetId': 1, 'gridProperties': {'frozenRowCount': 1}}, 'fields': "
    "'gridProperties.frozenRowCount'}}]})",
)
"""The programs :meth:`SheetsAdapter.warm` runs: the kinds of call the tasks' programs make."""

adapter = SheetsAdapter()
"""The adapter instance the sandbox names (``toolgym.families.google_sheets.adapter:adapter``)."""

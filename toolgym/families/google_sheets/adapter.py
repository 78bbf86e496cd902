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


adapter = SheetsAdapter()
"""The adapter instance the sandbox names (``toolgym.families.google_sheets.adapter:adapter``)."""

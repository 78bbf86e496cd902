"""Ready gspread clients against the simulated Sheets service (in progress: the family comes next).

>>> client = sheets_client()
>>> sheet = client.create("Budget").sheet1
>>> sheet.update([["item", "price"], ["beef", 10]], "A1")["updatedCells"]
4
>>> sheet.get_all_records()
[{'item': 'beef', 'price': 10}]
"""

from __future__ import annotations

from typing import Any

import requests

from toolgym.simulators.google_sheets.service import SheetsApp
from toolgym.tools.requests_transport import SimulatedAdapter


def sheets_session(app: SheetsApp) -> requests.Session:
    """A ``requests`` session whose Sheets, Drive and OAuth traffic ``app`` answers."""
    session = requests.Session()
    adapter = SimulatedAdapter(app)
    for host in app.hosts:
        session.mount(f"https://{host}", adapter)
    return session


def sheets_client(app: SheetsApp | None = None) -> Any:
    """An unmodified ``gspread.Client`` talking to ``app`` (a fresh service by default)."""
    import gspread

    return gspread.Client(auth=None, session=sheets_session(app or SheetsApp()))


class SheetsAdapter:
    """The sandbox adapter of Sheets programs (:mod:`toolgym.tools.sandbox.adapters`).

    The state is :meth:`SheetsApp.to_data`'s plain data plus, optionally, ``"spreadsheet"``: the
    id that ``spreadsheet`` and ``worksheet`` name. The program sees ``client`` (a ready
    ``gspread.Client``), ``spreadsheet`` and ``worksheet`` (its first sheet) when there is one.
    """

    def __init__(self) -> None:
        self.app: SheetsApp | None = None

    def setup(self, state: Any) -> dict[str, Any]:
        """The program's names over a service rebuilt from ``state``."""
        self.app = SheetsApp()
        self.app.load_data(state or {})
        client = sheets_client(self.app)
        names: dict[str, Any] = {"client": client}
        key = (state or {}).get("spreadsheet")
        if key:
            names["spreadsheet"] = client.open_by_key(key)
            names["worksheet"] = names["spreadsheet"].sheet1
        return names

    def collect(self, namespace: dict[str, Any]) -> Any:
        """The service's state after the program."""
        assert self.app is not None
        return self.app.to_data()


adapter = SheetsAdapter()
"""The adapter instance the sandbox names (``toolgym.tools.google_sheets:adapter``)."""

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

"""Ready gspread clients against the simulated Sheets service, and the gspread 5.x call style.

>>> client = sheets_client()
>>> sheet = client.create("Budget").sheet1
>>> sheet.update([["item", "price"], ["beef", 10]], "A1")["updatedCells"]
4
>>> sheet.get_all_records()
[{'item': 'beef', 'price': 10}]

The original benchmark's labels were written for gspread 5.8, whose ``Worksheet.update`` takes
``(range_name, values)`` and wraps a scalar value; gspread 6.x takes ``(values, range_name)`` and
sends such a call to the API as it is, which answers 400. :class:`CompatWorksheet` accepts both:
when the first positional argument looks like an A1 range (or a named range) and the second does
not, the call is read the 5.8 way; otherwise gspread 6.x runs it unchanged.

>>> book = compat_spreadsheet(client.create("Old style"))
>>> book.sheet1.update("B2", 42)["updatedRange"]
'Sheet1!B2'
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import gspread
import requests
from requests.adapters import HTTPAdapter

from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.tools.requests_transport import SimulatedAdapter

_A1 = re.compile(
    r"^(?:(?:'(?:[^']|'')+'|[^'!]+)!)?"  # a sheet title
    r"(?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d*)?"  # A1, A1:B2, A2:B
    r"|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}"  # A:B
    r"|\$?\d+:\$?\d+)$"  # 1:3
)


def looks_like_range(value: Any) -> bool:
    """Whether ``value`` reads as an A1 range (``A1``, ``'My sheet'!A1:B2``, ``A:C``, ``2:4``).

    >>> looks_like_range("A1:B3"), looks_like_range("Hello world"), looks_like_range(3)
    (True, False, False)
    """
    return isinstance(value, str) and _A1.match(value.strip()) is not None


def sheets_session(app: SheetsApp) -> requests.Session:
    """A ``requests`` session whose Sheets, Drive and OAuth traffic ``app`` answers.

    It reads nothing of the process's environment (proxies, CA bundles, ``.netrc``): nothing
    it sends leaves the process, and each request skips those lookups.
    """
    session = requests.Session()
    session.trust_env = False
    adapter = SimulatedAdapter(app)
    for host in app.hosts:
        session.mount(f"https://{host}", adapter)
    return session


def sheets_client(app: SheetsApp | None = None) -> Any:
    """An unmodified ``gspread.Client`` talking to ``app`` (a fresh service by default)."""
    return gspread.Client(auth=None, session=sheets_session(app or SheetsApp()))  # type: ignore[arg-type]


class _Forward(HTTPAdapter):
    """Sends a request for a Google host to the served simulation, the real host in ``Host``."""

    def __init__(self, base_url: str) -> None:
        super().__init__()
        self.base_url = base_url.rstrip("/")

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> Any:
        parts = urlsplit(request.url or "")
        request.headers["Host"] = parts.netloc
        request.url = (
            self.base_url + (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        )
        return super().send(request, *args, **kwargs)


def served_session(base_url: str, session: requests.Session | None = None) -> requests.Session:
    """A session whose Sheets, Drive and OAuth traffic goes to ``toolgym serve sheets``.

    The server at ``base_url`` answers all three on one port; other hosts keep their adapters.

    Args:
        base_url: the server's address, ``http://127.0.0.1:8080``.
        session: a session to mount on (an ``AuthorizedSession``, say); default: a new one.
    """
    session = session or requests.Session()
    adapter = _Forward(base_url)
    for host in SheetsApp.hosts:
        session.mount(f"https://{host}", adapter)
    return session


def served_client(base_url: str, credentials: Any = None) -> Any:
    """An unmodified ``gspread.Client`` talking to ``toolgym serve sheets`` at ``base_url``.

    Without ``credentials``, requests go unsigned (the simulation accepts any). With
    google-auth credentials (``Credentials.from_service_account_file(...)``, with the Sheets
    and Drive scopes), requests are signed as against the real API and the token is fetched
    from the server's ``/token`` endpoint, so a key file works unchanged.

    >>> from toolgym.tools.http_server import make_server  # doctest: +SKIP
    >>> client = served_client("http://127.0.0.1:8080")  # doctest: +SKIP
    >>> client.create("Budget").sheet1.update([["a", 1]], "A1")["updatedCells"]  # doctest: +SKIP
    2
    """
    if credentials is None:
        return gspread.Client(auth=None, session=served_session(base_url))  # type: ignore[arg-type]
    from google.auth.transport.requests import AuthorizedSession
    from google.auth.transport.requests import Request as AuthRequest

    token_session = served_session(base_url)
    session = AuthorizedSession(credentials, auth_request=AuthRequest(token_session))
    return gspread.Client(auth=credentials, session=served_session(base_url, session))


class CompatWorksheet(gspread.Worksheet):
    """A gspread worksheet whose ``update`` also takes gspread 5.x calls (module docstring)."""

    _sandbox_exposed = True  # programs in the sandbox may use it (toolgym objects are refused)

    def update(self, *args: Any, **kwargs: Any) -> Any:
        """``update(values, range_name)`` (6.x) or ``update(range_name, values)`` (5.x)."""
        if args and "range_name" not in kwargs and self._is_range(args[0]):
            rest = list(args[1:])
            values = rest.pop(0) if rest else kwargs.pop("values", None)
            if not (isinstance(values, str) and self._is_range(values)):
                if not isinstance(values, list | tuple):
                    values = [[values]]  # 5.x wraps a scalar
                return super().update(values, args[0], *rest, **kwargs)
        return super().update(*args, **kwargs)

    def _is_range(self, value: Any) -> bool:
        if looks_like_range(value):
            return True
        if not isinstance(value, str) or not value.isidentifier():
            return False
        try:
            named = self.spreadsheet.list_named_ranges()
        except gspread.exceptions.APIError:
            return False
        return any(n.get("name") == value for n in named)


def _compat(worksheet: gspread.Worksheet) -> CompatWorksheet:
    worksheet.__class__ = CompatWorksheet
    return worksheet  # type: ignore[return-value]


class CompatSpreadsheet(gspread.Spreadsheet):
    """A gspread spreadsheet whose worksheets are :class:`CompatWorksheet` objects."""

    _sandbox_exposed = True

    def worksheet(self, title: str) -> CompatWorksheet:
        """The worksheet called ``title``."""
        return _compat(super().worksheet(title))

    def worksheets(self, exclude_hidden: bool = False) -> list[CompatWorksheet]:  # type: ignore[override]
        """Every worksheet."""
        return [_compat(ws) for ws in super().worksheets(exclude_hidden)]

    def get_worksheet(self, index: int) -> CompatWorksheet:
        """The worksheet at ``index`` (0-based)."""
        return _compat(super().get_worksheet(index))

    def get_worksheet_by_id(self, id: int | str) -> CompatWorksheet:
        """The worksheet whose sheet id is ``id``."""
        return _compat(super().get_worksheet_by_id(id))

    def add_worksheet(self, *args: Any, **kwargs: Any) -> CompatWorksheet:
        """A new worksheet (gspread's arguments)."""
        return _compat(super().add_worksheet(*args, **kwargs))

    def duplicate_sheet(self, *args: Any, **kwargs: Any) -> CompatWorksheet:
        """A copy of a worksheet (gspread's arguments)."""
        return _compat(super().duplicate_sheet(*args, **kwargs))


def compat_spreadsheet(spreadsheet: gspread.Spreadsheet) -> CompatSpreadsheet:
    """``spreadsheet`` with worksheets that take both ``update`` styles."""
    spreadsheet.__class__ = CompatSpreadsheet
    return spreadsheet  # type: ignore[return-value]

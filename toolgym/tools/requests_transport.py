"""Route the real ``requests`` library to the simulators: unmodified ``requests`` code works offline.

Two ways, both answering through :meth:`HttpApp.handle`:

* :func:`simulated_requests` patches ``requests`` for the duration of a ``with`` block (through
  ``requests-mock``), so module-level calls such as ``requests.get(url, params=...)`` reach the
  simulators; any other host fails with a connection error, never the network.
* :class:`SimulatedAdapter` is a transport adapter to mount on one ``requests.Session``.

>>> import requests
>>> from toolgym.simulators.http import HttpApp, Response
>>> class Echo(HttpApp):
...     hosts = ("echo.test",)
...     def handle(self, request):
...         return Response.json_body(200, {"path": request.path, "q": request.params})
>>> with simulated_requests(Echo()):
...     requests.get("https://echo.test/a", params={"x": "1"}).json()
{'path': '/a', 'q': {'x': '1'}}
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import requests
import requests_mock
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from toolgym.simulators.http import HttpApp, Request, Response


def _route(apps: Sequence[HttpApp], host: str) -> HttpApp | None:
    host = host.lower()
    return next((app for app in apps if host in app.hosts), None)


def _to_request(prepared: Any) -> Request:
    body = prepared.body
    if body is None:
        body = b""
    elif isinstance(body, str):
        body = body.encode("utf-8")
    return Request.build(prepared.method or "GET", prepared.url, dict(prepared.headers), body)


@contextmanager
def simulated_requests(*apps: HttpApp) -> Iterator[requests_mock.Mocker]:
    """Within the block, ``requests`` calls to the apps' hosts are answered by the apps."""

    def matcher(request: Any) -> requests.Response | None:
        app = _route(apps, request.hostname or "")
        if app is None:  # never the network
            raise requests.ConnectionError(
                f"{request.hostname!r} is not simulated (no network access)"
            )
        reply = app.handle(_to_request(request))
        return requests_mock.create_response(
            request, status_code=reply.status, headers=dict(reply.headers), content=reply.body
        )

    with requests_mock.Mocker(real_http=False) as mocker:
        mocker.add_matcher(matcher)
        yield mocker


class SimulatedAdapter(BaseAdapter):
    """A ``requests`` transport adapter that answers from simulators (mount it on a Session).

    Args:
        apps: the simulators; a request to another host raises ``requests.ConnectionError``.
    """

    def __init__(self, *apps: HttpApp) -> None:
        super().__init__()
        self.apps = apps

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: float | tuple[float | None, float | None] | None = None,
        verify: bool | str = True,
        cert: str | tuple[str, str] | None = None,
        proxies: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> requests.Response:
        """Answer the request from the app that owns its host (transport options do not apply)."""
        from urllib.parse import urlsplit

        host = urlsplit(request.url or "").hostname or ""
        app = _route(self.apps, host)
        if app is None:
            raise requests.ConnectionError(f"{host!r} is not simulated (no network access)")
        return _to_response(request, app.handle(_to_request(request)))

    def close(self) -> None:
        """Nothing to release."""


def _to_response(request: requests.PreparedRequest, reply: Response) -> requests.Response:
    response = requests.Response()
    response.status_code = reply.status
    response.headers = CaseInsensitiveDict(reply.headers)
    response._content = reply.body
    response.url = request.url or ""
    response.request = request
    response.encoding = "utf-8"
    response.reason = "OK" if reply.status < 400 else "Error"
    return response


def simulated_session(*apps: HttpApp) -> requests.Session:
    """A ``requests.Session`` whose http(s) traffic is answered by ``apps``.

    It reads nothing of the process's environment (proxies, CA bundles, ``.netrc``): nothing
    it sends leaves the process.
    """
    session = requests.Session()
    session.trust_env = False
    adapter = SimulatedAdapter(*apps)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session

"""The sandbox adapter of ``requests`` programs: real ``requests`` calls, answered by the parent.

Agent code imports ``requests`` and calls it as it would against the live API. In the worker, every
``requests`` session routes its traffic to :class:`RemoteApp`, which sends each request to the
parent as a host call (:func:`toolgym.tools.sandbox.worker.host_call`); the parent runs it against
the simulated service under the family's rules and answers with the status, headers and body.
Hosts other than the family's fail with a connection error, and the system-call filter forbids
sockets anyway: nothing reaches a network.

The state is ``{"hosts": [...]}``; the program's names are the usual builtins only.
"""

from __future__ import annotations

from typing import Any

import requests

from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.tools.faults import FAILING_KINDS, Fault
from toolgym.tools.requests_transport import SimulatedAdapter
from toolgym.tools.sandbox.worker import HostCallError, host_call

MAX_BODY_CHARS = 1_000_000
"""The largest request body a program may send."""


class RemoteApp(HttpApp):
    """A service that lives in the parent process: requests go there as host calls.

    Args:
        hosts: the host names it answers for.
    """

    name = "remote"

    def __init__(self, hosts: tuple[str, ...]) -> None:
        self.hosts = hosts  # type: ignore[misc]

    def handle(self, request: Request) -> Response:
        """Ask the parent; a refusal raises ``requests.ConnectionError`` in the program."""
        body = request.body.decode("utf-8", "replace")
        if len(body) > MAX_BODY_CHARS:
            raise requests.ConnectionError(f"the request body is over {MAX_BODY_CHARS:,} chars")
        try:
            answer = host_call(
                {
                    "method": request.method,
                    "url": request.url,
                    "headers": dict(request.headers),
                    "body": body,
                }
            )
        except HostCallError as e:
            raise requests.ConnectionError(str(e)) from None
        return Response(
            int(answer["status"]), dict(answer["headers"]), str(answer["body"]).encode("utf-8")
        )


class RequestsAdapter:
    """Routes every ``requests`` session of the worker to :class:`RemoteApp` (see above)."""

    def __init__(self) -> None:
        self.transport = SimulatedAdapter(RemoteApp(()))
        self._installed = False

    def setup(self, state: Any) -> dict[str, Any]:
        """Point ``requests`` at the parent's services for ``state["hosts"]``."""
        hosts = tuple(str(h).lower() for h in (state or {}).get("hosts", ()))
        self.transport.apps = (RemoteApp(hosts),)
        if not self._installed:
            transport = self.transport
            requests.Session.get_adapter = lambda session, url: transport  # type: ignore[method-assign,assignment]
            self._installed = True
        return {}

    def collect(self, namespace: dict[str, Any]) -> Any:
        """Nothing: the requests were the program's effect, and the parent kept them."""
        return None


adapter = RequestsAdapter()
"""The adapter instance the sandbox names (``toolgym.tools.sandbox.remote_http:adapter``)."""


def consult_faults(app: HttpApp) -> None:
    """Make ``app``'s requests meet the service faults the parent draws (in the worker).

    Before each request, the worker asks the parent (a host call ``{"fault": "<METHOD> <path>"}``)
    whether it meets a fault; the parent draws it from its seeded plan and keeps the event. The
    worker applies it: an error answer (``rate_limit``, ``server_error``), a ``requests.Timeout``
    (``timeout``), or a spoiled answer (``truncated``, ``malformed``); ``slow`` changes nothing.
    """
    handle = app.handle

    def faulty(request: Request) -> Response:
        try:
            drawn = host_call({"fault": f"{request.method} {request.path}"})
        except HostCallError as e:
            raise requests.ConnectionError(str(e)) from None
        if not drawn:
            return handle(request)
        fault = Fault(**drawn)
        if fault.kind == "timeout":
            raise requests.Timeout(f"{fault.call} timed out")
        if fault.kind in FAILING_KINDS:
            return fault.error_response()
        if fault.kind == "slow":
            return handle(request)
        return fault.corrupt(handle(request))

    app.handle = faulty  # type: ignore[method-assign]

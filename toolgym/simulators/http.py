"""The HTTP application interface shared by every simulated REST service.

A service is one :class:`HttpApp`: ``handle(Request) -> Response``. Every transport (parsed curl
lines, the ``requests`` adapter, the localhost server) calls the same ``handle``, so they cannot
drift apart. Apps are pure Python and hold their mutable state (favourites, votes, the simulated
clock) in a form that :meth:`HttpApp.snapshot` / :meth:`HttpApp.restore` can copy.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar
from urllib.parse import parse_qsl, urlsplit

from toolgym.simulators.json_text import dumps_compact, loads_utf8

T = TypeVar("T")


class _computed_once(Generic[T]):
    """A property computed on first use and kept in the instance.

    ``functools.cached_property`` without the lock it takes on Python 3.11 (a request is read by
    one thread at a time).
    """

    def __init__(self, compute: Callable[[Any], T]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value: T = self.compute(instance)
        instance.__dict__[self.name] = value  # a non-data descriptor: the next read finds it
        return value


@dataclass(frozen=True)
class Request:
    """An HTTP request as the simulators see it.

    Attributes:
        method: upper-case method (``GET``).
        url: the full URL, ``https://host/path?query``.
        headers: header names lower-cased.
        body: the raw body.
    """

    method: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    @classmethod
    def build(
        cls,
        method: str,
        url: str,
        headers: Mapping[str, str] | None = None,
        body: bytes | str | None = None,
    ) -> Request:
        """Normalise method case, header-name case and body type."""
        data = body.encode("utf-8") if isinstance(body, str) else (body or b"")
        return cls(method.upper(), url, {k.lower(): v for k, v in (headers or {}).items()}, data)

    @_computed_once
    def _parts(self) -> Any:
        return urlsplit(self.url)

    @_computed_once
    def host(self) -> str:
        """Host name without port, lower-cased."""
        return (self._parts.hostname or "").lower()

    @property
    def path(self) -> str:
        """The path, without trailing slash (``/`` for the root)."""
        return self._parts.path.rstrip("/") or "/"

    @_computed_once
    def query(self) -> list[tuple[str, str]]:
        """Query parameters in order (repeated keys kept; ``+`` decoded as space)."""
        return parse_qsl(self._parts.query, keep_blank_values=True)

    @_computed_once
    def params(self) -> dict[str, str]:
        """Query parameters as a dict (the last value of a repeated key wins)."""
        return dict(self.query)

    def header(self, name: str, default: str | None = None) -> str | None:
        """A header value by case-insensitive name."""
        return self.headers.get(name.lower(), default)

    def json(self) -> Any:
        """The body parsed as JSON (raises ``ValueError`` if it is not, or nests too deep)."""
        try:
            return loads_utf8(self.body, "strict") if self.body else None
        except RecursionError:
            raise ValueError("the JSON body nests too deep") from None


@dataclass
class Response:
    """An HTTP response."""

    status: int
    headers: dict[str, str]
    body: bytes

    @classmethod
    def json_body(cls, status: int, payload: Any) -> Response:
        """A JSON response (compact, UTF-8, key order kept: ``json.dumps``'s text)."""
        body = dumps_compact(payload)
        return cls(status, {"Content-Type": "application/json; charset=utf-8"}, body)

    @classmethod
    def text_body(cls, status: int, text: str, content_type: str) -> Response:
        """A text response (XML, HTML, plain)."""
        return cls(status, {"Content-Type": f"{content_type}; charset=utf-8"}, text.encode())

    @property
    def text(self) -> str:
        """The body decoded as UTF-8."""
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """The body parsed as JSON (raises ``ValueError`` if it is not): ``json.loads(self.text)``."""
        return loads_utf8(self.body)


class HttpApp(ABC):
    """A simulated HTTP service.

    Subclasses set ``hosts`` (the real host names they answer for) and implement :meth:`handle`,
    :meth:`snapshot` and :meth:`restore`.
    """

    name: ClassVar[str] = ""
    hosts: ClassVar[tuple[str, ...]] = ()
    answers_inline: ClassVar[bool] = False
    """Every request is answered in well under a millisecond (its work bounded by the request's
    size and the service's limits), so a server may answer it where it reads it, on its event
    loop, instead of handing it to a worker thread and back. A service with requests that can
    take longer (formulas over a whole sheet) leaves it ``False``: a server answers all of its
    requests on one worker thread, so that the loop goes on serving other connections."""
    plain_state: ClassVar[bool] = False
    """:meth:`snapshot` is JSON-shaped and :meth:`restore` copies its argument with
    :func:`~toolgym.tools.plain_copy.plain_deepcopy`, so a backend that restores one snapshot
    at every reset may keep it as a :class:`~toolgym.tools.plain_copy.PlainSnapshot` and hand
    that to :meth:`restore` instead (each copy is then read back in one C call). Subclasses
    inherit it: one whose :meth:`restore` reads its argument otherwise sets it ``False``."""

    @abstractmethod
    def handle(self, request: Request) -> Response:
        """Answer one request; never raises for bad input (answers 4xx instead)."""

    def host_for(self, path: str) -> str:
        """The real host a request for ``path`` goes to, when all of them are served on one port.

        A server that answers for several hosts on one address (``toolgym serve``) gives each
        request this host, unless the request's ``Host`` header names one of :attr:`hosts`.
        Default: the first host. A service whose hosts share no path (Sheets, Drive and the
        token endpoint) tells them apart here.
        """
        return self.hosts[0] if self.hosts else "localhost"

    def snapshot(self) -> Any:
        """A copy of the mutable state (default: stateless)."""
        return None

    def restore(self, state: Any) -> None:  # noqa: B027 - stateless apps need no override
        """Restore a state returned by :meth:`snapshot` (default: stateless).

        The argument is not kept: an app copies what it keeps, so one snapshot can be restored
        any number of times.
        """

"""Parse one ``curl`` command line into a request, with shell-word rules and no shell.

The benchmark's actions are lines such as::

    curl -X GET 'https://api.openweathermap.org/data/2.5/weather?q=austin&appid={API_KEY}'
    curl -X POST 'https://api.thecatapi.com/v1/votes' -H 'Content-Type: application/json' --data '{"image_id":"abc","value":1}'

:func:`parse_curl` splits the line like a POSIX shell would (quotes, backslashes), understands the
options curl users write for REST calls (``-X/--request``, ``-d/--data/--data-raw/--data-binary``,
``-H/--header``, ``-G/--get``, ``--url``, ``-A/--user-agent``, ``-u/--user``, and harmless flags
such as ``-s``, ``-i``, ``-L``, ``-k``, ``--compressed``), and returns a :class:`CurlCommand`. It never
runs anything: shell operators (``;``, ``&&``, ``||``, ``|``, redirections), command substitution
(``$(...)``, backticks), variable expansion, file arguments (``-d @file``, ``-o``, ``-T``, ``-F``),
``file://`` and hosts other than the simulated ones are refused with a ``non_executable`` error.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from toolgym.simulators.http import Request
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError

MAX_CURL_CHARS = 8_192

_FLAGS_NO_ARG = {
    "-s", "--silent", "-S", "--show-error", "-i", "--include", "-L", "--location", "-k",
    "--insecure", "-v", "--verbose", "--compressed", "-f", "--fail", "-g", "--globoff",
    "--http1.1", "--http2", "-#", "--progress-bar", "-sS", "-sL", "-Ls", "-fsSL", "-sSL",
}  # fmt: skip
_DATA_OPTS = {"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json"}
_REFUSED_OPTS = {
    "-o": "writing files", "--output": "writing files", "-O": "writing files",
    "--remote-name": "writing files", "-T": "uploading files", "--upload-file": "uploading files",
    "-F": "multipart forms", "--form": "multipart forms", "-K": "config files",
    "--config": "config files", "-x": "proxies", "--proxy": "proxies", "--unix-socket": "sockets",
    "-c": "cookie files", "--cookie-jar": "cookie files", "-b": "cookie files",
    "--cookie": "cookie files", "-D": "writing files", "--dump-header": "writing files",
}  # fmt: skip


@dataclass(frozen=True)
class CurlCommand:
    """A parsed curl command."""

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: str = ""

    def to_request(self, extra_headers: Mapping[str, str] | None = None) -> Request:
        """The request, with ``extra_headers`` added where the command did not set them."""
        headers = dict(self.headers)
        lowered = {k.lower() for k in headers}
        for key, value in (extra_headers or {}).items():
            if key.lower() not in lowered:
                headers[key] = value
        return Request.build(self.method, self.url, headers, self.body)


def _refuse(message: str) -> ToolCallError:
    return ToolCallError(NON_EXECUTABLE, message)


_SIMPLE_WORD = re.compile(r"[ \t\r]*(?:'([^']*)'|([^ \t\r\n'\"\\]+))(?=[ \t\r]|$)")
_SHELL_CHARS = frozenset(";|&<>`$")


def simple_words(line: str) -> list[str] | None:
    """The words of a line made only of plain and single-quoted words, else ``None``.

    Most curl lines look like ``curl -X GET 'https://...'``; for them this gives what
    ``shlex.split`` gives, at a fraction of the cost, and they hold nothing a shell would
    interpret. Any other line (double quotes, escapes, a quote inside a word, an operator, a
    ``$``, several lines) gets ``None`` and goes through the full rules.

    >>> simple_words("curl -X GET 'https://a.b/c?x=1&y=2'")
    ['curl', '-X', 'GET', 'https://a.b/c?x=1&y=2']
    >>> simple_words("curl 'a'b") is None, simple_words("curl a;b") is None
    (True, True)
    """
    if "\n" in line:
        return None
    words: list[str] = []
    pos, end = 0, len(line)
    while pos < end:
        match = _SIMPLE_WORD.match(line, pos)
        if match is None:
            return None if line[pos:].strip(" \t\r") else words
        quoted, plain = match.groups()
        if plain is not None and not _SHELL_CHARS.isdisjoint(plain):
            return None
        words.append(quoted if quoted is not None else plain)
        pos = match.end()
    return words


def _check_shell_syntax(line: str) -> None:
    """Refuse what a shell would interpret outside single quotes (we never run a shell)."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote == "'":
            if c == "'":
                quote = ""
        elif c == "\\" and i + 1 < len(line):
            i += 1
        elif quote == '"':
            if c == '"':
                quote = ""
            elif c == "`" or line.startswith("$(", i):
                raise _refuse("command substitution ($(...) or backticks) is not allowed")
            elif c == "$" and i + 1 < len(line) and (line[i + 1].isalnum() or line[i + 1] in "_{"):
                raise _refuse("shell variables ($NAME) are not allowed; write the value")
        else:
            if c in "'\"":
                quote = c
            elif c == "`" or line.startswith("$(", i):
                raise _refuse("command substitution ($(...) or backticks) is not allowed")
            elif c == "$" and i + 1 < len(line) and (line[i + 1].isalnum() or line[i + 1] in "_{"):
                raise _refuse("shell variables ($NAME) are not allowed; write the value")
            elif c in ";|&<>":
                raise _refuse(
                    f"the shell operator {c!r} is not allowed: one curl command per action"
                )
            elif c == "\n":
                raise _refuse("one curl command per action; got several lines")
        i += 1
    if quote:
        raise _refuse(f"unterminated {quote} quote in the curl command")


def parse_curl(line: str, allowed_hosts: Iterable[str] | None = None) -> CurlCommand:
    r"""Parse one curl command line (see the module docstring).

    Args:
        line: the command, starting with ``curl``.
        allowed_hosts: host names the command may address (``None``: any host).

    Raises:
        ToolCallError: ``non_executable``, saying what was expected.

    >>> c = parse_curl("curl -X POST 'https://api.thecatapi.com/v1/votes' -d '{\"value\": 1}'")
    >>> (c.method, c.url, c.body)
    ('POST', 'https://api.thecatapi.com/v1/votes', '{"value": 1}')
    """
    if not isinstance(line, str):
        raise _refuse(f"a curl action must be a string; got {type(line).__name__}")
    line = line.strip()
    if len(line) > MAX_CURL_CHARS:
        raise _refuse(f"the curl command has {len(line)} characters; at most {MAX_CURL_CHARS}")
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        raise _refuse(
            "the curl command holds text that is not valid Unicode (a lone surrogate)"
        ) from None
    # A trailing backslash-newline is a line continuation, as in a shell.
    line = line.replace("\\\r\n", " ").replace("\\\n", " ")
    words = simple_words(line)
    if words is None:  # quotes inside words, escapes, operators: the full rules
        _check_shell_syntax(line)
        try:
            words = shlex.split(line, posix=True)
        except ValueError as e:
            raise _refuse(f"cannot split the curl command into words ({e})") from None
    if not words or words[0] != "curl":
        shown = line[:60]
        raise _refuse(f"expected a command starting with 'curl'; got {shown!r}")
    method: str | None = None
    url: str | None = None
    headers: dict[str, str] = {}
    data: list[str] = []
    get_mode = False
    i = 1

    def value(option: str) -> str:
        nonlocal i
        if i + 1 >= len(words):
            raise _refuse(f"curl option {option} needs a value")
        i += 1
        return words[i]

    while i < len(words):
        word = words[i]
        option, eq, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        if not eq:
            inline = ""
        if word in _FLAGS_NO_ARG:
            pass
        elif option in _REFUSED_OPTS:
            raise _refuse(f"curl option {option} ({_REFUSED_OPTS[option]}) is not allowed")
        elif option in ("-X", "--request") or (word.startswith("-X") and len(word) > 2):
            method = inline or (
                word[2:] if word.startswith("-X") and len(word) > 2 else value(word)
            )
            method = method.upper()
        elif option in ("-H", "--header"):
            header = inline or value(word)
            name, colon, content = header.partition(":")
            if not colon or not name.strip():
                raise _refuse(f"a header must look like 'Name: value'; got {header!r}")
            headers[name.strip()] = content.strip()
        elif option in _DATA_OPTS or (word.startswith("-d") and len(word) > 2):
            payload = inline or (
                word[2:] if word.startswith("-d") and len(word) > 2 else value(word)
            )
            if payload.startswith("@") and option != "--data-raw":
                raise _refuse("reading the body from a file (-d @file) is not allowed")
            if option == "--json":
                headers.setdefault("Content-Type", "application/json")
                headers.setdefault("Accept", "application/json")
            data.append(payload)
        elif option == "--data-urlencode":
            payload = inline or value(word)
            name, eq2, content = payload.partition("=")
            data.append(urlencode({name: content}) if eq2 else urlencode({"": payload})[1:])
        elif option in ("-G", "--get"):
            get_mode = True
        elif option == "--url":
            url = inline or value(word)
        elif option in ("-A", "--user-agent"):
            headers["User-Agent"] = inline or value(word)
        elif option in ("-u", "--user"):
            value(word)  # credentials are accepted and ignored by the simulators
        elif option in ("-m", "--max-time", "--connect-timeout", "--retry"):
            value(word)
        elif word.startswith("-") and word != "-":
            raise _refuse(f"unsupported curl option {word!r}")
        elif url is None:
            url = word
        else:
            raise _refuse(f"one URL per curl command; got a second one: {word[:60]!r}")
        i += 1
    if url is None:
        raise _refuse("the curl command has no URL")
    body = "&".join(data)
    if get_mode and body:
        url = f"{url}{'&' if '?' in url else '?'}{body}"
        body = ""
    if method is None:
        method = "POST" if body else "GET"
    _check_url(url, allowed_hosts)
    return CurlCommand(method, url, headers, body)


def _check_url(url: str, allowed_hosts: Iterable[str] | None) -> None:
    try:
        parts = urlsplit(url if "://" in url else f"https://{url}")
        hostname = parts.hostname
    except ValueError as e:  # an unclosed [IPv6], a netloc that NFKC-normalizes to "@" or ":"
        raise _refuse(f"not a valid URL ({e}): {url[:60]!r}") from None
    if parts.scheme not in ("http", "https"):
        raise _refuse(f"only http(s) URLs are allowed; got the scheme {parts.scheme!r}")
    host = (hostname or "").lower()
    if allowed_hosts is not None:
        allowed = sorted(h.lower() for h in allowed_hosts)
        if host not in allowed:
            raise _refuse(
                f"the host {host or url[:40]!r} is not simulated here; allowed: {', '.join(allowed)}"
            )


def first_curl_line(text: str) -> str:
    r"""The first line that starts with ``curl`` after stripping, else the whole stripped text.

    This is the original benchmark's action extraction for the REST tools.

    >>> first_curl_line("Sure:\n  curl -X GET 'https://a.b/c'\nDone")
    "curl -X GET 'https://a.b/c'"
    """
    for line in text.splitlines():
        if line.strip().startswith("curl"):
            return line.strip()
    return text.strip()


def parse_curl_cached(line: str, allowed_hosts: tuple[str, ...] | None = None) -> CurlCommand:
    """:func:`parse_curl`, remembering the commands of short lines that parse (golds, mostly).

    Lines over 1,024 characters are parsed every time, so agent text cannot fill the memory
    through the cache. The command is shared: treat it as read-only
    (:meth:`CurlCommand.to_request` copies).
    """
    if len(line) > 1024:
        return parse_curl(line, allowed_hosts)
    return _parse_cached(line, allowed_hosts)


@functools.lru_cache(maxsize=2048)
def _parse_cached(line: str, allowed_hosts: tuple[str, ...] | None) -> CurlCommand:
    return parse_curl(line, allowed_hosts)


def clear_parse_cache() -> None:
    """Forget the commands :func:`parse_curl_cached` remembers."""
    _parse_cached.cache_clear()

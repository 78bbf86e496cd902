"""A backend for any OpenAI-compatible HTTP server (vLLM, Ollama, TGI, llama.cpp server, APIs).

Requests go through :mod:`requests` (no OpenAI SDK), one prompt at a time, greedily. Stop
sequences are sent to the server (at most four: the OpenAI limit) *and* applied locally to the
returned text, so every stop is honoured exactly whatever the server supports.

Configuration falls back to environment variables: ``TOOLGYM_BASE_URL`` / ``OPENAI_BASE_URL``
(default ``http://127.0.0.1:8000/v1``), ``TOOLGYM_API_KEY`` / ``OPENAI_API_KEY`` (optional: many
local servers need none) and ``TOOLGYM_MODEL``.
"""

from __future__ import annotations

import email.utils
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import requests

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    PromptRejected,
    apply_stops,
    as_messages,
    as_text,
    merge_stops,
)
from toolgym.errors import InfrastructureError, ToolgymError
from toolgym.tools.grammar import ActionGrammar

DEFAULT_BASE_URL = "http://127.0.0.1:8000/v1"
MAX_SERVER_STOPS = 4
"""OpenAI accepts at most four stop strings; the rest are applied locally only."""
MAX_BACKOFF = 30.0
"""The cap (seconds) of the exponential backoff between retries."""
MAX_RETRY_AFTER = 120.0
"""The longest ``Retry-After`` (seconds) honoured; longer waits are shortened to this."""
ENDPOINTS = {"chat": "/chat/completions", "completions": "/completions"}


class BackendError(ToolgymError):
    """The server answered with an error (or an answer that cannot be read).

    Its subclasses say whose failure it is: :class:`RequestRejected` (this one request, for
    example a prompt longer than the model's context) is recorded as the agent's error; every
    other one is an :class:`~toolgym.errors.InfrastructureError` that stops an evaluation.

    Attributes:
        status: the HTTP status code, or ``None`` when there was no HTTP answer.
        message: the server's error message (API key redacted).
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class BackendFailing(BackendError, InfrastructureError):
    """The server failed: not the request but the server, its key or its address.

    It failed after its retries (5xx, 429, timeouts), refused the key or the model (401, 403,
    404), or answered with something that is not an OpenAI answer.
    """


class BackendUnavailable(BackendFailing, ConnectionError):
    """The server could not be reached at all (connection refused, unknown host, ...)."""


class RequestRejected(BackendError, PromptRejected):
    """The server rejected this one request (a 4xx other than 401, 403, 404, 429)."""


GRAMMAR_FIELDS = {"vllm": "structured_outputs", "guided": "guided_grammar", "llamacpp": "grammar"}
"""The request field that carries a GBNF grammar, by server kind."""

INFRASTRUCTURE_STATUSES = frozenset({401, 403, 404, 405, 407, 408, 429})
"""4xx answers that say the server, key or URL is wrong, not the request."""


def _env(*names: str) -> str | None:
    """The first of the environment variables ``names`` that is set and not empty."""
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


class OpenAIBackend(LLMBackend):
    """Generations from an OpenAI-compatible ``/chat/completions`` or ``/completions`` endpoint.

    Example:
        >>> backend = OpenAIBackend("my-model", base_url="http://127.0.0.1:8000/v1")
        >>> backend.name
        'openai:my-model'
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        endpoint: str = "chat",
        system: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 5,
        backoff: float = 1.0,
        temperature: float = 0.0,
        native_tools: bool = False,
        grammar_format: str | None = None,
        session: requests.Session | None = None,
        sleep: Callable[[float], Any] = time.sleep,
    ) -> None:
        """Configure the backend (nothing is sent until :meth:`generate`).

        Args:
            model: the model name sent to the server; defaults to ``$TOOLGYM_MODEL``.
            base_url: the API root (ending in ``/v1`` for most servers); defaults to
                ``$TOOLGYM_BASE_URL``, then ``$OPENAI_BASE_URL``, then ``http://127.0.0.1:8000/v1``.
            api_key: the bearer token; defaults to ``$TOOLGYM_API_KEY``, then
                ``$OPENAI_API_KEY``; when none is set no ``Authorization`` header is sent.
            endpoint: ``"chat"`` (``/chat/completions``) or ``"completions"`` (``/completions``).
            system: a system message put first in chat prompts that have none.
            timeout: seconds to wait for each HTTP request.
            max_retries: retries after a 429, a 5xx, a connection error or a timeout.
            backoff: the first wait between retries in seconds; doubled each retry, capped at
                30 s; a ``Retry-After`` header on 429/503 answers takes precedence.
            temperature: the sampling temperature (0: greedy).
            native_tools: send ``tools`` to the server and return its tool calls.
            grammar_format: how the server takes an action grammar (constrained decoding):
                ``"vllm"`` (``structured_outputs.grammar``, vLLM 0.10+ and SGLang-style servers),
                ``"guided"`` (``guided_grammar``, older vLLM), ``"llamacpp"`` (``grammar``,
                llama.cpp's server) or ``None``: grammars are not sent (a server that does not
                know the field may reject the request).
            session: a :class:`requests.Session` to use (one is created otherwise).
            sleep: the function used to wait between retries (injectable for tests).

        Raises:
            ValueError: no model given and ``$TOOLGYM_MODEL`` unset, or an unknown endpoint.
        """
        model = model or _env("TOOLGYM_MODEL")
        if not model:
            raise ValueError(
                "OpenAIBackend needs a model name: pass model=... (--model) "
                "or set the TOOLGYM_MODEL environment variable"
            )
        if endpoint not in ENDPOINTS:
            raise ValueError(f"endpoint must be one of {sorted(ENDPOINTS)}, not {endpoint!r}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, not {max_retries}")
        self.model = model
        self.base_url = (
            base_url or _env("TOOLGYM_BASE_URL", "OPENAI_BASE_URL") or DEFAULT_BASE_URL
        ).rstrip("/")
        self._api_key = (
            api_key if api_key is not None else _env("TOOLGYM_API_KEY", "OPENAI_API_KEY")
        )
        self.endpoint = endpoint
        self.url = self.base_url + ENDPOINTS[endpoint]
        self.system = system
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.temperature = temperature
        self.native_tools = native_tools
        if grammar_format not in (None, *GRAMMAR_FIELDS):
            raise ValueError(
                f"grammar_format must be one of {sorted(GRAMMAR_FIELDS)} or None; "
                f"got {grammar_format!r}"
            )
        self.grammar_format = grammar_format
        self._own_session = session is None
        self.session = session if session is not None else requests.Session()
        self._sleep = sleep
        self.name = f"openai:{model}"

    @property
    def native_tool_calling(self) -> bool:
        """Whether tools are sent and tool calls returned (``native_tools`` on a chat endpoint)."""
        return self.native_tools and self.endpoint == "chat"

    def __repr__(self) -> str:  # never shows the API key
        return (
            f"{type(self).__name__}(model={self.model!r}, url={self.url!r}, "
            f"api_key={'set' if self._api_key else 'unset'})"
        )

    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int = 128,
        stop: Sequence[str] = DEFAULT_STOPS,
        tools: list[dict[str, Any]] | None = None,
        grammars: Sequence[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """One generation per prompt, requested sequentially.

        Args:
            prompts: texts or chat-message lists.
            max_new_tokens: ``max_tokens`` of each request.
            stop: stop sequences; the first four go to the server, all are applied locally.
            tools: OpenAI function schemas, sent only when ``native_tools`` is on (chat only).
            grammars: per prompt, an action grammar, sent in the field of ``grammar_format``
                (ignored without one). The server enforces its GBNF; the once-per-line rules
                of API programs are enforced only by local decoding.

        Returns:
            The generations, in prompt order.

        Raises:
            BackendUnavailable: the server cannot be reached.
            BackendFailing: the server failed after the retries, or refused the key or model.
            RequestRejected: the server rejected one request (the agent's failure).
        """
        stops = merge_stops(stop)
        grammars = list(grammars) if grammars is not None else [None] * len(prompts)
        return [
            self._generate_one(p, max_new_tokens, stops, tools, g)
            for p, g in zip(prompts, grammars, strict=True)
        ]

    def close(self) -> None:
        """Close the HTTP session when this backend created it."""
        if self._own_session:
            self.session.close()

    # -- internals ---------------------------------------------------------------------------

    def _payload(
        self,
        prompt: Prompt,
        max_new_tokens: int,
        stops: list[str],
        tools: list[dict] | None,
        grammar: ActionGrammar | None = None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": self.model}
        if self.endpoint == "chat":
            payload["messages"] = as_messages(prompt, self.system)
        else:
            payload["prompt"] = as_text(prompt)
        payload["max_tokens"] = max_new_tokens
        payload["temperature"] = self.temperature
        if stops:
            payload["stop"] = stops[:MAX_SERVER_STOPS]
        if self.native_tools and tools and self.endpoint == "chat":
            payload["tools"] = tools
        if grammar is not None and self.grammar_format is not None:
            field = GRAMMAR_FIELDS[self.grammar_format]
            if field == "structured_outputs":
                payload[field] = {"grammar": grammar.gbnf}
            else:
                payload[field] = grammar.gbnf
        return payload

    def _generate_one(
        self,
        prompt: Prompt,
        max_new_tokens: int,
        stops: list[str],
        tools: list[dict] | None,
        grammar: ActionGrammar | None = None,
    ) -> Generation:
        reply = self._post(self._payload(prompt, max_new_tokens, stops, tools, grammar))
        try:
            choice = reply["choices"][0]
            if self.endpoint == "chat":
                message = choice.get("message") or {}
                raw_text = message.get("content") or ""
                tool_calls = message.get("tool_calls") or None
            else:
                raw_text = choice.get("text") or ""
                tool_calls = None
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise BackendFailing(
                f"unexpected answer from {self.url}: no choices[0] ({self._redact(str(reply))[:200]})",
                200,
            ) from exc
        text, cut = apply_stops(raw_text, stops)
        server_reason = choice.get("finish_reason")
        if tool_calls and self.native_tools:
            finish_reason = "tool_calls"
        elif cut:
            finish_reason = "stop"
        elif server_reason == "length":
            finish_reason = "length"
        else:
            finish_reason = "stop"
        usage = reply.get("usage") or {}
        return Generation(
            text=text,
            finish_reason=finish_reason,
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
            tool_calls=list(tool_calls) if tool_calls and self.native_tools else None,
            extra={"server_finish_reason": server_reason},
        )

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _redact(self, text: str) -> str:
        """``text`` with the API key (should a server echo it) replaced by ``***``."""
        return text.replace(self._api_key, "***") if self._api_key else text

    def _delay(self, attempt: int, response: requests.Response | None) -> float:
        """Seconds to wait before retry number ``attempt + 1``."""
        if response is not None and response.status_code in (429, 503):
            retry_after = _parse_retry_after(response.headers.get("Retry-After"))
            if retry_after is not None:
                return min(retry_after, MAX_RETRY_AFTER)
        return min(self.backoff * (2**attempt), MAX_BACKOFF)

    def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        """POST ``payload`` to the endpoint, retrying transient failures; the decoded JSON."""
        attempt = 0
        while True:
            response: requests.Response | None = None
            failure: BackendError
            try:
                response = self.session.post(
                    self.url, json=payload, headers=self._headers(), timeout=self.timeout
                )
            except requests.ConnectionError as exc:  # includes ConnectTimeout
                failure = BackendUnavailable(
                    f"cannot reach the OpenAI-compatible server at {self.url} "
                    f"({type(exc).__name__}; tried {attempt + 1} time(s)): is the server running? "
                    "start one (e.g. `vllm serve MODEL`, `ollama serve`, `llama-server -m FILE`) "
                    "or point to it with --base-url or TOOLGYM_BASE_URL"
                )
            except requests.Timeout:
                failure = BackendFailing(
                    f"no answer from {self.url} within {self.timeout} s "
                    f"(tried {attempt + 1} time(s)); raise the timeout or check the server"
                )
            except requests.RequestException as exc:  # bad URL and the like: not transient
                raise BackendFailing(
                    f"request to {self.url} failed: {self._redact(str(exc))}"
                ) from None
            else:
                status = response.status_code
                if status < 400:
                    try:
                        data = response.json()
                    except ValueError:
                        data = None
                    if not isinstance(data, dict):
                        raise BackendFailing(
                            f"{self.url} answered {status} with a body that is not a JSON "
                            f"object: {self._redact(response.text)[:200]!r}",
                            status,
                        )
                    return data
                message = f"{self.url} answered HTTP {status}: {self._error_message(response)}"
                if status < 500 and status not in INFRASTRUCTURE_STATUSES:
                    raise RequestRejected(message, status)
                failure = BackendFailing(message, status)
                if status not in (408, 429) and status < 500:
                    raise failure
            if attempt >= self.max_retries:
                raise failure
            self._sleep(self._delay(attempt, response))
            attempt += 1

    def _error_message(self, response: requests.Response) -> str:
        """The server's error message from an error answer (OpenAI format or plain text)."""
        message: Any = None
        try:
            data = response.json()
        except ValueError:
            data = None
        if isinstance(data, dict):
            error = data.get("error", data.get("message", data.get("detail")))
            message = (error.get("message") or error) if isinstance(error, dict) else error
        if not message:
            message = response.text.strip() or response.reason or "no message"
        return self._redact(str(message))[:1000]


def _parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), or ``None``.

    >>> _parse_retry_after("2"), _parse_retry_after(None), _parse_retry_after("soon")
    (2.0, None, None)
    """
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - time.time())

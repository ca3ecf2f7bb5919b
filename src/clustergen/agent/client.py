"""The chat client: the OpenAI SDK pointed at NIM (or any OpenAI-compatible server), with
tenacity retries and a view of each response that the loop can use without touching the SDK.

The SDK's own retries are off (max_retries=0) so the two never stack: tenacity alone retries 429
(honouring Retry-After), 5xx, timeouts and dropped connections, within a total time budget.
The HTTP client is an explicit httpx.Client so tests (respx) and replays see every request.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import openai
from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    stop_after_delay,
    stop_any,
    wait_exponential_jitter,
)
from tenacity.stop import stop_base

from clustergen.agent.reply import (
    MAX_CONTENT_CHARS,
    ChatReply,
    Malformed,
    count,
    tool_calls,
)
from clustergen.agent.settings import AgentSettings
from clustergen.agent.wire import MAX_REPLY_BYTES, ReplyLimitError, guard_client
from clustergen.errors import AgentError, ConfigError
from clustergen.redact import redact, remember
from clustergen.units import plural


class ToolsUnsupported(Exception):
    """The endpoint answered 400 to a request with `tools`: fall back to the JSON protocol."""


@dataclass
class CallStats:
    """Totals over a run's model calls."""

    calls: int = 0
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    retries: list[str] = field(default_factory=list)


def _limit_broken(exc: BaseException) -> ReplyLimitError | None:
    """The reply limit `exc` stands for (the SDK wraps what the transport raised), if any."""
    seen: set[int] = set()
    inner: BaseException | None = exc
    while inner is not None and id(inner) not in seen:
        if isinstance(inner, ReplyLimitError):
            return inner
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    return None


def _retryable(exc: BaseException) -> bool:
    if _limit_broken(exc) is not None:
        return False  # a reply too slow or too large would be so again
    if isinstance(exc, openai.RateLimitError | openai.APITimeoutError | openai.APIConnectionError):
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code >= 500 or exc.status_code == 429
    # A 200 whose body is cut short or not JSON: the next attempt usually succeeds.
    return isinstance(exc, openai.APIResponseValidationError | json.JSONDecodeError)


def retry_after_s(exc: BaseException | None) -> float | None:
    """Seconds the server asked us to wait (Retry-After as seconds or an HTTP date), if any."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        if parsed is None:
            return None
        return max(0.0, parsed.timestamp() - time.time())


class _Wait:
    """Retry-After when the server gives one (capped), exponential backoff with jitter otherwise."""

    def __init__(self, cap_s: float) -> None:
        self.cap_s = cap_s
        self.backoff = wait_exponential_jitter(initial=1.0, max=20.0, jitter=1.0)

    def __call__(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        asked = retry_after_s(exc)
        if asked is not None:
            return min(asked, self.cap_s)
        return min(self.backoff(state), self.cap_s)


class _SleptOver(stop_base):
    """Stop when the next wait would take the waits past the budget (counted from the waits tenacity
    planned, so the limit holds whatever the clock does, and in tests with an injected sleep)."""

    def __init__(self, budget_s: float) -> None:
        self.budget_s = budget_s

    def __call__(self, retry_state: RetryCallState) -> bool:
        # the wait about to start counts: never sleep past the budget only to give up after it
        return retry_state.idle_for + retry_state.upcoming_sleep > self.budget_s


def _describe(exc: BaseException) -> str:
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    return type(exc).__name__


class ChatClient:
    """Chat completions with retries. `sleep` is injectable so tests do not wait."""

    def __init__(
        self,
        settings: AgentSettings,
        *,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        key = settings.key()
        if key is None and not settings.self_hosted():
            raise ConfigError(
                "no NVIDIA_API_KEY set",
                hint="export NVIDIA_API_KEY or put it in .env, or run with --offline",
            )
        # Never in clear text to another host unless the user allowed it (the CLI announced the
        # route already; this holds for every caller).
        settings.check_key_route()
        # Whatever the server answers may echo the key back: every error text passes `redact`
        # (and so does a password written into the base URL).
        remember(key)
        remember(urlsplit(settings.base_url).password)
        self.settings = settings
        self.sleep = sleep
        timeout = settings.request_timeout_s()
        #: time.monotonic() by which the whole run must end (the agent sets it); every reply is
        #: read within it and within `timeout` of its request, however the bytes trickle in.
        self.run_deadline: float | None = None
        self._http = guard_client(
            http_client or httpx.Client(timeout=httpx.Timeout(timeout, connect=min(10.0, timeout))),
            lambda: self.run_deadline,
            timeout,
        )
        self._sdk = openai.OpenAI(
            # A self-hosted endpoint without auth still gets a bearer token: the SDK requires one,
            # and such servers ignore it.
            api_key=key or "no-key",
            base_url=settings.base_url,
            max_retries=0,
            timeout=timeout,
            # openai 3.x types this as httpx2.Client but accepts httpx.Client, and only an httpx
            # client is seen by respx (tests) and by the replay transport.
            http_client=self._http,  # type: ignore[arg-type]
        )
        self.stats = CallStats()
        self._dropped: set[str] = set()
        #: Told of every retry, wait and dropped parameter (the agent's trace listens here).
        self.on_event: Callable[..., None] = _ignore

    def _note_retry(self, state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        what = _describe(exc) if exc is not None else "?"
        self.stats.retries.append(what)
        self.on_event(
            "retry",
            error=what,
            attempt=state.attempt_number,
            wait_s=round(state.upcoming_sleep, 3),
            retry_after_s=retry_after_s(exc),
        )

    def close(self) -> None:
        self._http.close()

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> ChatReply:
        """One chat completion. Raises ToolsUnsupported on a 400 to a tools request, AgentError
        when the endpoint keeps failing or refuses the request."""
        kwargs: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "temperature": self.settings.temperature,
            "max_tokens": self.settings.completion_budget(),
        }
        if tools:
            kwargs["tools"] = tools
            kwargs["tool_choice"] = "auto"
        for name in self._dropped:
            kwargs.pop(name, None)
        while True:
            try:
                return self._complete(kwargs, tools)
            except _Refused as refused:
                param = _refused_param(refused.message, kwargs)
                if param is None:
                    raise refused.error from None
                # Servers differ on optional parameters (reasoning models fix the temperature,
                # a small context refuses the completion budget, a server without a tool parser
                # refuses tool_choice): drop the one named, for the rest of the run.
                self._dropped.add(param)
                kwargs.pop(param)
                self.on_event("parameter_dropped", parameter=param, refusal=refused.message)

    def _complete(self, kwargs: dict[str, Any], tools: list[dict[str, Any]] | None) -> ChatReply:
        started = time.monotonic()
        retrying = Retrying(
            retry=retry_if_exception(_retryable),
            wait=_Wait(cap_s=max(self.settings.retry_budget_s, 0.0)),
            stop=stop_any(
                stop_after_attempt(self.settings.max_attempts),
                stop_after_delay(self.settings.retry_budget_s),
                _SleptOver(self.settings.retry_budget_s),
                _PastDeadline(lambda: self.run_deadline),
            ),
            sleep=self.sleep,
            reraise=True,
            before_sleep=self._note_retry,
        )
        try:
            completion = retrying(self._sdk.chat.completions.create, **kwargs)
        except ReplyLimitError as exc:
            raise _limit_error(exc) from None
        except RecursionError:
            raise AgentError(
                "the model endpoint sent a malformed reply (JSON nested too deeply)"
            ) from None
        except UnicodeError:
            # a body that is not UTF-8 (or not in the charset it names): the SDK's JSON decoder
            # raises UnicodeDecodeError, which is no JSONDecodeError
            raise AgentError(
                "the model endpoint sent a malformed reply (its body is not UTF-8 text)"
            ) from None
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            # 400 from NIM and vLLM, 422 from servers that validate the body with a schema
            # without a `tools` field.
            error: Exception = (
                ToolsUnsupported(redact(str(exc)))
                if tools and not _context_full(_brief(exc))
                else AgentError(
                    f"the model endpoint refused the request (HTTP {exc.status_code}): "
                    f"{_brief(exc)}",
                    hint=_CONTEXT_HINT if _context_full(_brief(exc)) else None,
                )
            )
            raise _Refused(_brief(exc), error) from None
        except openai.AuthenticationError:
            raise AgentError(
                "the model endpoint rejected the API key (HTTP 401)",
                hint="check NVIDIA_API_KEY",
            ) from None
        except openai.NotFoundError:
            raise AgentError(
                f"model {self.settings.model!r} or endpoint {self.settings.base_url} not found (404)",
                hint="check CLUSTERGEN_MODEL and CLUSTERGEN_BASE_URL",
            ) from None
        except openai.APIStatusError as exc:
            raise AgentError(
                f"the model endpoint failed: HTTP {exc.status_code} after "
                f"{plural(retrying.statistics.get('attempt_number', 1), 'attempt')}"
            ) from None
        except (openai.APIError, json.JSONDecodeError) as exc:
            broken = _limit_broken(exc)
            if broken is not None:
                raise _limit_error(broken) from None
            raise self._unreachable(
                exc, int(retrying.statistics.get("attempt_number", 1))
            ) from None
        latency = time.monotonic() - started
        attempts = int(retrying.statistics.get("attempt_number", 1))
        return self._reply(completion, latency, attempts)

    def _unreachable(self, exc: BaseException, attempts: int) -> AgentError:
        """The error for an endpoint that stopped answering: one that timed out, one that
        answered earlier in this run and no longer does (it died mid-run), or one never reached."""
        url = self.settings.base_url
        tried = f"after {plural(attempts, 'attempt')}"
        if isinstance(exc, openai.APITimeoutError):
            limit = self.settings.request_timeout_s()
            return AgentError(
                f"the model endpoint at {url} did not answer within {limit:g} s ({tried})",
                hint="a slow (CPU) server needs a longer CLUSTERGEN_TIMEOUT_S",
            )
        if isinstance(exc, openai.APIConnectionError) and self.stats.calls:
            return AgentError(
                f"the model endpoint at {url} stopped answering mid-run: it gave "
                f"{self.stats.calls} repl{'y' if self.stats.calls == 1 else 'ies'}, then the "
                f"connection failed ({_cause(exc)}, {tried}); the server may have crashed",
                hint="check the server's log; restart it and run again",
            )
        return AgentError(
            f"the model endpoint failed: {type(exc).__name__} ({_cause(exc)}) {tried}",
            hint=f"is {url} reachable?",
        )

    def _reply(self, completion: Any, latency: float, attempts: int) -> ChatReply:
        """The SDK's completion as a ChatReply. The SDK builds it without validation, so any
        field may be missing, null or of another type: each is checked, and a reply that is not
        a chat completion is one AgentError naming what was wrong (the default mode then gives
        the planner's design), never an AttributeError."""
        try:
            choices = getattr(completion, "choices", None)
            if not choices or not isinstance(choices, list):
                raise Malformed("no choices")
            choice = choices[0]
            msg = getattr(choice, "message", None)
            if msg is None:
                raise Malformed("a null message")
            content = getattr(msg, "content", None)
            if content is not None and not isinstance(content, str):
                raise Malformed(f"message content of type {type(content).__name__}")
            if content is not None and len(content) > MAX_CONTENT_CHARS:
                raise Malformed(
                    f"{len(content):,} characters of text; at most {MAX_CONTENT_CHARS:,} are read"
                )
            calls = tool_calls(getattr(msg, "tool_calls", None))
            usage = getattr(completion, "usage", None)
            prompt = count(getattr(usage, "prompt_tokens", 0))
            done = count(getattr(usage, "completion_tokens", 0))
            finish = getattr(choice, "finish_reason", None)
        except Malformed as exc:
            raise AgentError(f"the model endpoint sent a malformed reply ({exc})") from None
        s = self.stats
        s.calls += 1
        s.attempts += attempts
        s.prompt_tokens += prompt
        s.completion_tokens += done
        s.latency_s += latency
        return ChatReply(
            content=content,
            tool_calls=calls,
            finish_reason=finish if isinstance(finish, str) else None,
            prompt_tokens=prompt,
            completion_tokens=done,
            latency_s=latency,
            attempts=attempts,
        )


def _limit_error(broken: ReplyLimitError) -> AgentError:
    return AgentError(
        f"the model endpoint's reply broke a limit: {broken}",
        hint="a reply must arrive whole within CLUSTERGEN_TIMEOUT_S and the run within "
        f"CLUSTERGEN_WALL_S, in at most {MAX_REPLY_BYTES >> 20} MiB",
    )


class _PastDeadline(stop_base):
    """Stop retrying once the run's deadline has passed."""

    def __init__(self, deadline: Callable[[], float | None]) -> None:
        self.deadline = deadline

    def __call__(self, retry_state: RetryCallState) -> bool:
        end = self.deadline()
        return end is not None and time.monotonic() + retry_state.upcoming_sleep >= end


def _ignore(kind: str, **data: Any) -> None:
    """The default listener: events go nowhere."""


def _cause(exc: BaseException) -> str:
    """What broke underneath an SDK connection error: 'connection refused', 'server
    disconnected', ... (the SDK's own message says only 'Connection error.')."""
    inner = exc.__cause__ or exc.__context__
    text = str(inner or exc).strip() or type(inner or exc).__name__
    return " ".join(text.split())[:120]


class _Refused(Exception):
    """A 400/422: maybe an optional parameter the endpoint does not take, else `error`."""

    def __init__(self, message: str, error: Exception) -> None:
        super().__init__(message)
        self.message = message
        self.error = error


# What a refusal says when it is about one optional parameter (the name as the server writes it).
_OPTIONAL_PARAMS = {
    "temperature": ("temperature",),
    "max_tokens": (
        "max_tokens",
        "max tokens",
        "maximum context",
        "context length",
        "max_model_len",
    ),
    "tool_choice": ("tool_choice", "tool choice"),
}


# A prompt longer than the server's context: no parameter to drop and no protocol to switch to
# helps (llama.cpp's server says "Requested tokens (N) exceed context window of M").
_CONTEXT_FULL = ("exceed context window", "exceeds the context window", "prompt is too long")
_CONTEXT_HINT = (
    "serve the model with a longer context (llama.cpp's server: --n_ctx 12288); "
    "a design run needs about 8,000 tokens"
)


def _context_full(message: str) -> bool:
    text = message.lower()
    return any(s in text for s in _CONTEXT_FULL)


def _refused_param(message: str, kwargs: dict[str, Any]) -> str | None:
    if _context_full(message):
        return None
    text = message.lower()
    for name, says in _OPTIONAL_PARAMS.items():
        if name in kwargs and any(s in text for s in says):
            return name
    return None


def _brief(exc: openai.APIStatusError) -> str:
    """The server's own words for a refusal, short, with any credential it echoed masked."""
    body = exc.body
    text = str(exc)
    if isinstance(body, dict):
        msg = body.get("message") or body.get("detail") or body.get("error")
        if isinstance(msg, dict):
            msg = msg.get("message")
        if msg:
            text = str(msg)
    # Redact before cutting: a key cut in half would no longer match.
    return redact(text)[:200]

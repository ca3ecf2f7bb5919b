"""Agent settings from the environment or a `.env` file. The key is a SecretStr: it never prints."""

from __future__ import annotations

import os
from ipaddress import ip_address
from urllib.parse import urlsplit

from pydantic import Field, PrivateAttr, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from clustergen.errors import ConfigError
from clustergen.untrusted import DataError, read_regular

DEFAULT_BASE_URL = "https://integrate.api.nvidia.com/v1"
# NIM for LLMs 1.10 "Function (Tool) Calling": tool calling is supported and enabled for the
# Llama 3.1, 3.2 and 3.3 models (docs.nvidia.com/nim/large-language-models/1.10.0/function-calling.html).
DEFAULT_MODEL = "meta/llama-3.3-70b-instruct"
# Hosted NIM answers a turn in seconds. A self-hosted server may run on CPUs: it reads the whole
# prompt before the first token (minutes for a 7B model on a few cores) and the reply is not
# streamed, so one reply gets ten minutes and a run half an hour.
HOSTED_TIMEOUT_S = 60.0
SELF_HOSTED_TIMEOUT_S = 600.0
HOSTED_WALL_S = 300.0
SELF_HOSTED_WALL_S = 1800.0
HOSTED_COMPLETION_TOKENS = 4096
SELF_HOSTED_COMPLETION_TOKENS = 1024


class AgentSettings(BaseSettings):
    """Where the model is, which one, and the limits of one run."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    api_key: SecretStr | None = Field(default=None, validation_alias="NVIDIA_API_KEY")
    base_url: str = Field(default=DEFAULT_BASE_URL, validation_alias="CLUSTERGEN_BASE_URL")
    model: str = Field(default=DEFAULT_MODEL, validation_alias="CLUSTERGEN_MODEL")
    timeout_s: float | None = Field(
        default=None,
        gt=0,
        validation_alias="CLUSTERGEN_TIMEOUT_S",
        description="seconds to wait for one reply; default 60 for hosted NIM, 600 for a "
        "self-hosted endpoint (a CPU server reads a long prompt before it answers)",
    )
    retry_budget_s: float = Field(
        default=60.0,
        ge=0,
        validation_alias="CLUSTERGEN_RETRY_BUDGET_S",
        description="total time spent retrying one request before giving up",
    )
    max_attempts: int = Field(default=6, ge=1, validation_alias="CLUSTERGEN_MAX_ATTEMPTS")
    max_turns: int = Field(default=16, ge=1, validation_alias="CLUSTERGEN_MAX_TURNS")
    max_tokens: int = Field(
        default=400_000,
        ge=1000,
        validation_alias="CLUSTERGEN_MAX_TOKENS",
        description="prompt + completion tokens over the whole run",
    )
    wall_s: float | None = Field(
        default=None,
        gt=0,
        validation_alias="CLUSTERGEN_WALL_S",
        description="seconds one whole run may take; default 300 hosted, 1800 self-hosted",
    )
    max_repairs: int = Field(default=3, ge=0, validation_alias="CLUSTERGEN_MAX_REPAIRS")
    grounding_rounds: int = Field(default=2, ge=0, validation_alias="CLUSTERGEN_GROUNDING_ROUNDS")
    temperature: float = Field(default=0.0, ge=0, le=2, validation_alias="CLUSTERGEN_TEMPERATURE")
    max_completion_tokens: int | None = Field(
        default=None,
        ge=256,
        validation_alias="CLUSTERGEN_MAX_COMPLETION_TOKENS",
        description="tokens one reply may use: room for the memo (servers default lower or "
        "higher); default 4096 hosted, 1024 self-hosted",
    )

    #: Where base_url came from: "default", "environment", "flag", or ".env" (a file in the
    #: working directory the user did not name on the command line); set by load_settings.
    _base_url_origin: str = PrivateAttr(default="")
    #: A key may travel over plain http to a host other than loopback: only with
    #: --allow-insecure-http or CLUSTERGEN_ALLOW_INSECURE_HTTP=1 in the process environment
    #: (never from .env, which is what the allowance guards against).
    _allow_insecure_http: bool = PrivateAttr(default=False)

    @field_validator("api_key")
    @classmethod
    def _header_safe(cls, value: SecretStr | None) -> SecretStr | None:
        """A key goes in an HTTP header: printable ASCII without spaces, or it is refused here
        in one line (a pasted typographic quote used to crash every mode deep in the HTTP
        library). The message says where and what, never the key."""
        if value is None:
            return None
        problem = header_problem(value.get_secret_value().strip())
        if problem:
            raise ValueError(
                f"{problem}; a key is printable ASCII with no spaces: paste it again as plain text"
            )
        return value

    def key(self) -> str | None:
        """The key, or None when unset or blank."""
        if self.api_key is None:
            return None
        value = self.api_key.get_secret_value().strip()
        return value or None

    def self_hosted(self) -> bool:
        """An endpoint other than hosted NIM: a self-hosted NIM or a local server, which may
        take no key at all."""
        return self.base_url.rstrip("/") != DEFAULT_BASE_URL

    def allowing_insecure_http(self, allow: bool = True) -> AgentSettings:
        """These settings with a key allowed (or not) over plain http to another host."""
        copy = self.model_copy()
        copy._allow_insecure_http = allow
        return copy

    def insecure_http(self) -> bool:
        """Whether the key would travel in clear text: plain http to a host other than loopback
        (a local server on 127.0.0.1 is fine; anything else can be read on the way)."""
        if self.key() is None:
            return False
        url = urlsplit(self.base_url)
        return url.scheme.lower() == "http" and not _is_loopback(url.hostname or "")

    def check_key_route(self) -> None:
        """Refuse to send the key in clear text unless the user allowed it explicitly."""
        if self.insecure_http() and not self._allow_insecure_http:
            host = urlsplit(self.base_url).hostname
            raise ConfigError(
                f"refusing to send NVIDIA_API_KEY in clear text over plain http to {host} "
                f"(CLUSTERGEN_BASE_URL {self._origin_words()})",
                hint="use an https:// URL, unset the key for a server that needs none, or pass "
                "--allow-insecure-http (or export CLUSTERGEN_ALLOW_INSECURE_HTTP=1) if you mean it",
            )

    def key_notice(self) -> str | None:
        """One line announcing where the key goes, when it goes anywhere but hosted NIM or the
        endpoint came from a .env file the user did not name; None when no key is sent or it goes
        where it always does."""
        if self.key() is None:
            return None
        host = urlsplit(self.base_url).hostname or self.base_url
        default_host = urlsplit(DEFAULT_BASE_URL).hostname
        from_dotenv = self._base_url_origin == ".env"
        if host == default_host and not from_dotenv and not self.insecure_http():
            return None
        clear = " in clear text over plain http" if self.insecure_http() else ""
        return (
            f"NVIDIA_API_KEY will be sent{clear} to {host}, not {default_host} "
            f"(CLUSTERGEN_BASE_URL {self._origin_words()}); --offline sends nothing"
            if host != default_host
            else f"NVIDIA_API_KEY will be sent{clear} to {host} "
            f"(CLUSTERGEN_BASE_URL {self._origin_words()})"
        )

    def _origin_words(self) -> str:
        return {
            ".env": f"from {os.path.abspath('.env')}",
            "environment": "from the environment",
            "flag": "from the command line",
        }.get(self._base_url_origin, "as set")

    def request_timeout_s(self) -> float:
        """Seconds to wait for one reply (the whole reply: it is not streamed)."""
        if self.timeout_s is not None:
            return self.timeout_s
        return SELF_HOSTED_TIMEOUT_S if self.self_hosted() else HOSTED_TIMEOUT_S

    def run_limit_s(self) -> float:
        """Seconds one whole design run may take."""
        if self.wall_s is not None:
            return self.wall_s
        return SELF_HOSTED_WALL_S if self.self_hosted() else HOSTED_WALL_S

    def completion_budget(self) -> int:
        """Tokens one reply may use. A self-hosted server on CPUs writes a few tokens a second,
        and keeps writing a reply the client stopped waiting for; a call with a 400-word memo
        needs under 1,000."""
        if self.max_completion_tokens is not None:
            return self.max_completion_tokens
        return SELF_HOSTED_COMPLETION_TOKENS if self.self_hosted() else HOSTED_COMPLETION_TOKENS

    def configured(self) -> bool:
        """Whether a model can be asked: a key for hosted NIM, or an endpoint of the user's own."""
        return self.key() is not None or self.self_hosted()


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_settings(
    model: str | None = None, base_url: str | None = None, *, allow_insecure_http: bool = False
) -> AgentSettings:
    """Settings from the environment and .env, with command-line overrides."""
    if os.path.lexists(".env"):
        # pydantic-settings would block on a FIFO and read a device without end
        try:
            read_regular(".env", 1 << 20)
        except DataError as exc:
            raise ConfigError(f"cannot read .env: {exc}") from None
    try:
        settings = AgentSettings()
    except ValidationError as exc:
        err = exc.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "setting"
        if name == "NVIDIA_API_KEY":  # no "NAME: value" shape, which redaction would mask
            msg = str(err["msg"]).removeprefix("Value error, ")
            raise ConfigError(f"{name} {msg}") from None
        raise ConfigError(f"setting {name}: {err['msg']}") from None
    update = {k: v for k, v in {"model": model, "base_url": base_url}.items() if v}
    settings = settings.model_copy(update=update) if update else settings
    settings._base_url_origin = _origin(settings, base_url)
    settings._allow_insecure_http = allow_insecure_http or os.environ.get(
        "CLUSTERGEN_ALLOW_INSECURE_HTTP", ""
    ).strip().lower() in {"1", "true", "yes"}
    return settings


def _origin(settings: AgentSettings, flag: str | None) -> str:
    if flag:
        return "flag"
    if os.environ.get("CLUSTERGEN_BASE_URL", "").strip():
        return "environment"
    return ".env" if settings.base_url != DEFAULT_BASE_URL else "default"


def header_problem(key: str) -> str | None:
    """What makes `key` unfit for an HTTP header (position and character, never the key), or
    None when it is printable ASCII without whitespace."""
    for i, ch in enumerate(key, 1):
        if not 0x21 <= ord(ch) <= 0x7E:
            what = {"\r": "a carriage return", "\n": "a line feed", "\t": "a tab", " ": "a space"}
            named = what.get(ch) or f"U+{ord(ch):04X}{_char_name(ch)}"
            return f"has {named} at character {i}"
    return None


def _char_name(ch: str) -> str:
    import unicodedata

    name = unicodedata.name(ch, "").lower()
    return f" ({name})" if name else ""

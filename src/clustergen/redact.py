"""Masking credentials in text before it reaches any output, report, recording or trace.

A hostile or careless server may echo the request's `Authorization` header (or an `api-key`) in an
error body or in what its model writes; that text becomes an error message, a trace line, a memo, a
recorded exchange. `redact` masks the secrets it is given, every secret `remember`ed in this process
(the chat client remembers its key), and the value of any credential header or field it can
recognise, whatever the key is.

A secret is masked in every form a server can trivially turn it into: any change of case, reversed,
hex, percent-encoded, and base64 (standard or URL-safe alphabet, with or without padding, at any of
the three byte alignments it can sit at inside a longer encoded text). An NVIDIA key nobody
remembered is still recognised by its prefix, in any case, reversed, or inside base64.
"""

from __future__ import annotations

import base64
import binascii
import re
import threading
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import quote

from pydantic import BaseModel

_Model = TypeVar("_Model", bound=BaseModel)

MASK = "[REDACTED]"

_known: set[str] = set()
_lock = threading.Lock()

# `Authorization: Bearer x`, `"authorization": "Bearer x"`, `'api-key': 'x'`, `x-api-key=x`, ...:
# the name, its separator and optional quote, an optional scheme, then the value.
_CREDENTIAL = re.compile(
    r"""(?ix)
    ( (?:proxy-)?authorization | x-api-key | api[-_ ]?key | access[-_]token )
    ( ["']? \s* [:=] \s* ["']? )
    (?! (?:(?:bearer|basic|token) \s+)? \[REDACTED\] )
    ( (?:bearer|basic|token) \s+ )?
    ( [^\s"',;}\]]+ )
    """
)
# _CREDENTIAL's names alone, on lower-cased text: a text without one cannot match it
_CREDENTIAL_NAME = re.compile(r"authorization|api[-_ ]?key|access[-_]token")
# A bearer token on its own ("... Bearer nvapi-abc ...").
_BEARER = re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})")
# NVIDIA API keys have a recognisable prefix, whatever the case, forwards or reversed.
_NVAPI = re.compile(r"(?i)\bnvapi-[A-Za-z0-9_-]{8,}|[A-Za-z0-9_-]{8,}-ipavn\b")
# A run of base64 (either alphabet) or hex long enough to hide a credential: decoded and checked.
# (The look-behind starts a run only at its first character: without it the scan retries every
# position of every shorter word, most of the cost on a long text.)
_ENCODED_RUN = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX_RUN = re.compile(r"[0-9a-fA-F]{24,}")
_URLSAFE = str.maketrans("-_", "+/")
_NVAPI_BYTES = re.compile(rb"(?i)nvapi-|-ipavn")
_BEARER_BYTES = re.compile(rb"(?i)bearer\s+\S{8}")


def remember(secret: str | None) -> None:
    """Mask `secret` in everything `redact` sees from now on (in this process). Shorter than 8
    characters it is no real key, and masking it would garble ordinary words."""
    if secret and len(secret.strip()) >= 8:
        with _lock:
            _known.add(secret.strip())


def forget() -> None:
    """Forget every remembered secret (for tests, which must not leak state into each other)."""
    with _lock:
        _known.clear()


def remembered() -> bool:
    """Whether any secret is remembered (without one, `redact_known` changes nothing)."""
    with _lock:
        return bool(_known)


def _base64_cores(raw: bytes) -> set[str]:
    """The part of every base64 encoding of `raw` that depends only on `raw`'s bytes: for each
    of the three alignments it can have inside a longer text, the characters between the partial
    first and last ones (padding, absent or present, lies outside)."""
    cores: set[str] = set()
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw).decode()
        start = -(-8 * offset // 6)  # the first character made of `raw`'s bits only
        end = 8 * (offset + len(raw)) // 6
        core = encoded[start:end]
        if len(core) >= 8:
            cores.add(core)
            cores.add(core.translate(str.maketrans("+/", "-_")))
    return cores


@lru_cache(maxsize=64)
def _pattern(secrets: frozenset[str]) -> re.Pattern[str] | None:
    """One pattern for every form of every secret, longest first."""
    if not secrets:
        return None
    folded: set[str] = set()  # matched in any case
    exact: set[str] = set()  # base64 is case-sensitive
    for secret in secrets:
        raw = secret.encode("utf-8")
        folded.update({secret, secret[::-1], raw.hex()})
        encoded = quote(secret, safe="")
        if encoded != secret:
            folded.add(encoded)
        exact.update(_base64_cores(raw) | _base64_cores(raw[::-1]))
    alternatives = [f"(?i:{re.escape(s)})" for s in sorted(folded, key=len, reverse=True)]
    alternatives += [re.escape(s) for s in sorted(exact, key=len, reverse=True)]
    return re.compile("|".join(alternatives))


def _mask_secrets(text: str, secrets: Iterable[str]) -> str:
    pattern = _pattern(frozenset(s for s in secrets if s))
    return pattern.sub(MASK, text) if pattern is not None else text


def _decodings(token: str) -> Iterable[bytes]:
    """The bytes a base64 run (either alphabet, any alignment) or a hex run may stand for."""
    if _HEX_RUN.fullmatch(token):
        for skip in (0, 1):
            part = token[skip:]
            yield bytes.fromhex(part[: len(part) - len(part) % 2])
    # A run of lowercase letters and underscores is an identifier; base64 of a key mixes cases.
    if not (re.search("[A-Z]", token) and re.search("[a-z0-9]", token)):
        return
    body = token.rstrip("=").translate(_URLSAFE)
    for skip in range(4):
        part = body[skip:]
        rest = len(part) % 4
        part = part[:-1] if rest == 1 else part + "=" * ((4 - rest) % 4)
        try:
            yield base64.b64decode(part, validate=True)
        except (binascii.Error, ValueError):
            continue


def _encoded_credential(token: str, known: frozenset[str]) -> bool:
    """Whether an encoded run holds an NVIDIA key prefix, a bearer credential or a remembered
    secret (forwards or reversed)."""
    for raw in _decodings(token):
        if _NVAPI_BYTES.search(raw) or _BEARER_BYTES.search(raw):
            return True
        if any(s.encode() in raw or s.encode()[::-1] in raw for s in known):
            return True
    return False


def _mask_encoded(text: str, known: frozenset[str]) -> str:
    def mask(m: re.Match[str]) -> str:
        token = m.group(0)
        # an identifier (one case, no digits) is neither base64 of a key nor a hex run
        if (token.islower() or token.isupper()) and not any(c.isdigit() for c in token):
            return token
        return MASK if _encoded_credential(token, known) else token

    return _ENCODED_RUN.sub(mask, text)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with `secrets`, remembered secrets and credential values replaced by [REDACTED]."""
    with _lock:
        known = frozenset({*_known, *(s for s in secrets if s)})
    text = _mask_secrets(text, known)
    # Each pattern runs only where its words occur: scanning every position of a long text (a
    # design's JSON) with a case-blind pattern costs tens of milliseconds; a substring test, none.
    lowered = text.lower()
    if _CREDENTIAL_NAME.search(lowered):
        text = _CREDENTIAL.sub(lambda m: m.group(1) + m.group(2) + (m.group(3) or "") + MASK, text)
    if "bearer" in lowered:
        text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    if "nvapi-" in lowered or "-ipavn" in lowered:
        text = _NVAPI.sub(MASK, text)
    return _mask_encoded(text, known)


def redact_known(text: str) -> str:
    """`text` with only the remembered secrets masked (in every form): cheap and exact, for whole
    outputs (a design's JSON, the terminal) where a pattern could mask ordinary words."""
    with _lock:
        known = frozenset(_known)
    return _mask_secrets(text, known)


def redact_data(data: Any) -> Any:
    """`redact` applied to every string inside plain data (dicts, lists), keys included."""
    if isinstance(data, str):
        return redact(data)
    if isinstance(data, dict):
        return {redact_data(k): redact_data(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [redact_data(v) for v in data]
    return data


def redact_known_data(data: Any) -> Any:
    """`redact_known` applied to every string inside plain data (dicts, lists), keys included."""
    if isinstance(data, str):
        return redact_known(data)
    if isinstance(data, dict):
        return {redact_known_data(k): redact_known_data(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [redact_known_data(v) for v in data]
    return data


def redact_known_model(model: _Model) -> _Model:
    """`model` with every remembered secret masked in each of its strings: what a model endpoint
    wrote (a memo, a GPU's name) may echo the key, and every view of the result (a terminal table
    folds a long value over lines, where no pattern on the printed text would find it) starts
    from clean data. The same model back when nothing needed masking."""
    if not remembered():
        return model
    data = model.model_dump(mode="json")
    clean = redact_known_data(data)
    return model if clean == data else type(model).model_validate(clean)

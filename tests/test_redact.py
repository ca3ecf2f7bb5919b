"""Keys and plain http: a key bound for plain http on another host is warned about, and
credentials in any text a server sends back are masked whatever their form."""

from __future__ import annotations

import pytest

from clustergen.agent.settings import AgentSettings
from clustergen.errors import ConfigError
from clustergen.redact import redact
from support.nim_wire import KEY


@pytest.mark.parametrize(
    ("base", "refused"),
    [
        ("http://nim.example.com/v1", True),
        ("http://10.0.0.5:8000/v1", True),
        ("HTTP://NIM.EXAMPLE.COM/v1", True),
        ("https://nim.example.com/v1", False),
        ("http://127.0.0.1:8000/v1", False),
        ("http://localhost:8000/v1", False),
        ("http://[::1]:8000/v1", False),
    ],
)
def test_a_key_over_plain_http_to_another_host_is_refused_unless_allowed(
    base: str, refused: bool
) -> None:
    s = AgentSettings(NVIDIA_API_KEY=KEY, CLUSTERGEN_BASE_URL=base)
    assert s.insecure_http() == refused
    if refused:
        with pytest.raises(ConfigError, match="refusing to send NVIDIA_API_KEY in clear text") as e:
            s.check_key_route()
        assert "--allow-insecure-http" in e.value.one_line()
        assert KEY not in e.value.one_line()
        allowed = s.allowing_insecure_http()
        allowed.check_key_route()
        assert "in clear text over plain http" in (allowed.key_notice() or "")
    else:
        s.check_key_route()
    keyless = AgentSettings(NVIDIA_API_KEY="", CLUSTERGEN_BASE_URL=base)
    keyless.check_key_route()  # nothing secret to send
    assert keyless.key_notice() is None


@pytest.mark.parametrize(
    "text",
    [
        f"Authorization: Bearer {KEY}",
        f"{{'authorization': 'Bearer {KEY}'}}",
        f'{{"api-key": "{KEY}"}}',
        f"x-api-key={KEY}&q=1",
        f"token was {KEY}.",
    ],
)
def test_redact_masks_credentials_whatever_their_form(text: str) -> None:
    assert KEY not in redact(text)
    assert "[REDACTED]" in redact(text)


def test_redact_masks_a_remembered_key_without_a_prefix() -> None:
    from clustergen.redact import remember

    remember("sk-live-0123456789abcdef")
    assert redact("echo: sk-live-0123456789abcdef") == "echo: [REDACTED]"


def _forms(key: str) -> dict[str, str]:
    """Copies of `key` a server can make without effort: case changes, reversal, hex,
    percent-encoding, and base64 in both alphabets, padded or not, at every byte alignment inside
    a longer encoded value (`Basic user:key`, `Bearer key`)."""
    import base64
    from urllib.parse import quote

    forms = {
        "upper": key.upper(),
        "lower": key.lower(),
        "swapped": key.swapcase(),
        "reversed": key[::-1],
        "reversed upper": key[::-1].upper(),
        "hex": key.encode().hex(),
        "HEX": key.encode().hex().upper(),
        "percent": quote(key + "/+ ", safe=""),
    }
    for prefix in (b"", b"u", b"us", b"user:", b"Bearer "):
        for name, encode in (("std", base64.b64encode), ("urlsafe", base64.urlsafe_b64encode)):
            for raw in (key.encode(), key[::-1].encode()):
                encoded = encode(prefix + raw).decode()
                forms[f"{name} {prefix!r} {raw[:3]!r}"] = encoded
                forms[f"{name} {prefix!r} {raw[:3]!r} unpadded"] = encoded.rstrip("=")
    return forms


@pytest.mark.parametrize(("form", "copy"), _forms(KEY).items())
def test_an_nvidia_key_in_any_trivial_encoding_is_masked_even_unremembered(
    form: str, copy: str
) -> None:
    text = redact(f"the server said: {copy}; bye")
    assert copy not in text, form
    assert "[REDACTED]" in text


@pytest.mark.parametrize(("form", "copy"), _forms("sk-live-0123456789abcdefXYZ").items())
def test_a_remembered_key_in_any_trivial_encoding_is_masked_everywhere(
    form: str, copy: str
) -> None:
    from clustergen.redact import redact_known, remember

    remember("sk-live-0123456789abcdefXYZ")
    for masked in (redact(f"echo: {copy}!"), redact_known(f'"memo": "{copy}"')):
        assert copy not in masked, form
        assert "[REDACTED]" in masked


def test_redaction_leaves_ordinary_text_alone() -> None:
    from clustergen.redact import redact_known, remember

    remember(KEY)
    text = (
        "512 x NVIDIA B200 on 64 HGX B200 nodes; ConnectX-7, QM9700, interconnect_bandwidth_gbps, "
        "DGX-SuperPOD-B200-RA, aGVsbG8gd29ybGQgdGhpcyBpcyBmaW5l, 0123456789abcdef0123456789abcdef"
    )
    assert redact(text) == text
    assert redact_known(text) == text


def test_a_model_echoing_the_key_is_masked_in_every_string_of_it() -> None:
    from clustergen.engine.calculators.specs import GpuSpec
    from clustergen.redact import redact_known_model, remember

    spec = GpuSpec.model_construct()
    assert redact_known_model(spec) is spec  # nothing remembered: the same object
    remember(KEY)
    data = {"name": f"X {KEY.upper()}", "notes": [KEY[::-1]], "memory_gb": 80.0}
    from pydantic import BaseModel

    class Small(BaseModel):
        name: str
        notes: list[str]
        memory_gb: float

    clean = redact_known_model(Small.model_validate(data))
    assert clean.name == "X [REDACTED]"
    assert clean.notes == ["[REDACTED]"]
    assert clean.memory_gb == 80.0

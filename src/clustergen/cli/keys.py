"""The user's configured keys, remembered for masking before any command writes anything.

The chat client remembers the key it sends, but a command that asks no model (`render`, an
offline `design`) never makes one: a design or request that holds the user's key (pasted into a
request, echoed into a memo by an earlier run) would then reach design.json, the terminal and
every file unmasked. So the CLI remembers the key the user configured (the environment, else
`.env`, as the settings read them) and the password of a base URL, at start, and every output
path masks them (`clustergen.redact`).
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

from clustergen.redact import remember
from clustergen.untrusted import DataError, read_regular

#: the settings that hold a secret: the key itself, and a base URL that may carry a password
_KEY = "NVIDIA_API_KEY"
_URL = "CLUSTERGEN_BASE_URL"
_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def _dotenv(path: str = ".env") -> dict[str, str]:
    """The settings of `.env` clustergen reads, as python-dotenv reads them (quotes removed, a
    trailing comment of an unquoted value dropped). A file that cannot be read holds none: the
    settings loader words that problem when a model is asked."""
    if not os.path.lexists(path):
        return {}
    try:
        text = read_regular(path, 1 << 20).decode("utf-8", "replace")
    except DataError:
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None or m.group(1) not in (_KEY, _URL):
            continue
        value = m.group(2)
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].strip()
        out[m.group(1)] = value
    return out


def remember_configured_keys() -> None:
    """Remember the configured key and base-URL password (environment and `.env`: either may
    be the one a later run used) so that no output shows them."""
    found = _dotenv()
    for source in (os.environ, found):
        remember(source.get(_KEY))
        url = source.get(_URL)
        if url:
            try:
                remember(urlsplit(url.strip()).password)
            except ValueError:
                continue

"""Free text (or a YAML file) in, a typed `DesignRequest` out.

The parser is deliberately plain: regular expressions over the text and the catalog's own names for
GPUs and systems. Whatever it reads is recorded with the words it came from; whatever it cannot
read is reported, never dropped.

A request is read by rules, then passes, then validated. A rule (`request/rules/`) maps one phrase
to one field; a pass (`request/passes/`) reads what needs the catalog, the rest of the request,
or a refusal. `PASSES` is the one ordered list: the rule tables are read at their place in it.
"""

from __future__ import annotations

from clustergen.catalog.loader import Catalog
from clustergen.engine.model.request import MAX_REQUEST_CHARS, DesignRequest
from clustergen.engine.request.draft import Draft
from clustergen.engine.request.passes import PASSES
from clustergen.engine.request.translate import validated
from clustergen.errors import RequestError


def parse_request(catalog: Catalog, text: str) -> DesignRequest:
    """Read a free-text request. Raises RequestError when nothing usable or contradictory."""
    if not text or not text.strip():
        raise RequestError(
            "the request is empty", hint='say what you need, e.g. "512 GPUs training, 5 MW"'
        )
    if len(text) > MAX_REQUEST_CHARS:
        raise RequestError(
            f"the request is {len(text):,} characters, over the limit of {MAX_REQUEST_CHARS:,}",
            hint="say what you need in a paragraph; put structured fields in a request file",
            field="text",
            value=len(text),
            limit=MAX_REQUEST_CHARS,
        )
    r = Draft(catalog, text)
    for read in PASSES:
        read(r)
    return validated(DesignRequest, r.fields, phrases=r.phrases)

"""The request as read so far: the text, which of its characters are taken, the fields found, the
notes made and the catalog names met. Every rule and every pass reads and writes one `Draft`."""

from __future__ import annotations

import re

from clustergen.catalog.loader import Catalog
from clustergen.engine.request.numerals import figures
from clustergen.engine.request.rules import Reading, Rule
from clustergen.engine.request.words import CLAUSE_REF, FILLER, NAMES
from clustergen.errors import RequestError

#: a catalog entry named in the text: (kind, id), kind one of "system", "gpu", "model"
Named = tuple[str, str]
#: the characters a name was read from: (start, end)
Span = tuple[int, int]


_STYLE = re.compile(
    r"\b[a-z][\w.]*(?:[- ]\d[\w.]*)?[- ](?:style|like|class)(?=\s+\d+(?:\.\d+)?\s*b\b)"
)

#: "H100-class GPUs", "B200 grade", "an A100-equivalent": the part named is the one read (a class
#: word says only that its peers would do, and the request names no peer)
_CLASS_OF = re.compile(r"\b([a-z]{1,4}\d{2,4}[a-z]{0,3})[- ](?:class|grade|equivalent|level)\b")

#: "a 70-billion-parameter model": the hyphens of a compound size read as spaces
_SIZE_HYPHEN = re.compile(
    r"(?<=\d)-(?=(?:billion|million|trillion)\b)"
    r"|(?:(?<=billion)|(?<=million)|(?<=trillion))-(?=param)"
)

#: a Hugging Face organisation before a model's name ("meta-llama/Llama-3.1-8B-Instruct"): the
#: name is what the catalog knows
_HF_ORG = re.compile(
    r"\b(?:meta-llama|mistralai|deepseek-ai|google|microsoft|nvidia|qwen|openai|tiiuae|"
    r"ibm-granite|moonshotai|zai-org|thudm)/(?=[a-z])"
)

#: "double our existing 64 DGX H100": as many again, added to the installation
_DOUBLE = re.compile(
    r"\bdouble\s+(?:the\s+size\s+of\s+)?(our|the|my)\s+(?:(?:existing|current)\s+)?"
    r"(\d[\d,]*)(-node|-gpu|\s+nodes?|\s+gpus?)?(?![\d,])"
)

#: "we already run 8 DGX H100 and want to double it": as many again (triple: twice as many)
#: "we have an 8-node BasePOD, double it", "we run 64 H100; we want to double it" alike
_GROW_IT = re.compile(
    r"\b((?:have|run|own|operate)\s+(?:an?\s+)?(\d[\d,]*)(?:-node|-gpu)?\s+[^.;,]{1,40}?"
    r"(?:\s+and\s+|\s*[,;]\s*(?:and\s+)?|\.\s+)(?:(?:we\s*|i\s*)?(?:want|plan|need|would\s+like|"
    r"intend|'d\s+like)\s+to\s+|(?:please\s+)?))(double|triple|quadruple)\s+(?:it|them|that|this|"
    r"the\s+(?:cluster|fleet|installation|capacity|size|pod|basepod|superpod))\b"
)
_GROW_BY = {"double": 1, "triple": 2, "quadruple": 3}


#: "8xH100", "4xB200", "2xGB200": a count of GPUs written against the part it counts (read as
#: "8-gpu h100": "a single 8xH100 node" is one node's GPUs, never 8 nodes)
_JOINED_COUNT = re.compile(r"\b(\d{1,5})x(?=(?:h|b|a|gb|gh|l|rtx)\d)")


_JOINED_PARTS = re.compile(r"\b(\d{1,5})x(?=g[bh]\d{3}\s+(?:superchips?|(?:compute\s+)?trays?)\b)")


_ONE_JOINED_NODE = re.compile(
    r"\b(?:a\s+single|single|one|an?)\s+(\d{1,2})x((?:h|b|a|gb|gh|l|rtx)\d{2,4}\w*)\s+"
    r"(?:node|server|box|system|machine)\b"
)


class Draft:
    """The text being read: which characters are taken, the fields found and the notes made."""

    def __init__(self, catalog: Catalog, text: str) -> None:
        self.catalog = catalog
        # spelled-out numbers read as figures ("two thousand GPUs"); the text field keeps the words
        # "w/" and "w/o" as a note writes them ("32 nodes w/ 8 GPUs each", "w/o storage")
        low = re.sub(r"\bw/o(?=\s)", "without", text.lower().replace("×", "x"))
        low = re.sub(r"\bw/(?=\s)", "with", low)
        # "a single 8xH100 node": a count joined to a part's name ("8x7B" is a model's name)
        low = _JOINED_PARTS.sub(r"\1 ", low)  # "2xGB200 superchips": a count of the parts
        # "a single 8xH100 node": one node's GPUs, the node words said by the count
        low = _ONE_JOINED_NODE.sub(r"\1-gpu \2", low)
        low = _JOINED_COUNT.sub(r"\1-gpu ", low)
        # "Llama-3-style 8B models": a model like the family's, sized by its figure (read as a
        # bare size; the family words name no model the catalog holds at that size)
        low = _STYLE.sub(lambda m: " " * len(m.group(0)), low)
        low = _SIZE_HYPHEN.sub(" ", low)
        low = _GROW_IT.sub(
            lambda m: (
                f"{m.group(1)}add {_GROW_BY[m.group(3)] * int(m.group(2).replace(',', ''))} more"
            ),
            low,
        )
        low = _DOUBLE.sub(
            lambda m: (
                f"add {m.group(2)}{m.group(3) or ''} to {m.group(1)} existing "
                f"{m.group(2)}{m.group(3) or ''}"
            ),
            low,
        )
        low = _HF_ORG.sub(lambda m: " " * len(m.group(0)), low)
        low = _CLASS_OF.sub(lambda m: m.group(1).ljust(len(m.group(0))), low)
        self.low = figures(low)
        self.used = [False] * len(self.low)
        self.fields: dict[str, object] = {"text": text.strip()}
        self.understood: list[str] = []
        self.phrases: dict[str, str] = {}
        self.members: dict[str, set[str]] = {}
        #: each word-set value with where its words stand, for a choice between two
        self.member_spans: dict[str, list[tuple[str, int, int]]] = {}
        #: the catalog names found, with their spans, in the order of the text
        self.named: list[Named] = []
        self.spans: list[Span] = []
        #: the fleet a request replaces ("replace our 256 A100s with H200s"), with its span
        self.replaced: tuple[Named, Span] | None = None

    def free(self, m: re.Match[str]) -> bool:
        return not any(self.used[m.start() : m.end()])

    def free_span(self, start: int, end: int) -> bool:
        return not any(self.used[start:end])

    def take(self, start: int, end: int, note: str) -> None:
        for k in range(start, end):
            self.used[k] = True
        self.understood.append(note)

    def read(self, rule: Rule) -> None:
        """Every free match of the rule; a match over words already read is retried one
        character on, so "1024, output length 128" still finds "output length 128" after "1024"
        was taken. A rule whose words the request lacks cannot match: it is not compiled or
        searched."""
        if not rule.may_match(self.low):
            return
        pos = 0
        while m := rule.pattern.search(self.low, pos):
            if not self.free(m):
                pos = m.start() + 1
                continue
            for reading in rule.read(m):
                self.apply(m, reading)
            pos = max(m.end(), m.start() + 1)

    def apply(self, m: re.Match[str], r: Reading) -> None:
        phrase = m.group(0).strip()
        if r.mode == "set":
            self.fields[r.field] = r.value
            return
        if r.mode == "member":
            self.members.setdefault(r.field, set()).add(str(r.value))
            self.member_spans.setdefault(r.field, []).append((str(r.value), m.start(), m.end()))
            self.take(m.start(), m.end(), f"{phrase!r} -> {r.note}")
            return
        start, low = m.start(), self.low
        if start and low[start - 1] == "-" and (start < 2 or not low[start - 2].isalnum()):
            raise RequestError(
                f"{'-' + phrase!r} is negative",
                hint=f"give a positive {_field_words(r.field)}",
            )
        if r.field in self.fields and self.fields[r.field] != r.value:
            kept = self._preferred(r.field, phrase, m.start())
            if kept is not None:
                old = self.phrases.get(r.field, "")
                if kept:  # the new value is the one preferred
                    self.fields[r.field] = r.value
                    self.phrases[r.field] = phrase
                self.take(
                    m.start(),
                    m.end(),
                    f"{phrase!r} -> "
                    + (f"preferred over {old!r}" if kept else f"set aside: {old!r} preferred"),
                )
                return
            raise RequestError(
                f"the request gives two {_field_words(r.field)} values "
                f"({self.phrases.get(r.field, str(self.fields[r.field]))!r} and {phrase!r})",
                hint="state it once",
            )
        self.fields[r.field] = r.value
        self.phrases[r.field] = phrase
        self.take(m.start(), m.end(), f"{phrase!r} -> {r.note}")

    def renote(self, phrase: str, words: str) -> None:
        """The note of `phrase` says what it turned out to be, once the whole request is read:
        "'8 racks' -> 8 gb200-nvl72 racks" where the rule had read room for 8."""
        head = f"{phrase!r} ->"
        self.understood = [f"{head} {words}" if u.startswith(head) else u for u in self.understood]

    def _preferred(self, field: str, phrase: str, at: int) -> bool | None:
        """Of two values of one field, the one its clause prefers ("is 1:1 really needed? we'd
        prefer 2:1"): True for the new one at `at`, False for the earlier one, None when
        neither clause or both say so (the request contradicts itself)."""
        earlier = self.phrases.get(field)
        start = self.low.find(earlier.lower()) if earlier else -1
        if start < 0:
            return None
        new, old = _PREFER.search(_clause(self.low, at)), _PREFER.search(_clause(self.low, start))
        if bool(new) == bool(old):
            return None
        return bool(new)

    def leftovers(self) -> list[str]:
        clauses = [m.span() for m in CLAUSE_REF.finditer(self.low)]
        return [
            w.group(0)
            # a word does not end in the sentence's full stop ("a 5 MW hall." leaves "hall")
            for w in re.finditer(r"[a-z0-9](?:[a-z0-9.+-]*[a-z0-9+])?", self.low)
            if not any(self.used[w.start() : w.end()])
            and w.group(0) not in FILLER
            and not any(a <= w.start() < b for a, b in clauses)
        ]


#: words that prefer the value their clause gives ("we'd prefer 2:1", "ideally 800G")
_PREFER = re.compile(r"\b(?:prefer(?:s|red|ably)?|ideally|rather|we'?d\s+like)\b")
_CLAUSE_BREAK = re.compile(r"[.;!?\n]|,\s|\bbut\b")


def _clause(low: str, at: int) -> str:
    """The clause of `low` around position `at`."""
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(low, 0, at)]
    end = _CLAUSE_BREAK.search(low, at)
    return low[starts[-1] if starts else 0 : end.start() if end else len(low)]


def _field_words(field: str) -> str:
    """A field as a message says it: its name in words, a private one's without underscores
    ("_user_base": "user base")."""
    return NAMES.get(field, field.strip("_").replace("_", " "))

#!/usr/bin/env python3
"""Writes cases.json from a checkout of Google's robots.txt compliance suite
(the google/robotstxt-spec-test repository: src/main/resources/CTC/**/*.textproto).

    python3 testdata/google-suite/convert.py PATH/TO/robotstxt-spec-test > testdata/google-suite/cases.json

Each expectation becomes one case: the robots.txt bytes (as `robots_txt`, or
`robots_txt_b64` when they are not UTF-8, the two fields the API takes), the
URL, the user-agent, and Google's expected outcome. The explanations are left
out; the file and the index of the case in it say where each one comes from.
"""

import base64
import json
import pathlib
import re
import sys

TOKEN = re.compile(
    r'\s+|#[^\n]*|(?P<str>"(?:[^"\\]|\\.)*")|(?P<id>[A-Za-z_][A-Za-z0-9_]*)|(?P<punct>[:\[\]{},])',
    re.S,
)


def unescape(literal):
    """The bytes of a C-style quoted string (textproto escapes)."""
    body = literal[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        n = body[i + 1]
        simple = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11, "?": 63}
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == "x":
            m = re.match(r"[0-9A-Fa-f]{1,2}", body[i + 2 :])
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        elif n in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1 :])
            out.append(int(m.group(0), 8))
            i += 1 + len(m.group(0))
        else:
            raise ValueError(f"unknown escape \\{n}")
    return bytes(out)


def tokens(text):
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot read {text[pos:pos + 40]!r}")
        pos = m.end()
        if m.group("str"):
            yield ("str", unescape(m.group("str")))
        elif m.group("id"):
            yield ("id", m.group("id"))
        elif m.group("punct"):
            yield ("punct", m.group("punct"))


class Reader:
    def __init__(self, text):
        self.toks = list(tokens(text))
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, kind=None, value=None):
        tok = self.peek()
        if (kind and tok[0] != kind) or (value and tok[1] != value):
            raise ValueError(f"expected {kind} {value}, found {tok}")
        self.i += 1
        return tok

    def fields(self, end):
        """name: value pairs until `end` (a repeated name gives a list)."""
        out = {}
        while self.peek() != ("punct", end) and self.peek()[0] is not None:
            name = self.take("id")[1]
            if self.peek() == ("punct", ":"):
                self.take()
            value = self.value()
            if name in out:
                prev = out[name]
                out[name] = (prev if isinstance(prev, list) else [prev]) + (value if isinstance(value, list) else [value])
            else:
                out[name] = value
            if self.peek() == ("punct", ","):
                self.take()
        return out

    def value(self):
        kind, val = self.peek()
        if kind == "str":
            parts = b""
            while self.peek()[0] == "str":
                parts += self.take()[1]
            return parts
        if kind == "id":
            return self.take()[1]
        if val == "{":
            self.take()
            out = self.fields("}")
            self.take("punct", "}")
            return out
        if val == "[":
            self.take()
            items = []
            while self.peek() != ("punct", "]"):
                items.append(self.value())
                if self.peek() == ("punct", ","):
                    self.take()
            self.take("punct", "]")
            return items
        raise ValueError(f"unexpected {kind} {val}")


def as_list(value):
    return value if isinstance(value, list) else [value]


def main():
    root = pathlib.Path(sys.argv[1])
    cases = []
    for path in sorted((root / "src/main/resources/CTC").rglob("*.textproto")):
        spec = Reader(path.read_text(encoding="utf-8")).fields(None)
        for t, test in enumerate(as_list(spec.get("tests", []))):
            robots = test.get("robotstxt", b"")
            for e, expectation in enumerate(as_list(test.get("test_expectations", []))):
                case = {"file": str(path.relative_to(root / "src/main/resources/CTC")), "test": t, "expectation": e}
                try:
                    case["robots_txt"] = robots.decode("utf-8")
                except UnicodeDecodeError:
                    case["robots_txt_b64"] = base64.b64encode(robots).decode("ascii")
                case["url"] = expectation.get("testurl", b"").decode("utf-8")
                case["agent"] = expectation.get("useragent", b"").decode("utf-8")
                outcome = expectation["expected_outcome"]
                assert outcome in ("ALLOWED", "DISALLOWED"), outcome
                case["allowed"] = outcome == "ALLOWED"
                case["google_specific"] = expectation.get("test_type") == "GOOGLE_SPECIFIC"
                cases.append(case)
    json.dump({"cases": cases}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    print(f"{len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the command-line examples of Markdown documents and checks their output.

    python3 scripts/doc-examples.py [--update] [FILE.md ...]   (default: docs/behaviour.md)

A document declares input files and commands:

    <!-- file: fish.txt -->
    ```text
    User-agent: *
    Disallow: /fish
    ```

    ```console
    $ crawlgate check fish.txt --agent mybot /fish.html
    disallowed  /fish.html  fish.txt:2  Disallow: /fish
    ```

A fenced block right after a `<!-- file: NAME -->` comment is written to NAME
(each line ending with LF). With `<!-- file: NAME escaped -->` the block is
one line of text with backslash escapes (`\\r`, `\\n`, `\\t`, `\\0`, `\\xNN`)
for bytes a text block cannot show (CR, BOM, NUL); nothing else is added.

Each `$ ` line of a `console` block is run with bash in a directory holding
the document's files (all of them, declared anywhere in the document), with
the `crawlgate` binary first on PATH; its standard output must equal the
lines that follow, up to the next `$ ` line or the end of the block.
The repository's `examples/` folder is there too, as `examples/`.
Standard error is not compared unless the command redirects it (`2>&1`).

The binary is debug/crawlgate in Cargo's target directory (as `cargo
metadata` names it: $CARGO_TARGET_DIR, a build.target-dir setting, or
target/), built with `cargo build -p crawlgate-cli` first, or
$CRAWLGATE_BIN when set. With --update, the
expected outputs are rewritten from what the commands print (review the
diff before committing). Exits 1 when an example's output differs.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILE_RE = re.compile(r"^<!-- file: (\S+)( escaped)? -->$")
FENCE_RE = re.compile(r"^(```+)(\w*)\s*$")


def unescape(text):
    """Backslash escapes to bytes: \\r \\n \\t \\0 \\\\ and \\xNN."""
    out = bytearray()
    i = 0
    raw = text.encode("utf-8")
    simple = {ord("r"): b"\r", ord("n"): b"\n", ord("t"): b"\t", ord("0"): b"\0", ord("\\"): b"\\"}
    while i < len(raw):
        b = raw[i]
        if b == ord("\\") and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt in simple:
                out += simple[nxt]
                i += 2
                continue
            if nxt == ord("x") and i + 3 < len(raw) + 1:
                out.append(int(raw[i + 2 : i + 4], 16))
                i += 4
                continue
            raise ValueError(f"unknown escape in {text!r}")
        out.append(b)
        i += 1
    return bytes(out)


def blocks(lines):
    """Fenced blocks as (start index, end index, info string, body lines, file decl)."""
    i = 0
    pending = None
    while i < len(lines):
        m = FILE_RE.match(lines[i])
        if m:
            pending = (m.group(1), bool(m.group(2)))
            i += 1
            continue
        fence = FENCE_RE.match(lines[i])
        if fence:
            marker, info = fence.group(1), fence.group(2)
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != marker:
                j += 1
            yield i, j, info, lines[i + 1 : j], pending
            pending = None
            i = j + 1
            continue
        if lines[i].strip():
            pending = None
        i += 1


def commands(body):
    """A console block's (command, expected output lines, start, end) runs."""
    runs = []
    for k, line in enumerate(body):
        if line.startswith("$ "):
            runs.append([line[2:], k])
    out = []
    for n, (cmd, k) in enumerate(runs):
        end = runs[n + 1][1] if n + 1 < len(runs) else len(body)
        out.append((cmd, body[k + 1 : end], k, end))
    return out


def target_dir():
    """Where Cargo builds: `cargo metadata` knows every way it is set."""
    done = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.PIPE,
    )
    return json.loads(done.stdout)["target_directory"]


def binary():
    if os.environ.get("CRAWLGATE_BIN"):
        return os.path.abspath(os.environ["CRAWLGATE_BIN"])
    subprocess.run(["cargo", "build", "--quiet", "-p", "crawlgate-cli"], cwd=ROOT, check=True)
    return os.path.join(target_dir(), "debug", "crawlgate")


def check(path, crawlgate, update):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = list(blocks(lines))
    failures = 0
    examples = 0
    replacements = []
    with tempfile.TemporaryDirectory() as work:
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        os.symlink(crawlgate, os.path.join(bindir, "crawlgate"))
        files = os.path.join(work, "files")
        os.mkdir(files)
        # The repository's examples/ folder, as the README and the guides
        # name it (`crawlgate check examples/robots.txt ...`), read-only in
        # spirit: a command that writes goes to a file of its own.
        os.symlink(os.path.join(ROOT, "examples"), os.path.join(files, "examples"))
        for _, _, _, body, decl in found:
            if decl:
                name, escaped = decl
                data = unescape("\n".join(body)) if escaped else "".join(l + "\n" for l in body).encode()
                with open(os.path.join(files, name), "wb") as f:
                    f.write(data)
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], NO_COLOR="1", COLUMNS="100")
        for start, _, info, body, decl in found:
            if info != "console" or decl:
                continue
            for cmd, expected, k, end in commands(body):
                if not cmd.split()[0] == "crawlgate" and "crawlgate" not in cmd:
                    continue
                examples += 1
                result = subprocess.run(["bash", "-c", cmd], cwd=files, env=env, capture_output=True)
                actual = result.stdout.decode("utf-8", "replace").rstrip("\n").split("\n")
                if actual == [""]:
                    actual = []
                if actual != expected:
                    if update:
                        replacements.append((start + 1 + k + 1, start + 1 + end, actual))
                    else:
                        failures += 1
                        line_no = start + 1 + k + 1
                        print(f"{path}:{line_no}: `{cmd}` printed:", file=sys.stderr)
                        for l in actual:
                            print(f"    {l}", file=sys.stderr)
                        print("  expected:", file=sys.stderr)
                        for l in expected:
                            print(f"    {l}", file=sys.stderr)
                        if result.stderr:
                            print("  stderr: " + result.stderr.decode("utf-8", "replace"), file=sys.stderr)
    if update:
        for first, end, actual in sorted(replacements, reverse=True):
            lines[first:end] = actual
        if replacements:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
        print(f"{path}: {examples} examples, {len(replacements)} outputs rewritten")
    else:
        print(f"{path}: {examples} examples, {failures} differ")
    return failures


def main():
    args = sys.argv[1:]
    update = "--update" in args
    docs = [a for a in args if a != "--update"] or [os.path.join(ROOT, "docs", "behaviour.md")]
    crawlgate = binary()
    failures = sum(check(doc, crawlgate, update) for doc in docs)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

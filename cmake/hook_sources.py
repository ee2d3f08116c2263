#!/usr/bin/env python3
"""Prints, one per line, the boundary's sources whose code depends on FIPSMOD_TEST_HOOKS.

Usage: hook_sources.py CC [FLAG ...] -- SOURCE ...

Each source is preprocessed twice with CC and the flags (-E -P), without and with
-DFIPSMOD_TEST_HOOKS=1. A source whose test-hooks text is its production text plus declarations
only is printed nowhere: the test-hooks libraries reuse its production object. Those declarations
are file-scope statements, outside every brace, each a prototype of a function named *_for_testing
or a forward declaration (`struct name;`), which change no code. Any other difference (a line of
the production text missing, a changed line, an added line of code, an added declaration of
anything else) prints the source, which is then compiled once per flavour. A source that does not
preprocess is printed too, the safe answer, and the status is then 1.

The comparison is sound by construction: every line of the production text must be matched, in
order, by an identical line of the test-hooks text, and every unmatched test-hooks line must lie
in a run of declarations as above, so a source passes only if removing those runs from its
test-hooks text gives its production text exactly.
"""
import concurrent.futures
import os
import re
import subprocess
import sys

_LITERAL = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
_FORWARD = re.compile(r"^struct\s+\w+$")
_PROTOTYPE = re.compile(r"^(?:(?:const|unsigned|signed|struct|extern)\s+)*\w+[\s*]+\w+_for_testing\s*\(.*\)$")


def preprocess(cc, flags, source, hooks):
    cmd = [cc, *flags, "-E", "-P", source]
    if hooks:
        cmd.insert(1, "-DFIPSMOD_TEST_HOOKS=1")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def declarations_only(lines):
    """True if the lines are whole file-scope statements, each an allowed declaration."""
    text = " ".join(lines)
    if "{" in text or "}" in text or not text.endswith(";"):
        return False
    for statement in text[:-1].split(";"):
        statement = " ".join(statement.split())
        if not (_FORWARD.match(statement) or _PROTOTYPE.match(statement)):
            return False
    return True


def depends_on_hooks(prod, hook):
    """True unless hook is prod plus file-scope declaration runs (see the module docstring)."""
    i = j = depth = 0
    while j < len(hook):
        if i < len(prod) and hook[j] == prod[i]:
            stripped = _LITERAL.sub("", hook[j])
            depth += stripped.count("{") - stripped.count("}")
            i += 1
            j += 1
            continue
        start = j
        while j < len(hook) and not (i < len(prod) and hook[j] == prod[i]):
            j += 1
        if depth != 0 or not declarations_only(hook[start:j]):
            return True
    return i != len(prod)


def classify(cc, flags, source):
    return depends_on_hooks(preprocess(cc, flags, source, False),
                            preprocess(cc, flags, source, True))


def main(argv):
    if "--" not in argv or argv.index("--") < 2:
        print(__doc__, file=sys.stderr)
        return 2
    sep = argv.index("--")
    cc, flags, sources = argv[1], argv[2:sep], argv[sep + 1:]
    status = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {src: pool.submit(classify, cc, flags, src) for src in sources}
        for src in sources:
            try:
                hooked = futures[src].result()
            except (OSError, subprocess.CalledProcessError) as err:
                print(f"hook_sources.py: {src}: {err}", file=sys.stderr)
                hooked, status = True, 1
            if hooked:
                print(src)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))

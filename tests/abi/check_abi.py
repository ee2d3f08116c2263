#!/usr/bin/env python3
"""The ABI check: libfipsmod.so and the public headers still offer everything a baseline recorded.

  check_abi.py --lib libfipsmod.so --include DIR --cc CC --baseline FILE [--update]

The baseline (tests/abi/fipsmod-0.abi, made from the 0.2.0 release) lists, one per line:
  symbol NAME@VERSION         an exported function
  size TYPE BYTES ALIGN       sizeof and alignof of each struct type of the public headers
  const NAME VALUE            each enumerator and numeric #define FM_* of the public headers
Everything is read from the built library (nm -D) and from the headers themselves (a program
compiled from them prints the sizes and values), so a type or constant added next month is
covered without a list kept by hand. A baseline entry that is missing or different fails (an
incompatible change: the soname's major version would have to change); entries that are new
are printed and pass (a compatible addition). --update rewrites the baseline from the current
build (for a release)."""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", "--with-symbol-versions", lib],
                         check=True, capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWi":
            syms.add("symbol " + parts[2].replace("@@", "@"))
    return syms


def header_facts(include, cc, run):
    headers = sorted(glob.glob(os.path.join(include, "fipsmod", "*.h")))
    types, consts = set(), set()
    for h in headers:
        text = open(h).read()
        types.update(re.findall(r"typedef struct (\w+)\s*\{", text))
        for body in re.findall(r"typedef enum\s*\w*\s*\{(.*?)\}", text, re.S):
            consts.update(re.findall(r"^\s*(FM_\w+)\s*=", body, re.M))
        consts.update(re.findall(r"^#define (FM_\w+)\s+\(?\s*-?\d+[uU]?\s*\)?\s*(?:/\*.*)?$", text, re.M))
    prog = ["#include <stdio.h>", "#include <stdalign.h>", '#include "fipsmod/fipsmod.h"',
            "int main(void) {"]
    for t in sorted(types):
        prog.append(f'  printf("size {t} %zu %zu\\n", sizeof(struct {t}), alignof(struct {t}));')
    for c in sorted(consts):
        prog.append(f'  printf("const {c} %lld\\n", (long long)({c}));')
    prog += ["  return 0;", "}"]
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "abi.c"), os.path.join(d, "abi")
        open(src, "w").write("\n".join(prog) + "\n")
        subprocess.run([cc, "-std=c17", "-I", include, src, "-o", exe], check=True)
        return set(subprocess.run(run + [exe], check=True, capture_output=True,
                                  text=True).stdout.splitlines())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--run", action="append", default=[],
                    help="a word of the command that runs the probe (a cross build's emulator)")
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    now = exported(a.lib) | header_facts(a.include, a.cc, a.run)
    if a.update:
        with open(a.baseline, "w") as f:
            f.write("# The ABI baseline of libfipsmod.so.0 (tests/abi/check_abi.py --update).\n")
            f.write("\n".join(sorted(now)) + "\n")
        print(f"wrote {len(now)} entries to {a.baseline}")
        return 0
    base = set(l for l in open(a.baseline).read().splitlines() if l and not l.startswith("#"))
    if len(base) < 50:
        print(f"the baseline has only {len(base)} entries")
        return 1
    keyed = {}
    for e in now:
        k = " ".join(e.split()[:2])
        keyed[k] = e
    broken = []
    for e in sorted(base):
        if e in now:
            continue
        k = " ".join(e.split()[:2])
        broken.append(f"{e}  ->  {keyed[k] if k in keyed else 'missing'}")
    added = sorted(now - base)
    for e in added:
        print(f"added (compatible): {e}")
    for b in broken:
        print(f"INCOMPATIBLE: {b}")
    if broken:
        print("A program built against 0.2.0 would break on this library. Keep the 0.2.0 layouts, "
              "values and names (add new data through new functions, types or constants instead); "
              "the baseline is rewritten (--update) only for a new major version (README, "
              "\"ABI and versions\").")
    print(f"{len(base)} baseline entries, {len(broken)} broken, {len(added)} added")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

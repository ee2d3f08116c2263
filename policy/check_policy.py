#!/usr/bin/env python3
"""The `policy` ctest: fails when the code and policy/security-policy.md disagree.

  check_policy.py --lib libfipsmod.so --fipsmod CLI --injector INJECTOR --ctest CTEST
                  --build-dir DIR --repo DIR

Checks, each reported by name:
  exports    every exported symbol (nm -D) has exactly one row in services.tsv, and every row
             names an exported symbol;
  selftests  every test the module reports (fipsmod selftest --json) has a row in the document;
  ssps       every SSP row names a zeroization test that ctest knows;
  vectors    every vector file an algorithm row names exists;
  sections   the document has the 12 sections of SP 800-140B, in order;
  indicator  the service indicator is exported;
  approval   every row of approval.tsv names an exported service and a rule function of the file
             services.tsv names (module/approval.c), every rule function there has a row, and the
             indicator probe (--probe, tests/api/test_approval_rules) agrees with every row;
  current    the document is what gen_policy.py makes of the current sources (the build-specific
             boundary numbers aside)."""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_policy  # noqa: E402

SECTIONS = ["General", "Cryptographic Module Specification", "Cryptographic Module Interfaces",
            "Roles, Services, and Authentication", "Software/Firmware Security",
            "Operational Environment", "Physical Security", "Non-Invasive Security",
            "Sensitive Security Parameter Management", "Self-Tests", "Life-Cycle Assurance",
            "Mitigation of Other Attacks"]


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def strip_build_specific(text):
    return re.sub(r"<!-- build-specific: begin -->.*?<!-- build-specific: end -->", "", text,
                  flags=re.S)


def main():
    ap = argparse.ArgumentParser()
    for a in ("--lib", "--fipsmod", "--injector", "--ctest", "--build-dir", "--repo", "--probe"):
        ap.add_argument(a, required=True)
    a = ap.parse_args()
    failures = []

    def check(name, problems):
        if problems:
            failures.append(name)
            for p in problems:
                print(f"policy/{name}: {p}")
        else:
            print(f"policy/{name}: ok")

    exported = set()
    for line in run(["nm", "-D", "--defined-only", a.lib]).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWiDdBbRr":
            # nm -D prints the version node too (fm_x@@FIPSMOD_0, cmake/fipsmod.map).
            exported.add(parts[2].split("@", 1)[0])
    rows = gen_policy.read_tsv("services.tsv")
    names = [r["symbol"] for r in rows]
    problems = [f"exported {s} has no service row" for s in sorted(exported - set(names))]
    problems += [f"service row {s} is not exported" for s in sorted(set(names) - exported)]
    problems += [f"{s} has more than one row" for s in sorted({n for n in names if names.count(n) > 1})]
    check("exports", problems)

    report, regions = gen_policy.module_facts(a.fipsmod, a.injector, a.lib)
    doc_path = os.path.join(HERE, "security-policy.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    check("selftests", [f"self-test {t['name']} has no row" for t in report["tests"]
                        if f"`{t['name']}`" not in doc])

    known = set()
    for line in run([a.ctest, "-N", "--test-dir", a.build_dir]).splitlines():
        m = re.match(r"\s*Test\s+#\d+:\s+(\S+)", line)
        if m:
            known.add(m.group(1))
    # A valgrind test (fipsmod_add_ct_test) is registered only where valgrind runs, not in the
    # sanitizer builds: where tests/ declares such tests and this build registered none of them,
    # a row may name one of those, and nothing else that ctest does not know.
    ct_declared = set()
    for root, _, files in os.walk(os.path.join(a.repo, "tests")):
        if "CMakeLists.txt" in files:
            with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
                ct_declared |= set(re.findall(r"fipsmod_add_ct_test\(NAME\s+(\S+)", f.read()))
    if ct_declared & known:
        ct_declared = set()
    check("ssps", [f"SSP {r['id']} names test {r['test']}, which ctest does not know"
                   for r in gen_policy.read_tsv("ssps.tsv")
                   if r["test"] not in known and r["test"] not in ct_declared])

    missing = []
    for r in gen_policy.read_tsv("algorithms.tsv"):
        if r["vectors"] == "-":
            continue
        for v in r["vectors"].split():
            if not os.path.isfile(os.path.join(a.repo, v)):
                missing.append(f"{r['algorithm']} {r['mode']}: {v} does not exist")
    check("vectors", missing)

    heads = re.findall(r"^## (\d+)\. (.+)$", doc, flags=re.M)
    want = [(str(i + 1), t) for i, t in enumerate(SECTIONS)]
    check("sections", [] if heads == want else [f"sections are {heads}, want {want}"])

    check("indicator", [] if "fm_service_indicator" in exported else ["no fm_service_indicator export"])

    problems = []
    place = gen_policy.approval_rules_place()
    with open(os.path.join(a.repo, place), encoding="utf-8") as f:
        rule_src = f.read()
    defined = set(re.findall(r"^bool (fm_approval_\w+)\(", rule_src, flags=re.M))
    arows = gen_policy.read_tsv("approval.tsv")
    named = {r["rule"] for r in arows}
    problems += [f"approval.tsv row {r['service']} {r['parameter']}: {r['service']} is not exported"
                 for r in arows if r["service"] not in exported]
    problems += [f"approval.tsv names {n}, which {place} does not define"
                 for n in sorted(named - defined)]
    problems += [f"{place} defines {n}, which no approval.tsv row names"
                 for n in sorted(defined - named)]
    probe = subprocess.run([a.probe, os.path.join(HERE, "approval.tsv")], capture_output=True,
                           text=True)
    if probe.returncode != 0:
        keys = ("DISAGREES", "policy", "probe", "failed")
        problems += [f"indicator probe: {line}" for line in (probe.stdout + probe.stderr).splitlines()
                     if any(k in line for k in keys)]
        if not problems:
            problems.append(f"indicator probe failed (exit {probe.returncode})")
    check("approval", problems)

    fresh = gen_policy.build(report, regions)
    check("current", [] if strip_build_specific(fresh) == strip_build_specific(doc) else
          ["security-policy.md is out of date: run `cmake --build BUILD --target policy`"])

    if failures:
        print(f"policy: {len(failures)} check(s) failed: {', '.join(failures)}")
        return 1
    print("policy: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

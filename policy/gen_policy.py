#!/usr/bin/env python3
"""Builds policy/security-policy.md from the policy's machine-readable sources and the module.

  gen_policy.py --fipsmod CLI --injector INJECTOR --lib libfipsmod.so --out FILE

It runs `CLI selftest --json` for the self-test table and `INJECTOR --regions LIB` ("offset vaddr
length" per hashed region) for the boundary. The services, their approval rules, SSPs and
algorithms come from the .tsv files beside this script; the prose from sections.md."""
import argparse
import json
import re
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_tsv(name):
    rows = []
    header = None
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
                continue
            if len(cells) != len(header):
                sys.exit(f"{name}: row has {len(cells)} cells, header has {len(header)}: {line}")
            rows.append(dict(zip(header, cells)))
    return rows


def md_table(columns, rows):
    out = ["| " + " | ".join(title for title, _ in columns) + " |",
           "|" + "---|" * len(columns)]
    for r in rows:
        out.append("| " + " | ".join(str(get(r)).replace("|", "\\|") for _, get in columns) + " |")
    return "\n".join(out)


def services_table():
    rows = read_tsv("services.tsv")
    return md_table([("Function", lambda r: f"`{r['symbol']}`"), ("Service", lambda r: r["service"]),
                     ("Approval", lambda r: r["approval"]), ("Role", lambda r: r["role"]),
                     ("SSPs", lambda r: r["ssps"]), ("Indicator", lambda r: r["indicator"])], rows)


def approval_rules_place():
    """The file that services.tsv names as the home of the approval rules."""
    with open(os.path.join(HERE, "services.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("# approval-rules:"):
                return line.split(":", 1)[1].split()[0]
    sys.exit("services.tsv names no approval-rules file (a '# approval-rules: PATH' line)")


def approval_table():
    rows = read_tsv("approval.tsv")
    place = approval_rules_place()
    intro = (f"The indicator decides approval by parameters in one place, `{place}`: one function "
             "per service, each rule as this table states it. A call outside a bound runs and is "
             "marked not approved. The policy ctest calls every service below on both sides of "
             "each bound (`tests/api/test_approval_rules`) and checks the indicator.\n\n")
    return intro + md_table([("Function", lambda r: f"`{r['service']}`"),
                             ("Parameter", lambda r: f"`{r['parameter']}`"),
                             ("Approved", lambda r: r["approved"]),
                             ("Rule", lambda r: f"`{r['rule']}`")], rows)


def ssps_table():
    rows = read_tsv("ssps.tsv")
    return md_table([("Id", lambda r: r["id"]), ("SSP", lambda r: r["name"]),
                     ("Type", lambda r: r["type"]), ("Generated or entered", lambda r: r["generated"]),
                     ("Stored", lambda r: r["stored"]), ("Zeroized", lambda r: r["zeroized"]),
                     ("Zeroization test", lambda r: f"`{r['test']}`")], rows)


def algorithms_table():
    rows = read_tsv("algorithms.tsv")
    def vectors(r):
        if r["vectors"] == "-":
            return "tested by the self-tests and unit tests only"
        return "<br>".join(f"`{v}`" for v in r["vectors"].split())
    return md_table([("Algorithm", lambda r: r["algorithm"]), ("Mode", lambda r: r["mode"]),
                     ("Sizes", lambda r: r["sizes"]), ("Standard", lambda r: r["standard"]),
                     ("Vectors", vectors)], rows)


WHEN_TEXT = {"power-on": "at power-on and on demand",
             "before first use": "before first use, and on demand",
             "conditional": "with its service"}


def selftests_table(report):
    rows = report["tests"]
    return md_table([("Test", lambda r: f"`{r['name']}`"), ("Algorithm", lambda r: r["algorithm"]),
                     ("Kind", lambda r: r["kind"]), ("When", lambda r: WHEN_TEXT.get(r["when"], r["when"])),
                     ("On failure", lambda r: "ERROR state")], rows)


def boundary_table(regions_text):
    rows = []
    for line in regions_text.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        off, vaddr, length = (int(p) for p in parts)
        rows.append({"off": off, "vaddr": vaddr, "len": length})
    if not rows:
        sys.exit("no hashed regions in the injector's output")
    return md_table([("File offset", lambda r: hex(r["off"])), ("Virtual address", lambda r: hex(r["vaddr"])),
                     ("Length (bytes)", lambda r: r["len"])], rows)


def build_recipe(build_facts):
    """The build-specific facts of the library the document was made from: its MAC and the
    compiler that built it (the .comment section)."""
    rows = [{"k": "Integrity MAC (HMAC-SHA-256) of this build", "v": "`" + build_facts.get("mac", "unknown") + "`"},
            {"k": "Compiler (the library's .comment section)", "v": build_facts.get("compiler", "unknown")}]
    return ("<!-- build-specific: begin -->\n" +
            md_table([("Reference build", lambda r: r["k"]), ("Value", lambda r: r["v"])], rows) +
            "\n<!-- build-specific: end -->")


def build(report, regions_text):
    with open(os.path.join(HERE, "sections.md"), encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(HERE, "changelog.md"), encoding="utf-8") as f:
        changelog = f.read().strip()
    version = report.get("version", "unknown")
    subst = {
        "{{VERSION}}": version,
        "{{TABLE:boundary}}": "<!-- build-specific: begin -->\n" + boundary_table(regions_text) +
                              "\n<!-- build-specific: end -->",
        "{{TABLE:algorithms}}": algorithms_table(),
        "{{TABLE:services}}": services_table(),
        "{{TABLE:approval}}": approval_table(),
        "{{TABLE:ssps}}": ssps_table(),
        "{{TABLE:selftests}}": selftests_table(report),
        "{{CHANGELOG}}": changelog,
        "{{BUILD}}": build_recipe(report.get("_build", {})),
    }
    for k, v in subst.items():
        if k not in text:
            sys.exit(f"sections.md lacks {k}")
        text = text.replace(k, v)
    return ("<!-- Generated by policy/gen_policy.py from policy/*.tsv, policy/sections.md, the "
            "module's self-test report and the injector's regions. Do not edit. -->\n" + text)


def module_facts(fipsmod, injector, lib):
    """The self-test report and the hashed regions, from the built module itself."""
    report = json.loads(subprocess.run([fipsmod, "selftest", "--json"], check=True,
                                       capture_output=True, text=True).stdout)
    regions = subprocess.run([injector, "--regions", lib], check=True, capture_output=True,
                             text=True).stdout
    policy = json.loads(subprocess.run([fipsmod, "policy", "--json"], check=False,
                                       capture_output=True, text=True).stdout or "{}")
    comment = subprocess.run(["readelf", "-p", ".comment", lib], check=False, capture_output=True,
                             text=True).stdout
    compilers = sorted(set(m.strip() for m in re.findall(r"\]\s+(.*)", comment)))
    report["_build"] = {"mac": policy.get("integrity_mac", "unknown"),
                        "compiler": "; ".join(compilers) or "unknown"}
    return report, regions


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fipsmod", required=True)
    ap.add_argument("--injector", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    doc = build(*module_facts(a.fipsmod, a.injector, a.lib))
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(doc)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks `fipsmod selftest` and `fipsmod selftest --json`: the JSON parses, names the version,
state, CPU paths and integrity status, and lists every self-test with a name, kind, result,
duration and when it first and last ran; every test run at load passed with a duration and says
it ran at power-on, and every test that runs before first use has not run (the command uses no
algorithm); both forms exit 0 (OPERATIONAL), and a
bad option exits 2. With a copy of the library whose injected MAC has one byte flipped (loaded
first through LD_LIBRARY_PATH), the report is still valid JSON, says ERROR with the integrity test
failed, and the exit status is 1.
Usage: check_selftest_cli.py PATH/TO/fipsmod PATH/TO/libfipsmod.so"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

cli = sys.argv[1]
lib = sys.argv[2]
MARKER = bytes([0xf1, 0x95, 0x30, 0x6d]) + b"fm-integ" + bytes([0x9c, 0x4e, 0x07, 0xb2])
env = {k: v for k, v in os.environ.items() if not k.startswith("FIPSMOD_")}
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAILED:", what, file=sys.stderr)


r = subprocess.run([cli, "selftest", "--json"], capture_output=True, text=True, env=env)
check(r.returncode == 0, "--json exit status 0 (got %d)" % r.returncode)
try:
    doc = json.loads(r.stdout)
except json.JSONDecodeError as e:
    print(r.stdout, file=sys.stderr)
    sys.exit("invalid JSON: %s" % e)
check(doc.get("state") == "OPERATIONAL", "state OPERATIONAL")
check(doc.get("integrity") == "passed", "integrity passed")
check(isinstance(doc.get("cpu_paths"), str) and doc["cpu_paths"], "cpu_paths")
check(doc.get("version", "").startswith("fipsmod "), "version")
check(isinstance(doc.get("power_on_ns"), int) and doc["power_on_ns"] > 0, "power_on_ns")
tests = doc.get("tests", [])
check(len(tests) >= 27, "at least 27 tests listed (got %d)" % len(tests))
names = set()
for t in tests:
    for key in ("name", "algorithm", "kind", "when", "result", "duration_ns", "runs",
                "first_run", "first_run_at_ns", "last_run", "last_run_at_ns"):
        check(key in t, "%s has %s" % (t.get("name"), key))
    check(t.get("name") not in names, "unique name %s" % t.get("name"))
    names.add(t.get("name"))
    check(t.get("kind") in ("integrity", "KAT", "health", "pairwise"), "kind of %s" % t.get("name"))
    if t.get("when") == "power-on":
        check(t.get("result") == "passed", "%s passed" % t.get("name"))
        check(isinstance(t.get("duration_ns"), int) and t["duration_ns"] > 0,
              "%s has a duration" % t.get("name"))
        check(t.get("first_run") == "power-on" and isinstance(t.get("first_run_at_ns"), int),
              "%s ran at power-on, at a time" % t.get("name"))
    if t.get("when") == "before first use":
        check(t.get("result") == "not run" and t.get("first_run") == "not yet run" and
              t.get("first_run_at_ns") is None, "%s has not run yet" % t.get("name"))
for required in ("hmac-sha256-kat", "integrity", "sha256-kat", "aes256-ctr-decrypt-kat",
                 "ctr-drbg-df-kat", "entropy-startup", "rsa2048-sha256-pkcs1-sign-kat",
                 "rsa2048-sha256-pkcs1-verify-kat"):
    check(required in names, "lists " + required)

r = subprocess.run([cli, "selftest"], capture_output=True, text=True, env=env)
check(r.returncode == 0, "text exit status 0")
check("state:      OPERATIONAL" in r.stdout, "text shows the state")
check("integrity:  passed" in r.stdout, "text shows integrity")
for n in names:
    check(n in r.stdout, "text lists " + n)
check("power-on +" in r.stdout and "not yet run" in r.stdout, "text shows when tests ran")
r = subprocess.run([cli, "selftest", "--bogus"], capture_output=True, text=True, env=env)
check(r.returncode == 2, "bad option exits 2")

with tempfile.TemporaryDirectory() as tmp:
    data = bytearray(open(lib, "rb").read())
    at = data.find(MARKER)
    check(at > 0 and data.find(MARKER, at + 1) < 0, "one marker in the library")
    data[at + len(MARKER) + 3] ^= 0x01
    soname = "libfipsmod.so.0"
    with open(os.path.join(tmp, soname), "wb") as f:
        f.write(data)
    bad_env = dict(env, LD_LIBRARY_PATH=tmp)
    r = subprocess.run([cli, "selftest", "--json"], capture_output=True, text=True, env=bad_env)
    check(r.returncode == 1, "ERROR exits 1 (got %d)" % r.returncode)
    try:
        bad = json.loads(r.stdout)
        check(bad.get("state") == "ERROR", "corrupted library: state ERROR")
        check(bad.get("integrity") == "failed", "corrupted library: integrity failed")
        check(bad.get("error_reason") == "integrity", "corrupted library: reason integrity")
        failed = [t["name"] for t in bad.get("tests", []) if t.get("result") == "failed"]
        check(failed == ["integrity"], "only the integrity test failed (%s)" % failed)
    except json.JSONDecodeError as e:
        check(False, "corrupted library: invalid JSON (%s)" % e)

print("fipsmod selftest: %d tests listed, JSON valid, %d failures" % (len(tests), len(failures)))
sys.exit(1 if failures else 0)

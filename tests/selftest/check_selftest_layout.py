#!/usr/bin/env python3
"""Checks where the self-tests' data lies in libfipsmod.so (issue 9, finding 1): the self-test
table and every object of selftest/ that the file holds bytes for must lie in a read-only
section (which the integrity MAC covers), never in .data or .data.rel.ro, whose bytes the MAC
does not cover and the loader does not rewrite. Objects in .bss/.tbss (the report, the run's
flags) hold no file bytes and are fine. Reads the ELF symbol table (a library built with one;
a stripped copy is skipped with a message, exit 0 only when there is nothing to check).
Usage: check_selftest_layout.py PATH/TO/libfipsmod.so"""
import struct
import sys

SHF_WRITE = 1
SHT_NOBITS = 8
STT_OBJECT, STT_FILE = 1, 4
SELFTEST_FILES = ("kat.c", "power_on.c")

data = open(sys.argv[1], "rb").read()
if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
    sys.exit("not a little-endian ELF64 file")
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
sections = []
for i in range(shnum):
    name, stype, flags, addr, off, size, link, info, align, entsize = struct.unpack_from(
        "<IIQQQQIIQQ", data, shoff + i * shentsize)
    sections.append(dict(name=name, type=stype, flags=flags, off=off, size=size, link=link,
                         entsize=entsize))


def cstr(off):
    return data[off:data.index(b"\0", off)].decode()


names_off = sections[shstrndx]["off"]
for s in sections:
    s["name"] = cstr(names_off + s["name"])
symtab = next((s for s in sections if s["name"] == ".symtab"), None)
if symtab is None:
    print("no .symtab (stripped library): nothing to check")
    sys.exit(0)
strtab = sections[symtab["link"]]["off"]

failures = []
current_file = None
seen_table = False
for i in range(symtab["size"] // symtab["entsize"]):
    st_name, st_info, st_other, st_shndx, st_value, st_size = struct.unpack_from(
        "<IBBHQQ", data, symtab["off"] + i * symtab["entsize"])
    name = cstr(strtab + st_name)
    stype = st_info & 0xF
    if stype == STT_FILE:
        current_file = name
        continue
    if stype != STT_OBJECT or st_shndx == 0 or st_shndx >= len(sections):
        continue
    sec = sections[st_shndx]
    from_file_bytes = sec["type"] != SHT_NOBITS
    writable = bool(sec["flags"] & SHF_WRITE)
    if name == "fm_selftest_defs":
        seen_table = True
        if writable:
            failures.append("fm_selftest_defs lies in writable %s" % sec["name"])
    elif current_file in SELFTEST_FILES and (st_info >> 4) == 0 and writable and from_file_bytes:
        failures.append("%s (%s) lies in writable %s" % (name, current_file, sec["name"]))
if not seen_table:
    failures.append("fm_selftest_defs not found in the symbol table")
for f in failures:
    print("FAILED:", f, file=sys.stderr)
print("self-test data layout: %d problems" % len(failures))
sys.exit(1 if failures else 0)

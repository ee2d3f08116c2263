#!/usr/bin/env python3
"""The design rules of the writable image, checked on the linked library (never on a list of
source files): what the symbol table and the dynamic relocation tables of libfipsmod.so say.

1. Mutable state starts in .bss. Every data object (STT_OBJECT or STT_TLS with a size) whose
   bytes lie in the file image of a writable PT_LOAD segment (or of PT_TLS) must consist wholly of
   bytes the loader rewrites: the 8-byte targets of the dynamic relocations (DT_RELA, DT_JMPREL,
   DT_RELR). Any other byte there is a value the object takes from the file: an initial value of
   mutable state (which the on-demand integrity check would then see change), or a constant that
   belongs in .rodata.
2. Self-test and algorithm tables and descriptors hold no pointers, so they stay in .rodata: no
   data object lies in the RELRO part of the writable segment outside the loader's own tables
   (that is, in .data.rel.ro, where a constant table with pointers lands).
3. The self-test table (fm_selftest_defs) is in the symbol table and lies in a read-only
   section; so does every object named as a constant table by the style (k_*, kat_*).

Each offence is printed with its section, name, size and the first offending offset; exit 1 if
there is one. It needs the symbol table: a stripped library is an error here (the test runs on the
build tree's library). Usage: check_writable_image.py LIBFIPSMOD.so"""
import re
import struct
import sys

PT_LOAD, PT_DYNAMIC, PT_TLS, PT_GNU_RELRO = 1, 2, 7, 0x6474E552
PF_W = 2
SHT_SYMTAB, SHT_NOBITS = 2, 8
SHF_WRITE, SHF_ALLOC = 1, 2
STT_OBJECT, STT_TLS = 1, 6
DT_NULL, DT_PLTRELSZ, DT_RELA, DT_RELASZ, DT_JMPREL, DT_RELRSZ, DT_RELR = 0, 2, 7, 8, 23, 35, 36
# Relocation types that write their 8-byte target whatever the file holds (x86-64).
WRITING = {1, 6, 7, 8, 16, 17, 18, 37}  # 64, GLOB_DAT, JUMP_SLOT, RELATIVE, DTPMOD64, DTPOFF64,
                                        # TPOFF64, IRELATIVE
R_X86_64_NONE = 0
CONSTANT_NAME = re.compile(r"^(k_|kat_|k[A-Z0-9])")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = open(sys.argv[1], "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return fail_all(["not a little-endian ELF64 file"])
    phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
    phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", data, 0x36)
    phdrs = [struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize) for i in range(phnum)]
    # (type, flags, offset, vaddr, paddr, filesz, memsz, align)

    def vaddr_to_off(v, n=1):
        for t, _, off, va, _, fsz, _, _ in phdrs:
            if t == PT_LOAD and va <= v and v + n <= va + fsz:
                return off + (v - va)
        return None

    # The file image of the writable segments and of PT_TLS (the TLS initialisation image).
    images = [(va, va + fsz) for t, fl, _, va, _, fsz, _, _ in phdrs
              if (t == PT_LOAD and fl & PF_W) or t == PT_TLS]
    relro = [(va, va + msz) for t, _, _, va, _, _, msz, _ in phdrs if t == PT_GNU_RELRO]

    # The loader's rewrites: every 8-byte relocation target.
    dyn = [p for p in phdrs if p[0] == PT_DYNAMIC]
    if not dyn:
        return fail_all(["no PT_DYNAMIC"])
    tags = {}
    off = dyn[0][2]
    for i in range(dyn[0][5] // 16):
        tag, val = struct.unpack_from("<qQ", data, off + 16 * i)
        if tag == DT_NULL:
            break
        tags[tag] = val
    rewritten = set()

    def rela(table, size):
        o = vaddr_to_off(table, size) if size else None
        for k in range(size // 24 if o is not None else 0):
            r_offset, r_info, _ = struct.unpack_from("<QQq", data, o + 24 * k)
            if (r_info & 0xFFFFFFFF) in WRITING:
                rewritten.update(range(r_offset, r_offset + 8))

    rela(tags.get(DT_RELA, 0), tags.get(DT_RELASZ, 0))
    rela(tags.get(DT_JMPREL, 0), tags.get(DT_PLTRELSZ, 0))
    if tags.get(DT_RELRSZ):
        o = vaddr_to_off(tags[DT_RELR], tags[DT_RELRSZ])
        base = 0
        for k in range(tags[DT_RELRSZ] // 8):
            e, = struct.unpack_from("<Q", data, o + 8 * k)
            if e & 1 == 0:
                rewritten.update(range(e, e + 8))
                base = e + 8
            else:
                for bit in range(1, 64):
                    if (e >> bit) & 1:
                        w = base + (bit - 1) * 8
                        rewritten.update(range(w, w + 8))
                base += 63 * 8

    # Sections and the symbol table.
    if shoff == 0 or shnum == 0:
        return fail_all(["no section headers (a stripped library): nothing to check against"])
    shdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    # (name, type, flags, addr, offset, size, link, info, addralign, entsize)
    names_off = shdrs[shstrndx][4]

    def cstr(o):
        return data[o:data.index(b"\0", o)].decode(errors="replace")

    secname = [cstr(names_off + s[0]) for s in shdrs]
    symtab = [i for i, s in enumerate(shdrs) if s[1] == SHT_SYMTAB]
    if not symtab:
        return fail_all(["no .symtab (a stripped library): nothing to check against"])
    st = shdrs[symtab[0]]
    str_off = shdrs[st[6]][4]
    tls = [p for p in phdrs if p[0] == PT_TLS]
    problems, seen_table, objects = [], False, 0
    for k in range(st[5] // 24):
        st_name, st_info, _, st_shndx, st_value, st_size = struct.unpack_from(
            "<IBBHQQ", data, st[4] + 24 * k)
        stype = st_info & 0xF
        if stype not in (STT_OBJECT, STT_TLS) or st_shndx == 0 or st_shndx >= shnum:
            continue
        name = cstr(str_off + st_name)
        sec = shdrs[st_shndx]
        where = secname[st_shndx]
        start = st_value + (tls[0][3] if stype == STT_TLS and tls else 0)
        readonly = sec[2] & SHF_ALLOC and not sec[2] & SHF_WRITE
        if name == "fm_selftest_defs":
            seen_table = True
        if (name == "fm_selftest_defs" or CONSTANT_NAME.match(name)) and not readonly:
            problems.append("%s %s (%d bytes): a constant table outside .rodata" %
                            (where, name, st_size))
        if st_size == 0 or sec[1] == SHT_NOBITS:
            continue
        in_image = [b for b in range(start, start + st_size) if any(lo <= b < hi for lo, hi in images)]
        if not in_image:
            continue
        objects += 1
        if any(lo <= start < hi for lo, hi in relro):
            problems.append("%s %s (%d bytes): a table with pointers in the RELRO data "
                            "(descriptors hold no pointers and stay in .rodata)" %
                            (where, name, st_size))
            continue
        loose = [b for b in in_image if b not in rewritten]
        if loose:
            o = vaddr_to_off(loose[0])
            value = "non-zero" if o is not None and any(
                data[vaddr_to_off(b)] for b in loose if vaddr_to_off(b) is not None) else "zero"
            problems.append("%s %s (%d bytes): %d bytes that the loader does not rewrite (%s "
                            "value from the file, first at +%d): mutable state belongs in .bss" %
                            (where, name, st_size, len(loose), value, loose[0] - start))
    if not seen_table:
        problems.append("fm_selftest_defs is not in the symbol table")
    for p in problems:
        print("FAILED:", p, file=sys.stderr)
    print("writable image: %d data objects with file bytes, %d relocation target bytes; %d problems"
          % (objects, len(rewritten), len(problems)))
    return 1 if problems else 0


def fail_all(msgs):
    for m in msgs:
        print("FAILED:", m, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

"""Shared by the units' self-test vector generators (module/<unit>/gen_<unit>_kat.py): the
derivation of each test's inputs from its name, and the C array writer. Not a program."""
import hashlib


def derive(label, n):
    """n bytes derived from a label (SHA-512 in counter mode): unique per test and per field."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha512(b"fipsmod KAT input|%s|%d" % (label.encode(), i)).digest()
        i += 1
    return out[:n]


# The C text written so far, in order; each generator joins it after its header.
out = []


def emit(name, data):
    """Appends `static const uint8_t NAME[len] = {...};` for |data| to |out|."""
    lines = []
    for i in range(0, len(data), 16):
        lines.append("    " + " ".join("0x%02x," % b for b in data[i:i + 16]))
    out.append("static const uint8_t %s[%d] = {\n%s\n};\n" % (name, len(data), "\n".join(lines)))

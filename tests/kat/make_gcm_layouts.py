#!/usr/bin/env python3
"""Writes CAVP GCMVS files in the layouts the project holds no NIST copy of
(tests/vectors/generated/cavp-gcm/): the values are made here with the `cryptography` package's
AESGCM from a fixed seed, never with the module, and laid out as NIST's gcmtestvectors files are
([Keylen], [IVlen], [PTlen], [AADlen], [Taglen] sections; Count, Key, IV, ... lines; CRLF).

- gcmDecrypt256-layout.rsp: decryption with AES-256, IVs of 64, 96 and 1024 bits, texts of 0, 13,
  16 and 51 bytes, AAD of 0 to 90 bytes, every tag length from 128 down to 32 bits; the second
  case of some sections is a FAIL case (its tag, ciphertext, AAD or IV changed after sealing).
- gcmDecrypt192-layout.rsp, gcmEncryptExtIV192-layout.rsp: AES-192 (NIST's gcmDecrypt192.rsp and
  gcmEncryptExtIV192.rsp are not among the project's vectors), 16 cases each.
- gcmEncryptIntIV128-layout.req: the internal-IV test as the IUT receives it (Key, PT, AAD; the
  IUT makes the IV), with a [IVlen = 1024] section a 96-bit-IV module cannot serve.
- gcmEncryptIntIV256-layout.rsp: the same test answered (IV, CT and Tag after AAD), as an IUT
  writes its response.

usage: make_gcm_layouts.py OUTDIR  (the committed files were written with OUTDIR =
tests/vectors/generated/cavp-gcm; rerunning reproduces them byte for byte: ctest
kat-generated-gcm-reproducible checks that)."""
import os
import random
import sys

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

R = random.Random(80038)
TAGS = (128, 120, 112, 104, 96, 64, 32)
TEXTS = ((0, 0), (0, 128), (128, 0), (104, 160), (408, 720))  # (PTlen, AADlen) in bits


def rb(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def seal(key, iv, aad, pt, tag_bits):
    """ct and the tag cut to |tag_bits| (SP 800-38D 7.1 step 6: MSB_t). `cryptography` takes
    IVs of 8 to 128 bytes: the 8-bit IVs of NIST's files are left to those files."""
    out = AESGCM(key).encrypt(iv, pt, aad)
    return out[:-16], out[-16:][:tag_bits // 8]


def opens(key, iv, aad, ct, tag):
    try:
        dec = Cipher(algorithms.AES(key), modes.GCM(iv, tag, min_tag_length=len(tag))).decryptor()
        dec.authenticate_additional_data(aad)
        dec.update(ct)
        dec.finalize()
        return True
    except Exception:
        return False


def flip(b):
    i = R.randrange(len(b))
    return b[:i] + bytes([b[i] ^ (1 << R.randrange(8))]) + b[i + 1:]


def header(out, what, keylen):
    out += ["# CAVS 14.0", "# GCM %s with keysize %d test information" % (what, keylen),
            "# Layout of NIST's gcmtestvectors files; values made with the cryptography package",
            "# by tests/kat/make_gcm_layouts.py (seed 80038), not by NIST", "", "", ""]


def section(out, keylen, ivlen, ptlen, aadlen, taglen):
    out += ["[Keylen = %d]" % keylen, "[IVlen = %d]" % ivlen, "[PTlen = %d]" % ptlen,
            "[AADlen = %d]" % aadlen, "[Taglen = %d]" % taglen, ""]


def cases(out, keylen, groups, per_section):
    """Writes the section headers of |groups| ([(ivlens, texts, tags), ...]) to |out| and yields
    the cases of each: (count, key, iv, pt, aad, ct, tag), sealed with random inputs."""
    for ivlens, texts, tags in groups:
        for ivlen in ivlens:
            for ptlen, aadlen in texts:
                for taglen in tags:
                    section(out, keylen, ivlen, ptlen, aadlen, taglen)
                    for count in range(per_section):
                        key, iv = rb(keylen // 8), rb(ivlen // 8)
                        pt, aad = rb(ptlen // 8), rb(aadlen // 8)
                        yield (count, key, iv, pt, aad) + seal(key, iv, aad, pt, taglen)


def decrypt_file(keylen, groups, per_section):
    out = []
    header(out, "Decrypt", keylen)
    for count, key, iv, pt, aad, ct, tag in cases(out, keylen, groups, per_section):
        fail = count == 1 and R.random() < 0.6
        if fail:
            # What a forger would change: the tag, or any input the tag covers.
            what = R.choice(["tag", "iv"] + (["ct"] if ct else []) + (["aad"] if aad else []))
            if what == "tag":
                tag = flip(tag)
            elif what == "ct":
                ct = flip(ct)
            elif what == "aad":
                aad = flip(aad)
            else:
                iv = flip(iv)
            assert not opens(key, iv, aad, ct, tag)
        out += ["Count = %d" % count, "Key = " + key.hex(), "IV = " + iv.hex(),
                "CT = " + ct.hex(), "AAD = " + aad.hex(), "Tag = " + tag.hex()]
        out += ["FAIL"] if fail else ["PT = " + pt.hex()]
        out += [""]
    return out


def encrypt_file(keylen, groups, per_section, layout):
    """layout: "ext" (Key IV PT AAD CT Tag), "int-req" (Key PT AAD), "int-rsp" (Key PT AAD IV CT
    Tag)."""
    out = []
    header(out, "Encrypt", keylen)
    for count, key, iv, pt, aad, ct, tag in cases(out, keylen, groups, per_section):
        out += ["Count = %d" % count, "Key = " + key.hex()]
        if layout == "ext":
            out += ["IV = " + iv.hex(), "PT = " + pt.hex(), "AAD = " + aad.hex(),
                    "CT = " + ct.hex(), "Tag = " + tag.hex()]
        else:
            out += ["PT = " + pt.hex(), "AAD = " + aad.hex()]
            if layout == "int-rsp":
                out += ["IV = " + iv.hex(), "CT = " + ct.hex(), "Tag = " + tag.hex()]
        out += [""]
    return out


def write(outdir, name, lines):
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(("\r\n".join(lines) + "\r\n").encode())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    write(outdir, "gcmDecrypt256-layout.rsp", decrypt_file(256, [((96, 64, 1024), TEXTS, TAGS)], 2))
    small = ((0, 0), (128, 128))
    write(outdir, "gcmDecrypt192-layout.rsp",
          decrypt_file(192, [((96, 1024), small, (128, 96))], 2))
    write(outdir, "gcmEncryptExtIV192-layout.rsp",
          encrypt_file(192, [((96, 64), small, (128, 32))], 2, "ext"))
    write(outdir, "gcmEncryptIntIV128-layout.req",
          encrypt_file(128, [((96,), TEXTS, TAGS), ((1024,), ((128, 128),), (128,))], 2, "int-req"))
    write(outdir, "gcmEncryptIntIV256-layout.rsp",
          encrypt_file(256, [((96,), TEXTS, TAGS)], 2, "int-rsp"))

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes module/aes/aes_kat_vectors.h, the inputs and expected outputs of the AES (ECB, CBC, CTR)
and AES-GCM known-answer self-tests (aes_cast.c).

The expected values come from implementations independent of fipsmod: Python's hashlib and hmac
(OpenSSL's libcrypto underneath) and pyca/cryptography. Each test's inputs are derived from its
name (derive() below, the same derivation in every unit's generator), so every input byte string
is unique and a failing test names one algorithm, mode and direction.

The GCM messages are 519 bytes (32 whole blocks and 7 bytes) with 260 bytes of AAD (16 blocks
and 4 bytes), both taken from the shared bulk input: long enough for the widest kernels (the stitched AES-CTR + GHASH pass and the AAD's
GHASH pass, 16 blocks each) and leaving their tails and the partial blocks to the narrower ones,
so one test runs every path the CPU uses.

Run:  python3 module/aes/gen_aes_kat.py > module/aes/aes_kat_vectors.h
"""
import hashlib
import os
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kat_gen import derive, emit, out  # noqa: E402  (module/kat_gen.py)


def aes(key, mode, data, encrypt):
    c = Cipher(algorithms.AES(key), mode)
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(data) + op.finalize()


# AES: ECB and CBC on two blocks; CTR on 45 bytes (a partial last block) with a 128-bit counter
# whose low 32 bits are about to wrap, so the carry into the upper 96 bits is exercised.
for kbits in (128, 256):
    for mode in ("ecb", "cbc", "ctr"):
        for direction in ("encrypt", "decrypt"):
            t = "aes%d-%s-%s-kat" % (kbits, mode, direction)
            p = "kat_aes%d_%s_%s" % (kbits, mode, "enc" if direction == "encrypt" else "dec")
            key = derive(t + " key", kbits // 8)
            emit(p + "_key", key)
            if mode == "ctr":
                ctr = derive(t + " counter", 12) + b"\xff\xff\xff\xfe"
                data = derive(t + " input", 45)
                m = modes.CTR(ctr)
                emit(p + "_counter", ctr)
            else:
                data = derive(t + " input", 32)
                if mode == "cbc":
                    iv = derive(t + " iv", 16)
                    m = modes.CBC(iv)
                    emit(p + "_iv", iv)
                else:
                    m = modes.ECB()
            emit(p + "_in", data)
            emit(p + "_out", aes(key, m, data, direction == "encrypt"))

# AES on long inputs, for the bulk kernels: 45 blocks are two passes of the 16-block VAES loops,
# then one pass of the 8-block AES-NI loop and a tail of 5 (ECB: 5 single blocks; CTR: the 5..7
# tail), and CTR adds 7 bytes of a last partial block. The modes and directions whose blocks are
# independent have wide kernels; CBC encryption is one serial chain and has none.
# The 128-bit counters carry out of their low 64 bits inside the bulk: at block 20 for AES-128
# (the second VAES pass), at block 36 for AES-256 (the 8-block loop). The 32-bit counter crosses
# byte boundaries but does not wrap (a wrap is an error, not a known answer).
# The bulk tests share one input (their keys, IVs and counters are their own, so a failing test
# still names one key size, mode and direction) and compare the SHA-256 of their output: the
# vectors are part of the image that the integrity check hashes at every load.
BULK_BLOCKS = 45
BULK_INPUT = derive("aes-bulk-kat input", 16 * BULK_BLOCKS + 7)
emit("kat_aes_bulk_in", BULK_INPUT)
for kbits, wrap_at in ((128, 20), (256, 36)):
    for mode, direction in (("ecb", "encrypt"), ("ecb", "decrypt"), ("cbc", "decrypt"), ("ctr", None),
                            ("ctr32", None)):
        t = "aes%d-%s%s-bulk-kat" % (kbits, mode, "-" + direction if direction else "")
        p = "kat_aes%d_%s%s_bulk" % (kbits, mode, "_" + direction[:3] if direction else "")
        key = derive(t + " key", kbits // 8)
        emit(p + "_key", key)
        n = 16 * BULK_BLOCKS + (7 if mode.startswith("ctr") else 0)
        data = BULK_INPUT[:n]
        if mode == "ctr":
            ctr = derive(t + " counter", 8) + ((1 << 64) - wrap_at).to_bytes(8, "big")
            m = modes.CTR(ctr)
            emit(p + "_counter", ctr)
        elif mode == "ctr32":
            ctr = derive(t + " counter", 12) + (0x0001fff0).to_bytes(4, "big")
            assert 0x0001fff0 + BULK_BLOCKS + 1 < 1 << 32
            m = modes.CTR(ctr)
            emit(p + "_counter", ctr)
        elif mode == "cbc":
            iv = derive(t + " iv", 16)
            m = modes.CBC(iv)
            emit(p + "_iv", iv)
        else:
            m = modes.ECB()
        emit(p + "_out_sha256", hashlib.sha256(aes(key, m, data, direction != "decrypt")).digest())

# AES-192: the report has room for few more rows (FM_SELFTEST_MAX_ENTRIES is part of the ABI), so
# AES-192 has one short test and one bulk test, each running every mode and direction in turn.
# The short test takes the published examples, written out here and checked against pyca: FIPS 197
# Appendix C.2 (one block) and SP 800-38A F.1.3/F.1.4 (ECB), F.2.3/F.2.4 (CBC) and F.5.3/F.5.4
# (CTR), four blocks each; the SP 800-38A examples share one plaintext, and each direction is run.
SP800_38A_PT = bytes.fromhex(
    "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710")
SP800_38A_KEY192 = bytes.fromhex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b")
AES192_PUBLISHED = (
    # name, key, mode, iv or counter, plaintext, ciphertext
    ("fips197", bytes.fromhex("000102030405060708090a0b0c0d0e0f1011121314151617"), "ecb", None,
     bytes.fromhex("00112233445566778899aabbccddeeff"),
     bytes.fromhex("dda97ca4864cdfe06eaf70a0ec0d7191")),
    ("ecb", SP800_38A_KEY192, "ecb", None, SP800_38A_PT, bytes.fromhex(
        "bd334f1d6e45f25ff712a214571fa5cc" "974104846d0ad3ad7734ecb3ecee4eef"
        "ef7afd2270e2e60adce0ba2face6444e" "9a4b41ba738d6c72fb16691603c18e0e")),
    ("cbc", SP800_38A_KEY192, "cbc", bytes.fromhex("000102030405060708090a0b0c0d0e0f"),
     SP800_38A_PT, bytes.fromhex(
         "4f021db243bc633d7178183a9fa071e8" "b4d9ada9ad7dedf4e5e738763f69145a"
         "571b242012fb7ae07fa9baac3df102e0" "08b0e27988598881d920a9e64f5615cd")),
    ("ctr", SP800_38A_KEY192, "ctr", bytes.fromhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"),
     SP800_38A_PT, bytes.fromhex(
         "1abc932417521ca24f2b0459fe7e6e0b" "090339ec0aa6faefd5ccc2c6f4ce8e94"
         "1e36b26bd1ebc670d1bd1d665620abf7" "4f78a7f6d29809585a97daec58c6b050")),
)
for name, key, mode, iv, pt, ct in AES192_PUBLISHED:
    m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv), "ctr": lambda: modes.CTR(iv)}[mode]()
    assert aes(key, m, pt, True) == ct, name
    p = "kat_aes192_%s" % name
    emit(p + "_key", key)
    if iv is not None:
        emit(p + ("_counter" if mode == "ctr" else "_iv"), iv)
    emit(p + "_pt", pt)
    emit(p + "_ct", ct)

# AES-192 on long inputs, as the AES-128/256 bulk tests above; the 128-bit counter carries out of
# its low 64 bits at block 10 (the first VAES pass).
for mode, direction in (("ecb", "encrypt"), ("ecb", "decrypt"), ("cbc", "decrypt"), ("ctr", None),
                        ("ctr32", None)):
    t = "aes192-%s%s-bulk-kat" % (mode, "-" + direction if direction else "")
    p = "kat_aes192_%s%s_bulk" % (mode, "_" + direction[:3] if direction else "")
    key = derive(t + " key", 24)
    emit(p + "_key", key)
    n = 16 * BULK_BLOCKS + (7 if mode.startswith("ctr") else 0)
    data = BULK_INPUT[:n]
    if mode == "ctr":
        ctr = derive(t + " counter", 8) + ((1 << 64) - 10).to_bytes(8, "big")
        m = modes.CTR(ctr)
        emit(p + "_counter", ctr)
    elif mode == "ctr32":
        ctr = derive(t + " counter", 12) + (0x0001fff0).to_bytes(4, "big")
        m = modes.CTR(ctr)
        emit(p + "_counter", ctr)
    elif mode == "cbc":
        iv = derive(t + " iv", 16)
        m = modes.CBC(iv)
        emit(p + "_iv", iv)
    else:
        m = modes.ECB()
    emit(p + "_out_sha256", hashlib.sha256(aes(key, m, data, direction != "decrypt")).digest())

# AES-GCM: one message per key size and direction; AES-192 (one self-test running both
# directions) after AES-128 and AES-256. The message and the AAD are parts of the shared bulk
# input (kat_aes_bulk_in): the message its first 519 bytes (the plaintext to seal, or the
# ciphertext to open), the AAD its last 260. Each test has its own key and IV, so its output is
# its own; the expected output is given as its SHA-256 (the ciphertext when sealing, the
# plaintext when opening) with the tag in full.
GCM_LEN, GCM_AAD = 519, 260
GCM_MSG, GCM_AAD_BYTES = BULK_INPUT[:GCM_LEN], BULK_INPUT[-GCM_AAD:]
for bits in (128, 256, 192):
    for d in ("enc", "dec"):
        n = "aes%d-gcm-%s" % (bits, d)
        key, iv = derive(n + "|key", bits // 8), derive(n + "|iv", 12)
        p = "kat_aes%d_gcm_%s_" % (bits, d)
        emit(p + "key", key)
        emit(p + "iv", iv)
        if d == "enc":
            ct_tag = AESGCM(key).encrypt(iv, GCM_MSG, GCM_AAD_BYTES)
            emit(p + "out_sha256", hashlib.sha256(ct_tag[:-16]).digest())
            emit(p + "tag", ct_tag[-16:])
        else:
            # The tag that makes GCM_MSG a valid ciphertext: GCM's tag is a function of the
            # ciphertext, and the plaintext is GCM_MSG XOR the key stream (CTR from inc32(J0)).
            j0 = iv + b"\x00\x00\x00\x01"
            ctr = (int.from_bytes(j0, "big") & ~0xffffffff) | ((int.from_bytes(j0[12:], "big") + 1) & 0xffffffff)
            pt = aes(key, modes.CTR(ctr.to_bytes(16, "big")), GCM_MSG, True)
            ct_tag = AESGCM(key).encrypt(iv, pt, GCM_AAD_BYTES)
            assert ct_tag[:-16] == GCM_MSG
            emit(p + "out_sha256", hashlib.sha256(pt).digest())
            emit(p + "tag", ct_tag[-16:])


sys.stdout.write("""/* Generated by module/aes/gen_aes_kat.py (python3 hashlib/hmac and pyca/cryptography, independent of
 * fipsmod); do not edit. The known answers of the AES and AES-GCM CASTs (aes_cast.c). */
#ifndef FIPSMOD_AES_KAT_VECTORS_H
#define FIPSMOD_AES_KAT_VECTORS_H

#include <stdint.h>

""")
sys.stdout.write("\n".join(out))
sys.stdout.write("\n#endif\n")

#!/usr/bin/env python3
"""Generates selftest/kat_vectors.h, the inputs and expected outputs of fipsmod's power-on
known-answer tests.

The expected values come from implementations independent of fipsmod: Python's hashlib and hmac
(OpenSSL's libcrypto underneath) and pyca/cryptography. Each test gets its own inputs, derived
from its name, so that every input byte string is unique and a failing test is easy to pinpoint.
Inputs are written out literally in the header; this script only documents and reproduces them.

Run:  python3 selftest/gen_kat_vectors.py > selftest/kat_vectors.h
"""
import hashlib
import hmac
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def derive(label, n):
    """n bytes derived from a label (SHA-512 in counter mode): unique per test and per field."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha512(b"fipsmod KAT input|%s|%d" % (label.encode(), i)).digest()
        i += 1
    return out[:n]


def c_array(name, data):
    lines = []
    for i in range(0, len(data), 16):
        lines.append("    " + " ".join("0x%02x," % b for b in data[i:i + 16]))
    return "static const uint8_t %s[%d] = {\n%s\n};\n" % (name, len(data), "\n".join(lines))


out = []


def emit(name, data):
    out.append(c_array(name, data))


def aes(key, mode, data, encrypt):
    c = Cipher(algorithms.AES(key), mode)
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(data) + op.finalize()


# HMAC: key and message per test; the tag is the expected value. The SHA-256 and SHA-384 keys are
# longer than the hash's block (so they are hashed first, FIPS 198-1 step 2), the SHA-512 key is
# shorter (zero-padded, step 3).
for bits, h, klen in ((256, hashlib.sha256, 70), (384, hashlib.sha384, 136), (512, hashlib.sha512, 80)):
    t = "hmac-sha%d-kat" % bits
    key = derive(t + " key", klen)
    msg = derive(t + " message", 100)
    emit("kat_hmac_sha%d_key" % bits, key)
    emit("kat_hmac_sha%d_msg" % bits, msg)
    emit("kat_hmac_sha%d_tag" % bits, hmac.new(key, msg, h).digest())

# SHA-2: a two-block message for SHA-256 (119 bytes), two blocks for SHA-384/512 (200 bytes).
for bits, h, n in ((256, hashlib.sha256, 119), (384, hashlib.sha384, 200), (512, hashlib.sha512, 200)):
    t = "sha%d-kat" % bits
    msg = derive(t + " message", n)
    emit("kat_sha%d_msg" % bits, msg)
    emit("kat_sha%d_digest" % bits, h(msg).digest())

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
BULK_BLOCKS = 45
for kbits, wrap_at in ((128, 20), (256, 36)):
    for mode, direction in (("ecb", "encrypt"), ("ecb", "decrypt"), ("cbc", "decrypt"), ("ctr", None),
                            ("ctr32", None)):
        t = "aes%d-%s%s-bulk-kat" % (kbits, mode, "-" + direction if direction else "")
        p = "kat_aes%d_%s%s_bulk" % (kbits, mode, "_" + direction[:3] if direction else "")
        key = derive(t + " key", kbits // 8)
        emit(p + "_key", key)
        n = 16 * BULK_BLOCKS + (7 if mode.startswith("ctr") else 0)
        data = derive(t + " input", n)
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
        emit(p + "_in", data)
        emit(p + "_out", aes(key, m, data, direction != "decrypt"))

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
    data = derive(t + " input", n)
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
    emit(p + "_in", data)
    emit(p + "_out", aes(key, m, data, direction != "decrypt"))



# CTR_DRBG (SP 800-90Ar1 10.2.1, AES-256) written out from the spec, on pyca's AES. Checked
# against NIST CAVP CTR_DRBG.rsp [AES-256 use df] vectors (instantiate Key/V, reseed, additional
# input and prediction-resistance cases) before use here.
def aes_block(key, block):
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return e.update(block) + e.finalize()


def inc128(v):
    return ((int.from_bytes(v, "big") + 1) % (1 << 128)).to_bytes(16, "big")


def drbg_update(data, key, v):  # 10.2.1.2
    temp = b""
    while len(temp) < 48:
        v = inc128(v)
        temp += aes_block(key, v)
    temp = bytes(a ^ b for a, b in zip(temp[:48], data))
    return temp[:32], temp[32:]


def block_cipher_df(inp, nbytes):  # 10.3.2
    s = len(inp).to_bytes(4, "big") + nbytes.to_bytes(4, "big") + inp + b"\x80"
    s += bytes(-len(s) % 16)
    k, temp, i = bytes(range(32)), b"", 0
    while len(temp) < 48:
        x = bytes(16)
        data = i.to_bytes(4, "big") + bytes(12) + s
        for j in range(0, len(data), 16):
            x = aes_block(k, bytes(a ^ b for a, b in zip(x, data[j:j + 16])))
        temp += x
        i += 1
    k, x, temp = temp[:32], temp[32:48], b""
    while len(temp) < nbytes:
        x = aes_block(k, x)
        temp += x
    return temp[:nbytes]


class CtrDrbg:
    def __init__(self, use_df, entropy, nonce, pers):  # 10.2.1.3.1 / 10.2.1.3.2
        self.use_df = use_df
        self.key, self.v = drbg_update(self.material(entropy + nonce, pers), bytes(32), bytes(16))

    def material(self, entropy, extra):
        if self.use_df:
            return block_cipher_df(entropy + extra, 48)
        return bytes(a ^ b for a, b in zip(entropy, extra + bytes(48 - len(extra))))

    def reseed(self, entropy, ai):  # 10.2.1.4
        self.key, self.v = drbg_update(self.material(entropy, ai), self.key, self.v)

    def generate(self, n, ai):  # 10.2.1.5
        if ai:
            ai = block_cipher_df(ai, 48) if self.use_df else ai + bytes(48 - len(ai))
            self.key, self.v = drbg_update(ai, self.key, self.v)
        else:
            ai = bytes(48)
        temp = b""
        while len(temp) < n:
            self.v = inc128(self.v)
            temp += aes_block(self.key, self.v)
        self.key, self.v = drbg_update(ai, self.key, self.v)
        return temp[:n]


# CTR_DRBG KATs: instantiate, generate (with additional input), reseed, generate; both outputs are
# expected values. With the df: 32-byte entropy, 16-byte nonce; without: 48-byte entropy.
for name, use_df, elen, nlen in (("ctr-drbg-df-kat", True, 32, 16), ("ctr-drbg-nodf-kat", False, 48, 0)):
    p = "kat_" + name.replace("-", "_").replace("_kat", "")
    ent = derive(name + " entropy", elen)
    nonce = derive(name + " nonce", nlen)
    pers = derive(name + " personalization", 32)
    ai1 = derive(name + " additional input 1", 32)
    ent2 = derive(name + " reseed entropy", elen)
    ai2 = derive(name + " reseed additional input", 32)
    ai3 = derive(name + " additional input 2", 32)
    d = CtrDrbg(use_df, ent, nonce, pers)
    out1 = d.generate(64, ai1)
    d.reseed(ent2, ai2)
    out2 = d.generate(64, ai3)
    for field, val in (("entropy", ent), ("nonce", nonce), ("pers", pers), ("ai1", ai1),
                       ("reseed_entropy", ent2), ("reseed_ai", ai2), ("ai2", ai3),
                       ("out1", out1), ("out2", out2)):
        if val:
            emit("%s_%s" % (p, field), val)

# CTR_DRBG bulk generate (no df): a request past the fused kernels' 64 bytes takes the general
# path, which runs the counter blocks through the bulk CTR kernels: 77 full blocks (four VAES
# passes, an 8-block pass and a tail of 5) and a partial one, then the update's blocks. A second,
# short request checks the Key and V that the bulk path left.
name = "ctr-drbg-bulk-kat"
ent = derive(name + " entropy", 48)
pers = derive(name + " personalization", 32)
ai = derive(name + " additional input", 32)
d = CtrDrbg(False, ent, b"", pers)
out1 = d.generate(77 * 16 + 5, ai)
out2 = d.generate(64, b"")
for field, val in (("entropy", ent), ("pers", pers), ("ai", ai), ("out1", out1), ("out2", out2)):
    emit("kat_ctr_drbg_bulk_" + field, val)

# RSA-2048: a fixed key (selftest/kat_rsa2048_key.pem, made once with `openssl genpkey
# -algorithm RSA -pkeyopt rsa_keygen_bits:2048`; a public test key, never used for anything else),
# RSASSA-PKCS1-v1_5 with SHA-256 signed by pyca/cryptography: one message for the signing KAT,
# another for the verification KAT.
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "kat_rsa2048_key.pem"), "rb") as f:
    rsa_key = serialization.load_pem_private_key(f.read(), password=None)
nums = rsa_key.private_numbers()
pub = nums.public_numbers


def be(x, n=None):
    n = n or (x.bit_length() + 7) // 8
    return x.to_bytes(n, "big")


for field, val in (("n", be(pub.n, 256)), ("e", be(pub.e)), ("d", be(nums.d, 256)),
                   ("p", be(nums.p, 128)), ("q", be(nums.q, 128)), ("dp", be(nums.dmp1, 128)),
                   ("dq", be(nums.dmq1, 128)), ("qinv", be(nums.iqmp, 128))):
    emit("kat_rsa2048_" + field, val)
for name, tag in (("rsa2048-sha256-pkcs1-sign-kat", "sign"), ("rsa2048-sha256-pkcs1-verify-kat", "verify")):
    msg = derive(name + " message", 77)
    emit("kat_rsa2048_%s_msg" % tag, msg)
    emit("kat_rsa2048_%s_sig" % tag, rsa_key.sign(msg, padding.PKCS1v15(), hashes.SHA256()))

sys.stdout.write("""/* Known-answer test vectors of the power-on self-tests. GENERATED by
 * selftest/gen_kat_vectors.py (python3 hashlib/hmac and pyca/cryptography, independent of
 * fipsmod); do not edit by hand. Included only by selftest/kat.c. */
#ifndef FIPSMOD_SELFTEST_KAT_VECTORS_H
#define FIPSMOD_SELFTEST_KAT_VECTORS_H

#include <stdint.h>

""")
sys.stdout.write("\n".join(out))
sys.stdout.write("\n#endif\n")

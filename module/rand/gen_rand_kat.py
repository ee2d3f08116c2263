#!/usr/bin/env python3
"""Writes module/rand/rand_kat_vectors.h, the inputs and expected outputs of the CTR_DRBG known-
answer self-tests (rand_cast.c).

The expected values come from implementations independent of fipsmod: Python's hashlib and hmac
(OpenSSL's libcrypto underneath) and pyca/cryptography. Each test's inputs are derived from its
name (derive() below, the same derivation in every unit's generator), so every input byte string
is unique and a failing test names one algorithm, mode and direction.

Run:  python3 module/rand/gen_rand_kat.py > module/rand/rand_kat_vectors.h
"""
import hashlib
import os
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kat_gen import derive, emit, out  # noqa: E402  (module/kat_gen.py)


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


sys.stdout.write("""/* Generated by module/rand/gen_rand_kat.py (python3 hashlib/hmac and pyca/cryptography, independent of
 * fipsmod); do not edit. The known answers of the CTR_DRBG CASTs (rand_cast.c). */
#ifndef FIPSMOD_RAND_KAT_VECTORS_H
#define FIPSMOD_RAND_KAT_VECTORS_H

#include <stdint.h>

""")
sys.stdout.write("\n".join(out))
sys.stdout.write("\n#endif\n")

#!/usr/bin/env python3
"""Interoperability of fipsmod's ML-DSA with an independent implementation: Python's
`cryptography` (48 and later, on OpenSSL), for ML-DSA-44, -65 and -87.

For seeds drawn at random (the seed is printed):
  - fm_mldsa_keygen_from_seed gives the public key cryptography derives from the same seed;
  - signatures made by fipsmod (hedged and deterministic, with and without a context) verify in
    cryptography, and cryptography's verify in fipsmod;
  - a signature under one context is rejected under another, both ways.

libfipsmod.so is called through ctypes. Where cryptography or its ML-DSA is missing (Debian's
python3-cryptography 38 has none) the test prints why and exits 77, which ctest reports as
skipped.

usage: test_mldsa_interop.py LIBFIPSMOD_SO"""
import ctypes
import os
import sys

SKIP = 77

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import mldsa
except ImportError as e:
    print(f"SKIP: python3 has no cryptography with ML-DSA ({e})")
    sys.exit(SKIP)

SETS = {44: mldsa.MLDSA44PrivateKey, 65: mldsa.MLDSA65PrivateKey, 87: mldsa.MLDSA87PrivateKey}
SIZES = {44: (1312, 2560, 2420), 65: (1952, 4032, 3309), 87: (2592, 4896, 4627)}
FM_OK, FM_ERR_VERIFY = 0, -5


def main():
    lib = ctypes.CDLL(sys.argv[1])
    u8p, sz = ctypes.c_char_p, ctypes.c_size_t
    lib.fm_mldsa_keygen_from_seed.argtypes = [ctypes.c_int, u8p, u8p, sz, u8p, sz]
    lib.fm_mldsa_sign.argtypes = [ctypes.c_int, u8p, sz, u8p, sz, u8p, sz, ctypes.c_uint, u8p, sz,
                                  ctypes.POINTER(sz)]
    lib.fm_mldsa_verify.argtypes = [ctypes.c_int, u8p, sz, u8p, sz, u8p, sz, u8p, sz]
    seed0 = int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed0:#x}")
    failures = 0

    def check(cond, what):
        nonlocal failures
        if not cond:
            failures += 1
            print(f"FAIL: {what}")

    for level, cls in SETS.items():
        pk_len, sk_len, sig_len = SIZES[level]
        for i in range(8):
            seed = (seed0 + 1000 * level + i).to_bytes(8, "little") * 4
            theirs = cls.from_seed_bytes(seed)
            their_pk = theirs.public_key()
            pk = ctypes.create_string_buffer(pk_len)
            sk = ctypes.create_string_buffer(sk_len)
            check(lib.fm_mldsa_keygen_from_seed(level, seed, pk, pk_len, sk, sk_len) == FM_OK,
                  f"ML-DSA-{level} keygen")
            check(pk.raw == their_pk.public_bytes_raw(), f"ML-DSA-{level} public key from seed")
            msg = b"interop message %d" % i
            ctx = b"" if i % 2 == 0 else b"context %d" % i
            other = b"another context"
            for flags in (0, 1):
                sig = ctypes.create_string_buffer(sig_len)
                n = sz(0)
                check(lib.fm_mldsa_sign(level, sk, sk_len, msg, len(msg), ctx, len(ctx), flags,
                                        sig, sig_len, ctypes.byref(n)) == FM_OK,
                      f"ML-DSA-{level} sign")
                try:
                    if ctx:
                        their_pk.verify(sig.raw, msg, ctx)
                    else:
                        their_pk.verify(sig.raw, msg)
                except InvalidSignature:
                    check(False, f"ML-DSA-{level}: fipsmod's signature rejected by cryptography")
                try:
                    their_pk.verify(sig.raw, msg, other)
                    check(False, f"ML-DSA-{level}: accepted under another context")
                except InvalidSignature:
                    pass
            their_sig = theirs.sign(msg, ctx) if ctx else theirs.sign(msg)
            check(lib.fm_mldsa_verify(level, pk, pk_len, msg, len(msg), ctx, len(ctx), their_sig,
                                      len(their_sig)) == FM_OK,
                  f"ML-DSA-{level}: cryptography's signature rejected by fipsmod")
            check(lib.fm_mldsa_verify(level, pk, pk_len, msg, len(msg), other, len(other),
                                      their_sig, len(their_sig)) == FM_ERR_VERIFY,
                  f"ML-DSA-{level}: cryptography's signature accepted under another context")
    print("all checks passed" if failures == 0 else f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

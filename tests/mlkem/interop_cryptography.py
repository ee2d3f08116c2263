#!/usr/bin/env python3
"""ML-KEM interoperability with an independent implementation: pyca/cryptography (on OpenSSL),
through libfipsmod.so as users load it (ctypes), both ways, for ML-KEM-768 and ML-KEM-1024
(cryptography has no ML-KEM-512):
- the same seed gives the same encapsulation key on both sides;
- fipsmod's ciphertexts (fm_mlkem_encaps, m from the module's DRBG) decapsulate in cryptography
  to fipsmod's shared secret;
- cryptography's ciphertexts decapsulate in fipsmod (fm_mlkem_decaps) to cryptography's secret;
- a modified ciphertext gives the same implicit-rejection key on both sides, J(z || c).
Exit 77 (ctest SKIP_RETURN_CODE) with a message when cryptography or its ML-KEM is missing.

usage: interop_cryptography.py LIBFIPSMOD.so"""
import ctypes
import hashlib
import os
import sys

try:
    from cryptography.hazmat.primitives.asymmetric import mlkem
except ImportError:
    print("skipped: python3 has no cryptography with ML-KEM (needs cryptography >= 46 on "
          "OpenSSL >= 3.5)")
    sys.exit(77)

SETS = {768: (mlkem.MLKEM768PrivateKey, 1184, 2400, 1088),
        1024: (mlkem.MLKEM1024PrivateKey, 1568, 3168, 1568)}


def main(lib_path):
    lib = ctypes.CDLL(lib_path)
    P, Z, I = ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int
    lib.fm_mlkem_keygen_from_seed.argtypes = [I, P, Z, P, Z, P, Z]
    lib.fm_mlkem_encaps.argtypes = [I, P, Z, P, Z, P, Z]
    lib.fm_mlkem_decaps.argtypes = [I, P, Z, P, Z, P, Z]
    failures = 0

    def check(cond, what):
        nonlocal failures
        if not cond:
            failures += 1
            print("FAIL:", what)

    for bits, (cls, ek_n, dk_n, ct_n) in SETS.items():
        for rep in range(20):
            seed = os.urandom(64)
            ek = ctypes.create_string_buffer(ek_n)
            dk = ctypes.create_string_buffer(dk_n)
            check(lib.fm_mlkem_keygen_from_seed(bits, seed, 64, ek, ek_n, dk, dk_n) == 0,
                  f"{bits}: keygen_from_seed")
            sk = cls.from_seed_bytes(seed)
            check(ek.raw == sk.public_key().public_bytes_raw(), f"{bits}: ek from the same seed")
            # fipsmod -> cryptography
            ct = ctypes.create_string_buffer(ct_n)
            ss = ctypes.create_string_buffer(32)
            check(lib.fm_mlkem_encaps(bits, ek.raw, ek_n, ct, ct_n, ss, 32) == 0,
                  f"{bits}: fm_mlkem_encaps")
            check(sk.decapsulate(ct.raw) == ss.raw, f"{bits}: fipsmod ciphertext in cryptography")
            # cryptography -> fipsmod
            k, c = sk.public_key().encapsulate()
            out = ctypes.create_string_buffer(32)
            check(lib.fm_mlkem_decaps(bits, dk.raw, dk_n, c, len(c), out, 32) == 0,
                  f"{bits}: fm_mlkem_decaps")
            check(out.raw == k, f"{bits}: cryptography ciphertext in fipsmod")
            # implicit rejection
            bad = bytearray(c)
            bad[rep * 37 % len(bad)] ^= 0x10
            bad = bytes(bad)
            check(lib.fm_mlkem_decaps(bits, dk.raw, dk_n, bad, len(bad), out, 32) == 0,
                  f"{bits}: decaps of a modified ciphertext")
            kbar = hashlib.shake_256(seed[32:] + bad).digest(32)
            check(out.raw == kbar and sk.decapsulate(bad) == kbar,
                  f"{bits}: implicit-rejection key J(z || c)")
    print(f"interop_cryptography: {'ok' if failures == 0 else f'{failures} failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

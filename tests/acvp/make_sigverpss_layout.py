#!/usr/bin/env python3
"""Writes a CAVP SigVerPSS_186-3.rsp-layout file (tests/vectors/acvp/spec/cavp/): [mod = 2048]
followed by n, p and q before the first SHAAlg case, then SHAAlg, e, d, Msg, S, SaltVal and
Result = P / F (reason) per case, as NIST's 186-3 RSA validation files lay them out. The real
file is not among the vectors the project holds; the values here are made with `cryptography`
(valid signatures, and invalid ones: message, signature or salt changed), never with the module.
usage: make_sigverpss_layout.py OUT.rsp"""
import random
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

R = random.Random(186)
k = rsa.generate_private_key(public_exponent=65537, key_size=2048)
nums = k.private_numbers()
out = ["# CAVS 11.0", '# "SigVer PSS" information (layout of SigVerPSS_186-3.rsp, values made',
       "# with the cryptography package by tests/acvp/make_sigverpss_layout.py)",
       "# Mod sizes selected: 2048", "# SHA Algorithm selected: SHA1 SHA256 SHA384 SHA512", "",
       "[mod = 2048]", "", "n = %0512x" % nums.public_numbers.n, "p = %0256x" % nums.p,
       "q = %0256x" % nums.q, ""]
HS = {"SHA1": hashes.SHA1, "SHA256": hashes.SHA256, "SHA384": hashes.SHA384, "SHA512": hashes.SHA512}
for name, h in HS.items():
    for i in range(4):
        msg = bytes(R.getrandbits(8) for _ in range(128))
        salt_len = 20
        sig = k.sign(msg, padding.PSS(mgf=padding.MGF1(h()), salt_length=salt_len), h())
        result = "P"
        if i == 1:
            msg = bytes([msg[0] ^ 0x10]) + msg[1:]
            result = "F (1 - Message changed)"
        elif i == 2:
            sig = sig[:10] + bytes([sig[10] ^ 1]) + sig[11:]
            result = "F (3 - Signature changed)"
        elif i == 3:
            salt_len = 24
            sig = k.sign(msg, padding.PSS(mgf=padding.MGF1(h()), salt_length=salt_len), h())
            salt_len = 20  # the file states the salt length the verifier must require
            result = "F (5 - Salt length changed)"
        out += ["SHAAlg = %s" % name, "e = %0512x" % 65537, "d = %0512x" % nums.d,
                "Msg = %s" % msg.hex(), "S = %s" % sig.hex(),
                "SaltVal = %s" % bytes(R.getrandbits(8) for _ in range(salt_len)).hex(),
                "Result = %s" % result, ""]
open(sys.argv[1], "w").write("\n".join(out))

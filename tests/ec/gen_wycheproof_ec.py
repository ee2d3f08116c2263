#!/usr/bin/env python3
"""Writes small self-generated files in the Wycheproof formats (C2SP/wycheproof schemas
ecdsa_verify_schema_v1.json, ecdsa_p1363_verify_schema_v1.json, ecdh_test_schema_v1.json,
ecdh_ecpoint_test_schema_v1.json) for the curves and hashes of which no Wycheproof file is kept
here: P-224, P-384, P-521, SHA-224, SHA-512/224, SHA-512/256 and SHA3-*. Values come from
python3-cryptography (OpenSSL) with a seeded generator; they are NOT Wycheproof's vectors (no
edge-case arithmetic), only their layout, with valid, invalid and acceptable cases:

  ECDSA  valid signatures; invalid: changed message, r + 1, s = 0, r = n, a signature of another
         key, a P1363 signature one byte short; acceptable: a BER (long-form length) signature
         (flag BerEncodedSignature), one with an unknown flag (SelfGeneratedUnknown)
  ECDH   valid (uncompressed SPKI / point); invalid: a point off the curve, a key of another
         curve (WrongCurve), the point at infinity (ecpoint); acceptable: compressed points
         (CompressedPublic / CompressedPoint), BER SPKI (InvalidAsn)
Groups on secp256k1 and with SHAKE128 are written too: the module must skip them.

usage: gen_wycheproof_ec.py OUTDIR [--seed N] [--tests N]
"""
import argparse
import json
import os
import random

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

CURVES = {"secp224r1": ec.SECP224R1(), "secp256r1": ec.SECP256R1(), "secp384r1": ec.SECP384R1(),
          "secp521r1": ec.SECP521R1(), "secp256k1": ec.SECP256K1()}
ORDERS = {
    "secp224r1": 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFF16A2E0B8F03E13DD29455C5C2A3D,
    "secp256r1": 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551,
    "secp384r1": int("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF"
                     "581A0DB248B0A77AECEC196ACCC52973", 16),
    "secp521r1": int("01FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFA"
                     "51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386409", 16),
}
HASHES = {"SHA-224": hashes.SHA224, "SHA-256": hashes.SHA256, "SHA-384": hashes.SHA384,
          "SHA-512": hashes.SHA512, "SHA-512/224": hashes.SHA512_224,
          "SHA-512/256": hashes.SHA512_256, "SHA3-224": hashes.SHA3_224,
          "SHA3-256": hashes.SHA3_256, "SHA3-384": hashes.SHA3_384, "SHA3-512": hashes.SHA3_512,
          "SHAKE128": None}
SOURCE = {"name": "fipsmod tests/ec/gen_wycheproof_ec.py (self-generated)", "version": "1"}


def nbytes(curve):
    return (CURVES[curve].key_size + 7) // 8


def pub_fields(key, curve):
    pn = key.public_numbers()
    n = nbytes(curve)
    unc = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"type": "EcPublicKey", "curve": curve, "keySize": CURVES[curve].key_size,
            "uncompressed": unc.hex(), "wx": "%0*x" % (2 * n, pn.x), "wy": "%0*x" % (2 * n, pn.y)}


def der_len(n):
    if n < 128:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der_int(v):
    b = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")
    return b"\x02" + der_len(len(b)) + b


def der_sig(r, s, ber=False):
    body = der_int(r) + der_int(s)
    if ber:  # a long-form length where the short form fits: BER, not DER
        return b"\x30\x81" + bytes([len(body)]) + body if len(body) < 128 else \
            b"\x30\x82" + len(body).to_bytes(2, "big") + body
    return b"\x30" + der_len(len(body)) + body


class Gen:
    def __init__(self, seed, n):
        self.rng = random.Random(seed)
        self.n = n
        self.tc = 0

    def key(self, curve):
        d = self.rng.randrange(1, 2 ** (CURVES[curve].key_size - 1))
        return ec.derive_private_key(d, CURVES[curve])

    def msg(self):
        return bytes(self.rng.getrandbits(8) for _ in range(self.rng.randrange(0, 64)))

    def test(self, comment, flags, result, **kw):
        self.tc += 1
        t = {"tcId": self.tc, "comment": comment, "flags": flags}
        t.update(kw)
        t["result"] = result
        return t


def ecdsa_file(g, curve, sha, p1363):
    key = g.key(curve)
    pk = key.public_key()
    n = nbytes(curve)
    group = {"type": "EcdsaP1363Verify" if p1363 else "EcdsaVerify", "source": SOURCE,
             "publicKey": pub_fields(pk, curve),
             "publicKeyDer": pk.public_bytes(serialization.Encoding.DER,
                                             serialization.PublicFormat.SubjectPublicKeyInfo).hex(),
             "publicKeyPem": pk.public_bytes(serialization.Encoding.PEM,
                                             serialization.PublicFormat.SubjectPublicKeyInfo).decode(),
             "sha": sha, "tests": []}

    def enc(r, s, ber=False):
        if p1363:
            return (r.to_bytes(n, "big") + s.to_bytes(n, "big")).hex()
        return der_sig(r, s, ber).hex()

    for i in range(g.n):
        m = g.msg()
        if HASHES[sha] is None:
            group["tests"].append(g.test("unsupported hash", ["ValidSignature"], "valid",
                                         msg=m.hex(), sig="00"))
            continue
        r, s = utils.decode_dss_signature(key.sign(m, ec.ECDSA(HASHES[sha]())))
        t = group["tests"]
        t.append(g.test("valid", ["ValidSignature"], "valid", msg=m.hex(), sig=enc(r, s)))
        t.append(g.test("changed message", ["ModifiedSignature"], "invalid",
                        msg=(m + b"\x00").hex(), sig=enc(r, s)))
        t.append(g.test("r + 1", ["ModifiedInteger"], "invalid", msg=m.hex(), sig=enc(r + 1, s)))
        t.append(g.test("s = 0", ["RangeCheck"], "invalid", msg=m.hex(), sig=enc(r, 0)))
        if curve in ORDERS:
            t.append(g.test("r = n", ["RangeCheck"], "invalid", msg=m.hex(),
                            sig=enc(ORDERS[curve], s)))
        other = g.key(curve)
        r2, s2 = utils.decode_dss_signature(other.sign(m, ec.ECDSA(HASHES[sha]())))
        t.append(g.test("another key's signature", ["InvalidSignature"], "invalid", msg=m.hex(),
                        sig=enc(r2, s2)))
        if p1363:
            t.append(g.test("one byte short", ["SignatureSize"], "invalid", msg=m.hex(),
                            sig=enc(r, s)[:-2]))
        elif i == 0:
            t.append(g.test("long-form length", ["BerEncodedSignature"], "acceptable",
                            msg=m.hex(), sig=enc(r, s, ber=True)))
        if i == 0:
            t.append(g.test("no documented expectation", ["SelfGeneratedUnknown"], "acceptable",
                            msg=m.hex(), sig=enc(r, s)))
    return group


def spki(pub):
    return pub.public_bytes(serialization.Encoding.DER,
                            serialization.PublicFormat.SubjectPublicKeyInfo)


def ecdh_group(g, curve, ecpoint):
    group = {"type": "EcdhEcpointTest" if ecpoint else "EcdhTest", "source": SOURCE,
             "curve": curve, "encoding": "ecpoint" if ecpoint else "asn", "tests": []}
    t = group["tests"]
    for i in range(g.n):
        mine, peer = g.key(curve), g.key(curve)
        z = mine.exchange(ec.ECDH(), peer.public_key())
        d = "%x" % mine.private_numbers().private_value
        d = ("0" if len(d) % 2 else "") + d
        if mine.private_numbers().private_value >> (8 * (len(d) // 2) - 1):
            d = "00" + d  # BigInt: a sign byte when the top bit is set
        pp = peer.public_key()
        unc = pp.public_bytes(serialization.Encoding.X962,
                              serialization.PublicFormat.UncompressedPoint)
        comp = pp.public_bytes(serialization.Encoding.X962,
                               serialization.PublicFormat.CompressedPoint)
        full = spki(pp)
        prefix = full[:len(full) - len(unc)]
        bad = bytearray(unc)
        bad[-1] ^= 1  # y changed: off the curve
        if ecpoint:
            t.append(g.test("valid", ["Normal"], "valid", public=unc.hex(), private=d,
                            shared=z.hex()))
            t.append(g.test("off the curve", ["InvalidPublic"], "invalid", public=bytes(bad).hex(),
                            private=d, shared=""))
            t.append(g.test("compressed", ["CompressedPoint"], "acceptable", public=comp.hex(),
                            private=d, shared=z.hex()))
            if i == 0:
                t.append(g.test("point at infinity", ["InvalidPublic"], "invalid", public="00",
                                private=d, shared=""))
        else:
            t.append(g.test("valid", ["Normal"], "valid", public=full.hex(), private=d,
                            shared=z.hex()))
            # the SPKI's BIT STRING holds the point: replace it by the damaged one
            t.append(g.test("off the curve", ["InvalidPublic"], "invalid",
                            public=(prefix + bytes(bad)).hex(), private=d, shared=""))
            t.append(g.test("compressed", ["CompressedPublic"], "acceptable",
                            public=spki_compressed(pp).hex(), private=d, shared=z.hex()))
            wrong = "secp384r1" if curve != "secp384r1" else "secp256r1"
            t.append(g.test("a key of another curve", ["WrongCurve"], "invalid",
                            public=spki(g.key(wrong).public_key()).hex(), private=d, shared=""))
            if i == 0:
                ber = b"\x30\x81" + bytes([full[1]]) + full[2:] if full[1] < 128 else None
                if ber is not None:
                    t.append(g.test("BER length", ["InvalidAsn"], "acceptable", public=ber.hex(),
                                    private=d, shared=z.hex()))
    return group


def spki_compressed(pub):
    """The SPKI of |pub| with a compressed point (OpenSSL writes uncompressed ones)."""
    full = spki(pub)
    unc = pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    comp = pub.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.CompressedPoint)
    alg = full[2:len(full) - len(unc) - 3]  # the AlgorithmIdentifier, after SEQUENCE header
    if full[1] & 0x80:  # a long-form outer length (P-521)
        alg = full[3:len(full) - len(unc) - 3]
    bits = b"\x03" + der_len(len(comp) + 1) + b"\x00" + comp
    body = alg + bits
    return b"\x30" + der_len(len(body)) + body


def write(out, name, schema, algorithm, groups, notes):
    doc = {"algorithm": algorithm, "schema": schema,
           "numberOfTests": sum(len(g["tests"]) for g in groups),
           "header": ["Self-generated by fipsmod tests/ec/gen_wycheproof_ec.py in the Wycheproof "
                      "layout; not Wycheproof's vectors."],
           "notes": notes, "testGroups": groups}
    with open(os.path.join(out, name), "w") as f:
        json.dump(doc, f, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--tests", type=int, default=2)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    g = Gen(a.seed, a.tests)
    note = {"bugType": "BASIC", "description": "self-generated case"}
    flags = ["ValidSignature", "ModifiedSignature", "ModifiedInteger", "RangeCheck",
             "InvalidSignature", "SignatureSize", "BerEncodedSignature", "SelfGeneratedUnknown",
             "Normal", "InvalidPublic", "CompressedPoint", "CompressedPublic", "WrongCurve",
             "InvalidAsn"]
    notes = {f: note for f in flags}
    plan = [("secp224r1", "SHA-224"), ("secp224r1", "SHA3-224"), ("secp224r1", "SHA-512/224"),
            ("secp256r1", "SHA3-256"), ("secp256r1", "SHA-512/256"), ("secp384r1", "SHA-384"),
            ("secp384r1", "SHA3-384"), ("secp521r1", "SHA-512"), ("secp521r1", "SHA3-512"),
            ("secp256k1", "SHA-256"), ("secp256r1", "SHAKE128")]
    files = 0
    for curve, sha in plan:
        tag = sha.lower().replace("-", "").replace("/", "_")
        for p1363 in (False, True):
            grp = ecdsa_file(g, curve, sha, p1363)
            name = "ecdsa_%s_%s%s_test.json" % (curve, tag, "_p1363" if p1363 else "")
            schema = "ecdsa_p1363_verify_schema_v1.json" if p1363 else "ecdsa_verify_schema_v1.json"
            write(a.out, name, schema, "ECDSA", [grp], notes)
            files += 1
    for curve in ("secp224r1", "secp256r1", "secp384r1", "secp521r1", "secp256k1"):
        write(a.out, "ecdh_%s_test.json" % curve, "ecdh_test_schema_v1.json", "ECDH",
              [ecdh_group(g, curve, False)], notes)
        write(a.out, "ecdh_%s_ecpoint_test.json" % curve, "ecdh_ecpoint_test_schema_v1.json",
              "ECDH", [ecdh_group(g, curve, True)], notes)
        files += 2
    print("wrote %d files to %s (seed %d)" % (files, a.out, a.seed))


if __name__ == "__main__":
    main()

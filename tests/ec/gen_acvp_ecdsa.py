#!/usr/bin/env python3
"""Writes ACVP-shaped ECDSA, DetECDSA, KAS-ECC-SSC and KAS-ECC CDH-Component vector sets.

Each set is a directory <out>/<name>/ with prompt.json and expectedResults.json in the server's
form ([{"acvVersion": "1.0"}, {vector set}]), laid out as the ACVP specifications describe them
(draft-fussell-acvp-ecdsa, ecdsa/sections/06-*.adoc and 07-*.adoc; draft-hammett-acvp-kas-ssc-ecc;
draft-hammett-acvp-kas-ecc-sp800-56ar3 section 8). The values are made here with
python3-cryptography (OpenSSL) from a seeded random generator: self-generated, not NIST's.

expectedResults.json carries what a server knows: testPassed for keyVer, sigVer and VAL; for the
tests whose answers the IUT chooses (keyGen, sigGen, DetECDSA, SSC AFT, CDH-Component) the
server's own sample answers and, for the key agreements, the server's private keys
(staticPrivateServer, ephemeralPrivateServer, privateServer), with which a checker recomputes Z
from the IUT's public keys. Groups the module does not offer (B-/K- curves, SHAKE, SHA-1,
conformance SP800-106, MQV, "extra bits") are written too, so that their skipping is exercised.

usage: gen_acvp_ecdsa.py OUTDIR [--seed N] [--tests N]
"""
import argparse
import hashlib
import json
import os
import random

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

CURVES = {"P-224": ec.SECP224R1(), "P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(),
          "P-521": ec.SECP521R1()}
NBYTES = {"P-224": 28, "P-256": 32, "P-384": 48, "P-521": 66}
PRIMES = {
    "P-224": 2**224 - 2**96 + 1,
    "P-256": 2**256 - 2**224 + 2**192 + 2**96 - 1,
    "P-384": 2**384 - 2**128 - 2**96 + 2**32 - 1,
    "P-521": 2**521 - 1,
}
HASHES = {
    "SHA2-224": hashes.SHA224, "SHA2-256": hashes.SHA256, "SHA2-384": hashes.SHA384,
    "SHA2-512": hashes.SHA512, "SHA2-512/224": hashes.SHA512_224,
    "SHA2-512/256": hashes.SHA512_256, "SHA3-224": hashes.SHA3_224, "SHA3-256": hashes.SHA3_256,
    "SHA3-384": hashes.SHA3_384, "SHA3-512": hashes.SHA3_512,
}
HASHLIB = {
    "SHA2-224": "sha224", "SHA2-256": "sha256", "SHA2-384": "sha384", "SHA2-512": "sha512",
    "SHA2-512/224": "sha512_224", "SHA2-512/256": "sha512_256", "SHA3-224": "sha3_224",
    "SHA3-256": "sha3_256", "SHA3-384": "sha3_384", "SHA3-512": "sha3_512",
}


def hx(b):
    return b.hex().upper()


def num(v, n):
    return hx(v.to_bytes(n, "big"))


class Gen:
    def __init__(self, seed, ntests):
        self.rng = random.Random(seed)
        self.n = ntests
        self.tg = 0
        self.tc = 0

    def key(self, curve):
        # d below 2^(bits - 1) < n: in range on every P-curve.
        d = self.rng.randrange(1, 2 ** (CURVES[curve].key_size - 1))
        return ec.derive_private_key(d, CURVES[curve])

    def bytes(self, n):
        return bytes(self.rng.getrandbits(8) for _ in range(n))

    def group(self, **fields):
        self.tg += 1
        g = {"tgId": self.tg}
        g.update(fields)
        g["tests"] = []
        return g

    def tcid(self):
        self.tc += 1
        return self.tc


def pub_xy(key, curve):
    pn = key.public_key().public_numbers() if hasattr(key, "public_key") else key.public_numbers()
    return num(pn.x, NBYTES[curve]), num(pn.y, NBYTES[curve])


def wrap(body):
    return [{"acvVersion": "1.0"}, body]


def vector_set(alg, mode, rev, vs_id):
    body = {"vsId": vs_id, "algorithm": alg, "revision": rev, "isSample": True, "testGroups": []}
    if mode:
        body["mode"] = mode
    return body


def ecdsa_keygen(g, rev, vs_id):
    p, e = vector_set("ECDSA", "keyGen", rev, vs_id), vector_set("ECDSA", "keyGen", rev, vs_id)
    for curve in list(CURVES) + ["B-233"]:
        for mode in ("testing candidates", "extra bits"):
            pg = g.group(testType="AFT", curve=curve, secretGenerationMode=mode)
            eg = {"tgId": pg["tgId"], "tests": []}
            for _ in range(g.n):
                t = g.tcid()
                pg["tests"].append({"tcId": t})
                if curve in CURVES:
                    k = g.key(curve)
                    qx, qy = pub_xy(k, curve)
                    d = num(k.private_numbers().private_value, NBYTES[curve])
                    eg["tests"].append({"tcId": t, "d": d, "qx": qx, "qy": qy})
                else:
                    eg["tests"].append({"tcId": t})
            p["testGroups"].append(pg)
            e["testGroups"].append(eg)
    return p, e


def bad_point(g, curve, kind):
    """A public key that fails SP 800-56A 5.6.2.3.3 (off the curve, x = p), or a valid one (the
    negation of a key). Returns qx, qy and whether it is valid."""
    n, prime = NBYTES[curve], PRIMES[curve]
    pn = g.key(curve).public_key().public_numbers()
    if kind == "offcurve":
        return num(pn.x, n), num((pn.y + 1) % prime, n), False
    if kind == "xrange":
        return num(prime, n), num(pn.y, n), False
    return num(pn.x, n), num(prime - pn.y, n), True


def ecdsa_keyver(g, rev, vs_id):
    p, e = vector_set("ECDSA", "keyVer", rev, vs_id), vector_set("ECDSA", "keyVer", rev, vs_id)
    for curve in list(CURVES) + ["K-283"]:
        pg = g.group(testType="AFT", curve=curve)
        eg = {"tgId": pg["tgId"], "tests": []}
        kinds = ["valid", "offcurve", "xrange", "negy"]
        for i in range(max(g.n, 4)):
            t = g.tcid()
            if curve not in CURVES:
                pg["tests"].append({"tcId": t, "qx": "01", "qy": "02"})
                eg["tests"].append({"tcId": t, "testPassed": False})
                continue
            kind = kinds[i % 4]
            if kind == "valid":
                qx, qy = pub_xy(g.key(curve), curve)
                ok = True
            else:
                qx, qy, ok = bad_point(g, curve, kind)
            pg["tests"].append({"tcId": t, "qx": qx, "qy": qy})
            eg["tests"].append({"tcId": t, "testPassed": ok})
        p["testGroups"].append(pg)
        e["testGroups"].append(eg)
    return p, e


def sign(key, hname, msg, component, det=False):
    """The server's sample signature (random k when this cryptography has no RFC 6979)."""
    kw = {}
    if det:
        try:
            ec.ECDSA(HASHES[hname](), deterministic_signing=True)
            kw = {"deterministic_signing": True}
        except TypeError:  # cryptography < 43: no deterministic_signing
            kw = {}
    alg = HASHES[hname]()
    if component:
        return key.sign(msg, ec.ECDSA(utils.Prehashed(alg), **kw))
    return key.sign(msg, ec.ECDSA(alg, **kw))


def ecdsa_siggen(g, alg, rev, vs_id):
    det = alg == "DetECDSA"
    p, e = vector_set(alg, "sigGen", rev, vs_id), vector_set(alg, "sigGen", rev, vs_id)
    combos = [(c, h, comp) for c in CURVES for h in HASHES for comp in (False, True)]
    combos += [("P-256", "SHAKE-128", False), ("B-283", "SHA2-256", False)]
    for curve, hname, comp in combos:
        fields = {"testType": "AFT", "curve": curve, "hashAlg": hname}
        if not det:
            fields["componentTest"] = comp
        elif comp:
            fields["componentTest"] = True
        pg = g.group(**fields)
        eg = {"tgId": pg["tgId"], "tests": []}
        key = g.key(curve) if curve in CURVES else None
        if key is not None:
            eg["qx"], eg["qy"] = pub_xy(key, curve)
        for _ in range(g.n):
            t = g.tcid()
            msg = g.bytes(g.rng.randrange(1, 160))
            if comp:
                msg = hashlib.new(HASHLIB[hname], msg).digest()
            pg["tests"].append({"tcId": t, "message": hx(msg)})
            et = {"tcId": t}
            if key is not None and hname in HASHES:
                r, s = utils.decode_dss_signature(sign(key, hname, msg, comp, det))
                et["r"], et["s"] = num(r, NBYTES[curve]), num(s, NBYTES[curve])
            eg["tests"].append(et)
        p["testGroups"].append(pg)
        e["testGroups"].append(eg)
    # SP 800-106 randomized hashing: not offered, to be skipped.
    pg = g.group(testType="AFT", curve="P-256", hashAlg="SHA2-256", conformance="SP800-106")
    t = g.tcid()
    pg["tests"].append({"tcId": t, "message": "00", "randomValue": "00" * 16,
                        "randomValueLen": 128})
    p["testGroups"].append(pg)
    e["testGroups"].append({"tgId": pg["tgId"], "tests": [{"tcId": t}]})
    return p, e


def ecdsa_sigver(g, rev, vs_id):
    p, e = vector_set("ECDSA", "sigVer", rev, vs_id), vector_set("ECDSA", "sigVer", rev, vs_id)
    hlist = list(HASHES) + ["SHA-1"]
    for curve in CURVES:
        for hname in hlist:
            pg = g.group(testType="AFT", curve=curve, hashAlg=hname)
            eg = {"tgId": pg["tgId"], "tests": []}
            for i in range(max(g.n, 6)):
                t = g.tcid()
                key = g.key(curve)
                msg = g.bytes(g.rng.randrange(1, 160))
                qx, qy = pub_xy(key, curve)
                if hname not in HASHES:
                    pg["tests"].append({"tcId": t, "message": hx(msg), "qx": qx, "qy": qy,
                                        "r": "01", "s": "01"})
                    eg["tests"].append({"tcId": t, "testPassed": False})
                    continue
                r, s = utils.decode_dss_signature(sign(key, hname, msg, False))
                ok = True
                kind = i % 6
                if kind == 1:
                    msg = msg[:-1] + bytes([msg[-1] ^ 1])
                    ok = False
                elif kind == 2:
                    r = (r + 1)
                    ok = False
                elif kind == 3:
                    s = 0
                    ok = False
                elif kind == 4:
                    other = g.key(curve)
                    qx, qy = pub_xy(other, curve)
                    ok = False
                n = NBYTES[curve]
                pg["tests"].append({"tcId": t, "message": hx(msg), "qx": qx, "qy": qy,
                                    "r": num(r, n), "s": num(s, n)})
                eg["tests"].append({"tcId": t, "testPassed": ok})
            p["testGroups"].append(pg)
            e["testGroups"].append(eg)
    return p, e


SCHEMES = {  # party U's and party V's key in each CDH of Z (SP 800-56A Rev. 3 section 6)
    "ephemeralUnified": [("e", "e")], "fullUnified": [("e", "e"), ("s", "s")],
    "onePassUnified": [("e", "s"), ("s", "s")], "onePassDh": [("e", "s")],
    "staticUnified": [("s", "s")],
}
NAME = {"e": "ephemeral", "s": "static"}


def cdh(priv, peer):
    return priv.exchange(ec.ECDH(), peer.public_key() if hasattr(peer, "public_key") else peer)


def kas_ssc(g, vs_id):
    p = vector_set("KAS-ECC-SSC", None, "Sp800-56Ar3", vs_id)
    e = vector_set("KAS-ECC-SSC", None, "Sp800-56Ar3", vs_id)
    plan = [(c, s, r, tt, hz) for c in CURVES for s in SCHEMES for r in ("initiator", "responder")
            for tt in ("AFT", "VAL") for hz in (None, "SHA2-256" if c != "P-521" else "SHA3-512")]
    plan += [("P-256", "fullMqv", "initiator", "AFT", None), ("K-233", "ephemeralUnified",
                                                               "initiator", "AFT", None)]
    for curve, sname, role, ttype, hz in plan:
        fields = {"testType": ttype, "domainParameterGenerationMode": curve, "scheme": sname,
                  "kasRole": role}
        # NIST's server writes "none" for no hash of Z; some groups here omit the field.
        fields["hashFunctionZ"] = hz if hz else ("none" if sname != "staticUnified" else None)
        if fields["hashFunctionZ"] is None:
            del fields["hashFunctionZ"]
        pg = g.group(**fields)
        eg = {"tgId": pg["tgId"], "tests": []}
        for i in range(g.n if ttype == "AFT" else max(g.n, 4)):
            t = g.tcid()
            pt, et = {"tcId": t}, {"tcId": t}
            if curve not in CURVES or sname not in SCHEMES:
                pt.update({"ephemeralPublicServerX": "01", "ephemeralPublicServerY": "02"})
                pg["tests"].append(pt)
                eg["tests"].append(et)
                continue
            parts = SCHEMES[sname]
            iut_is_u = role == "initiator"
            server = {k: g.key(curve) for k in {(v if iut_is_u else u) for u, v in parts}}
            iut = {k: g.key(curve) for k in {(u if iut_is_u else v) for u, v in parts}}
            for k, key in server.items():
                pt[NAME[k] + "PublicServerX"], pt[NAME[k] + "PublicServerY"] = pub_xy(key, curve)
                et[NAME[k] + "PrivateServer"] = num(key.private_numbers().private_value,
                                                    NBYTES[curve])
            z = b"".join(cdh(iut[u if iut_is_u else v], server[v if iut_is_u else u])
                         for u, v in parts)
            ans = hashlib.new(HASHLIB[hz], z).digest() if hz else z
            field = "hashZ" if hz else "z"
            if ttype == "VAL":
                for k, key in iut.items():
                    pt[NAME[k] + "PrivateIut"] = num(key.private_numbers().private_value,
                                                     NBYTES[curve])
                    pt[NAME[k] + "PublicIutX"], pt[NAME[k] + "PublicIutY"] = pub_xy(key, curve)
                ok = i % 2 == 0
                if not ok:
                    ans = ans[:-1] + bytes([ans[-1] ^ 0x10])
                pt[field] = hx(ans)
                et["testPassed"] = ok
            else:
                for k, key in iut.items():
                    et[NAME[k] + "PublicIutX"], et[NAME[k] + "PublicIutY"] = pub_xy(key, curve)
                et[field] = hx(ans)
            pg["tests"].append(pt)
            eg["tests"].append(et)
        p["testGroups"].append(pg)
        e["testGroups"].append(eg)
    return p, e


def kas_cdh(g, rev, vs_id):
    p = vector_set("KAS-ECC", "CDH-Component", rev, vs_id)
    e = vector_set("KAS-ECC", "CDH-Component", rev, vs_id)
    for curve in list(CURVES) + ["B-233"]:
        pg = g.group(testType="AFT", curve=curve)
        eg = {"tgId": pg["tgId"], "tests": []}
        for _ in range(g.n):
            t = g.tcid()
            if curve not in CURVES:
                pg["tests"].append({"tcId": t, "publicServerX": "01", "publicServerY": "02"})
                eg["tests"].append({"tcId": t})
                continue
            server, iut = g.key(curve), g.key(curve)
            sx, sy = pub_xy(server, curve)
            ix, iy = pub_xy(iut, curve)
            pg["tests"].append({"tcId": t, "publicServerX": sx, "publicServerY": sy})
            eg["tests"].append({"tcId": t, "privateServer": num(
                server.private_numbers().private_value, NBYTES[curve]), "publicIutX": ix,
                "publicIutY": iy, "z": hx(cdh(iut, server))})
        p["testGroups"].append(pg)
        e["testGroups"].append(eg)
    return p, e


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--tests", type=int, default=2, help="tests per group")
    a = ap.parse_args()
    g = Gen(a.seed, a.tests)
    sets = {}
    vs = 1000
    for rev in ("FIPS186-5", "1.0"):
        tag = "186-5" if rev == "FIPS186-5" else "1.0"
        sets["ECDSA-keyGen-" + tag] = ecdsa_keygen(g, rev, vs + 1)
        sets["ECDSA-keyVer-" + tag] = ecdsa_keyver(g, rev, vs + 2)
        sets["ECDSA-sigGen-" + tag] = ecdsa_siggen(g, "ECDSA", rev, vs + 3)
        sets["ECDSA-sigVer-" + tag] = ecdsa_sigver(g, rev, vs + 4)
        vs += 10
    sets["DetECDSA-sigGen-186-5"] = ecdsa_siggen(g, "DetECDSA", "FIPS186-5", vs + 1)
    sets["KAS-ECC-SSC-Sp800-56Ar3"] = kas_ssc(g, vs + 2)
    sets["KAS-ECC-CDH-Component-1.0"] = kas_cdh(g, "1.0", vs + 3)
    sets["KAS-ECC-CDH-Component-Sp800-56Ar3"] = kas_cdh(g, "Sp800-56Ar3", vs + 4)
    for name, (prompt, expected) in sets.items():
        d = os.path.join(a.out, name)
        os.makedirs(d, exist_ok=True)
        # expectedResults: groups without testType (as the server's), with the answers.
        with open(os.path.join(d, "prompt.json"), "w") as f:
            json.dump(wrap(prompt), f, indent=1)
        with open(os.path.join(d, "expectedResults.json"), "w") as f:
            json.dump(wrap(expected), f, indent=1)
    print("wrote %d vector sets to %s (seed %d)" % (len(sets), a.out, a.seed))


if __name__ == "__main__":
    main()

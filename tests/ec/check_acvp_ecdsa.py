#!/usr/bin/env python3
"""Checks a module's ACVP response to an ECDSA, DetECDSA, KAS-ECC-SSC or KAS-ECC CDH-Component
vector set from outside the module, with python3-cryptography (OpenSSL):

  keyGen         d in [1, n-1], Q = dG (so on the curve)
  keyVer, sigVer testPassed equals the expected answer
  sigGen         every (r, s) verifies under the group's returned (qx, qy), over the message
                 hashed with hashAlg (or over the message as the digest in a componentTest group)
  DetECDSA       as sigGen
  KAS-ECC-SSC    VAL: testPassed equals the expected answer; AFT: the server's private keys (in the
                 expected answers) with the module's returned public keys give the module's z
                 (or hashZ), per the scheme's CDHs (SP 800-56A Rev. 3 section 6)
  CDH-Component  Z = x(privateServer * (publicIutX, publicIutY)) equals the module's z

Every test of an offered group must be answered; groups the module skips (curves, hashes,
schemes it lacks) must be absent, which the checker verifies against the same list of offers.

usage: check_acvp_ecdsa.py PROMPT EXPECTED RESPONSE      (exit 0: every answer correct)
       check_acvp_ecdsa.py --rfc6979 LIBFIPSMOD          (RFC 6979 signatures through ctypes)
"""
import ctypes
import hashlib
import json
import random
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

CURVES = {"P-224": ec.SECP224R1(), "P-256": ec.SECP256R1(), "P-384": ec.SECP384R1(),
          "P-521": ec.SECP521R1()}
HASHES = {
    "SHA2-224": hashes.SHA224, "SHA2-256": hashes.SHA256, "SHA2-384": hashes.SHA384,
    "SHA2-512": hashes.SHA512, "SHA2-512/224": hashes.SHA512_224,
    "SHA2-512/256": hashes.SHA512_256, "SHA3-224": hashes.SHA3_224, "SHA3-256": hashes.SHA3_256,
    "SHA3-384": hashes.SHA3_384, "SHA3-512": hashes.SHA3_512,
}
HASHLIB = {k: v for k, v in zip(HASHES, ["sha224", "sha256", "sha384", "sha512", "sha512_224",
                                         "sha512_256", "sha3_224", "sha3_256", "sha3_384",
                                         "sha3_512"])}
SCHEMES = {
    "ephemeralUnified": [("e", "e")], "fullUnified": [("e", "e"), ("s", "s")],
    "onePassUnified": [("e", "s"), ("s", "s")], "onePassDh": [("e", "s")],
    "staticUnified": [("s", "s")],
}
NAME = {"e": "ephemeral", "s": "static"}


def body(path):
    with open(path) as f:
        root = json.load(f)
    if isinstance(root, list):
        return next(x for x in root if "testGroups" in x)
    return root


def ci(d, name):
    """dictionary lookup whatever the case (NIST's server matches names so)."""
    for k, v in d.items():
        if k.lower() == name.lower():
            return v
    return None


def pub(curve, x, y):
    return ec.EllipticCurvePublicNumbers(int(x, 16), int(y, 16), CURVES[curve]).public_key()


def priv(curve, d):
    return ec.derive_private_key(int(d, 16), CURVES[curve])


class Checker:
    def __init__(self):
        self.ok = 0
        self.bad = []

    def expect(self, cond, where, what):
        if cond:
            self.ok += 1
        else:
            self.bad.append("%s: %s" % (where, what))


def offered(alg, mode, g):
    """Whether the module offers the group (the same offers as the module's responder)."""
    if alg in ("ECDSA", "DetECDSA"):
        if g.get("curve") not in CURVES:
            return False
        if mode.lower() == "keygen":
            return g.get("secretGenerationMode", "testing candidates") == "testing candidates"
        if mode.lower() == "keyver":
            return True
        return ci(HASHES, g.get("hashAlg", "")) is not None and not g.get("conformance")
    if alg == "KAS-ECC-SSC":
        curve = g.get("domainParameterGenerationMode", g.get("curve"))
        hz = g.get("hashFunctionZ")
        hz = None if hz in (None, "", "none") else hz
        return curve in CURVES and g.get("scheme") in SCHEMES and (not hz or hz in HASHES)
    return g.get("curve") in CURVES


def check_set(prompt, expected, response):
    c = Checker()
    alg, mode = prompt["algorithm"], prompt.get("mode") or ""
    eg = {g["tgId"]: g for g in expected["testGroups"]}
    rg = {g["tgId"]: g for g in response["testGroups"]}
    for g in prompt["testGroups"]:
        where = "tgId %s" % g["tgId"]
        r = rg.get(g["tgId"])
        if not offered(alg, mode, g):
            c.expect(r is None, where, "a group the module does not offer was answered")
            continue
        if r is None:
            c.bad.append(where + ": an offered group was not answered")
            continue
        rt = {t["tcId"]: t for t in r["tests"]}
        et = {t["tcId"]: t for t in eg.get(g["tgId"], {"tests": []})["tests"]}
        gkey = None
        if mode.lower() == "siggen":
            try:
                gkey = pub(g["curve"], r["qx"], r["qy"])
            except (KeyError, ValueError) as e:
                c.bad.append("%s: the group's public key: %s" % (where, e))
                continue
        for t in g["tests"]:
            w = "%s tcId %s" % (where, t["tcId"])
            a = rt.get(t["tcId"])
            if a is None:
                c.bad.append(w + ": not answered")
                continue
            check_test(c, alg, mode, g, t, a, et.get(t["tcId"], {}), gkey, w)
    return c


def check_test(c, alg, mode, g, t, a, e, gkey, w):
    m = mode.lower()
    if "testPassed" in e and (m in ("keyver", "sigver") or g.get("testType") == "VAL"):
        c.expect(a.get("testPassed") == e["testPassed"], w,
                 "testPassed %s, expected %s" % (a.get("testPassed"), e["testPassed"]))
    elif alg in ("ECDSA", "DetECDSA") and m == "keygen":
        k = priv(g["curve"], a["d"])
        pn = k.public_key().public_numbers()
        c.expect(pn.x == int(a["qx"], 16) and pn.y == int(a["qy"], 16), w, "Q != dG")
    elif alg in ("ECDSA", "DetECDSA") and m == "siggen":
        sig = utils.encode_dss_signature(int(a["r"], 16), int(a["s"], 16))
        h = HASHES[g["hashAlg"]]()
        algo = ec.ECDSA(utils.Prehashed(h)) if g.get("componentTest") in (True, "true") \
            else ec.ECDSA(h)
        try:
            gkey.verify(sig, bytes.fromhex(t["message"]), algo)
            c.expect(True, w, "")
        except InvalidSignature:
            c.expect(False, w, "the signature does not verify")
    elif alg == "KAS-ECC-SSC":
        curve = g.get("domainParameterGenerationMode", g.get("curve"))
        iut_u = g["kasRole"] == "initiator"
        z = b""
        for u, v in SCHEMES[g["scheme"]]:
            srv, mine = (v, u) if iut_u else (u, v)
            sk = priv(curve, e[NAME[srv] + "PrivateServer"])
            pk = pub(curve, a[NAME[mine] + "PublicIutX"], a[NAME[mine] + "PublicIutY"])
            z += sk.exchange(ec.ECDH(), pk)
        hz = g.get("hashFunctionZ")
        hz = None if hz in (None, "", "none") else hz
        field = "hashZ" if hz else "z"
        want = hashlib.new(HASHLIB[hz], z).digest() if hz else z
        c.expect(bytes.fromhex(a.get(field, "")) == want, w, field + " differs")
    elif alg == "KAS-ECC":
        sk = priv(g["curve"], e["privateServer"])
        z = sk.exchange(ec.ECDH(), pub(g["curve"], a["publicIutX"], a["publicIutY"]))
        c.expect(bytes.fromhex(a.get("z", "")) == z, w, "z differs")
    else:
        c.bad.append(w + ": no check for this test")


def rfc6979(lib_path, count=40, seed=None):
    """Deterministic ECDSA through ctypes on libfipsmod.so against OpenSSL's RFC 6979
    (cryptography's deterministic_signing) for random keys and messages on every curve and
    hash."""
    try:
        ec.ECDSA(hashes.SHA256(), deterministic_signing=True)
    except Exception:  # cryptography < 43 (or its OpenSSL < 3.2): nothing to compare with
        print("RFC 6979 reference unavailable in this python3-cryptography: skipped")
        return None
    seed = random.randrange(1 << 32) if seed is None else seed
    rng = random.Random(seed)
    lib = ctypes.CDLL(lib_path)
    ids = {"P-224": 1, "P-256": 2, "P-384": 3, "P-521": 4}
    hid = {}
    # fm_hash_alg values, read from the header's order through the library's own names.
    header_order = ["SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512", "SHA2-512/224",
                    "SHA2-512/256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512"]
    for name, value in zip(header_order, HASH_ENUM):
        hid[name] = value
    bad = 0
    n = 0
    for curve, cid in ids.items():
        nb = (CURVES[curve].key_size + 7) // 8
        for hname in HASHES:
            for _ in range(count):
                d = rng.randrange(1, 2 ** (CURVES[curve].key_size - 1))
                msg = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 100)))
                key = ctypes.c_void_p()
                db = d.to_bytes(nb, "big")
                rc = lib.fm_ec_key_import_private(cid, db, ctypes.c_size_t(nb), None,
                                                  ctypes.c_size_t(0), ctypes.byref(key))
                sig = ctypes.create_string_buffer(132)
                sl = ctypes.c_size_t(0)
                if rc == 0:
                    rc = lib.fm_ecdsa_sign_deterministic(key, hid[hname], msg,
                                                         ctypes.c_size_t(len(msg)), sig,
                                                         ctypes.c_size_t(132), ctypes.byref(sl))
                lib.fm_ec_key_free(key)
                ref = ec.derive_private_key(d, CURVES[curve]).sign(
                    msg, ec.ECDSA(HASHES[hname](), deterministic_signing=True))
                r, s = utils.decode_dss_signature(ref)
                want = r.to_bytes(nb, "big") + s.to_bytes(nb, "big")
                n += 1
                if rc != 0 or sig.raw[:sl.value] != want:
                    bad += 1
                    if bad <= 5:
                        print("RFC 6979 mismatch: %s %s d=%x msg=%s (status %d) seed %d"
                              % (curve, hname, d, msg.hex(), rc, seed))
    print("RFC 6979 (ctypes vs OpenSSL): %d signatures, %d mismatches, seed %d" % (n, bad, seed))
    return bad == 0


# The values of fm_hash_alg in include/fipsmod/sha.h, in the order of header_order above; the
# test driver passes them (-DHASH_ENUM) or they are read from the header here.
HASH_ENUM = []


def read_hash_enum(header):
    import re
    text = open(header).read()
    names = ["FM_HASH_SHA224", "FM_HASH_SHA256", "FM_HASH_SHA384", "FM_HASH_SHA512",
             "FM_HASH_SHA512_224", "FM_HASH_SHA512_256", "FM_HASH_SHA3_224", "FM_HASH_SHA3_256",
             "FM_HASH_SHA3_384", "FM_HASH_SHA3_512"]
    out = []
    for nm in names:
        m = re.search(r"\b%s\s*=\s*(\d+)" % nm, text)
        if not m:
            raise SystemExit("cannot read %s from %s" % (nm, header))
        out.append(int(m.group(1)))
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--rfc6979":
        HASH_ENUM.extend(read_hash_enum(sys.argv[3]))
        count = int(sys.argv[4]) if len(sys.argv) > 4 else 10
        ok = rfc6979(sys.argv[2], count)
        sys.exit(77 if ok is None else 0 if ok else 1)
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    prompt, expected, response = (body(p) for p in sys.argv[1:4])
    c = check_set(prompt, expected, response)
    for b in c.bad[:20]:
        print("FAIL", b)
    print("%s %s %s: %d checked, %d failed" % (prompt["algorithm"], prompt.get("mode", ""),
                                             prompt.get("revision", ""), c.ok, len(c.bad)))
    sys.exit(1 if c.bad or c.ok == 0 else 0)


if __name__ == "__main__":
    main()

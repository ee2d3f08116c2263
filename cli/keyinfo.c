/* The structure of a key file the module refused (see keyinfo.h): a small DER walker over the
 * shapes key files take (RFC 5208/5958 PrivateKeyInfo and EncryptedPrivateKeyInfo, RFC 5280
 * SubjectPublicKeyInfo and Certificate, RFC 8017 RSAPrivateKey), and the algorithm identifiers
 * users meet. */
#define _GNU_SOURCE
#include "cli/keyinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/io.h"

/* One DER element's contents. */
struct der {
  const uint8_t *p;
  size_t n;
};

/* der_next reads one definite-length element of |in| with tag |tag| and moves |in| past it. */
static int der_next(struct der *in, uint8_t tag, struct der *out) {
  if (in->n < 2 || in->p[0] != tag) return -1;
  size_t len = in->p[1], hdr = 2;
  if (len & 0x80) {
    const size_t k = len & 0x7f;
    if (k == 0 || k > 4 || in->n < 2 + k) return -1;
    len = 0;
    for (size_t i = 0; i < k; i++) len = len << 8 | in->p[2 + i];
    hdr += k;
  }
  if (len > in->n - hdr) return -1;
  out->p = in->p + hdr;
  out->n = len;
  in->p += hdr + len;
  in->n -= hdr + len;
  return 0;
}

static int der_is(const struct der *d, const char *hex) {
  const size_t n = strlen(hex) / 2;
  uint8_t want[32];
  if (n > sizeof want || cli_hex_decode(hex, 2 * n, want) != 0) return 0;
  return d->n == n && memcmp(d->p, want, n) == 0;
}

/* The algorithm identifiers (OID contents, hex) and what to call them. */
static const struct {
  const char *oid, *name;
} k_algs[] = {
    {"2a864886f70d010101", "RSA"},
    {"2a864886f70d01010a",
     "an RSASSA-PSS-restricted RSA key (id-RSASSA-PSS), not an "
     "rsaEncryption key"},
    {"2a8648ce3d0201", "an EC key"},
    {"2b6570", "an Ed25519 key"},
    {"2b6571", "an Ed448 key"},
    {"2b656e", "an X25519 key"},
    {"2b656f", "an X448 key"},
    {"2a8648ce380401", "a DSA key"},
    {"2a864886f70d010301", "a Diffie-Hellman key"},
    {"608648016503040311", "an ML-DSA-44 key"},
    {"608648016503040312", "an ML-DSA-65 key"},
    {"608648016503040313", "an ML-DSA-87 key"},
    {"608648016503040401", "an ML-KEM-512 key"},
    {"608648016503040402", "an ML-KEM-768 key"},
    {"608648016503040403", "an ML-KEM-1024 key"},
};

static const struct {
  const char *oid, *name;
} k_curves[] = {
    {"2a8648ce3d030107", "P-256"}, {"2b81040022", "P-384"},       {"2b81040023", "P-521"},
    {"2b8104000a", "secp256k1"},   {"2a8648ce3d030101", "P-192"}, {"2b81040021", "P-224"},
};

/* rsa_e_text describes the public exponent in INTEGER |e| when it is below 65537. */
static int rsa_e_text(const struct der *e, char *out, size_t cap) {
  if (e->n == 0 || e->n > 3) return 0;
  unsigned long v = 0;
  for (size_t i = 0; i < e->n; i++) v = v << 8 | e->p[i];
  if (v >= 65537) return 0;
  snprintf(out, cap,
           "an RSA key with e = %lu, below 65537 (FIPS 186-5 requires 65537 <= e < "
           "2^256)",
           v);
  return 1;
}

/* rsa_private_text describes an RSAPrivateKey (RFC 8017 A.1.2): multi-prime, or a small e. */
static int rsa_private_text(struct der body, char *out, size_t cap) {
  struct der seq, version, n, e;
  if (der_next(&body, 0x30, &seq) != 0 || der_next(&seq, 0x02, &version) != 0) return 0;
  if (der_is(&version, "01")) {
    snprintf(out, cap, "a multi-prime RSA key (more than two primes, PKCS#1 version 1)");
    return 1;
  }
  if (der_next(&seq, 0x02, &n) != 0 || der_next(&seq, 0x02, &e) != 0) return 0;
  return rsa_e_text(&e, out, cap);
}

/* alg_text describes the AlgorithmIdentifier |alg| (its SEQUENCE contents); |key| is the key
 * (an OCTET STRING's contents for a private key, a BIT STRING's for a public one, or NULL). */
static int alg_text(struct der alg, const struct der *key, int private_key, const char *not_,
                    char *out, size_t cap) {
  struct der oid, param;
  if (der_next(&alg, 0x06, &oid) != 0) return 0;
  for (size_t i = 0; i < sizeof k_algs / sizeof k_algs[0]; i++) {
    if (!der_is(&oid, k_algs[i].oid)) continue;
    if (i == 0) {
      if (key == NULL) return 0;
      if (private_key) return rsa_private_text(*key, out, cap);
      /* RSAPublicKey inside the BIT STRING, after its unused-bits byte. */
      struct der pub = {key->p + 1, key->n > 0 ? key->n - 1 : 0}, seq, n, e;
      if (key->n == 0 || der_next(&pub, 0x30, &seq) != 0 || der_next(&seq, 0x02, &n) != 0 ||
          der_next(&seq, 0x02, &e) != 0)
        return 0;
      return rsa_e_text(&e, out, cap);
    }
    if (strcmp(k_algs[i].name, "an EC key") == 0) {
      const char *curve = "an unnamed curve";
      if (der_next(&alg, 0x06, &param) == 0) {
        curve = "a curve this command does not know";
        for (size_t c = 0; c < sizeof k_curves / sizeof k_curves[0]; c++)
          if (der_is(&param, k_curves[c].oid)) curve = k_curves[c].name;
      }
      snprintf(out, cap, "an EC key (%s)%s", curve, not_);
      return 1;
    }
    snprintf(out, cap, "%s%s", k_algs[i].name, i == 1 ? "" : not_);
    return 1;
  }
  snprintf(out, cap, "a key of an algorithm this command does not know%s", not_);
  return 1;
}

/* der_text describes a DER key file |d|. */
static int der_text(struct der d, const char *not_, char *out, size_t cap) {
  const struct der file = d;
  struct der top, first, second, third;
  if (der_next(&d, 0x30, &top) != 0) return 0;
  struct der rest = top;
  if (der_next(&rest, 0x02, &first) == 0) {
    /* PrivateKeyInfo (INTEGER, AlgorithmIdentifier, OCTET STRING) or RSAPrivateKey. */
    if (der_next(&rest, 0x30, &second) == 0) {
      struct der key;
      const int have_key = der_next(&rest, 0x04, &key) == 0;
      return alg_text(second, have_key ? &key : NULL, 1, not_, out, cap);
    }
    return rsa_private_text(file, out, cap);
  }
  rest = top;
  if (der_next(&rest, 0x30, &first) != 0) return 0;
  /* EncryptedPrivateKeyInfo: AlgorithmIdentifier (PBES2 or another PBE), OCTET STRING. */
  struct der enc = rest, octets;
  if (der_next(&enc, 0x04, &octets) == 0) {
    struct der alg = first, oid;
    if (der_next(&alg, 0x06, &oid) == 0 && der_is(&oid, "2a864886f70d01050d"))
      snprintf(out, cap,
               "an encrypted PKCS#8 key (PBES2): decrypt it first (openssl pkey -in "
               "FILE -out PLAIN)");
    else
      snprintf(out, cap,
               "an encrypted PKCS#8 key: decrypt it first (openssl pkey -in FILE -out "
               "PLAIN)");
    return 1;
  }
  /* SubjectPublicKeyInfo: AlgorithmIdentifier, BIT STRING. */
  struct der spki = rest, bits;
  if (der_next(&spki, 0x03, &bits) == 0) return alg_text(first, &bits, 0, not_, out, cap);
  /* Certificate: TBSCertificate (a SEQUENCE), AlgorithmIdentifier, BIT STRING. */
  struct der cert = rest;
  if (der_next(&cert, 0x30, &second) == 0 && der_next(&cert, 0x03, &third) == 0) {
    snprintf(out, cap,
             "a certificate, not a key: give its public key (openssl x509 -in FILE "
             "-pubkey -noout)");
    return 1;
  }
  return 0;
}

/* pem_body finds the first PEM block of |in| and sets its label and base64 body. */
static int pem_body(const char *in, size_t n, const char **label, size_t *label_len,
                    const char **body, size_t *body_len) {
  const char *begin = memmem(in, n, "-----BEGIN ", 11);
  if (begin == NULL) return -1;
  const char *l = begin + 11;
  const char *l_end = memmem(l, n - (size_t)(l - in), "-----", 5);
  if (l_end == NULL) return -1;
  const char *b = l_end + 5;
  const char *end = memmem(b, n - (size_t)(b - in), "-----END ", 9);
  if (end == NULL) return -1;
  *label = l;
  *label_len = (size_t)(l_end - l);
  *body = b;
  *body_len = (size_t)(end - b);
  return 0;
}

static int label_is(const char *label, size_t len, const char *want) {
  return len == strlen(want) && memcmp(label, want, len) == 0;
}

int cli_key_describe(const uint8_t *in, size_t in_len, char *out, size_t cap) {
  return cli_key_describe_for(in, in_len, "an RSA key", out, cap);
}

/* describe is cli_key_describe_for with ", not <want>" as |not_| ("" for any key). */
static int describe(const uint8_t *in, size_t in_len, const char *not_, char *out, size_t cap);

int cli_key_describe_for(const uint8_t *in, size_t in_len, const char *want, char *out,
                         size_t cap) {
  char not_buf[64] = "";
  if (want != NULL) snprintf(not_buf, sizeof not_buf, ", not %s", want);
  if (!describe(in, in_len, not_buf, out, cap)) return 0;
  /* A key of the wanted algorithm that the module refused ("an EC key (P-256)" for "an EC key",
   * "an ML-KEM-512 key" for "an ML-KEM key") is not "not" it. */
  const size_t stem = want != NULL && strlen(want) > 4 ? strlen(want) - 4 : 0; /* less " key" */
  char *not_at = stem > 0 ? strstr(out, not_buf) : NULL;
  if (not_at != NULL && strncmp(out, want, stem) == 0)
    memmove(not_at, not_at + strlen(not_buf), strlen(not_at + strlen(not_buf)) + 1);
  return 1;
}

static int describe(const uint8_t *in, size_t in_len, const char *not_, char *out, size_t cap) {
  if (in_len == 0) return 0;
  if (in[0] == 0x30) return der_text((struct der){in, in_len}, not_, out, cap);
  const char *label, *body;
  size_t label_len, body_len;
  if (pem_body((const char *)in, in_len, &label, &label_len, &body, &body_len) != 0) return 0;
  if (label_is(label, label_len, "ENCRYPTED PRIVATE KEY")) {
    snprintf(out, cap,
             "an encrypted PKCS#8 key: give its passphrase with --passin");
    return 1;
  }
  if (memmem(body, body_len, "Proc-Type: 4,ENCRYPTED", 22) != NULL) {
    snprintf(out, cap,
             "a legacy OpenSSL-encrypted PEM key (Proc-Type: 4,ENCRYPTED): decrypt it "
             "first (openssl pkey -in FILE -out PLAIN)");
    return 1;
  }
  if (label_is(label, label_len, "CERTIFICATE") || label_is(label, label_len, "X509 CERTIFICATE") ||
      label_is(label, label_len, "TRUSTED CERTIFICATE")) {
    snprintf(out, cap,
             "a certificate, not a key: give its public key (openssl x509 -in FILE "
             "-pubkey -noout)");
    return 1;
  }
  if (label_is(label, label_len, "OPENSSH PRIVATE KEY")) {
    snprintf(out, cap,
             "an OpenSSH private key: convert it to PKCS#8 first (ssh-keygen -p -m "
             "PKCS8 -f FILE)");
    return 1;
  }
  if (label_is(label, label_len, "DSA PRIVATE KEY")) {
    snprintf(out, cap, "a DSA key%s", not_);
    return 1;
  }
  const int ec_label = label_is(label, label_len, "EC PRIVATE KEY");
  /* Decode the body (without header lines) and look at the DER. */
  uint8_t *der = malloc(body_len + 3);
  if (der == NULL) return 0;
  size_t der_len = 0;
  int found = 0;
  if (cli_base64_decode(body, body_len, der, &der_len) == 0) {
    if (ec_label) {
      /* RFC 5915 ECPrivateKey: the curve is the [0] parameters' OID. */
      const char *curve = "a curve this command does not know";
      struct der d = {der, der_len}, seq, version, key, params, oid;
      if (der_next(&d, 0x30, &seq) == 0 && der_next(&seq, 0x02, &version) == 0 &&
          der_next(&seq, 0x04, &key) == 0 && der_next(&seq, 0xa0, &params) == 0 &&
          der_next(&params, 0x06, &oid) == 0) {
        for (size_t c = 0; c < sizeof k_curves / sizeof k_curves[0]; c++)
          if (der_is(&oid, k_curves[c].oid)) curve = k_curves[c].name;
      }
      snprintf(out, cap, "an EC key (%s)%s", curve, not_);
      found = 1;
    } else {
      found = der_text((struct der){der, der_len}, not_, out, cap);
    }
  }
  cli_wipe_free(der, body_len + 3);
  return found;
}

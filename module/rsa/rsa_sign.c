/* RSA signatures: the private-key operation (CRT, fault check), EMSA-PKCS1-v1_5 and EMSA-PSS
 * encoding (RFC 8017 section 9), signing and strict verification, and the raw RSASP1 and RSADP
 * primitives.
 *
 * Nothing here allocates, takes a lock or keeps state: scratch lives on the stack (sized for the
 * largest modulus and wiped before return) and the key is read-only. Verification handles only
 * public values, so it may branch on them; signing is constant time in the key and in the
 * encoded message. */
#include <assert.h>
#include <string.h>

#include "fipsmod/rand.h"
#include "module/approval.h"
#include "module/internal.h"
#include "module/rsa/internal.h"
#include "module/sha/internal.h"

/* ---- Public and private operations --------------------------------------------------------- */

void rsa_public_op(const fm_rsa_key *key, uint64_t *out, const uint64_t *in) {
  /* The exponent e is public; bn_mod_exp_public's time depends on e only. It has a radix-2^52
   * (AVX-512 IFMA) path from 1024 bits. */
  (void)bn_mod_exp_public(out, in, key->e, key->el, &key->mont_n);
}

/* crt_exp sets the nl-limb y = x^d mod n from the CRT values (RFC 8017 5.1.2, step 2b):
 * s_p = x^dp mod p, s_q = x^dq mod q, h = (s_p - s_q) * qinv mod p, y = s_q + q * h. */
static void crt_exp(const fm_rsa_key *key, uint64_t *y, const uint64_t *x) {
  const size_t pl = key->pl, ql = key->ql;
  uint64_t xp[RSA_PRIME_MAX_LIMBS], xq[RSA_PRIME_MAX_LIMBS];
  uint64_t sp[RSA_PRIME_MAX_LIMBS], sq[RSA_PRIME_MAX_LIMBS];
  uint64_t h[RSA_PRIME_MAX_LIMBS], t[RSA_PRIME_MAX_LIMBS];
  uint64_t prod[2 * RSA_PRIME_MAX_LIMBS];

  bn_mod_reduce(xp, x, key->nl, &key->mont_p);
  bn_mod_reduce(xq, x, key->nl, &key->mont_q);
  if (pl == ql) {
    /* Both halves at once: interleaved where the CPU allows it (bn_mod_exp_consttime_x2). The
     * limb counts are public. */
    (void)bn_mod_exp_consttime_x2(sp, xp, key->dp, &key->mont_p, sq, xq, key->dq, &key->mont_q,
                                  pl);
  } else {
    (void)bn_mod_exp_consttime(sp, xp, key->dp, pl, &key->mont_p);
    (void)bn_mod_exp_consttime(sq, xq, key->dq, ql, &key->mont_q);
  }

  /* s_q may exceed p (q > p is allowed), so it is reduced mod p before the subtraction. */
  bn_mod_reduce(t, sq, ql, &key->mont_p);
  bn_mod_sub(h, sp, t, key->mont_p.N, pl);
  bn_mont_mul(h, h, key->qinv_mont, &key->mont_p); /* qinv_mont = qinv * R: one multiplication */

  /* y = s_q + q * h < q + q * (p - 1) = n: the limbs above n's width are zero. */
  bn_mul_unbalanced(prod, key->mont_q.N, ql, h, pl);
  uint64_t carry = bn_add(prod, prod, sq, ql);
  (void)bn_add_word(prod + ql, prod + ql, carry, pl);
  bn_copy(y, prod, key->nl);

  fm_zeroize(xp, sizeof(xp));
  fm_zeroize(xq, sizeof(xq));
  fm_zeroize(sp, sizeof(sp));
  fm_zeroize(sq, sizeof(sq));
  fm_zeroize(h, sizeof(h));
  fm_zeroize(t, sizeof(t));
  fm_zeroize(prod, sizeof(prod));
}

/* ---- The private-key operation ------------------------------------------------------------
 *
 * No blinding. The exponentiation is constant time in the base as well as in the exponent (fixed
 * windows, every table entry read, Montgomery products whose time depends only on the width), so
 * a base the caller chose tells an attacker nothing that a random one would hide; and every
 * result is checked with the public key before it leaves (a fault gives FM_ERR_INTERNAL, never a
 * signature that would factor n). Blinding was retired for that reason: it cost a per-thread
 * secret pair with its own registry, lock and cleanup, and an RNG draw per key, and protected
 * nothing the constant-time code does not (BoringSSL retired it likewise). The valgrind tests of
 * tests/rsa (test_rsa_ct, test_rsa_ct_prod) check the constant time of the whole operation with
 * the message marked secret. */

/* rsa_fault wipes the |nl|-limb result of a private-key operation that failed its check. Out of
 * line, so that the check's outcome is a branch in rsa_private_op and the status each side
 * returns is a constant: a compiler that folded the two into a select of the status (clang does,
 * inlined into the signing services) would carry the check's operands into every caller's test
 * of the status (test_rsa_ct_prod and its one suppression, rsa_ct_prod.supp). */
__attribute__((noinline, cold)) static int rsa_fault(uint64_t *out, size_t nl) {
  fm_zeroize(out, nl * sizeof(uint64_t));
  return FM_ERR_INTERNAL;
}

__attribute__((noinline)) int rsa_private_op(const fm_rsa_key *key, uint64_t *out,
                                             const uint64_t *in) {
  const size_t nl = key->nl;
  const bn_mont_ctx *mn = &key->mont_n;
  uint64_t y[BN_MAX_LIMBS];

  /* The RSA signing self-test runs once, before the first private-key operation: one load after
   * the first time. */
  int st = fm_selftest_ensure(FM_ST_RSA_SIGN_KAT);
  if (st != FM_OK) {
    fm_zeroize(out, nl * sizeof(uint64_t));
    return st;
  }
  if (key->has_crt) {
    crt_exp(key, out, in);
  } else {
    (void)bn_mod_exp_consttime(out, in, key->d, nl, mn);
  }

  /* Fault countermeasure: the result must verify with the public key before it is released.
   * The comparison's one-bit outcome is public (it only says whether a fault happened).
   * bn_mod_exp_public rather than rsa_public_op: it has the radix-2^52 (AVX-512 IFMA) path
   * from 1024 bits, several times faster than 64-bit Montgomery steps at these widths. */
  (void)bn_mod_exp_public(y, out, key->e, key->el, mn);
  const uint64_t ok = fm_declassify_u64(bn_eq_mask(y, in, nl));
  fm_zeroize(y, sizeof(y));
  rsa_stack_wipe();
  if (!ok) return rsa_fault(out, nl);
  return FM_OK;
}

/* ---- Encodings ----------------------------------------------------------------------------- */

/* DER of DigestInfo up to the digest (RFC 8017 9.2, note 1): SEQUENCE { SEQUENCE { OID, NULL },
 * OCTET STRING }. Every hash the module signs with has an OID under 2.16.840.1.101.3.4.2 (NIST's
 * hashAlgs arc) whose last arc is its fm_hash_alg value: sha256 1, sha384 2, sha512 3, sha224 4,
 * sha512-224 5, sha512-256 6, sha3-224 7 ... sha3-512 10 (RFC 8017 9.2 note 1, RFC 8702 and
 * NIST's Computer Security Objects Register), so the 19 bytes differ only in that arc and the
 * lengths. */
#define RSA_DIGESTINFO_PREFIX_LEN 19
static_assert(FM_HASH_SHA256 == 1 && FM_HASH_SHA512 == 3 && FM_HASH_SHA224 == 4 &&
                  FM_HASH_SHA512_256 == 6 && FM_HASH_SHA3_224 == 7 && FM_HASH_SHA3_512 == 10,
              "hash ids are the last arcs of their OIDs");

/* digest_info_prefix writes the DigestInfo prefix of |hash| (digest length |hlen|) to |out|. */
static void digest_info_prefix(uint8_t out[RSA_DIGESTINFO_PREFIX_LEN], fm_hash_alg hash,
                               size_t hlen) {
  static const uint8_t oid_head[] = {0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02};
  out[0] = 0x30;
  out[1] = (uint8_t)(RSA_DIGESTINFO_PREFIX_LEN - 2 + hlen);
  out[2] = 0x30;
  out[3] = 0x0d;
  memcpy(out + 4, oid_head, sizeof oid_head);
  out[14] = (uint8_t)hash;
  out[15] = 0x05;
  out[16] = 0x00;
  out[17] = 0x04;
  out[18] = (uint8_t)hlen;
}

/* emsa_pkcs1_encode writes the k-byte EM = 0x00 || 0x01 || PS (0xff...) || 0x00 || DigestInfo
 * (RFC 8017 9.2 steps 2-5). Returns FM_OK or FM_ERR_KEY_SIZE (emLen < tLen + 11). */
static int emsa_pkcs1_encode(uint8_t *em, size_t k, fm_hash_alg hash, const uint8_t *digest) {
  const size_t hlen = sha_alg_digest_len(hash);
  const size_t tlen = RSA_DIGESTINFO_PREFIX_LEN + hlen;
  if (k < tlen + 11) return FM_ERR_KEY_SIZE;
  em[0] = 0x00;
  em[1] = 0x01;
  memset(em + 2, 0xff, k - tlen - 3);
  em[k - tlen - 1] = 0x00;
  digest_info_prefix(em + k - tlen, hash, hlen);
  memcpy(em + k - hlen, digest, hlen);
  return FM_OK;
}

/* mgf1_xor XORs MGF1(seed, len) with |hash| (RFC 8017 B.2.1) into out[0..len). */
static void mgf1_xor(fm_hash_alg hash, const uint8_t *seed, size_t seed_len, uint8_t *out,
                     size_t len) {
  uint8_t buf[FM_MAX_DIGEST_LEN + 4], t[FM_MAX_DIGEST_LEN];
  const size_t hlen = sha_alg_digest_len(hash);
  memcpy(buf, seed, seed_len);
  for (uint32_t counter = 0; len > 0; counter++) {
    buf[seed_len] = (uint8_t)(counter >> 24);
    buf[seed_len + 1] = (uint8_t)(counter >> 16);
    buf[seed_len + 2] = (uint8_t)(counter >> 8);
    buf[seed_len + 3] = (uint8_t)counter;
    (void)sha_digest_internal(hash, buf, seed_len + 4, t);
    size_t take = len < hlen ? len : hlen;
    for (size_t i = 0; i < take; i++) out[i] ^= t[i];
    out += take;
    len -= take;
  }
  fm_zeroize(buf, sizeof(buf));
  fm_zeroize(t, sizeof(t));
}

/* pss_hash sets H = Hash(0x00 x 8 || mHash || salt) (RFC 8017 9.1.1 steps 5-6). */
static void pss_hash(fm_hash_alg hash, const uint8_t *mhash, const uint8_t *salt,
                     size_t salt_len, uint8_t *h) {
  static const uint8_t zeros[8] = {0};
  sha_ctx c;
  (void)sha_ctx_init(&c, hash);
  (void)sha_ctx_update(&c, zeros, sizeof(zeros));
  (void)sha_ctx_update(&c, mhash, sha_alg_digest_len(hash));
  (void)sha_ctx_update(&c, salt, salt_len);
  (void)sha_ctx_final(&c, h);
}

/* emsa_pss_encode writes EM (emLen bytes, emBits = modBits - 1) for the digest mHash and |salt|
 * (RFC 8017 9.1.1 steps 3-12). The caller has checked emLen >= hLen + sLen + 2. */
static void emsa_pss_encode(uint8_t *em, size_t em_len, size_t em_bits, fm_hash_alg hash,
                            const uint8_t *mhash, const uint8_t *salt, size_t salt_len) {
  const size_t hlen = sha_alg_digest_len(hash);
  const size_t db_len = em_len - hlen - 1;
  uint8_t *db = em, *h = em + db_len;
  pss_hash(hash, mhash, salt, salt_len, h);                  /* steps 5-6 */
  memset(db, 0, db_len - salt_len - 1);                      /* step 7: PS */
  db[db_len - salt_len - 1] = 0x01;                          /* step 8 */
  if (salt_len > 0) memcpy(db + db_len - salt_len, salt, salt_len);
  mgf1_xor(hash, h, hlen, db, db_len);                       /* steps 9-10 */
  db[0] &= (uint8_t)(0xffu >> (8 * em_len - em_bits));       /* step 11 */
  em[em_len - 1] = 0xbc;                                     /* step 12 */
}

/* ---- Signing ------------------------------------------------------------------------------- */

/* sign_encoded computes the signature of the k-byte encoded message em (em < n as an integer,
 * which both encodings guarantee) into sig[0..k). */
static int sign_encoded(const fm_rsa_key *key, const uint8_t *em, uint8_t *sig) {
  uint64_t m[BN_MAX_LIMBS], s[BN_MAX_LIMBS];
  (void)bn_from_bytes_be(m, key->nl, em, key->k);
  int st = rsa_private_op(key, s, m);
  if (st == FM_OK) {
    bn_to_bytes_be(sig, key->k, s, key->nl);
    fm_declassify(sig, key->k); /* a released signature is public */
  }
  fm_zeroize(m, sizeof(m));
  fm_zeroize(s, sizeof(s));
  return st;
}

int rsa_sign_pkcs1v15_digest(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *digest,
                             uint8_t *sig) {
  uint8_t em[FM_RSA_MAX_BYTES];
  int st = emsa_pkcs1_encode(em, key->k, hash, digest);
  if (st == FM_OK) st = sign_encoded(key, em, sig);
  fm_zeroize(em, key->k);
  return st;
}

/* refuse_output refuses a call that writes a key-sized result into out[0..cap) and its length into
 * *out_len. It wipes what the call could have written: the key's size, or for a call refused
 * before it knew of a valid key the most any RSA call writes (FM_RSA_MAX_BYTES), never more than
 * the capacity the caller gave for its buffer. */
static int refuse_output(int st, const fm_rsa_key *key, uint8_t *out, size_t cap, size_t *out_len) {
  const size_t most = rsa_key_valid(key) ? key->k : FM_RSA_MAX_BYTES;
  const size_t len = out != NULL ? (cap < most ? cap : most) : 0;
  return fm_refuse2(st, out, len, out_len, out_len != NULL ? sizeof(*out_len) : 0);
}

/* can_sign: a private key that may sign. Keys from fm_rsa_key_import_private_nd serve only the
 * RSASP1 and RSADP component tests: their e may be as small as 3 and nothing proves
 * their d came from primes that meet FIPS 186-5. */
static int can_sign(const fm_rsa_key *key) { return key->has_private && !key->component_test_only; }

/* rsa_gate is the state check of the signing and verification services: the module state,
 * then the CAST |id| of the operation and that of the hash it runs with (one load each once
 * they have passed). */
static int rsa_gate(fm_selftest_id id, fm_hash_alg hash) {
  int st = fm_service_gate_tested(id);
  if (st == FM_OK && (st = sha_selftest_ensure(hash)) != FM_OK) fm_indicator_not_approved();
  return st;
}

/* sign_prologue does what every signing entry point checks first: the state, then the
 * arguments. */
static int sign_prologue(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                         size_t msg_len, const uint8_t *sig, size_t sig_cap,
                         const size_t *sig_len) {
  int st = rsa_gate(FM_ST_RSA_SIGN_KAT, hash);
  if (st != FM_OK) return st;
  if (!rsa_key_valid(key) || sig == NULL || sig_len == NULL || (msg == NULL && msg_len > 0))
    return FM_ERR_BAD_ARGUMENT;
  if (!can_sign(key)) return FM_ERR_BAD_ARGUMENT;
  if (sha_alg_digest_len(hash) == 0) return FM_ERR_UNSUPPORTED;
  if (sig_cap < key->k) return FM_ERR_BUFFER_TOO_SMALL;
  return FM_OK;
}

int fm_rsa_sign_pkcs1v15(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                         size_t msg_len, uint8_t *sig, size_t sig_cap, size_t *sig_len) {
  int st = sign_prologue(key, hash, msg, msg_len, sig, sig_cap, sig_len);
  if (st != FM_OK) return refuse_output(st, key, sig, sig_cap, sig_len);
  uint8_t digest[FM_MAX_DIGEST_LEN];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  st = rsa_sign_pkcs1v15_digest(key, hash, digest, sig);
  fm_zeroize(digest, sizeof(digest));
  if (st != FM_OK) return refuse_output(st, key, sig, sig_cap, sig_len);
  *sig_len = key->k;
  if (!fm_approval_rsa_sign(key->n_bits)) fm_indicator_not_approved();
  return FM_OK;
}

/* pss_salt_len_ok: FIPS 186-5 5.4 (g) bounds the salt by the hash, 0 <= sLen <= hLen (RFC 8017
 * allows up to emLen - hLen - 2). Signing enforces it; verification accepts what RFC 8017 does. */
static int pss_salt_len_ok(fm_hash_alg hash, size_t salt_len) {
  return salt_len <= sha_alg_digest_len(hash);
}

/* sign_pss signs with EMSA-PSS and the given salt. */
static int sign_pss(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg, size_t msg_len,
                    const uint8_t *salt, size_t salt_len, uint8_t *sig) {
  const size_t hlen = sha_alg_digest_len(hash);
  const size_t em_bits = key->n_bits - 1, em_len = (em_bits + 7) / 8;
  /* RFC 8017 9.1.1 step 3. */
  if (em_len < hlen + 2 || salt_len > em_len - hlen - 2) return FM_ERR_LENGTH;
  uint8_t digest[FM_MAX_DIGEST_LEN];
  uint8_t em[FM_RSA_MAX_BYTES];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  /* When modBits - 1 is a multiple of 8, EM is one byte shorter than k: a leading zero byte. */
  const size_t pad = key->k - em_len;
  memset(em, 0, pad);
  emsa_pss_encode(em + pad, em_len, em_bits, hash, digest, salt, salt_len);
  int st = sign_encoded(key, em, sig);
  fm_zeroize(digest, sizeof(digest));
  fm_zeroize(em, key->k);
  return st;
}

int fm_rsa_sign_pss_with_salt(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                              size_t msg_len, const uint8_t *salt, size_t salt_len, uint8_t *sig,
                              size_t sig_cap, size_t *sig_len) {
  int st = sign_prologue(key, hash, msg, msg_len, sig, sig_cap, sig_len);
  if (st == FM_OK && salt == NULL && salt_len > 0) st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && !pss_salt_len_ok(hash, salt_len)) st = FM_ERR_LENGTH;
  if (st == FM_OK) st = sign_pss(key, hash, msg, msg_len, salt, salt_len, sig);
  if (st != FM_OK) return refuse_output(st, key, sig, sig_cap, sig_len);
  *sig_len = key->k;
  fm_indicator_not_approved(); /* a caller-chosen salt: for ACVP testing only */
  return FM_OK;
}

int fm_rsa_sign_pss(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg, size_t msg_len,
                    size_t salt_len, uint8_t *sig, size_t sig_cap, size_t *sig_len) {
  uint8_t salt[FM_MAX_DIGEST_LEN];
  int st = sign_prologue(key, hash, msg, msg_len, sig, sig_cap, sig_len);
  if (st == FM_OK && !pss_salt_len_ok(hash, salt_len)) st = FM_ERR_LENGTH;
  if (st != FM_OK) return refuse_output(st, key, sig, sig_cap, sig_len);
  if (salt_len > 0) st = fm_rand_bytes(salt, salt_len);
  if (st == FM_OK) st = sign_pss(key, hash, msg, msg_len, salt, salt_len, sig);
  fm_zeroize(salt, sizeof(salt));
  if (st != FM_OK) return refuse_output(st, key, sig, sig_cap, sig_len);
  *sig_len = key->k;
  /* After fm_rand_bytes, which marked the call approved again. */
  if (!fm_approval_rsa_sign(key->n_bits)) fm_indicator_not_approved();
  return FM_OK;
}

/* ---- Verification -------------------------------------------------------------------------- */

/* recover_em sets em[0..k) = I2OSP(s^e mod n, k) (RFC 8017 8.1.2 / 8.2.2 step 2). Returns FM_OK,
 * or FM_ERR_VERIFY when the signature has the wrong length or s >= n. */
static int recover_em(const fm_rsa_key *key, const uint8_t *sig, size_t sig_len, uint8_t *em) {
  uint64_t s[BN_MAX_LIMBS], m[BN_MAX_LIMBS];
  if (sig_len != key->k) return FM_ERR_VERIFY;
  (void)bn_from_bytes_be(s, key->nl, sig, sig_len);
  if (!bn_lt_mask(s, key->mont_n.N, key->nl)) return FM_ERR_VERIFY;
  rsa_public_op(key, m, s);
  bn_to_bytes_be(em, key->k, m, key->nl);
  return FM_OK;
}

/* verify_prologue checks the arguments common to both verification functions. */
static int verify_prologue(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                           size_t msg_len, const uint8_t *sig, size_t sig_len) {
  int st = rsa_gate(FM_ST_RSA_VERIFY_KAT, hash);
  if (st == FM_OK && (!rsa_key_valid(key) || (msg == NULL && msg_len > 0) ||
                      (sig == NULL && sig_len > 0)))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && sha_alg_digest_len(hash) == 0) st = FM_ERR_UNSUPPORTED;
  if (st != FM_OK) return fm_refuse(st, NULL, 0);
  return FM_OK;
}

int rsa_verify_pkcs1v15_digest(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *digest,
                               const uint8_t *sig, size_t sig_len) {
  uint8_t em[FM_RSA_MAX_BYTES], expected[FM_RSA_MAX_BYTES];
  int st = recover_em(key, sig, sig_len, em);
  /* RFC 8017 8.2.2 step 3-4: compare with the encoding the module itself would make. */
  if (st == FM_OK && emsa_pkcs1_encode(expected, key->k, hash, digest) != FM_OK) st = FM_ERR_VERIFY;
  if (st == FM_OK && !fm_ct_memeq(em, expected, key->k)) st = FM_ERR_VERIFY;
  return st;
}

int fm_rsa_verify_pkcs1v15(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                           size_t msg_len, const uint8_t *sig, size_t sig_len) {
  int st = verify_prologue(key, hash, msg, msg_len, sig, sig_len);
  if (st != FM_OK) return st;
  uint8_t digest[FM_MAX_DIGEST_LEN];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  st = rsa_verify_pkcs1v15_digest(key, hash, digest, sig, sig_len);
  if (st != FM_OK) return fm_refuse(st, NULL, 0); /* a bad signature: not approved */
  /* Moduli under 2048 bits verify for legacy use only (module/approval.c). */
  if (!fm_approval_rsa_verify_pkcs1v15(key->n_bits)) fm_indicator_not_approved();
  return FM_OK;
}

/* emsa_pss_verify checks EM (em_len bytes, emBits = modBits - 1) against mHash with a salt of
 * salt_len bytes or any length (RFC 8017 9.1.2 steps 3-14), and sets |*found| to the length of
 * the salt EM carries. EM is public: branches are fine. */
static int emsa_pss_verify(uint8_t *em, size_t em_len, size_t em_bits, fm_hash_alg hash,
                           const uint8_t *mhash, size_t salt_len, size_t *found) {
  const size_t hlen = sha_alg_digest_len(hash);
  if (em_len < hlen + 2) return FM_ERR_VERIFY; /* step 3 */
  if (salt_len != FM_RSA_PSS_SALT_LEN_ANY && salt_len > em_len - hlen - 2) return FM_ERR_VERIFY;
  if (em[em_len - 1] != 0xbc) return FM_ERR_VERIFY; /* step 4 */
  const size_t db_len = em_len - hlen - 1;
  uint8_t *db = em;
  const uint8_t *h = em + db_len;                    /* step 5 */
  const uint8_t top_mask = (uint8_t)(0xffu << (8 - (8 * em_len - em_bits)));
  if ((8 * em_len - em_bits) != 0 && (db[0] & top_mask) != 0) return FM_ERR_VERIFY; /* step 6 */
  mgf1_xor(hash, h, hlen, db, db_len);                                            /* 7-8 */
  db[0] &= (uint8_t)(0xffu >> (8 * em_len - em_bits));                            /* step 9 */
  /* Step 10: DB = PS (zeros) || 0x01 || salt. */
  size_t i = 0;
  while (i < db_len && db[i] == 0) i++;
  if (i == db_len || db[i] != 0x01) return FM_ERR_VERIFY;
  const size_t found_salt_len = db_len - i - 1;
  if (salt_len != FM_RSA_PSS_SALT_LEN_ANY && found_salt_len != salt_len) return FM_ERR_VERIFY;
  *found = found_salt_len;
  /* Steps 11-14. */
  uint8_t h2[FM_MAX_DIGEST_LEN];
  pss_hash(hash, mhash, db + db_len - found_salt_len, found_salt_len, h2);
  return fm_ct_memeq(h, h2, hlen) ? FM_OK : FM_ERR_VERIFY;
}

int fm_rsa_verify_pss(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                      size_t msg_len, size_t salt_len, const uint8_t *sig, size_t sig_len) {
  int st = verify_prologue(key, hash, msg, msg_len, sig, sig_len);
  if (st != FM_OK) return st;
  uint8_t em[FM_RSA_MAX_BYTES];
  if ((st = recover_em(key, sig, sig_len, em)) != FM_OK) return fm_refuse(st, NULL, 0);
  /* RFC 8017 8.1.2 step 2c: EM = I2OSP(m, emLen); a non-zero byte above emLen is invalid. */
  const size_t em_bits = key->n_bits - 1, em_len = (em_bits + 7) / 8;
  const size_t pad = key->k - em_len;
  for (size_t i = 0; i < pad; i++) {
    if (em[i] != 0) return fm_refuse(FM_ERR_VERIFY, NULL, 0);
  }
  uint8_t digest[FM_MAX_DIGEST_LEN];
  (void)sha_digest_internal(hash, msg, msg_len, digest);
  size_t found = 0;
  st = emsa_pss_verify(em + pad, em_len, em_bits, hash, digest, salt_len, &found);
  if (st != FM_OK) return fm_refuse(st, NULL, 0); /* a bad signature: not approved */
  /* Legacy moduli, and salts longer than the hash (module/approval.c). */
  if (!fm_approval_rsa_verify_pss(key->n_bits, sha_alg_digest_len(hash), found)) {
    fm_indicator_not_approved();
  }
  return FM_OK;
}

/* ---- Raw primitives ------------------------------------------------------------------------ */

/* raw_private runs x^d mod n on a big-endian input after the range check of each primitive:
 * [0, n-1] for RSASP1, [2, n-2] for RSADP (|exclude_fixed_points|). */
static int raw_private(const fm_rsa_key *key, const uint8_t *in, size_t in_len, uint8_t *out,
                       size_t out_cap, size_t *out_len, int exclude_fixed_points) {
  int st = fm_service_gate();
  if (st == FM_OK && (!rsa_key_valid(key) || in == NULL || in_len == 0 || out == NULL ||
                      out_len == NULL || !key->has_private))
    st = FM_ERR_BAD_ARGUMENT;
  if (st == FM_OK && out_cap < key->k) st = FM_ERR_BUFFER_TOO_SMALL;
  if (st != FM_OK) return refuse_output(st, key, out, out_cap, out_len);
  uint64_t x[BN_MAX_LIMBS], y[BN_MAX_LIMBS], lim[BN_MAX_LIMBS];
  st = FM_ERR_OUT_OF_RANGE;
  /* The input is the caller's value to check against n (public bounds, as the standards do). */
  if (!bn_from_bytes_be(x, key->nl, in, in_len)) goto done;
  if (!bn_lt_mask(x, key->mont_n.N, key->nl)) goto done;
  if (exclude_fixed_points) {
    bn_set_word(lim, key->nl, 2);
    if (bn_lt_mask(x, lim, key->nl)) goto done; /* c < 2 */
    (void)bn_sub_word(lim, key->mont_n.N, 1, key->nl);
    if (bn_eq_mask(x, lim, key->nl)) goto done; /* c = n - 1 */
  }
  st = rsa_private_op(key, y, x);
  if (st == FM_OK) {
    bn_to_bytes_be(out, key->k, y, key->nl);
    fm_declassify(out, key->k);
    *out_len = key->k;
    if (key->component_test_only) fm_indicator_not_approved(); /* an (n, e, d) test key */
  }
done:
  fm_zeroize(x, sizeof(x));
  fm_zeroize(y, sizeof(y));
  return st == FM_OK ? FM_OK : refuse_output(st, key, out, out_cap, out_len);
}

int fm_rsa_rsasp1(const fm_rsa_key *key, const uint8_t *m, size_t m_len, uint8_t *s, size_t s_cap,
                  size_t *s_len) {
  return raw_private(key, m, m_len, s, s_cap, s_len, 0);
}

int fm_rsa_rsadp(const fm_rsa_key *key, const uint8_t *c, size_t c_len, uint8_t *k, size_t k_cap,
                 size_t *k_len) {
  return raw_private(key, c, c_len, k, k_cap, k_len, 1);
}

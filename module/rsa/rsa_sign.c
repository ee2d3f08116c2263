/* RSA signatures: the private-key operation (CRT, blinding, fault check), EMSA-PKCS1-v1_5 and
 * EMSA-PSS encoding (RFC 8017 section 9), signing and strict verification, and the raw RSASP1 and
 * RSADP primitives.
 *
 * Nothing here allocates or takes a lock: scratch lives on the stack (sized for the largest
 * modulus and wiped before return), the key is read-only, and the only state that changes is the
 * calling thread's own blinding pair. Verification handles only public values, so it
 * may branch on them; signing is constant time in the key and in the encoded message. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fipsmod/rand.h"
#include "module/approval.h"
#include "module/internal.h"
#include "module/rsa/internal.h"
#include "module/sha/internal.h"
#include "module/syscall.h"

/* ---- Public and private operations --------------------------------------------------------- */

void rsa_public_op(const fm_rsa_key *key, uint64_t *out, const uint64_t *in) {
  /* The exponent e is public; the base may be secret (blinding's r), which bn_mod_exp_public
   * allows: its time depends on e only. It has a radix-2^52 (AVX-512 IFMA) path from 1024 bits. */
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

/* ---- Blinding ---------------------------------------------------------------------------------
 *
 * Every private-key operation multiplies its input by r^e for a random r and the result by r^-1
 * (RFC 8017 section 5.1.2 note; the exponentiation then never sees a value the caller chose). A
 * fresh pair costs a modular inverse and an exponentiation by e, about a fifth of a 2048-bit
 * signature, so each thread keeps the pair of the last key it used, in Montgomery form, and
 * squares both values on every later use ((r^e)^2 and (r^-1)^2 are again such a pair), drawing
 * a fresh r after RSA_BLINDING_USES operations, after a fork, or for another key. The key itself
 * never changes and no lock is taken on a signature: the pair is the calling thread's own.
 *
 * The pairs are secrets, and fm_module_cleanup and entry to ERROR zeroize them all, as the RNG
 * states are (module/rand/rand.c has the same design):
 * - a registry lists the live pairs; g_blinding_lock protects the list and is taken only when a
 *   thread creates its pair (its first private-key operation, and then only with a trylock: a
 *   signature never waits), when a pair is freed (thread exit, library unload), by cleanup and
 *   around fork();
 * - each pair has a busy flag that only its owner writes: 1 for the length of a private-key
 *   operation. The owner raises it and then reads g_blinding_off; cleanup sets g_blinding_off
 *   and then waits for each flag to fall before wiping. Both pairs of accesses are sequentially
 *   consistent (Dekker), so either the owner sees g_blinding_off and refuses with
 *   FM_ERR_NOT_OPERATIONAL, or cleanup sees the flag and waits. The wait is bounded (a thread may
 *   be stopped, or be the one cleaning up from inside its own operation); an operation that was
 *   under way when cleanup began discards its result, wipes its pair again and returns
 *   FM_ERR_NOT_OPERATIONAL;
 * - the flag also detects re-entry: a signal handler signing while its thread is inside an
 *   operation finds it raised and draws a one-off pair, leaving the thread's pair alone.
 * A pthread key destructor unlinks and zeroizes a thread's pair at its exit; cleanup deletes the
 * key (no destructor may run after the module is unloaded), after which exiting threads leave
 * their zeroized pairs listed until unload frees them. Without the key (pthread_key_create
 * failed) no pair is kept and every operation draws a fresh one. */

#define RSA_BLINDING_USES 32

/* Attempts at drawing an invertible r; a non-invertible r would be a factor of n, so a second
 * failure already means a broken RNG or key. */
#define RSA_BLINDING_ATTEMPTS 4

/* The longest cleanup waits for busy owners, in total. */
#define RSA_CLEANUP_WAIT_NS 1000000000L

typedef struct {
  uint64_t key_id; /* the key the pair belongs to; 0 when there is no valid pair */
  pid_t pid;       /* the process that drew it: a forked child draws its own */
  uint32_t uses;
  uint64_t a[BN_MAX_LIMBS];  /* r^e * R mod n */
  uint64_t ai[BN_MAX_LIMBS]; /* r^-1 * R mod n */
} rsa_pair;

typedef struct rsa_blinding {
  /* 1 while the owner runs a private-key operation. Written only by the owner (exchange to 1,
   * release store of 0); read by cleanup, which waits for 0 before wiping. */
  _Atomic uint32_t busy;
  struct rsa_blinding *next, *prev; /* the registry; protected by g_blinding_lock */
  rsa_pair pair;                    /* the secrets: all that a wipe touches */
} rsa_blinding;

/* The calling thread's pair, allocated on its first private-key operation. A pointer rather than
 * the 4 KiB pair itself keeps the module's thread-local block small enough for dlopen's static
 * TLS reserve. */
static __thread rsa_blinding *tl_blinding __attribute__((tls_model("initial-exec")));

/* g_blinding_lock protects g_blinding_list and g_blinding_key_ok's transition to 0; see above for
 * who takes it. g_blinding_key is created once (g_blinding_once); g_blinding_key_ok is set after
 * its creation and cleared when cleanup or unload deletes it. */
static pthread_mutex_t g_blinding_lock = PTHREAD_MUTEX_INITIALIZER;
static rsa_blinding *g_blinding_list;
static pthread_key_t g_blinding_key;
static pthread_once_t g_blinding_once = PTHREAD_ONCE_INIT;
static _Atomic int g_blinding_key_ok;

/* Set once, by fm_rsa_module_cleanup: from then on no private-key operation uses a pair. Read at
 * the start and end of every operation (a load of a line nobody writes in the steady state). */
static _Atomic int g_blinding_off;

/* blinding_unlink removes |b| from the registry; the caller holds g_blinding_lock. */
static void blinding_unlink(rsa_blinding *b) {
  if (b->prev != NULL) {
    b->prev->next = b->next;
  } else {
    g_blinding_list = b->next;
  }
  if (b->next != NULL) b->next->prev = b->prev;
  b->next = b->prev = NULL;
}

static void blinding_thread_exit(void *p) {
  rsa_blinding *b = p;
  pthread_mutex_lock(&g_blinding_lock);
  blinding_unlink(b);
  pthread_mutex_unlock(&g_blinding_lock);
  fm_zeroize(&b->pair, sizeof(b->pair));
  free(b);
  tl_blinding = NULL;
}

/* fork() while another thread holds g_blinding_lock would leave it held in the child for good:
 * the handlers hold it across fork(). */
static void blinding_atfork_prepare(void) { pthread_mutex_lock(&g_blinding_lock); }
static void blinding_atfork_release(void) { pthread_mutex_unlock(&g_blinding_lock); }

static void blinding_key_create(void) {
  if (pthread_atfork(blinding_atfork_prepare, blinding_atfork_release,
                     blinding_atfork_release) != 0)
    return;
  if (pthread_key_create(&g_blinding_key, blinding_thread_exit) == 0)
    atomic_store(&g_blinding_key_ok, 1);
}

/* At unload (dlclose, or exit) no destructor may point into unmapped code and no pair should stay
 * allocated: cleanup's protocol first (every pair wiped, owners waited for, the key deleted), then
 * every pair that is not in use is freed. A pair still busy after cleanup's bounded wait stays
 * allocated, already wiped: its owner is inside an operation (which then fails), and freeing it
 * under that thread would be worse than the leak. */
__attribute__((destructor)) static void blinding_unload(void) {
  fm_rsa_module_cleanup();
  pthread_mutex_lock(&g_blinding_lock);
  for (rsa_blinding *b = g_blinding_list, *next; b != NULL; b = next) {
    next = b->next;
    if (atomic_load_explicit(&b->busy, memory_order_seq_cst) != 0) continue;
    blinding_unlink(b);
    free(b);
  }
  tl_blinding = NULL;
  pthread_mutex_unlock(&g_blinding_lock);
}

/* blinding_create allocates and registers the calling thread's pair (NULL when there is no key
 * destructor, no memory, or cleanup has begun: the operation then draws a one-off pair, or is
 * refused). */
static rsa_blinding *blinding_create(void) {
  if (!atomic_load_explicit(&g_blinding_key_ok, memory_order_acquire) &&
      (pthread_once(&g_blinding_once, blinding_key_create) != 0 ||
       !atomic_load(&g_blinding_key_ok)))
    return NULL;
  rsa_blinding *b = calloc(1, sizeof(*b));
  if (b == NULL) return NULL;
  /* A signature never waits for the lock: it may be held by this very thread (a signal handler
   * signing while its thread creates its pair or is inside fork()). Busy: a one-off pair now, and
   * the next operation tries again. */
  if (pthread_mutex_trylock(&g_blinding_lock) != 0) {
    free(b);
    return NULL;
  }
  /* Checked under the lock: cleanup sets g_blinding_off before taking it, so either it sees this
   * pair or this thread sees the flag; the key cannot be deleted meanwhile either. */
  if (atomic_load(&g_blinding_off) || !atomic_load(&g_blinding_key_ok) ||
      pthread_setspecific(g_blinding_key, b) != 0) {
    pthread_mutex_unlock(&g_blinding_lock);
    free(b);
    return NULL;
  }
  b->next = g_blinding_list;
  if (g_blinding_list != NULL) g_blinding_list->prev = b;
  g_blinding_list = b;
  pthread_mutex_unlock(&g_blinding_lock);
  tl_blinding = b;
  return b;
}

void fm_rsa_module_cleanup(void) {
  /* From here on no operation starts on a pair (the busy flag protocol above). */
  atomic_store_explicit(&g_blinding_off, 1, memory_order_seq_cst);
  pthread_mutex_lock(&g_blinding_lock);
  const long deadline = fm_sys_monotonic_ns() + RSA_CLEANUP_WAIT_NS;
  for (rsa_blinding *b = g_blinding_list; b != NULL; b = b->next) {
    /* The calling thread's own pair may be in use below us (cleanup on an entropy failure inside
     * a signature, or from a signal handler): that operation re-checks the flag, so do not wait. */
    unsigned spins = 0;
    while (b != tl_blinding && atomic_load_explicit(&b->busy, memory_order_seq_cst) != 0) {
      if (++spins < 64) continue;
      if (fm_sys_monotonic_ns() > deadline) break;
      fm_sys_yield();
    }
    fm_zeroize(&b->pair, sizeof(b->pair));
  }
  if (atomic_exchange(&g_blinding_key_ok, 0)) pthread_key_delete(g_blinding_key);
  pthread_mutex_unlock(&g_blinding_lock);
}

enum { BLINDING_OWN = 0, BLINDING_ONE_OFF = 1, BLINDING_OFF = 2 };

/* blinding_enter begins a private-key operation: BLINDING_OWN with *out the thread's pair (its
 * busy flag raised), BLINDING_ONE_OFF with *out NULL when the operation must use a one-off pair
 * (re-entered from a signal handler, or no pair could be kept), BLINDING_OFF after cleanup. */
static int blinding_enter(rsa_blinding **out) {
  *out = NULL;
  /* After cleanup, touch no pair at all (unload may have freed it). */
  if (atomic_load_explicit(&g_blinding_off, memory_order_acquire)) return BLINDING_OFF;
  rsa_blinding *b = tl_blinding != NULL ? tl_blinding : blinding_create();
  if (b == NULL) return atomic_load(&g_blinding_off) ? BLINDING_OFF : BLINDING_ONE_OFF;
  if (atomic_exchange_explicit(&b->busy, 1, memory_order_seq_cst) != 0) return BLINDING_ONE_OFF;
  if (atomic_load_explicit(&g_blinding_off, memory_order_seq_cst)) {
    atomic_store_explicit(&b->busy, 0, memory_order_release);
    return BLINDING_OFF;
  }
  *out = b;
  return BLINDING_OWN;
}

/* blinding_leave ends an operation begun by blinding_enter and returns |st|, or
 * FM_ERR_NOT_OPERATIONAL when cleanup began meanwhile (the pair, which the operation may have
 * rewritten after cleanup wiped it, is wiped again; the caller discards its result). */
static int blinding_leave(rsa_blinding *b, int st) {
  const int off = atomic_load_explicit(&g_blinding_off, memory_order_seq_cst);
  if (b != NULL) {
    if (off) fm_zeroize(&b->pair, sizeof(b->pair));
    atomic_store_explicit(&b->busy, 0, memory_order_release);
  }
  return off ? FM_ERR_NOT_OPERATIONAL : st;
}

void rsa_blinding_forget(const fm_rsa_key *key) {
  rsa_blinding *b;
  if (tl_blinding == NULL || blinding_enter(&b) != BLINDING_OWN) return;
  if (b->pair.key_id == key->id) fm_zeroize(&b->pair, sizeof(b->pair));
  (void)blinding_leave(b, FM_OK);
}

/* blinding_fresh draws r and sets a = r^e * R, ai = r^-1 * R mod n. */
static int blinding_fresh(const fm_rsa_key *key, uint64_t *a, uint64_t *ai) {
  const size_t nl = key->nl;
  const bn_mont_ctx *mn = &key->mont_n;
  uint64_t wide[BN_MAX_LIMBS + 1], r[BN_MAX_LIMBS];
  int st = FM_ERR_INTERNAL;
  for (int attempt = 0; attempt < RSA_BLINDING_ATTEMPTS; attempt++) {
    /* r uniform in [0, n) up to a 2^-64 bias: 64 extra random bits reduced mod n. */
    st = fm_rand_bytes((uint8_t *)wide, (nl + 1) * sizeof(uint64_t));
    if (st != FM_OK) break;
    bn_mod_reduce(r, wide, nl + 1, mn);
    /* Whether r is invertible says something about r, not the key: public. */
    const uint64_t invertible = fm_declassify_u64(bn_mod_inverse_mask(ai, r, mn->N, nl));
    st = FM_ERR_INTERNAL;
    if (!invertible) continue;
    bn_to_mont(ai, ai, mn);
    rsa_public_op(key, a, r);
    bn_to_mont(a, a, mn);
    st = FM_OK;
    break;
  }
  fm_zeroize(wide, sizeof(wide));
  fm_zeroize(r, sizeof(r));
  return st;
}

/* blinding_get sets (a, ai) to this operation's blinding pair: from the thread's pair |b| (NULL
 * for a one-off pair) when it is for this key and process, else fresh (and kept in |b|). */
static int blinding_get(rsa_blinding *b, const fm_rsa_key *key, uint64_t *a, uint64_t *ai) {
  const size_t bytes = key->nl * sizeof(uint64_t);
  const pid_t pid = (pid_t)fm_sys_getpid(); /* the kernel's answer: module/syscall.h */
  rsa_pair *kept = b != NULL ? &b->pair : NULL;
  if (kept != NULL && kept->key_id == key->id && kept->pid == pid &&
      kept->uses < RSA_BLINDING_USES) {
    bn_mont_sqr(kept->a, kept->a, &key->mont_n);
    bn_mont_sqr(kept->ai, kept->ai, &key->mont_n);
    memcpy(a, kept->a, bytes);
    memcpy(ai, kept->ai, bytes);
    kept->uses++;
    return FM_OK;
  }
  int st = blinding_fresh(key, a, ai);
  if (st == FM_OK && kept != NULL) {
    memcpy(kept->a, a, bytes);
    memcpy(kept->ai, ai, bytes);
    kept->pid = pid;
    kept->uses = 1;
    kept->key_id = key->id;
  }
  return st;
}

/* ---- The private-key operation ---------------------------------------------------------------- */

int rsa_private_op(const fm_rsa_key *key, uint64_t *out, const uint64_t *in) {
  const size_t nl = key->nl;
  const bn_mont_ctx *mn = &key->mont_n;
  uint64_t a[BN_MAX_LIMBS], ai[BN_MAX_LIMBS], x[BN_MAX_LIMBS], y[BN_MAX_LIMBS];
  rsa_blinding *b = NULL;

  /* The RSA signing self-test runs once, before the first private-key operation, instead of at
   * load: one atomic load after the first time. (Before blinding_enter: it signs too.) */
  int st = fm_selftest_ensure(FM_ST_RSA_SIGN_KAT);
  if (st != FM_OK) {
    fm_zeroize(out, nl * sizeof(uint64_t));
    return st;
  }
  if (blinding_enter(&b) == BLINDING_OFF) {
    fm_zeroize(out, nl * sizeof(uint64_t));
    return FM_ERR_NOT_OPERATIONAL;
  }
  st = blinding_get(b, key, a, ai);
  if (st != FM_OK) goto done;
  /* x = in * r^e: the exponentiation sees a value unrelated to the input. */
  bn_mont_mul(x, in, a, mn);
  if (key->has_crt) {
    crt_exp(key, y, x);
  } else {
    (void)bn_mod_exp_consttime(y, x, key->d, nl, mn);
  }
  /* y = in^d * r; unblind. */
  bn_mont_mul(out, y, ai, mn);

  /* Fault countermeasure: the result must verify with the public key before it is released.
   * The comparison's one-bit outcome is public (it only says whether a fault happened).
   * bn_mod_exp_public rather than rsa_public_op: it has the radix-2^52 (AVX-512 IFMA) path
   * from 1024 bits, several times faster than 64-bit Montgomery steps at these widths. */
  (void)bn_mod_exp_public(y, out, key->e, key->el, mn);
  const uint64_t ok = fm_declassify_u64(bn_eq_mask(y, in, nl));
  if (!ok) {
    if (b != NULL) b->pair.key_id = 0; /* whatever went wrong, do not reuse it */
    st = FM_ERR_INTERNAL;
  }

done:
  st = blinding_leave(b, st);
  if (st != FM_OK) fm_zeroize(out, nl * sizeof(uint64_t));
  fm_zeroize(a, sizeof(a));
  fm_zeroize(ai, sizeof(ai));
  fm_zeroize(x, sizeof(x));
  fm_zeroize(y, sizeof(y));
  return st;
}

#if defined(FIPSMOD_TEST_HOOKS)
size_t rsa_blinding_pairs_for_testing(size_t *nonzero) {
  size_t count = 0, dirty = 0;
  pthread_mutex_lock(&g_blinding_lock);
  for (const rsa_blinding *b = g_blinding_list; b != NULL; b = b->next) {
    const uint8_t *p = (const uint8_t *)&b->pair;
    uint8_t acc = 0;
    for (size_t i = 0; i < sizeof(b->pair); i++) acc |= p[i];
    count++;
    dirty += acc != 0;
  }
  pthread_mutex_unlock(&g_blinding_lock);
  if (nonzero != NULL) *nonzero = dirty;
  return count;
}
#endif

/* ---- Encodings ----------------------------------------------------------------------------- */

/* DER of DigestInfo up to the digest (RFC 8017 9.2, note 1): SEQUENCE { SEQUENCE { OID, NULL },
 * OCTET STRING }, for SHA-256, SHA-384, SHA-512 (OIDs 2.16.840.1.101.3.4.2.1/2/3). */
static const uint8_t kPrefixSha256[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60,
                                        0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                        0x01, 0x05, 0x00, 0x04, 0x20};
static const uint8_t kPrefixSha384[] = {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60,
                                        0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                        0x02, 0x05, 0x00, 0x04, 0x30};
static const uint8_t kPrefixSha512[] = {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60,
                                        0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                                        0x03, 0x05, 0x00, 0x04, 0x40};
#define RSA_DIGESTINFO_PREFIX_LEN 19

/* digest_info_prefix returns the DigestInfo prefix of |hash|, or NULL for another hash. */
static const uint8_t *digest_info_prefix(fm_hash_alg hash) {
  switch (hash) {
    case FM_HASH_SHA256: return kPrefixSha256;
    case FM_HASH_SHA384: return kPrefixSha384;
    case FM_HASH_SHA512: return kPrefixSha512;
  }
  return NULL;
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
  memcpy(em + k - tlen, digest_info_prefix(hash), RSA_DIGESTINFO_PREFIX_LEN);
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
 * RSASP1 and RSADP component tests (issue 9): their e may be as small as 3 and nothing proves
 * their d came from primes that meet FIPS 186-5. */
static int can_sign(const fm_rsa_key *key) { return key->has_private && !key->component_test_only; }

/* sign_prologue does what every signing entry point checks first: the state, then the
 * arguments. */
static int sign_prologue(const fm_rsa_key *key, fm_hash_alg hash, const uint8_t *msg,
                         size_t msg_len, const uint8_t *sig, size_t sig_cap,
                         const size_t *sig_len) {
  int st = fm_service_gate();
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
  int st = fm_service_gate();
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

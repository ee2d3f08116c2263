/* A key of any type from bytes or a file (include/fipsmod/key.h): encrypted PKCS#8 is decrypted
 * first (module/pkcs8.c), then each algorithm's decoder is tried in turn; each refuses another
 * algorithm's well-formed key with FM_ERR_UNSUPPORTED. When none takes the input, the algorithm
 * identifier is read from the structure (public) to say what the key was. */
#define _POSIX_C_SOURCE 200809L /* open, fstat, O_CLOEXEC */

#include "fipsmod/key.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module/der.h"
#include "module/internal.h"
#include "module/rsa/internal.h"
#include "module/syscall.h"

struct fm_key {
  fm_key_view v;
  fm_rsa_key *rsa;
  fm_ec_key *ec;
  uint8_t *priv; /* ML-KEM dk or ML-DSA sk (secret), priv_cap bytes */
  size_t priv_cap;
  uint8_t *pub;
  size_t pub_cap;
};

/* The largest file fm_key_load_file reads: far above any key (an RSA-16384 PEM is ~13 KiB). */
#define KEY_FILE_MAX ((size_t)1 << 20)

int fm_key_free(fm_key *key) {
  fm_indicator_approved(); /* zeroization: an approved service in every state */
  if (key == NULL) return FM_OK;
  if (key->rsa != NULL) (void)fm_rsa_key_free(key->rsa);
  if (key->ec != NULL) (void)fm_ec_key_free(key->ec);
  if (key->priv != NULL) fm_zeroize(key->priv, key->priv_cap);
  free(key->priv);
  free(key->pub);
  fm_zeroize(key, sizeof *key);
  free(key);
  return FM_OK;
}

/* ---- What a refused key was ------------------------------------------------------------------ */

/* Algorithm identifiers (contents octets) and the type each names. No pointers: .rodata. */
static const struct {
  uint8_t len;
  uint8_t oid[10];
  fm_key_type type;
} k_algs[] = {
    {9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01}, FM_KEY_TYPE_RSA},
    {9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a}, FM_KEY_TYPE_RSA_PSS},
    {7, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}, FM_KEY_TYPE_EC},
    {3, {0x2b, 0x65, 0x70}, FM_KEY_TYPE_ED25519},
    {3, {0x2b, 0x65, 0x71}, FM_KEY_TYPE_ED448},
    {3, {0x2b, 0x65, 0x6e}, FM_KEY_TYPE_X25519},
    {3, {0x2b, 0x65, 0x6f}, FM_KEY_TYPE_X448},
    {7, {0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01}, FM_KEY_TYPE_DSA},
    {9, {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x03, 0x01}, FM_KEY_TYPE_DH},
    {7, {0x2a, 0x86, 0x48, 0xce, 0x3e, 0x02, 0x01}, FM_KEY_TYPE_DH},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x01}, FM_KEY_TYPE_MLKEM},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02}, FM_KEY_TYPE_MLKEM},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x03}, FM_KEY_TYPE_MLKEM},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11}, FM_KEY_TYPE_MLDSA},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12}, FM_KEY_TYPE_MLDSA},
    {9, {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13}, FM_KEY_TYPE_MLDSA},
};

/* der_algorithm reads the algorithm of a PrivateKeyInfo (SEQUENCE { INTEGER, SEQUENCE { OID ..
 * } ..}) or a SubjectPublicKeyInfo (SEQUENCE { SEQUENCE { OID .. }, BIT STRING }). Only tags,
 * lengths and the OID (public) are read. */
static fm_key_type der_algorithm(der_span der) {
  der_span seq, alg, oid, skip;
  if (der_get(&der, DER_SEQUENCE, &seq) != FM_OK) return FM_KEY_TYPE_NONE;
  if (der_peek_tag(&seq) == DER_INTEGER && der_get(&seq, DER_INTEGER, &skip) != FM_OK)
    return FM_KEY_TYPE_NONE;
  if (der_get(&seq, DER_SEQUENCE, &alg) != FM_OK || der_get(&alg, DER_OID, &oid) != FM_OK)
    return FM_KEY_TYPE_NONE;
  for (size_t i = 0; i < sizeof k_algs / sizeof k_algs[0]; i++)
    if (der_equals(oid, k_algs[i].oid, k_algs[i].len)) return k_algs[i].type;
  return FM_KEY_TYPE_OTHER;
}

static const pem_label k_labels[] = {"PRIVATE KEY", "PUBLIC KEY", "DSA PRIVATE KEY",
                                     "OPENSSH PRIVATE KEY"};

/* identify says what algorithm |in| (DER or PEM) holds, for a key no decoder took. */
static fm_key_type identify(const uint8_t *in, size_t n) {
  if (n == 0) return FM_KEY_TYPE_NONE;
  if (pem_public_byte(in, 0) == DER_SEQUENCE) return der_algorithm((der_span){in, n});
  uint8_t *der = NULL;
  size_t der_len = 0, which = 0;
  if (pem_decode(in, n, k_labels, sizeof k_labels / sizeof k_labels[0], NULL, &der, &der_len,
                 &which) != FM_OK) {
    return FM_KEY_TYPE_NONE;
  }
  fm_key_type t = which == 2 ? FM_KEY_TYPE_DSA
                  : which == 3 ? FM_KEY_TYPE_OTHER
                               : der_algorithm((der_span){der, der_len});
  fm_zeroize(der, der_len);
  free(der);
  return t;
}

/* ---- Decoding -------------------------------------------------------------------------------- */

/* try_pq decodes an ML-KEM (|kem|) or ML-DSA key into |k|. */
static int try_pq(bool kem, const uint8_t *in, size_t n, fm_key *k) {
  k->priv_cap = kem ? FM_MLKEM_MAX_DK_LEN : FM_MLDSA_87_PRIVATE_KEY_LEN;
  k->pub_cap = kem ? FM_MLKEM_MAX_EK_LEN : FM_MLDSA_87_PUBLIC_KEY_LEN;
  k->priv = malloc(k->priv_cap);
  k->pub = malloc(k->pub_cap);
  if (k->priv == NULL || k->pub == NULL) return FM_ERR_NO_MEMORY;
  fm_key_format format = 0;
  fm_mlkem_param kp = 0;
  fm_mldsa_param dp = 0;
  int st = kem ? fm_mlkem_key_decode(in, n, &kp, &format, NULL, 0, k->priv, k->priv_cap, k->pub,
                                     k->pub_cap)
               : fm_mldsa_key_decode(in, n, &dp, &format, NULL, 0, k->priv, k->priv_cap, k->pub,
                                     k->pub_cap);
  if (st != FM_OK) return st;
  size_t ek = 0, dk = 0;
  if (kem) {
    if (fm_mlkem_sizes(kp, &ek, &dk, NULL) != FM_OK) return FM_ERR_INTERNAL;
  } else {
    ek = fm_mldsa_public_key_len(dp);
    dk = fm_mldsa_private_key_len(dp);
  }
  k->v.type = kem ? FM_KEY_TYPE_MLKEM : FM_KEY_TYPE_MLDSA;
  k->v.mlkem = kp;
  k->v.mldsa = dp;
  k->v.is_private = format != FM_KEY_SPKI_PUBLIC;
  k->v.pub = k->pub;
  k->v.pub_len = ek;
  if (k->v.is_private) {
    k->v.priv = k->priv;
    k->v.priv_len = dk;
  }
  return FM_OK;
}

/* release_pq drops what a refused try_pq allocated. */
static void release_pq(fm_key *k) {
  if (k->priv != NULL) fm_zeroize(k->priv, k->priv_cap);
  free(k->priv);
  free(k->pub);
  k->priv = k->pub = NULL;
  k->priv_cap = k->pub_cap = 0;
}

/* decode_plain tries each decoder on |in|; the status is the first that is neither
 * FM_ERR_UNSUPPORTED nor FM_ERR_PARSE (a key of that algorithm the decoder refused; *type is then
 * that algorithm), else FM_ERR_UNSUPPORTED when any decoder recognised the structure, else
 * FM_ERR_PARSE. */
static int decode_plain(const uint8_t *in, size_t n, unsigned flags, fm_key *k,
                        fm_key_type *type) {
  bool unsupported = false;
  int st = rsa_key_decode(in, n, (flags & FM_KEY_DECODE_RSA_CONSISTENCY_ONLY) == 0, &k->rsa);
  *type = FM_KEY_TYPE_RSA;
  if (st == FM_OK) {
    k->v.type = FM_KEY_TYPE_RSA;
    k->v.rsa = k->rsa;
    return fm_rsa_key_is_private(k->rsa, &k->v.is_private);
  }
  if (st != FM_ERR_UNSUPPORTED && st != FM_ERR_PARSE) return st;
  unsupported |= st == FM_ERR_UNSUPPORTED;
  st = fm_ec_key_decode(in, n, &k->ec);
  *type = FM_KEY_TYPE_EC;
  if (st == FM_OK) {
    uint8_t d[FM_EC_MAX_BYTES];
    size_t d_len = 0;
    k->v.type = FM_KEY_TYPE_EC;
    k->v.ec = k->ec;
    k->v.is_private = fm_ec_key_export_private(k->ec, d, sizeof d, &d_len) == FM_OK;
    fm_zeroize(d, sizeof d);
    return FM_OK;
  }
  if (st != FM_ERR_UNSUPPORTED && st != FM_ERR_PARSE) return st;
  unsupported |= st == FM_ERR_UNSUPPORTED;
  for (int kem = 1; kem >= 0; kem--) {
    *type = kem ? FM_KEY_TYPE_MLKEM : FM_KEY_TYPE_MLDSA;
    st = try_pq(kem != 0, in, n, k);
    if (st == FM_OK) return FM_OK;
    release_pq(k);
    if (st != FM_ERR_UNSUPPORTED && st != FM_ERR_PARSE) return st;
    unsupported |= st == FM_ERR_UNSUPPORTED;
  }
  *type = FM_KEY_TYPE_NONE;
  return unsupported ? FM_ERR_UNSUPPORTED : FM_ERR_PARSE;
}

/* decrypt_if_encrypted: when |in| is an EncryptedPrivateKeyInfo, decrypts it into a new buffer
 * (*pki, *pki_len: the caller wipes and frees it) and sets *weak when its parameters were outside
 * the approved set; otherwise leaves *pki NULL and returns FM_OK. */
static int decrypt_if_encrypted(const uint8_t *in, size_t n, const uint8_t *pass, size_t pass_len,
                                uint8_t **pki, size_t *pki_len, bool *weak) {
  fm_pkcs8_params found;
  size_t cap = 0;
  int st = fm_pkcs8_decrypt(in, n, NULL, 0, NULL, 0, &cap, &found);
  if (found.scheme == FM_PBE_NONE && (st == FM_ERR_PARSE || st == FM_ERR_UNSUPPORTED))
    return FM_OK; /* not an EncryptedPrivateKeyInfo */
  if (st != FM_OK) return st;
  if (pass == NULL) return FM_ERR_PASSPHRASE;
  uint8_t *buf = malloc(cap);
  if (buf == NULL) return FM_ERR_NO_MEMORY;
  st = fm_pkcs8_decrypt(in, n, pass, pass_len, buf, cap, pki_len, &found);
  if (st != FM_OK) {
    fm_zeroize(buf, cap);
    free(buf);
    return st;
  }
  *weak = fm_tl_indicator != fm_g_indicator_approved;
  fm_zeroize(buf + *pki_len, cap - *pki_len);
  *pki = buf;
  return FM_OK;
}

static int key_decode_ex_impl(const uint8_t *in, size_t in_len, const uint8_t *pass,
                              size_t pass_len, unsigned flags, fm_key **key, fm_key_type *found) {
  if (found != NULL) *found = FM_KEY_TYPE_NONE;
  if (key != NULL) *key = NULL;
  int st = fm_service_gate();
  if (st != FM_OK) return st;
  if (key == NULL || (in == NULL && in_len > 0) || (pass == NULL && pass_len > 0) ||
      (flags & ~(unsigned)FM_KEY_DECODE_RSA_CONSISTENCY_ONLY) != 0)
    return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  fm_key *k = calloc(1, sizeof *k);
  if (k == NULL) return fm_refuse(FM_ERR_NO_MEMORY, NULL, 0);
  uint8_t *pki = NULL;
  size_t pki_len = 0;
  bool weak = false;
  fm_key_type type = FM_KEY_TYPE_NONE;
  st = decrypt_if_encrypted(in, in_len, pass, pass_len, &pki, &pki_len, &weak);
  const uint8_t *der = pki != NULL ? pki : in;
  const size_t der_len = pki != NULL ? pki_len : in_len;
  if (st == FM_OK) st = decode_plain(der, der_len, flags, k, &type);
  if (st == FM_ERR_UNSUPPORTED && type == FM_KEY_TYPE_NONE) type = identify(der, der_len);
  if (st == FM_ERR_PARSE) type = FM_KEY_TYPE_NONE;
  if (pki != NULL) {
    fm_zeroize(pki, pki_len);
    free(pki);
  }
  if (found != NULL) *found = type;
  if (st != FM_OK) {
    (void)fm_key_free(k);
    return fm_refuse(st, NULL, 0);
  }
  *key = k;
  /* The decoder left the indicator; weaker encryption parameters make the whole not approved. */
  if (weak) fm_indicator_not_approved();
  return FM_OK;
}

int fm_key_decode_ex(const uint8_t *in, size_t in_len, const uint8_t *pass, size_t pass_len,
                     unsigned flags, fm_key **key, fm_key_type *found) {
  const int st = key_decode_ex_impl(in, in_len, pass, pass_len, flags, key, found);
  fm_wipe_vector_registers(); /* the key's bytes went through them */
  return st;
}

int fm_key_decode(const uint8_t *in, size_t in_len, const uint8_t *pass, size_t pass_len,
                  fm_key **key, fm_key_type *found) {
  return fm_key_decode_ex(in, in_len, pass, pass_len, 0, key, found);
}

/* read_file reads the whole of |path| into a new buffer (*buf, *len). */
static int read_file(const char *path, uint8_t **buf, size_t *len) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FM_ERR_IO;
  struct stat sb;
  int st = FM_OK;
  if (fstat(fd, &sb) != 0) st = FM_ERR_IO;
  if (st == FM_OK && !S_ISREG(sb.st_mode) && !S_ISFIFO(sb.st_mode) && !S_ISCHR(sb.st_mode)) {
    errno = EINVAL;
    st = FM_ERR_IO;
  }
  uint8_t *b = NULL;
  size_t n = 0;
  if (st == FM_OK && (b = malloc(KEY_FILE_MAX + 1)) == NULL) st = FM_ERR_NO_MEMORY;
  while (st == FM_OK) {
    /* The file holds a private key: it is read with the system call itself, not through libc's
     * read, which an LD_PRELOAD library could replace (module/syscall.h). */
    const long r = fm_syscall(SYS_read, fd, (long)(b + n), (long)(KEY_FILE_MAX + 1 - n));
    if (r == -EINTR) continue;
    if (r < 0) {
      errno = (int)-r;
      st = FM_ERR_IO;
    }
    if (r <= 0) break;
    n += (size_t)r;
    if (n > KEY_FILE_MAX) st = FM_ERR_LENGTH;
  }
  const int saved = errno;
  close(fd);
  errno = saved;
  if (st != FM_OK) {
    if (b != NULL) fm_zeroize(b, n);
    free(b);
    return st;
  }
  *buf = b;
  *len = n;
  return FM_OK;
}

int fm_key_load_file(const char *path, const uint8_t *pass, size_t pass_len, fm_key **key,
                     fm_key_type *found) {
  if (found != NULL) *found = FM_KEY_TYPE_NONE;
  if (key != NULL) *key = NULL;
  int st = fm_service_gate();
  if (st != FM_OK) return st;
  if (path == NULL || key == NULL || (pass == NULL && pass_len > 0))
    return fm_refuse(FM_ERR_BAD_ARGUMENT, NULL, 0);
  uint8_t *buf = NULL;
  size_t n = 0;
  st = read_file(path, &buf, &n);
  if (st != FM_OK) {
    const int saved = errno;
    st = fm_refuse(st, NULL, 0);
    errno = saved;
    return st;
  }
  st = fm_key_decode(buf, n, pass, pass_len, key, found);
  fm_zeroize(buf, n);
  free(buf);
  return st;
}

int fm_key_get(const fm_key *key, fm_key_view *view) {
  const uint8_t saved = fm_tl_indicator;
  if (view != NULL) memset(view, 0, sizeof *view);
  if (!fm_module_operational()) return fm_indicator_keep(saved, FM_ERR_NOT_OPERATIONAL);
  if (key == NULL || view == NULL) return fm_indicator_keep(saved, FM_ERR_BAD_ARGUMENT);
  *view = key->v;
  return fm_indicator_keep(saved, FM_OK);
}

/* What the ACVP RSA responder (rsa_acvp.c) and its checks in `fipsmod kat` (rsa_acvp_check.c)
 * share: field-name lists, the signature scheme of a group and the readers of both files. */
#ifndef FIPSMOD_CLI_VECTORS_RSA_ACVP_H
#define FIPSMOD_CLI_VECTORS_RSA_ACVP_H

#include "cli/vectors/internal.h"

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A ciphertext of decryptionPrimitive: "ct" in the Sp800-56Br2 example, "cipherText" in the 1.0
 * example, "ciphertext" in both test-case tables (rsa/sections/06-decprim-test-vectors.adoc). */
#define CT_NAMES NAMES("ct", "cipherText", "ciphertext")

/* A sigGen / sigVer group's scheme. */
typedef struct scheme {
  int pss;
  fm_hash_alg alg;
  size_t hlen;
  long long salt_len; /* -1: not given */
} scheme;

/* rsa_num: a big-endian number field of the test |t|, else of the group |g| (the first of
 * |names| present). Returns 0, 1 when absent, -1 when malformed (error recorded). */
int rsa_num(kat_ctx *c, json_t *t, json_t *g, const char *const *names, const char *id,
                 kat_bytes *out);
/* rsa_scheme reads sigType, hashAlg, saltLen, maskFunction and conformance of group
 * |g| (|n| tests). Returns 0 when offered, 1 when the group was skipped (counted), -1 when
 * malformed. */
int rsa_scheme(kat_ctx *c, json_t *g, const char *where, long n, int sign, scheme *s);
/* rsa_total_failing: how many tests of a decryptionPrimitive 1.0 group must fail. */
int rsa_total_failing(kat_ctx *c, json_t *g, const char *where, long long *fails);

#endif

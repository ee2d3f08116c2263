/* The ACVP responder: answers an ACVP vector set (a prompt as the server sends it) through the
 * public fipsmod API and builds the response of the ACVP specification
 * (../shared/specs/acvp/: draft-fussell-acvp-spec, and per algorithm the *-responses sections).
 *
 * One code path serves both commands: `fipsmod acvp` writes the response; `fipsmod kat` builds
 * the same response and checks it against the answers the file carries (acvp_check). */
#ifndef FIPSMOD_CLI_ACVP_H
#define FIPSMOD_CLI_ACVP_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "cli/kat/kat_internal.h"
#include "fipsmod/ec.h"

/* acvp_body returns the vector-set object of |root|: the object itself, or in the server's
 * [{"acvVersion": ...}, {vector set}] form the element that carries "algorithm" or
 * "testGroups". NULL when there is none. */
json_t *acvp_body(json_t *root);

/* acvp_respond answers every offered test of the vector set |set| and returns the response body
 * {vsId, algorithm, mode, revision, testGroups: [{tgId, tests: [{tcId, ...}]}]} in *out (a new
 * reference). Tests and groups the module does not offer are left out and counted with their
 * reason (kat_skip); a test the module failed to answer is left out and counted as a failure
 * (kat_fail); c->answered counts the answered tests. Returns 0, or -1 on a malformed set (the
 * error is recorded in c->report). */
int acvp_respond(kat_ctx *c, json_t *set, json_t **out);

/* acvp_check compares the response |resp| (from acvp_respond on |set|) with the answers in
 * |expected| (an internalProjection or expectedResults body; may be |set| itself), test by
 * test: equal fields pass; answers the module chose itself (keys, signatures, IVs) are checked
 * by their properties instead. Counts pass/fail in c->report. Returns 0, or -1 when the
 * expected answers are malformed. */
int acvp_check(kat_ctx *c, json_t *set, json_t *resp, json_t *expected);

/* acvp_has_answers returns 1 when |set| carries answers (an internalProjection: some test has a
 * field that only responses have). */
int acvp_has_answers(json_t *set);

/* ---- shared by the responders ------------------------------------------------------------ */

/* Readers that accept a number or boolean either as a JSON value or as a string ("256",
 * "true"). Each returns 0, 1 when the field is absent (only the _opt forms), or -1 (error
 * recorded) when it is malformed. */
int av_int(kat_ctx *c, json_t *o, const char *field, const char *where, long long *out);
int av_int_opt(kat_ctx *c, json_t *o, const char *field, const char *where, long long *out);
int av_bool(kat_ctx *c, json_t *o, const char *field, const char *where, int *out);
int av_bool_opt(kat_ctx *c, json_t *o, const char *field, const char *where, int *out);
/* av_str_opt: the string, or NULL when absent (a non-string is an error, -1). */
int av_str_opt(kat_ctx *c, json_t *o, const char *field, const char *where, const char **out);
/* av_get returns the first present field among |names| (NULL-terminated), or NULL. */
json_t *av_get(json_t *o, const char *const *names, const char **which);

/* Response builders. */
json_t *ar_group(json_t *g);               /* {tgId, tests: []} for prompt group |g| */
json_t *ar_test(json_t *t);                /* {tcId} for prompt test |t| */
void ar_hex(json_t *o, const char *field, const uint8_t *p, size_t n); /* upper-case hex */
/* ar_add_test appends |rt| to the group's tests and counts it answered. */
void ar_add_test(kat_ctx *c, json_t *rg, json_t *rt);
/* ar_add_group appends |rg| to |groups| when it has tests (else drops it). */
void ar_add_group(json_t *groups, json_t *rg);

/* Progress on a terminal (stderr is a tty): ar_progress_start names the set and its number of
 * tests; ar_progress_tick counts one test done; ar_progress_note shows a sub-step (LDT bytes).
 * Nothing is printed when stderr is not a terminal. */
void ar_progress_start(kat_ctx *c, const char *what, long total);
void ar_progress_tick(kat_ctx *c);
void ar_progress_note(kat_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ar_progress_end(kat_ctx *c);

/* Per-algorithm responders: |groups| is the response's testGroups array to fill. */
/* SHA2-* and SHA3-* (AFT, MCT, LDT), SHAKE-128/256 (AFT, VOT, MCT), HMAC-<hash>: acvp_sha.c. */
int acvp_sha(kat_ctx *c, json_t *set, json_t *groups, fm_hash_alg alg);
int acvp_shake(kat_ctx *c, json_t *set, json_t *groups, fm_xof_alg alg);
int acvp_hmac(kat_ctx *c, json_t *set, json_t *groups, fm_hash_alg alg);
/* acvp_hash_by_name: the hash of an ACVP algorithm name ("SHA2-224" ... "SHA2-512/256",
 * "SHA3-224" ... "SHA3-512"), matched whatever its case as NIST's server matches names. Returns
 * 0 with *alg set, or -1 for a name the module does not offer. */
int acvp_hash_by_name(const char *name, fm_hash_alg *alg);
int acvp_aes(kat_ctx *c, json_t *set, json_t *groups, int mode);
int acvp_drbg(kat_ctx *c, json_t *set, json_t *groups);
int acvp_rsa(kat_ctx *c, json_t *set, json_t *groups, const char *mode, const char *revision);
int acvp_pbkdf(kat_ctx *c, json_t *set, json_t *groups);
int acvp_kbkdf(kat_ctx *c, json_t *set, json_t *groups);
int acvp_gcm(kat_ctx *c, json_t *set, json_t *groups);
int acvp_hkdf(kat_ctx *c, json_t *set, json_t *groups, const char *revision);
/* ML-DSA keyGen, sigGen, sigVer (FIPS204): acvp_mldsa.c. */
int acvp_mldsa(kat_ctx *c, json_t *set, json_t *groups, const char *mode);
int acvp_mlkem(kat_ctx *c, json_t *set, json_t *groups, const char *mode);

/* ECDSA keyGen, keyVer, sigGen, sigVer (1.0, FIPS186-5) and DetECDSA sigGen: acvp_ecdsa.c.
 * KAS-ECC-SSC (Sp800-56Ar3) and KAS-ECC CDH-Component: acvp_kas_ecc.c. */
int acvp_ecdsa(kat_ctx *c, json_t *set, json_t *groups, const char *alg, const char *mode,
               const char *revision);
int acvp_kas_ecc(kat_ctx *c, json_t *set, json_t *groups, const char *alg, const char *mode,
                 const char *revision);
/* Shared by the two: the curve of an ACVP name (0, or -1 for one the module lacks); the SEC1
 * point 04 || x || y of two big-endian coordinates (-1 when one does not fit the curve); a
 * public key from the fields fx, fy of |o| (a status; -1000 when a field is missing); the
 * response fields fx, fy of a key's public point. */
int acvp_ec_curve(const char *name, fm_ec_curve *curve);
int acvp_ec_point(kat_bytes x, kat_bytes y, fm_ec_curve curve, uint8_t *out, size_t *out_len);
int acvp_ec_import_public(kat_ctx *c, json_t *o, const char *fx, const char *fy, const char *id,
                          fm_ec_curve curve, fm_ec_key **key);
void ar_ec_public(json_t *o, const char *fx, const char *fy, const fm_ec_key *key);
/* kat mode: whether an EC set carries answers, and the property checks of the groups whose
 * answers the module chose (0 checked, 1 not such a group: compare field by field, -1 error). */
int acvp_ec_has_answers(json_t *set);
int acvp_kas_ecc_answers(const char *alg, const char *mode, const char *type, json_t *t);
int acvp_ec_check_group(kat_ctx *c, json_t *set, json_t *pg, json_t *rg, json_t *eg,
                        const char *where);
int acvp_kas_ecc_check_group(kat_ctx *c, json_t *set, json_t *pg, json_t *rg, json_t *eg,
                             const char *where);

enum { ACVP_ECB = 1, ACVP_CBC = 2, ACVP_CTR = 3 };

/* What the module chose itself in a response test (checked by property in kat mode). */
int acvp_rsa_check_group(kat_ctx *c, const char *mode, json_t *pg, json_t *rg, json_t *eg,
                         const char *where);

#endif

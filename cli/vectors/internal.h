/* What the parts of the vector tool (`fipsmod kat`, `fipsmod acvp`) share: the per-file context,
 * case bookkeeping, hex decoding into a per-case arena, the readers per format (CAVP lines, JSON
 * fields, ACVP responses), the table of algorithm bindings and the binding functions.
 * Layout of cli/vectors/: read_*.c the formats, dispatch.c the file-kind dispatch, bindings.c the
 * table and name dispatcher, check.c the ACVP answer checker, <algorithm>.c the bindings. */
#ifndef FIPSMOD_CLI_VECTORS_INTERNAL_H
#define FIPSMOD_CLI_VECTORS_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "cli/vectors/kat.h"
#include "fipsmod/ec.h"
#include "fipsmod/sha.h"

/* A decoded byte string (owned by the context's arena). */
typedef struct kat_bytes {
  uint8_t *p;
  size_t n;
} kat_bytes;

/* kat_ctx: one file's run. |report| receives counts; the arena holds what one case decoded and
 * is released by kat_arena_reset after each case. */
typedef struct kat_ctx {
  kat_report *report;
  const kat_options *opt;
  const char *path;
  void **arena;
  size_t arena_len, arena_cap;
  /* ACVP responder (read_acvp.c): tests answered, whether LDTs run, the terminal progress line. */
  long answered;
  int run_ldt;
  int progress;          /* 1 when stderr is a terminal */
  long progress_total, progress_done;
  double progress_last;  /* monotonic seconds of the last line drawn */
  char progress_what[64];
} kat_ctx;

/* kat_alloc returns |n| zeroed bytes (at least 1) that live until kat_arena_reset, or NULL
 * when out of memory (an error is recorded). */
void *kat_alloc(kat_ctx *c, size_t n);
void kat_arena_reset(kat_ctx *c);

/* kat_error records that the file is malformed (first error wins) and returns -1. */
int kat_error(kat_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Case outcomes. |id| names the case as the file does ("[ENCRYPT] COUNT = 3 (line 40)"). */
void kat_pass(kat_ctx *c);
void kat_fail(kat_ctx *c, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void kat_skip(kat_ctx *c, const char *reason_fmt, ...) __attribute__((format(printf, 2, 3)));
/* kat_skip_n counts |n| cases skipped for one reason at once. */
void kat_skip_n(kat_ctx *c, long n, const char *reason_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* kat_compare passes the case when |got| equals |want| (same length, same bytes), else records
 * a failure naming |what| with both values in hex. Returns 1 on a match, 0 otherwise. */
int kat_compare(kat_ctx *c, const char *id, const char *what, const uint8_t *got, size_t got_len,
                const uint8_t *want, size_t want_len);

/* kat_hex_decode decodes |hex| (any case, surrounding blanks ignored; an odd digit count is read
 * as a number with its leading zero dropped when |odd_ok|) into the arena. Returns 0, or -1 on a
 * bad character or odd length. */
int kat_hex_decode(kat_ctx *c, const char *hex, int odd_ok, kat_bytes *out);

/* kat_hex_string writes at most |cap|-1 characters of hex of |p| to |out| ("..." when cut). */
void kat_hex_string(const uint8_t *p, size_t n, char *out, size_t cap);

/* kat_wipe zeroes |n| bytes at |p| in a way the compiler keeps (test keys the runner decoded or
 * exported before they are freed). */
void kat_wipe(void *p, size_t n);

/* Big-endian unsigned numbers: kat_num_strip drops leading zero bytes (keeping one),
 * kat_num_bits gives the bit length, kat_num_cmp compares (-1, 0, 1). */
kat_bytes kat_num_strip(kat_bytes b);
size_t kat_num_bits(kat_bytes b);
int kat_num_cmp(kat_bytes a, kat_bytes b);

/* kat_parse_long parses a decimal integer; returns 0 or -1. */
int kat_parse_long(const char *s, long *out);

/* ---- CAVP response files ---------------------------------------------------------------- */

enum { RSP_SECTION = 1, RSP_KV = 2, RSP_COMMENT = 3 };

typedef struct rsp_line {
  int type;
  int line;          /* 1-based line number in the file */
  const char *key;   /* RSP_KV: key; RSP_SECTION: the text inside [] (key part if it has '=') */
  const char *val;   /* RSP_KV: value; RSP_SECTION: value after '=' or NULL; RSP_COMMENT: text */
} rsp_line;

typedef struct rsp_file {
  char *buf;
  rsp_line *lines;
  size_t n;
} rsp_file;

/* kat_read_text reads the whole file at |path| (NUL-terminated, at most 256 MiB) into a malloc'd
 * buffer. Returns 0, or -1 (error recorded) when it cannot be read or holds a NUL byte. */
int kat_read_text(kat_ctx *c, const char *path, char **out, size_t *out_len);

/* rsp_parse reads the file at |path| into |f|. Returns 0, or -1 (error recorded) when it cannot
 * be read or a line is neither blank, a comment, a [section] nor `key = value`. */
int rsp_parse(kat_ctx *c, const char *path, rsp_file *f);
void rsp_free(rsp_file *f);

/* rsp_has_key returns 1 when any KV line has key |key| (case-insensitive). */
int rsp_has_key(const rsp_file *f, const char *key);
/* rsp_comment_has returns 1 when a comment line contains |text| (case-sensitive). */
int rsp_comment_has(const rsp_file *f, const char *text);
/* rsp_has_section returns 1 when a [section] header contains |text| (case-sensitive). */
int rsp_has_section(const rsp_file *f, const char *text);

/* A case: the KV lines from one start key (COUNT, Len, SHAAlg...) up to the next start key,
 * section header or the end of the file, plus the "sticky" values (keys set outside cases and
 * kept across them, like an RSA modulus) and the section it lies in. */
#define RSP_MAX_CASE_LINES 64
#define RSP_MAX_ATTRS 12
#define RSP_MAX_STICKY 16
typedef struct rsp_case {
  const char *section;                  /* last [name] header without '=', or "" */
  const rsp_line *attrs[RSP_MAX_ATTRS]; /* [key = value] headers of the current section */
  int n_attrs;
  const rsp_line *kv[RSP_MAX_CASE_LINES];
  int n_kv;
  int line;     /* line of the case's start key */
  char id[160]; /* "[ENCRYPT] COUNT = 3 (line 40)" */
} rsp_case;

typedef struct rsp_walk {
  const rsp_file *f;
  size_t pos;
  const char *const *start_keys;  /* NULL-terminated: each of these begins a case */
  const char *const *sticky_keys; /* NULL-terminated, or NULL */
  const rsp_line *sticky[RSP_MAX_STICKY];
  int n_sticky;
  const char *section;
  const rsp_line *attrs[RSP_MAX_ATTRS];
  int n_attrs;
  int last_was_header;
} rsp_walk;

void rsp_walk_init(rsp_walk *w, const rsp_file *f, const char *const *start_keys,
                   const char *const *sticky_keys);
/* rsp_next_case fills |cs| with the next case. Returns 1 for a case, 0 at the end, -1 on a
 * malformed file (a value outside any case, or a case with too many lines). */
int rsp_next_case(kat_ctx *c, rsp_walk *w, rsp_case *cs);

/* rsp_get returns the value of |key| in the case (the first occurrence), else the sticky value,
 * else NULL. rsp_get_line gives the line too. rsp_attr returns a [key = value] header value. */
const char *rsp_get(const rsp_walk *w, const rsp_case *cs, const char *key);
const rsp_line *rsp_get_line(const rsp_walk *w, const rsp_case *cs, const char *key);
const char *rsp_attr(const rsp_case *cs, const char *key);

/* rsp_hex fetches |key| and decodes it; missing or bad hex is a malformed file (-1). */
int rsp_hex(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key, kat_bytes *out);
/* rsp_num: like rsp_hex for a big-endian number, which may have an odd digit count. */
int rsp_num(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key, kat_bytes *out);
/* rsp_hex_opt: like rsp_hex, but a missing key gives an empty value and returns 0. */
int rsp_hex_opt(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key,
                kat_bytes *out);
/* rsp_long fetches |key| as a decimal integer (-1 when missing or not a number). */
int rsp_long(kat_ctx *c, const rsp_walk *w, const rsp_case *cs, const char *key, long *out);

/* ---- JSON (ACVP and Wycheproof) --------------------------------------------------------- */

/* Field readers: each records a malformed-file error naming |where| and returns -1 when the
 * field is missing or has the wrong type. */
int kj_hex(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out);
int kj_hex_opt(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out);
/* kj_num / kj_num_opt: a big-endian number in hex, which may have an odd digit count. */
int kj_num(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out);
int kj_num_opt(kat_ctx *c, json_t *obj, const char *field, const char *where, kat_bytes *out);
int kj_str(kat_ctx *c, json_t *obj, const char *field, const char *where, const char **out);
int kj_int(kat_ctx *c, json_t *obj, const char *field, const char *where, long *out);
json_t *kj_array(kat_ctx *c, json_t *obj, const char *field, const char *where);
/* kj_result reads a Wycheproof test's "result": KJ_VALID, KJ_INVALID or KJ_ACCEPTABLE; -1 (an
 * error recorded) for anything else. kj_flags writes its "flags", comma-separated ("no flags"
 * when there are none), cut to |cap|. */
enum { KJ_VALID = 1, KJ_INVALID = 2, KJ_ACCEPTABLE = 3 };
int kj_result(kat_ctx *c, json_t *test, const char *where);
void kj_flags(json_t *test, char *out, size_t cap);
/* kj_id writes the case id of a test ("tcId 5", tcId as number or string) to |out|. */
void kj_test_id(json_t *group, json_t *test, char *out, size_t cap);

/* ---- readers (format dispatch) --------------------------------------------------------- */

/* kat_run_cavp parses a CAVP .rsp/.txt/.fax file and runs it with the first binding whose
 * cavp_detect recognises it (bindings.c, table order). */
int kat_run_cavp(kat_ctx *c);

/* AES-GCM checks shared by the CAVP, Wycheproof and toolkit runners (gcm.c). Each records a
 * failure naming |id| and returns 0, or returns 1 without counting anything.
 * kat_gcm_seal_check: one-shot and streamed encryption under |iv| give |ct| and |tag|.
 * kat_gcm_open_check: |pt| NULL: the tag must be rejected with the output wiped; else the
 *   decryption must give |pt|.
 * kat_gcm_open_flipped: the tag with its last bit flipped must be rejected (FM_ERR_VERIFY), the
 *   output wiped. */
int kat_gcm_seal_check(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                       const kat_bytes *aad, const kat_bytes *pt, const kat_bytes *ct,
                       const kat_bytes *tag);
int kat_gcm_open_check(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                       const kat_bytes *aad, const kat_bytes *ct, const kat_bytes *tag,
                       const kat_bytes *pt);
int kat_gcm_open_flipped(kat_ctx *c, const char *id, const kat_bytes *key, const kat_bytes *iv,
                         const kat_bytes *aad, const kat_bytes *ct, const kat_bytes *tag);

/* NIST Crypto Toolkit worked examples (read_toolkit.c). kat_toolkit_detect returns 1 when the first
 * bytes |head| are laid out as one (a banner of '#' and a title, no CAVP comment); kat_run_toolkit
 * runs the AES-GCM examples and skips the others (one skip naming the file's title). */
int kat_toolkit_detect(const char *head, size_t n);
int kat_run_toolkit(kat_ctx *c);

/* kat_set_kind names what the file was recognised as. */
void kat_set_kind(kat_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- ACVP: the responder (`fipsmod acvp`) and the answer checker (`fipsmod kat`) ------- */

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

/* ---- algorithm bindings (bindings.c) ---------------------------------------------------- */

/* What a binding function is called with: the names the file gave and the row's own values. */
typedef struct vec_call {
  const char *alg;      /* ACVP or Wycheproof "algorithm" ("" when absent) */
  const char *mode;     /* ACVP "mode", or NULL */
  const char *revision; /* ACVP "revision" ("" when absent) */
  const char *schema;   /* Wycheproof "schema" ("" for ACVP) */
  fm_hash_alg hash;     /* the row's hash (0 when it has none) */
  int arg;              /* the row's own argument (a cipher mode, a file kind, ...) */
  json_t *set;          /* ACVP: the vector set (its set-level fields), or NULL */
} vec_call;

/* ACVP: fill |groups| (the response's testGroups) with answers to the tests of |set| (skips,
 * failures and errors recorded as acvp_respond says). Returns 0 or -1 (malformed set). */
typedef int (*vec_acvp_fn)(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
/* Checks of answers the module chose itself (keys, signatures, IVs, KDF fixed data), which
 * cannot equal the server's (`fipsmod kat` only). |pg|, |pt|: the prompt's group and test;
 * |eg|, |et|: the expected ones (NULL when missing); |rg|, |rt|: the response's. Each returns 1
 * when it checked (and counted) the group or test, 0 to leave it to the field-by-field
 * comparison, -1 on malformed answers. */
typedef int (*vec_check_group_fn)(kat_ctx *c, const vec_call *v, json_t *pg, json_t *rg,
                                  json_t *eg, const char *where);
typedef int (*vec_check_test_fn)(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt,
                                 json_t *et, json_t *rt, const char *id);
/* Wycheproof: run every test of the file |root|. Returns 0 or -1 (malformed file). */
typedef int (*vec_wycheproof_fn)(kat_ctx *c, json_t *root, const vec_call *v);
/* CAVP: whether a parsed file is the binding's (1) or not (0), and its runner. */
typedef int (*vec_cavp_detect_fn)(const rsp_file *f);
typedef int (*vec_cavp_fn)(kat_ctx *c, const rsp_file *f);

enum {
  VEC_NOCASE = 1,    /* acvp_alg (and acvp_mode) matched whatever their case */
  VEC_MODE = 2,      /* the set must name a mode (any, or acvp_mode when given) */
  VEC_NOT_MODE = 4,  /* any mode, or none, except acvp_mode (matched whatever its case) */
};

/* One row of the table: what a name in each format binds to. A row may serve one format or
 * several; NULL members are formats it does not serve. */
typedef struct vec_binding {
  const char *acvp_alg;  /* ACVP "algorithm" */
  const char *acvp_mode; /* ACVP "mode" (NULL: any, see the flags) */
  unsigned flags;
  vec_acvp_fn acvp;
  vec_check_group_fn check_group;
  vec_check_test_fn check_test;
  const char *wp_schema; /* Wycheproof "schema" prefix */
  const char *wp_alg;    /* Wycheproof "algorithm" (NULL: any) */
  vec_wycheproof_fn wycheproof;
  vec_cavp_detect_fn cavp_detect;
  vec_cavp_fn cavp;
  fm_hash_alg hash;
  int arg;
} vec_binding;

/* The name dispatcher. vec_find_acvp returns the row for an ACVP set's algorithm and mode (and
 * fills |v|), vec_find_wycheproof the row for a Wycheproof schema and algorithm, vec_find_cavp
 * the first row whose cavp_detect recognises |f|; NULL when none does. */
const vec_binding *vec_find_acvp(const char *alg, const char *mode, const char *revision,
                                 vec_call *v);
const vec_binding *vec_find_wycheproof(const char *schema, const char *alg, vec_call *v);
const vec_binding *vec_find_cavp(const rsp_file *f, vec_call *v);

/* acvp_hash_by_name: the hash of an ACVP algorithm name ("SHA2-224" ... "SHA2-512/256",
 * "SHA3-224" ... "SHA3-512"), matched whatever its case as NIST's server matches names. Returns
 * 0 with *alg set, or -1 for a name the module does not offer. */
int acvp_hash_by_name(const char *name, fm_hash_alg *alg);

/* ---- the binding functions, by file --------------------------------------------------------- */

/* sha.c: SHA2-* and SHA3-* (AFT, MCT, LDT), SHAKE-128/256 (AFT, VOT, MCT; v->arg the
 * fm_xof_alg), HMAC-<hash>; CAVP SHAVS files. */
int acvp_sha(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_shake(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_hmac(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int kat_cavp_sha(kat_ctx *c, const rsp_file *f);
int kat_cavp_sha_monte(kat_ctx *c, const rsp_file *f);
/* hmac.c: CAVP HMAC.rsp, Wycheproof HMAC (v->hash). */
int kat_cavp_hmac(kat_ctx *c, const rsp_file *f);
int kat_wp_hmac(kat_ctx *c, json_t *root, const vec_call *v);
/* aes.c: ACVP-AES-ECB/CBC/CTR (v->arg: ACVP_ECB, ACVP_CBC, ACVP_CTR), the module's CTR IVs;
 * CAVP AESAVS; Wycheproof AES-CBC-PKCS5. */
enum { ACVP_ECB = 1, ACVP_CBC = 2, ACVP_CTR = 3 };
int acvp_aes(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_aes_check_ctr_iv(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt, json_t *et,
                          json_t *rt, const char *id);
int kat_cavp_aes(kat_ctx *c, const rsp_file *f);
int kat_wp_aes_cbc_pkcs5(kat_ctx *c, json_t *root, const vec_call *v);
/* gcm.c: ACVP-AES-GCM, the module's GCM IVs; CAVP GCMVS; Wycheproof AES-GCM. */
int acvp_gcm(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_gcm_check_iv(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt, json_t *et,
                      json_t *rt, const char *id);
int kat_cavp_gcm(kat_ctx *c, const rsp_file *f);
int kat_wp_aes_gcm(kat_ctx *c, json_t *root, const vec_call *v);
/* drbg.c: ACVP ctrDRBG; CAVP CTR_DRBG.rsp. */
int acvp_drbg(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int kat_cavp_drbg(kat_ctx *c, const rsp_file *f);
/* kdf.c: ACVP PBKDF and KDF (SP 800-108 counter mode; the module's fixed data checked through
 * the expected one); CAVP KBKDF; Wycheproof HKDF and PBKDF2. hkdf.c: ACVP KDA HKDF. */
int acvp_pbkdf(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_kbkdf(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_kbkdf_check(kat_ctx *c, const vec_call *v, json_t *pg, json_t *pt, json_t *et,
                     json_t *rt, const char *id);
int kat_cavp_kbkdf(kat_ctx *c, const rsp_file *f);
int kat_wp_hkdf(kat_ctx *c, json_t *root, const vec_call *v);
int kat_wp_pbkdf2(kat_ctx *c, json_t *root, const vec_call *v);
int acvp_hkdf(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
/* rsa.c: CAVP RSA files and Wycheproof RSA signatures (v->arg: WP_RSA_*); rsa_acvp.c: ACVP RSA
 * and the checks of the keys and signatures the module made. */
enum { WP_RSA_PKCS1_VERIFY = 1, WP_RSA_PKCS1_SIGN = 2, WP_RSA_PSS_VERIFY = 3 };
int kat_cavp_rsa_sig(kat_ctx *c, const rsp_file *f); /* SigGen and SigVer, PKCS#1 v1.5 and PSS */
int kat_cavp_rsa_sp1(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_dp(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_keygen(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_x931(kat_ctx *c, const rsp_file *f);
int kat_wp_rsa_sig(kat_ctx *c, json_t *root, const vec_call *v);
int acvp_rsa(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_rsa_check_group(kat_ctx *c, const vec_call *v, json_t *pg, json_t *rg, json_t *eg,
                         const char *where);
/* ec.c: ECDSA KeyPair, PKV, SigGen, SigVer and the ECC CDH primitive (CAVP). */
int kat_cavp_ec(kat_ctx *c, const rsp_file *f);
/* mldsa.c: ACVP ML-DSA keyGen, sigGen, sigVer (FIPS204); Wycheproof ML-DSA verify and sign
 * (v->arg 1 for sign_seed files, private keys as 32-byte seeds; 0 for sign_noseed). */
int acvp_mldsa(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int kat_wp_mldsa_verify(kat_ctx *c, json_t *root, const vec_call *v);
int kat_wp_mldsa_sign(kat_ctx *c, json_t *root, const vec_call *v);
/* mlkem.c: ACVP ML-KEM keyGen and encapDecap; the four Wycheproof ML-KEM schemas. */
int acvp_mlkem(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int kat_wp_mlkem(kat_ctx *c, json_t *root, const vec_call *v);
/* ecdsa_acvp.c: ACVP ECDSA keyGen, keyVer, sigGen, sigVer (1.0, FIPS186-5) and DetECDSA sigGen;
 * kas_ecc.c: KAS-ECC-SSC (Sp800-56Ar3) and KAS-ECC CDH-Component; their kat-mode group checks
 * of the keys, signatures and Z the module chose. ec_wycheproof.c: Wycheproof ECDSA (arg 1:
 * IEEE P1363 r || s, 0: DER) and ECDH (arg 1: SEC1 points, 0: SubjectPublicKeyInfo) files. */
int acvp_ecdsa(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_ecdsa_check_group(kat_ctx *c, const vec_call *v, json_t *pg, json_t *rg, json_t *eg,
                           const char *where);
int acvp_kas_ecc(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v);
int acvp_kas_ecc_check_group(kat_ctx *c, const vec_call *v, json_t *pg, json_t *rg, json_t *eg,
                             const char *where);
int kat_wp_ecdsa(kat_ctx *c, json_t *root, const vec_call *v);
int kat_wp_ecdh(kat_ctx *c, json_t *root, const vec_call *v);
/* Shared by ecdsa_acvp.c and kas_ecc.c: the curve of an ACVP name (0, or -1 for one the module
 * lacks); the SEC1 point 04 || x || y of two big-endian coordinates (-1 when one does not fit the
 * curve); a public key from the fields fx, fy of |o| (a status; -1000 when a field is missing);
 * the response fields fx, fy of a key's public point; whether an EC set carries answers. */
int acvp_ec_curve(const char *name, fm_ec_curve *curve);
int acvp_ec_point(kat_bytes x, kat_bytes y, fm_ec_curve curve, uint8_t *out, size_t *out_len);
int acvp_ec_import_public(kat_ctx *c, json_t *o, const char *fx, const char *fy, const char *id,
                          fm_ec_curve curve, fm_ec_key **key);
void ar_ec_public(json_t *o, const char *fx, const char *fy, const fm_ec_key *key);
int acvp_ec_has_answers(json_t *set);
int acvp_kas_ecc_answers(const char *alg, const char *mode, const char *type, json_t *t);

#endif

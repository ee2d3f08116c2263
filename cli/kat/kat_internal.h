/* What the parts of the KAT runner share: the per-file context, case bookkeeping, hex decoding
 * into a per-case arena, the CAVP line parser and the JSON field readers. */
#ifndef FIPSMOD_CLI_KAT_INTERNAL_H
#define FIPSMOD_CLI_KAT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "cli/kat/kat.h"
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
  /* ACVP responder (cli/acvp): tests answered, whether LDTs run, the terminal progress line. */
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
int kj_bool(kat_ctx *c, json_t *obj, const char *field, const char *where, int *out);
json_t *kj_array(kat_ctx *c, json_t *obj, const char *field, const char *where);
/* kj_result reads a Wycheproof test's "result": KJ_VALID, KJ_INVALID or KJ_ACCEPTABLE; -1 (an
 * error recorded) for anything else. kj_flags writes its "flags", comma-separated ("no flags"
 * when there are none), cut to |cap|. */
enum { KJ_VALID = 1, KJ_INVALID = 2, KJ_ACCEPTABLE = 3 };
int kj_result(kat_ctx *c, json_t *test, const char *where);
void kj_flags(json_t *test, char *out, size_t cap);
/* kj_id writes the case id of a test ("tcId 5", tcId as number or string) to |out|. */
void kj_test_id(json_t *group, json_t *test, char *out, size_t cap);

/* ---- runners ---------------------------------------------------------------------------- */

int kat_run_cavp(kat_ctx *c);              /* dispatches .rsp/.txt/.fax by content */

/* CAVP runners (file already parsed) */
int kat_cavp_sha(kat_ctx *c, const rsp_file *f);
int kat_cavp_sha_monte(kat_ctx *c, const rsp_file *f);
int kat_cavp_hmac(kat_ctx *c, const rsp_file *f);
int kat_cavp_aes(kat_ctx *c, const rsp_file *f);
int kat_cavp_gcm(kat_ctx *c, const rsp_file *f);
int kat_cavp_kbkdf(kat_ctx *c, const rsp_file *f);
int kat_cavp_drbg(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_siggen(kat_ctx *c, const rsp_file *f, int pss);
int kat_cavp_rsa_sigver(kat_ctx *c, const rsp_file *f, int pss);
int kat_cavp_rsa_sp1(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_dp(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_keygen(kat_ctx *c, const rsp_file *f);
int kat_cavp_rsa_x931(kat_ctx *c, const rsp_file *f);
/* kat_cavp_ec: ECDSA KeyPair, PKV, SigGen, SigVer and the ECC CDH primitive (run_ec.c). */
int kat_cavp_ec(kat_ctx *c, const rsp_file *f);

/* AES-GCM checks shared by the CAVP, Wycheproof and toolkit runners (run_gcm.c). Each records a
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

/* NIST Crypto Toolkit worked examples (toolkit.c). kat_toolkit_detect returns 1 when the first
 * bytes |head| are laid out as one (a banner of '#' and a title, no CAVP comment); kat_run_toolkit
 * runs the AES-GCM examples and skips the others (one skip naming the file's title). */
int kat_toolkit_detect(const char *head, size_t n);
int kat_run_toolkit(kat_ctx *c);

/* Wycheproof runners */
int kat_wp_aes_cbc_pkcs5(kat_ctx *c, json_t *root);
int kat_wp_hmac(kat_ctx *c, json_t *root, fm_hash_alg alg, const char *name);
int kat_wp_aes_gcm(kat_ctx *c, json_t *root);
int kat_wp_hkdf(kat_ctx *c, json_t *root, const char *alg_name);
int kat_wp_pbkdf2(kat_ctx *c, json_t *root, const char *alg_name);
int kat_wp_rsa_sig(kat_ctx *c, json_t *root, int kind);
/* ML-DSA (run_mldsa.c): |alg| is the file's "algorithm" (ML-DSA-44/65/87); |seeded| for the
 * sign_seed files (private keys as 32-byte seeds), 0 for sign_noseed (expanded keys). */
int kat_wp_mldsa_verify(kat_ctx *c, json_t *root, const char *alg);
int kat_wp_mldsa_sign(kat_ctx *c, json_t *root, const char *alg, int seeded);
/* kat_wp_mlkem: the four ML-KEM schemas (run_mlkem.c), told apart by |schema|. */
int kat_wp_mlkem(kat_ctx *c, json_t *root, const char *schema);
/* ECDSA verification (|p1363|: r || s signatures, else DER) and ECDH (|ecpoint|: SEC1 points,
 * else SubjectPublicKeyInfo) on P-224 ... P-521 (run_ec_wp.c). */
int kat_wp_ecdsa(kat_ctx *c, json_t *root, int p1363);
int kat_wp_ecdh(kat_ctx *c, json_t *root, int ecpoint);
enum { WP_RSA_PKCS1_VERIFY = 1, WP_RSA_PKCS1_SIGN = 2, WP_RSA_PSS_VERIFY = 3 };

/* kat_set_kind names what the file was recognised as. */
void kat_set_kind(kat_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

/* ACVP hashes and HMAC:
 * - SHA2-224/256/384/512, SHA2-512/224, SHA2-512/256 (draft-celi-acvp-sha: AFT, MCT standard
 *   and alternate, LDT) and SHA3-224/256/384/512 (draft-celi-acvp-sha3, revisions 1.0 and 2.0:
 *   AFT, the SHA-3 MCT standard and alternate, LDT);
 * - SHAKE-128 and SHAKE-256 (draft-celi-acvp-sha3, revisions 1.0 and FIPS202: AFT, VOT, the
 *   SHAKE MCT with its variable output length);
 * - HMAC over every one of those hashes (draft-fussell-acvp-mac: revisions 1.0, lengths in the
 *   group, and 2.0, lengths in each test).
 * The module hashes whole bytes: bit-oriented lengths are left out with their reason. */
#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "cli/vectors/internal.h"
#include "fipsmod/hmac.h"
#include "fipsmod/sha.h"

static int is_sha3(fm_hash_alg alg) {
  return alg == FM_HASH_SHA3_224 || alg == FM_HASH_SHA3_256 || alg == FM_HASH_SHA3_384 ||
         alg == FM_HASH_SHA3_512;
}

/* mct_chain: one outer iteration of the ACVP SHA-2 MCT (sha/sections/04-testtypes.adoc):
 * A = B = C = SEED; 1000 times MSG = A || B || C (alternate: cut or zero-padded to the initial
 * seed length), MD = SHA(MSG), A = B, B = C, C = MD. |seed| (seed_len bytes) becomes MD. */
static int mct_chain(fm_hash_alg alg, size_t dlen, uint8_t *seed, size_t *seed_len,
                     size_t init_len, int alternate, uint8_t *msg, size_t msg_cap) {
  size_t len[3] = {*seed_len, *seed_len, *seed_len};
  uint8_t buf[3][FM_MAX_DIGEST_LEN];
  const uint8_t *v[3] = {seed, seed, seed};
  int rc = FM_OK;
  for (int i = 0; i < 1000 && rc == FM_OK; i++) {
    size_t m = 0;
    for (int k = 0; k < 3; k++) {
      memcpy(msg + m, v[k], len[k]);
      m += len[k];
    }
    if (alternate) {
      if (m < init_len) memset(msg + m, 0, init_len - m);
      m = init_len;
    }
    if (m > msg_cap) return FM_ERR_INTERNAL;
    uint8_t *dst = buf[i % 3];
    rc = fm_sha_digest(alg, msg, m, dst, FM_MAX_DIGEST_LEN);
    v[0] = v[1];
    len[0] = len[1];
    v[1] = v[2];
    len[1] = len[2];
    v[2] = dst;
    len[2] = dlen;
  }
  if (rc == FM_OK) {
    memcpy(seed, v[2], dlen);
    *seed_len = dlen;
  }
  return rc;
}

/* mct_sha3: one outer iteration of the ACVP SHA-3 MCT (sha3/sections/04-testtypes.adoc,
 * SHA3-MCT), which chains single digests, not three: MD[0] = SEED; 1000 times MSG = MD[i-1]
 * (alternate: cut or zero-padded to the initial seed length), MD[i] = SHA3(MSG). |seed|
 * (seed_len bytes) becomes MD[1000]. |msg| holds at least max(seed_len, init_len, dlen) bytes. */
static int mct_sha3(fm_hash_alg alg, size_t dlen, uint8_t *seed, size_t *seed_len,
                    size_t init_len, int alternate, uint8_t *msg, size_t msg_cap) {
  size_t m = *seed_len;
  int rc = FM_OK;
  if (m > msg_cap) return FM_ERR_INTERNAL;
  memcpy(msg, seed, m);
  for (int i = 0; i < 1000 && rc == FM_OK; i++) {
    if (alternate) {
      if (init_len > msg_cap) return FM_ERR_INTERNAL;
      if (m < init_len) memset(msg + m, 0, init_len - m);
      m = init_len;
    }
    /* msg is read whole before the digest overwrites its first dlen bytes */
    uint8_t md[FM_MAX_DIGEST_LEN];
    rc = fm_sha_digest(alg, msg, m, md, sizeof(md));
    memcpy(msg, md, dlen);
    m = dlen;
  }
  if (rc == FM_OK) {
    memcpy(seed, msg, dlen);
    *seed_len = dlen;
  }
  return rc;
}

/* The largest LDT the SHA specifications define: 8 GiB, in bits. */
#define LDT_MAX_BITS (8ull << 33)

/* ldt_hash_streamed hashes |content| repeated to |full_bits| bits ("repeating": the last
 * repetition is cut where fullLength ends) in updates of about 1 MiB: the fallback of ldt_hash
 * where the message cannot be mapped whole. */
static int ldt_hash_streamed(kat_ctx *c, fm_hash_alg alg, const kat_bytes *content,
                             unsigned long long full_bits, uint8_t *out) {
  size_t reps = ((size_t)1 << 20) / content->n + 1;
  size_t chunk = reps * content->n;
  uint8_t *buf = malloc(chunk);
  if (buf == NULL) return FM_ERR_NO_MEMORY;
  for (size_t i = 0; i < reps; i++) memcpy(buf + i * content->n, content->p, content->n);
  fm_sha_ctx ctx;
  int rc = fm_sha_init(&ctx, alg);
  unsigned long long total = full_bits / 8, left = total;
  while (rc == FM_OK && left > 0) {
    size_t n = left > chunk ? chunk : (size_t)left;
    rc = fm_sha_update(&ctx, buf, n);
    left -= n;
    ar_progress_note(c, "LDT %llu/%llu MiB", (total - left) >> 20, total >> 20);
  }
  if (rc == FM_OK) rc = fm_sha_final(&ctx, out, FM_MAX_DIGEST_LEN);
  fm_sha_wipe(&ctx);
  free(buf);
  return rc;
}

#ifdef __linux__
static size_t gcd_size(size_t a, size_t b) {
  while (b) {
    size_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* ldt_map lays the whole large message out as one contiguous range of address space in
 * bounded memory: a memfd holds one period of the message (a common multiple of the content
 * length and the page size, 1 MiB or more), and that period is mapped again and again at
 * consecutive addresses, all over the same physical pages. Returns the range (*map_len bytes
 * to munmap) or NULL when it cannot be built. */
static uint8_t *ldt_map(const kat_bytes *content, unsigned long long total, size_t *map_len) {
  long pg = sysconf(_SC_PAGESIZE);
  if (pg <= 0 || total > (unsigned long long)SIZE_MAX / 2) return NULL;
  size_t page = (size_t)pg, n = content->n;
  if (n > ((size_t)64 << 20) / page) return NULL; /* a period over 64 MiB: stream instead */
  size_t unit = n / gcd_size(n, page) * page;     /* lcm(n, page) */
  /* At least 1 MiB per mapping, and at most 16384 mappings (well under vm.max_map_count). */
  unsigned long long k = (((unsigned long long)1 << 20) + unit - 1) / unit;
  unsigned long long k2 = (total + 16384ULL * unit - 1) / (16384ULL * unit);
  if (k2 > k) k = k2;
  if (k * unit > ((unsigned long long)256 << 20)) return NULL;
  size_t period = (size_t)(k * unit);
  size_t maps = (size_t)((total + period - 1) / period);
  if (maps == 0) maps = 1;
  if (maps > SIZE_MAX / period) return NULL;
  int fd = memfd_create("fipsmod-acvp-ldt", MFD_CLOEXEC);
  if (fd < 0) return NULL;
  uint8_t *base = NULL;
  if (ftruncate(fd, (off_t)period) == 0) {
    uint8_t *w = mmap(NULL, period, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (w != MAP_FAILED) {
      for (size_t i = 0; i < period; i += n) memcpy(w + i, content->p, n); /* n divides period */
      munmap(w, period);
      base = mmap(NULL, maps * period, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) base = NULL;
      for (size_t i = 0; base != NULL && i < maps; i++) {
        if (mmap(base + i * period, period, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
          munmap(base, maps * period);
          base = NULL;
        }
      }
    }
  }
  close(fd);
  if (base != NULL) *map_len = maps * period;
  return base;
}
#endif

/* ldt_hash hashes |content| repeated to |full_bits| bits. sha/sections/04-testtypes.adoc
 * (LD_test): an IUT that hashes through Init/Update/Final "MUST process the large input message
 * in its entirety in a single Update() call" (the LDT is there to catch 32-bit length and
 * counter overflows inside one call). So the message is mapped whole (ldt_map: gigabytes of
 * address space, about a megabyte of memory) and handed to one fm_sha_update; only where it
 * cannot be mapped is it streamed, with a note on stderr. */
static int ldt_hash(kat_ctx *c, fm_hash_alg alg, const kat_bytes *content,
                    unsigned long long full_bits, uint8_t *out) {
  unsigned long long total = full_bits / 8;
#ifdef __linux__
  size_t map_len = 0;
  uint8_t *msg = ldt_map(content, total, &map_len);
  if (msg != NULL) {
    ar_progress_note(c, "LDT %llu MiB in one update", total >> 20);
    fm_sha_ctx ctx;
    int rc = fm_sha_init(&ctx, alg);
    if (rc == FM_OK) rc = fm_sha_update(&ctx, msg, (size_t)total);
    if (rc == FM_OK) rc = fm_sha_final(&ctx, out, FM_MAX_DIGEST_LEN);
    fm_sha_wipe(&ctx);
    munmap(msg, map_len);
    return rc;
  }
#endif
  fprintf(stderr, "%s: the LDT message of %llu bytes could not be mapped whole: hashed in "
          "1 MiB updates instead of one\n", c->path, total);
  return ldt_hash_streamed(c, alg, content, full_bits, out);
}

/* msg_bits reads a message given as hex with its length in bits (|len_field| in the test, or
 * the whole hex when absent). Returns 0 with *bits set, or -1 (malformed). */
static int msg_bits(kat_ctx *c, json_t *t, const char *hex_field, const char *len_field,
                    json_t *g, const char *id, kat_bytes *msg, long long *bits) {
  if (kj_hex(c, t, hex_field, id, msg) < 0) return -1;
  int r = av_int_opt(c, t, len_field, id, bits);
  if (r == 1 && g != NULL) r = av_int_opt(c, g, len_field, id, bits);
  if (r < 0) return -1;
  if (r == 1) *bits = (long long)msg->n * 8;
  /* Compared without arithmetic on |bits|, which may be anything up to 2^63 - 1. */
  unsigned long long ub = (unsigned long long)*bits;
  if (*bits < 0 || ub > (unsigned long long)msg->n * 8 ||
      ((ub + 7) / 8 != msg->n && !(ub == 0 && msg->n <= 1))) {
    return kat_error(c, "%s: %s: %s = %lld does not match %s (%zu bytes)", c->path, id, len_field,
                     *bits, hex_field, msg->n);
  }
  return 0;
}

int acvp_sha(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const fm_hash_alg alg = v->hash;
  size_t dlen = 0;
  if (fm_hash_digest_len(alg, &dlen) != FM_OK || dlen == 0 || dlen > FM_MAX_DIGEST_LEN) {
    return kat_error(c, "%s: internal: no digest length for hash %d", c->path, (int)alg);
  }
  const int sha3 = is_sha3(alg);
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type;
    if (kj_str(c, g, "testType", where, &type) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    int alternate = 0;
    if (strcmp(type, "MCT") == 0) {
      const char *ver = NULL;
      if (av_str_opt(c, g, "mctVersion", where, &ver) < 0) return -1;
      if (ver != NULL && strcmp(ver, "alternate") == 0) {
        alternate = 1;
      } else if (ver != NULL && strcmp(ver, "standard") != 0) {
        kat_skip_n(c, (long)json_array_size(tests), "%s MCT version \"%s\" is not known",
                   sha3 ? "SHA-3" : "SHA-2", ver);
        continue;
      }
    } else if (strcmp(type, "AFT") != 0 && strcmp(type, "LDT") != 0) {
      kat_skip_n(c, (long)json_array_size(tests), "SHA test type \"%s\" is not known", type);
      continue;
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      json_t *rt = ar_test(t);
      uint8_t md[FM_MAX_DIGEST_LEN];
      int ok = 0;
      if (strcmp(type, "AFT") == 0) {
        kat_bytes msg;
        long long bits;
        if (msg_bits(c, t, "msg", "len", NULL, id, &msg, &bits) < 0) goto malformed;
        if (bits % 8 != 0) {
          kat_skip(c, "bit-oriented message (len not a multiple of 8): the module hashes bytes");
        } else {
          int r = fm_sha_digest(alg, msg.p, (size_t)(bits / 8), md, sizeof(md));
          if (r != FM_OK) {
            kat_fail(c, id, "hash returned %s", fm_strerror(r));
          } else {
            ar_hex(rt, "md", md, dlen);
            ok = 1;
          }
        }
      } else if (strcmp(type, "MCT") == 0) {
        kat_bytes seed;
        long long bits;
        if (msg_bits(c, t, "msg", "len", NULL, id, &seed, &bits) < 0) goto malformed;
        if (bits == 0) {
          kat_error(c, "%s: %s: an empty MCT seed", c->path, id);
          goto malformed;
        }
        if (bits % 8 != 0) {
          kat_skip(c, "bit-oriented MCT seed (len not a multiple of 8): the module hashes bytes");
          json_decref(rt);
          ar_progress_tick(c);
          kat_arena_reset(c);
          continue;
        }
        /* A standard MCT seed need not be a digest long: the pseudocode of
         * sha/sections/04-testtypes.adoc hashes A || B || C whatever their lengths (its own
         * example seeds SHA2-512/224 with 20 bytes), and the SHA-3 one hashes the seed as it
         * is; from the second outer round on SEED = MD. */
        size_t slen = (size_t)(bits / 8);
        size_t big = slen > dlen ? slen : dlen;
        size_t cap = 3 * big;
        uint8_t *cur = kat_alloc(c, big), *buf = kat_alloc(c, cap);
        if (cur == NULL || buf == NULL) goto malformed;
        memcpy(cur, seed.p, slen);
        size_t cur_len = slen;
        json_t *results = json_array();
        int r = FM_OK;
        for (int j = 0; j < 100 && r == FM_OK; j++) {
          r = sha3 ? mct_sha3(alg, dlen, cur, &cur_len, slen, alternate, buf, cap)
                   : mct_chain(alg, dlen, cur, &cur_len, slen, alternate, buf, cap);
          json_t *o = json_object();
          ar_hex(o, "md", cur, dlen);
          json_array_append_new(results, o);
        }
        if (r != FM_OK) {
          kat_fail(c, id, "MCT hash returned %s", fm_strerror(r));
          json_decref(results);
        } else {
          json_object_set_new(rt, "resultsArray", results);
          ok = 1;
        }
      } else { /* LDT */
        json_t *lm = json_object_get(t, "largeMsg");
        kat_bytes content;
        long long clen, full;
        const char *tech;
        if (!json_is_object(lm)) {
          kat_error(c, "%s: %s: field \"largeMsg\" is missing", c->path, id);
          goto malformed;
        }
        if (kj_hex(c, lm, "content", id, &content) < 0 || av_int(c, lm, "contentLength", id, &clen) < 0 ||
            av_int(c, lm, "fullLength", id, &full) < 0 ||
            kj_str(c, lm, "expansionTechnique", id, &tech) < 0) {
          goto malformed;
        }
        /* contentLength is the content's length in bits (LD_test): the hex may end in a
         * partial byte. */
        if (clen <= 0 || full <= 0 || content.n == 0 ||
            ((unsigned long long)clen + 7) / 8 != (unsigned long long)content.n) {
          kat_error(c, "%s: %s: largeMsg lengths are malformed", c->path, id);
          goto malformed;
        }
        /* sha/ and sha3/sections/05-capabilities.adoc (performLargeDataTest): the LDT sizes
         * are 1, 2, 4 and 8 GiB; a larger fullLength is a malformed set, not hours of
         * hashing. */
        if ((unsigned long long)full > LDT_MAX_BITS) {
          kat_error(c, "%s: %s: largeMsg fullLength %lld bits is above the largest LDT (8 GiB, "
                    "%llu bits)", c->path, id, full, LDT_MAX_BITS);
          goto malformed;
        }
        if (strcmp(tech, "repeating") != 0) {
          kat_skip(c, "LDT expansion technique \"%s\" is not known", tech);
        } else if (clen % 8 != 0) {
          kat_skip(c, "LDT content of %lld bits, not whole bytes: the module hashes bytes", clen);
        } else if (full % 8 != 0) {
          kat_skip(c, "LDT of %lld bits, not whole bytes: the module hashes bytes", full);
        } else if (!c->run_ldt) {
          kat_skip(c, "large data test (LDT: gigabytes of hashing): run with --large");
        } else {
          int r = ldt_hash(c, alg, &content, (unsigned long long)full, md);
          if (r != FM_OK) {
            kat_fail(c, id, "LDT hash returned %s", fm_strerror(r));
          } else {
            ar_hex(rt, "md", md, dlen);
            ok = 1;
          }
        }
      }
      if (ok) {
        ar_add_test(c, rg, rt);
      } else {
        json_decref(rt);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
      continue;
    malformed:
      json_decref(rt);
      json_decref(rg);
      return -1;
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* HMAC: keyLen, msgLen and macLen are in the group (1.0) or in each test (2.0), in bits. */
int acvp_hmac(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const fm_hash_alg alg = v->hash;
  size_t dlen = 0;
  if (fm_hash_digest_len(alg, &dlen) != FM_OK || dlen == 0 || dlen > FM_MAX_DIGEST_LEN) {
    return kat_error(c, "%s: internal: no digest length for hash %d", c->path, (int)alg);
  }
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type = NULL;
    if (av_str_opt(c, g, "testType", where, &type) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    if (type != NULL && strcmp(type, "AFT") != 0) {
      kat_skip_n(c, (long)json_array_size(tests), "HMAC test type \"%s\" is not known", type);
      continue;
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      kat_bytes key, msg;
      long long kbits, mbits, macbits;
      if (msg_bits(c, t, "key", "keyLen", g, id, &key, &kbits) < 0 ||
          msg_bits(c, t, "msg", "msgLen", g, id, &msg, &mbits) < 0) {
        json_decref(rg);
        return -1;
      }
      int r = av_int_opt(c, t, "macLen", id, &macbits);
      if (r == 1) r = av_int_opt(c, g, "macLen", id, &macbits);
      if (r == 1) macbits = (long long)dlen * 8;
      if (r < 0) {
        json_decref(rg);
        return -1;
      }
      if (macbits <= 0 || (unsigned long long)macbits > dlen * 8) {
        json_decref(rg);
        return kat_error(c, "%s: %s: macLen %lld for a %zu-bit HMAC", c->path, id, macbits,
                         dlen * 8);
      }
      if (kbits % 8 != 0 || mbits % 8 != 0 || macbits % 8 != 0) {
        kat_skip(c, "bit-oriented key, message or MAC length: the module takes whole bytes");
      } else {
        uint8_t mac[FM_MAX_DIGEST_LEN];
        int h = fm_hmac(alg, key.p, (size_t)(kbits / 8), msg.p, (size_t)(mbits / 8), mac,
                        sizeof(mac));
        if (h != FM_OK) {
          kat_fail(c, id, "HMAC returned %s", fm_strerror(h));
        } else {
          json_t *rt = ar_test(t);
          ar_hex(rt, "mac", mac, (size_t)(macbits / 8));
          ar_add_test(c, rg, rt);
        }
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- SHAKE-128 and SHAKE-256 ---------------------------------------------------------------- */

/* The largest output the SHAKE capabilities allow (sha3/sections/05-capabilities.adoc, outputLen
 * domain: Max 65536 bits). A larger outLen, minOutLen or maxOutLen is a malformed set. */
#define SHAKE_MAX_OUT_BITS 65536

static int shake(fm_xof_alg alg, const uint8_t *msg, size_t len, uint8_t *out, size_t out_len) {
  return alg == FM_XOF_SHAKE128 ? fm_shake128(msg, len, out, out_len)
                                : fm_shake256(msg, len, out, out_len);
}

/* mct_shake: one outer iteration of the SHAKE MCT (sha3/sections/04-testtypes.adoc, SHAKE-MCT),
 * in bytes: MD[0] = SEED; 1000 times MSG = the 128 leftmost bits of MD[i-1] (zero bits appended
 * when it is shorter), MD[i] = SHAKE(MSG, OutputLen), then OutputLen = minOutBytes + (the 16
 * rightmost bits of MD[i] as an integer) % (maxOutBytes - minOutBytes + 1). |md| (*md_len bytes,
 * room for max_b) becomes MD[1000]; *out_b carries OutputLen from one iteration to the next. */
static int mct_shake(fm_xof_alg alg, uint8_t *md, size_t *md_len, size_t min_b, size_t max_b,
                     size_t *out_b) {
  size_t range = max_b - min_b + 1;
  int rc = FM_OK;
  for (int i = 0; i < 1000 && rc == FM_OK; i++) {
    uint8_t msg[16] = {0};
    memcpy(msg, md, *md_len < 16 ? *md_len : 16);
    rc = shake(alg, msg, sizeof(msg), md, *out_b);
    *md_len = *out_b;
    unsigned rightmost = ((unsigned)md[*md_len - 2] << 8) | md[*md_len - 1];
    *out_b = min_b + rightmost % range;
  }
  return rc;
}

/* shake_out_len reads a test's outLen (bits). Returns 0, or -1 (malformed, error recorded). */
static int shake_out_len(kat_ctx *c, json_t *t, json_t *g, const char *id, long long *bits) {
  int r = av_int_opt(c, t, "outLen", id, bits);
  if (r == 1) r = av_int_opt(c, g, "outLen", id, bits);
  if (r == 1) return kat_error(c, "%s: %s: field \"outLen\" is missing", c->path, id);
  if (r < 0) return -1;
  if (*bits <= 0 || *bits > SHAKE_MAX_OUT_BITS) {
    return kat_error(c, "%s: %s: outLen %lld bits is outside the SHAKE output lengths (1 to %d)",
                     c->path, id, *bits, SHAKE_MAX_OUT_BITS);
  }
  return 0;
}

int acvp_shake(kat_ctx *c, json_t *set, json_t *groups, const vec_call *v) {
  const fm_xof_alg alg = (fm_xof_alg)v->arg;
  size_t gi, ti;
  json_t *g, *t;
  json_array_foreach(json_object_get(set, "testGroups"), gi, g) {
    char where[64], id[96];
    snprintf(where, sizeof(where), "testGroups[%zu]", gi);
    const char *type;
    if (kj_str(c, g, "testType", where, &type) < 0) return -1;
    json_t *tests = kj_array(c, g, "tests", where);
    if (tests == NULL) return -1;
    long long min_bits = 0, max_bits = 0;
    if (strcmp(type, "MCT") == 0) {
      const char *ver = NULL;
      if (av_str_opt(c, g, "mctVersion", where, &ver) < 0) return -1;
      if (ver != NULL && strcmp(ver, "standard") != 0) {
        kat_skip_n(c, (long)json_array_size(tests), "SHAKE MCT version \"%s\" is not known", ver);
        continue;
      }
      if (av_int(c, g, "minOutLen", where, &min_bits) < 0 ||
          av_int(c, g, "maxOutLen", where, &max_bits) < 0) {
        return -1;
      }
      /* The MCT reads the 16 rightmost bits of every output: at least 16 bits. */
      if (min_bits < 16 || max_bits < min_bits || max_bits > SHAKE_MAX_OUT_BITS) {
        return kat_error(c, "%s: %s: SHAKE MCT output lengths minOutLen %lld, maxOutLen %lld are "
                         "not 16 <= minOutLen <= maxOutLen <= %d bits", c->path, where, min_bits,
                         max_bits, SHAKE_MAX_OUT_BITS);
      }
      if (min_bits % 8 != 0 || max_bits % 8 != 0) {
        kat_skip_n(c, (long)json_array_size(tests), "SHAKE MCT output lengths of %lld to %lld "
                   "bits, not whole bytes: the module squeezes bytes", min_bits, max_bits);
        continue;
      }
    } else if (strcmp(type, "AFT") != 0 && strcmp(type, "VOT") != 0) {
      kat_skip_n(c, (long)json_array_size(tests), "SHAKE test type \"%s\" is not known", type);
      continue;
    }
    json_t *rg = ar_group(g);
    json_array_foreach(tests, ti, t) {
      kj_test_id(g, t, id, sizeof(id));
      json_t *rt = ar_test(t);
      kat_bytes msg;
      long long bits;
      int ok = 0;
      if (msg_bits(c, t, "msg", "len", NULL, id, &msg, &bits) < 0) goto malformed;
      if (strcmp(type, "MCT") != 0) { /* AFT, VOT */
        long long out_bits;
        if (shake_out_len(c, t, g, id, &out_bits) < 0) goto malformed;
        if (bits % 8 != 0) {
          kat_skip(c, "bit-oriented message (len not a multiple of 8): the module hashes bytes");
        } else if (out_bits % 8 != 0) {
          kat_skip(c, "bit-oriented output (outLen not a multiple of 8): the module squeezes "
                   "bytes");
        } else {
          size_t n = (size_t)(out_bits / 8);
          uint8_t *out = kat_alloc(c, n);
          if (out == NULL) goto malformed;
          int r = shake(alg, msg.p, (size_t)(bits / 8), out, n);
          if (r != FM_OK) {
            kat_fail(c, id, "SHAKE returned %s", fm_strerror(r));
          } else {
            ar_hex(rt, "md", out, n);
            ok = 1;
          }
        }
      } else if (bits % 8 != 0) {
        kat_skip(c, "bit-oriented MCT seed (len not a multiple of 8): the module hashes bytes");
      } else {
        size_t min_b = (size_t)(min_bits / 8), max_b = (size_t)(max_bits / 8);
        size_t slen = (size_t)(bits / 8);
        uint8_t *md = kat_alloc(c, max_b > slen ? max_b : slen);
        if (md == NULL) goto malformed;
        memcpy(md, msg.p, slen);
        size_t md_len = slen, out_b = max_b; /* OutputLen = maxOutBytes */
        json_t *results = json_array();
        int r = FM_OK;
        for (int j = 0; j < 100 && r == FM_OK; j++) {
          r = mct_shake(alg, md, &md_len, min_b, max_b, &out_b);
          json_t *o = json_object();
          ar_hex(o, "md", md, md_len);
          json_object_set_new(o, "outLen", json_integer((json_int_t)md_len * 8));
          json_array_append_new(results, o);
        }
        if (r != FM_OK) {
          kat_fail(c, id, "SHAKE MCT returned %s", fm_strerror(r));
          json_decref(results);
        } else {
          json_object_set_new(rt, "resultsArray", results);
          ok = 1;
        }
      }
      if (ok) {
        ar_add_test(c, rg, rt);
      } else {
        json_decref(rt);
      }
      ar_progress_tick(c);
      kat_arena_reset(c);
      continue;
    malformed:
      json_decref(rt);
      json_decref(rg);
      return -1;
    }
    ar_add_group(groups, rg);
  }
  return 0;
}

/* ---- CAVP SHAVS files -------------------------------------------------------------------- */

/* SHA-2 known answers: CAVP SHAVS ShortMsg/LongMsg and Monte files, ACVP SHA2-256/384/512
 * (AFT, MCT standard and alternate, LDT). */
static int alg_from_bytes(long digest_bytes, fm_hash_alg *alg) {
  switch (digest_bytes) {
    case 32: *alg = FM_HASH_SHA256; return 0;
    case 48: *alg = FM_HASH_SHA384; return 0;
    case 64: *alg = FM_HASH_SHA512; return 0;
    default: return -1;
  }
}

/* SHA-512/224 and SHA-512/256 files also say [L = 28] / [L = 32]; their header names them. */
static int is_truncated_sha512(const rsp_file *f) {
  return rsp_comment_has(f, "SHA-512/") || rsp_comment_has(f, "SHA512/");
}

/* hash_both computes the digest one-shot and incrementally (split in three uneven pieces), so
 * that the KATs also exercise the update/final path. Returns FM_OK or the first error. */
static int hash_both(fm_hash_alg alg, const uint8_t *msg, size_t len, uint8_t *one,
                     uint8_t *inc) {
  int rc = fm_sha_digest(alg, msg, len, one, FM_MAX_DIGEST_LEN);
  if (rc != FM_OK) return rc;
  fm_sha_ctx ctx;
  size_t a = len / 3, b = len / 2;
  if ((rc = fm_sha_init(&ctx, alg)) != FM_OK) return rc;
  if ((rc = fm_sha_update(&ctx, msg, a)) != FM_OK) return rc;
  if ((rc = fm_sha_update(&ctx, msg + a, b - a)) != FM_OK) return rc;
  if ((rc = fm_sha_update(&ctx, msg + b, len - b)) != FM_OK) return rc;
  return fm_sha_final(&ctx, inc, FM_MAX_DIGEST_LEN);
}

/* check_digest compares both computations of one message with the expected digest. */
static void check_digest(kat_ctx *c, const char *id, fm_hash_alg alg, size_t dlen,
                         const uint8_t *msg, size_t len, const kat_bytes *md) {
  uint8_t one[FM_MAX_DIGEST_LEN], inc[FM_MAX_DIGEST_LEN];
  int rc = hash_both(alg, msg, len, one, inc);
  if (rc != FM_OK) {
    kat_fail(c, id, "hash returned %s", fm_strerror(rc));
  } else if (memcmp(one, inc, dlen) != 0) {
    kat_compare(c, id, "MD (incremental)", inc, dlen, md->p, md->n);
  } else {
    kat_compare(c, id, "MD", one, dlen, md->p, md->n);
  }
}

int kat_cavp_sha(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"Len", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  rsp_walk_init(&w, f, start, NULL);
  kat_set_kind(c, "CAVP SHA-2 ShortMsg/LongMsg");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    kat_bytes msg, md;
    long len, L = 0;
    fm_hash_alg alg;
    const char *ls = rsp_attr(&cs, "L");
    if (ls == NULL || kat_parse_long(ls, &L) < 0) {
      return kat_error(c, "%s:%d: case %s is not under an [L = n] section", c->path, cs.line, cs.id);
    }
    if (is_truncated_sha512(f) || alg_from_bytes(L, &alg) < 0) {
      kat_skip(c, "SHA-2 variant with L = %ld bytes is not offered (SHA-256/384/512 only)", L);
      continue;
    }
    if (rsp_long(c, &w, &cs, "Len", &len) < 0 || rsp_hex(c, &w, &cs, "Msg", &msg) < 0 ||
        rsp_hex(c, &w, &cs, "MD", &md) < 0) {
      return -1;
    }
    if (len < 0 || (size_t)len > msg.n * 8 || (len == 0 && msg.n > 1)) {
      return kat_error(c, "%s:%d: Len = %ld does not match Msg (%zu bytes)", c->path, cs.line, len,
                       msg.n);
    }
    if (len % 8 != 0) {
      kat_skip(c, "bit-oriented message (Len not a multiple of 8)");
      continue;
    }
    if (md.n != (size_t)L) {
      return kat_error(c, "%s:%d: MD has %zu bytes, [L = %ld]", c->path, cs.line, md.n, L);
    }
    /* Len = 0 comes with the placeholder Msg = 00. */
    check_digest(c, cs.id, alg, (size_t)L, msg.p, (size_t)len / 8, &md);
    kat_arena_reset(c);
  }
  return rc;
}

/* sha_mct_standard: SHAVS 6.4 / ACVP "standard" Monte Carlo inner loop: 1000 digests of the
 * last three digests concatenated, starting from seed, seed, seed. |out| gets MD[1002]. */
static int sha_mct_inner(fm_hash_alg alg, size_t dlen, const uint8_t *seed, size_t seed_len,
                         size_t init_len, int alternate, uint8_t *out) {
  /* md[0..2] rotate: A = MD[i-3], B = MD[i-2], C = MD[i-1]. For the alternate version the
   * seed may be longer than a digest. */
  uint8_t *buf = calloc(3, seed_len > dlen ? seed_len : dlen);
  uint8_t *msg = calloc(1, 3 * (seed_len > dlen ? seed_len : dlen) + init_len + 1);
  if (buf == NULL || msg == NULL) {
    free(buf);
    free(msg);
    return FM_ERR_NO_MEMORY;
  }
  size_t slot = seed_len > dlen ? seed_len : dlen;
  size_t alen = seed_len, blen = seed_len, clen = seed_len;
  uint8_t *A = buf, *B = buf + slot, *C = buf + 2 * slot;
  memcpy(A, seed, seed_len);
  memcpy(B, seed, seed_len);
  memcpy(C, seed, seed_len);
  int rc = FM_OK;
  for (int i = 0; i < 1000 && rc == FM_OK; i++) {
    size_t mlen = 0;
    memcpy(msg, A, alen);
    mlen += alen;
    memcpy(msg + mlen, B, blen);
    mlen += blen;
    memcpy(msg + mlen, C, clen);
    mlen += clen;
    if (alternate) {
      /* ACVP alternate MCT: the message is cut or zero-padded to the initial seed length. */
      if (mlen >= init_len) {
        mlen = init_len;
      } else {
        memset(msg + mlen, 0, init_len - mlen);
        mlen = init_len;
      }
    }
    uint8_t *old = A;
    A = B;
    alen = blen;
    B = C;
    blen = clen;
    C = old;
    rc = fm_sha_digest(alg, msg, mlen, C, FM_MAX_DIGEST_LEN > slot ? slot : FM_MAX_DIGEST_LEN);
    clen = dlen;
  }
  if (rc == FM_OK) memcpy(out, C, dlen);
  free(buf);
  free(msg);
  return rc;
}

int kat_cavp_sha_monte(kat_ctx *c, const rsp_file *f) {
  static const char *const start[] = {"COUNT", NULL};
  static const char *const sticky[] = {"Seed", NULL};
  rsp_walk w;
  rsp_case cs;
  int rc;
  uint8_t seed[FM_MAX_DIGEST_LEN];
  size_t seed_len = 0;
  const rsp_line *seed_line = NULL;
  rsp_walk_init(&w, f, start, sticky);
  kat_set_kind(c, "CAVP SHA-2 Monte");
  while ((rc = rsp_next_case(c, &w, &cs)) == 1) {
    long L = 0;
    fm_hash_alg alg;
    const char *ls = rsp_attr(&cs, "L");
    if (ls == NULL || kat_parse_long(ls, &L) < 0) {
      return kat_error(c, "%s:%d: case %s is not under an [L = n] section", c->path, cs.line, cs.id);
    }
    if (is_truncated_sha512(f) || alg_from_bytes(L, &alg) < 0) {
      kat_skip(c, "SHA-2 variant with L = %ld bytes is not offered (SHA-256/384/512 only)", L);
      continue;
    }
    const rsp_line *sl = rsp_get_line(&w, &cs, "Seed");
    if (sl == NULL) return kat_error(c, "%s:%d: Monte case without a Seed", c->path, cs.line);
    if (sl != seed_line) {
      /* A new Seed line starts a new chain. */
      kat_bytes s;
      if (kat_hex_decode(c, sl->val, 0, &s) < 0 || s.n != (size_t)L) {
        return kat_error(c, "%s:%d: Seed must be %ld bytes of hex", c->path, sl->line, L);
      }
      memcpy(seed, s.p, s.n);
      seed_len = s.n;
      seed_line = sl;
    }
    kat_bytes md;
    if (rsp_hex(c, &w, &cs, "MD", &md) < 0) return -1;
    if (md.n != (size_t)L) return kat_error(c, "%s:%d: MD has %zu bytes", c->path, cs.line, md.n);
    uint8_t out[FM_MAX_DIGEST_LEN];
    int r = sha_mct_inner(alg, (size_t)L, seed, seed_len, 0, 0, out);
    if (r != FM_OK) {
      kat_fail(c, cs.id, "hash returned %s", fm_strerror(r));
    } else {
      kat_compare(c, cs.id, "MD", out, (size_t)L, md.p, md.n);
    }
    /* Each checkpoint seeds the next from the file's value, so one bad checkpoint is reported
     * once rather than a hundred times. */
    memcpy(seed, md.p, md.n);
    kat_arena_reset(c);
  }
  return rc;
}


/* AES-GCM's streaming context (SP 800-38D): the steps that run a message through a context,
 * shared with the one-shots of gcm.c that need one (an IV other than 96 bits, a CPU without the
 * 512-bit kernel, a text over one slice), and the streaming services of gcm.h. Same secrets as
 * gcm.c. */
#include <string.h>

#include "module/aes/gcm_state.h"

/* ---- Steps -------------------------------------------------------------------------------- */

/* Blocks per chunk of the bulk loop: CTR output and GHASH input stay in the L1 cache. */
#define GCM_CHUNK_BLOCKS 128

/* The fewest whole blocks a call hands to a stitched kernel: the 512-bit kernel takes any count
 * (its last pass runs under masks), the 256-bit one whole passes of 16. Below this the AES-NI
 * and GHASH calls are cheaper than the kernel's set-up and the stack wipe that follows it. */
#define GCM_STITCH_MIN_BLOCKS 8

/* gcm_ctx_start sets up |c| for one message under |iv| (SP 800-38D 7.1 steps 2-3, 7.2 steps
 * 3-4). */
void gcm_ctx_start(gcm_ctx_state *c, const gcm_key_state *k, const uint8_t *iv, size_t iv_len,
                   bool decrypt) {
  memset(c, 0, sizeof *c);
  c->key = k;
  if (iv_len == FM_GCM_IV_LEN) {
    /* J0 = IV || 0^31 || 1, and the first data counter inc32(J0). */
    j0_block(c->j0, iv, 1);
    j0_block(c->ctr, iv, 2);
  } else {
    /* J0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64). */
    uint64_t y[2] = {0, 0};
    const size_t full = iv_len / 16, rest = iv_len % 16;
    ghash_blocks(&k->gh, y, iv, full);
    uint8_t last[32] = {0};
    size_t nlast = 16;
    if (rest != 0) {
      memcpy(last, iv + 16 * full, rest);
      nlast = 32;
    }
    const uint64_t bits = __builtin_bswap64((uint64_t)iv_len * 8);
    memcpy(last + nlast - 8, &bits, 8);
    ghash_blocks(&k->gh, y, last, nlast / 16);
    /* J0 is a polynomial in H of the public IV: secret, like the state that made it. */
    y[0] = __builtin_bswap64(y[0]);
    y[1] = __builtin_bswap64(y[1]);
    memcpy(c->j0, &y[1], 8);
    memcpy(c->j0 + 8, &y[0], 8);
    fm_zeroize(y, sizeof y);
    gcm_stack_wipe(k, full + nlast / 16);
    /* The first data counter is inc32(J0). */
    memcpy(c->ctr, c->j0, 16);
    uint32_t w;
    memcpy(&w, c->ctr + 12, 4);
    w = __builtin_bswap32(__builtin_bswap32(w) + 1);
    memcpy(c->ctr + 12, &w, 4);
  }
  c->phase = PHASE_AAD;
  c->decrypt = decrypt;
  c->magic = GCM_CTX_MAGIC;
  c->self = (uintptr_t)c;
}

void gcm_ctx_aad(gcm_ctx_state *c, const uint8_t *aad, size_t len) {
  c->aad_len += len;
  if (c->npartial != 0) {
    const size_t take = len < 16 - c->npartial ? len : 16 - c->npartial;
    memcpy(c->partial + c->npartial, aad, take);
    c->npartial += (uint32_t)take;
    aad += take;
    len -= take;
    if (c->npartial < 16) return;
    ghash_blocks(&c->key->gh, c->y, c->partial, 1);
    c->npartial = 0;
  }
  ghash_blocks(&c->key->gh, c->y, aad, len / 16);
  aad += len - len % 16;
  memcpy(c->partial, aad, len % 16);
  c->npartial = (uint32_t)(len % 16);
  gcm_stack_wipe(c->key, len / 16);
}

/* end_aad pads the AAD's last partial block with zeros (the 0^v of 7.1 step 5). */
static void end_aad(gcm_ctx_state *c) {
  if (c->phase != PHASE_AAD) return;
  if (c->npartial != 0) {
    memset(c->partial + c->npartial, 0, 16 - c->npartial);
    ghash_blocks(&c->key->gh, c->y, c->partial, 1);
  }
  c->npartial = 0;
  c->phase = PHASE_TEXT;
}

static void ctx_text(gcm_ctx_state *c, const uint8_t *in, uint8_t *out, size_t len) {
  const gcm_key_state *k = c->key;
  end_aad(c);
  c->text_len += len;
  /* First the key stream left in the current block. */
  if (c->npartial != 0) {
    while (c->npartial < 16 && len > 0) {
      const uint8_t x = *in++;
      const uint8_t y = x ^ c->stream[c->npartial];
      c->stream[c->npartial] = 0;
      c->partial[c->npartial++] = c->decrypt ? x : y;
      *out++ = y;
      len--;
    }
    if (c->npartial < 16) {
      gcm_stack_wipe(k, 1);  /* end_aad may have run GHASH */
      return;
    }
    ghash_blocks(&k->gh, c->y, c->partial, 1);
    c->npartial = 0;
  }
  /* Whole blocks: the stitched kernel where the CPU has it, then chunk by chunk. */
  size_t blocks = len / 16;
  const size_t rest = len % 16;
  /* The partial last block's key stream is already in c->stream (the 512-bit kernel made it). */
  bool stream_ready = false;
  /* A stitched kernel ran: it spills whatever the block count (the wipe below). The 512-bit one
   * returns the lowest address it reached (|low|), the only kernel of the call then. */
  bool stitched = false;
#if FM_HAVE_X86_64_PATHS
  uintptr_t low = 0;
  if (blocks >= GCM_STITCH_MIN_BLOCKS && k->ks.impl == AES_IMPL_AESNI) {
    const int aes_path = aes_ni_path(), gh_path = ghash_key_path(&k->gh);
    size_t done = 0;
    if (aes_path == AES_PATH_VAES_AVX512 && gh_path == GHASH_PATH_VPCLMUL512) {
      /* Every block, and the partial one's key stream, in the kernel's passes. */
      low = gcm_vaes512_crypt_all(&k->ks, &k->gh, c->ctr, c->y, in, out, blocks,
                                  rest != 0 ? c->stream : NULL, c->decrypt);
      done = blocks;
      stream_ready = rest != 0;
      stitched = true;
    } else if (blocks >= 16 && aes_path == AES_PATH_VAES_AVX2 &&
               gh_path == GHASH_PATH_VPCLMUL256) {
      done = gcm_vaes256_crypt(&k->ks, &k->gh, c->ctr, c->y, in, out, blocks, c->decrypt);
      stitched = true;
    }
    in += 16 * done;
    out += 16 * done;
    blocks -= done;
  }
#endif
  while (blocks > 0) {
    const size_t n = blocks < GCM_CHUNK_BLOCKS ? blocks : GCM_CHUNK_BLOCKS;
    if (c->decrypt) {
      ghash_blocks(&k->gh, c->y, in, n);
      aes_ctr32_blocks(&k->ks, c->ctr, in, out, n);
    } else {
      aes_ctr32_blocks(&k->ks, c->ctr, in, out, n);
      ghash_blocks(&k->gh, c->y, out, n);
    }
    in += 16 * n;
    out += 16 * n;
    blocks -= n;
  }
  /* A partial last block: its key stream is kept for the next call. */
  if (rest != 0) {
    if (!stream_ready) aes_ctr32_blocks(&k->ks, c->ctr, NULL, c->stream, 1);
    for (size_t i = 0; i < rest; i++) {
      const uint8_t x = in[i];
      const uint8_t y = x ^ c->stream[i];
      c->stream[i] = 0;
      c->partial[i] = c->decrypt ? x : y;
      out[i] = y;
    }
    c->npartial = (uint32_t)rest;
  }
  /* One wipe for the whole call, after the stitched kernel, the chunks and the tail; the single
   * blocks around them (the block completed first, the partial last one) spill nothing on the
   * AES-NI paths, so they do not count. After the 512-bit kernel, down to its lowest address
   * (the blocks around it went through the 512-bit GHASH and single-block AES-NI, which spill
   * nothing: short_wipe_blocks). */
#if FM_HAVE_X86_64_PATHS
  if (low != 0 && !AES_STACK_WIPE_ALWAYS) {
    if (low != UINTPTR_MAX) aes_bulk_stack_wipe_from(low);
    return;
  }
#endif
  gcm_stack_wipe(k, stitched ? AES_STACK_WIPE_MIN_BLOCKS : len / 16);
}

/* gcm_ctx_tag computes the full tag (7.1 steps 5-6): GHASH over the padded last block and the
 * lengths, then GCTR(J0, S). */
void gcm_ctx_tag(gcm_ctx_state *c, uint8_t tag[16]) {
  const gcm_key_state *k = c->key;
  /* E(J0) first: nothing below depends on it, so its rounds overlap the GHASH. */
  aes_encrypt_block(&k->ks, c->j0, tag);
  end_aad(c);
  /* The zero-padded last block (when there is one) and the lengths block, in one GHASH call
   * (one reduction). */
  uint8_t last[32];
  size_t nlast = 0;
  if (c->npartial != 0) {
    memset(c->partial + c->npartial, 0, 16 - c->npartial);
    memcpy(last, c->partial, 16);
    nlast = 16;
  }
  const uint64_t abits = __builtin_bswap64(c->aad_len * 8);
  const uint64_t cbits = __builtin_bswap64(c->text_len * 8);
  memcpy(last + nlast, &abits, 8);
  memcpy(last + nlast + 8, &cbits, 8);
  ghash_blocks(&k->gh, c->y, last, nlast / 16 + 1);
  fm_zeroize(last, nlast + 16);
  /* S as a big-endian block, in one array that is wiped (no other local holds it, also at -O0:
   * test_gcm_residue). */
  uint64_t s[2] = {__builtin_bswap64(c->y[1]), __builtin_bswap64(c->y[0])};
  const uint8_t *sb = (const uint8_t *)s;
  for (int i = 0; i < 16; i++) tag[i] ^= sb[i];
  fm_zeroize(s, sizeof s);
  gcm_stack_wipe(k, 3);
}

/* gcm_ctx_text_sliced is ctx_text in slices of FM_SERVICE_SLICE bytes, checking between slices and
 * after the last that the call may go on (module/internal.h, "Services that overlap a self-test
 * run"). Returns false when it may not: the caller wipes every output. */
bool gcm_ctx_text_sliced(gcm_ctx_state *c, const uint8_t *in, uint8_t *out, size_t len,
                         uint64_t epoch) {
  while (len > 0) {
    const size_t n = len < FM_SERVICE_SLICE ? len : FM_SERVICE_SLICE;
    ctx_text(c, in, out, n);
    in += n;
    out += n;
    len -= n;
    if (!fm_service_may_continue(epoch)) return false;
  }
  return fm_service_may_continue(epoch);
}

/* ---- Streaming API ------------------------------------------------------------------------ */

/* check_ctx_init: the checks of the three inits. */
static int check_ctx_init(const fm_gcm_ctx *c, const fm_gcm_key *k, const uint8_t *iv,
                          size_t iv_len) {
  if (c == NULL || k == NULL || iv == NULL) return FM_ERR_BAD_ARGUMENT;
  if (!iv_len_ok(iv_len)) return FM_ERR_LENGTH;
  if (!key_usable(key_state_c(k))) return FM_ERR_STATE;
  if (fm_buffers_overlap(c, sizeof *c, k, sizeof *k) ||
      fm_buffers_overlap(iv, iv_len, c, sizeof *c)) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

/* ctx_begin starts |c| for one message under |iv| after a passed check. */
static void ctx_begin(fm_gcm_ctx *c, const gcm_key_state *k, const uint8_t *iv, size_t iv_len,
                      bool decrypt) {
  gcm_ctx_start(ctx_state(c), k, iv, iv_len, decrypt);
  gcm_clear_registers();
  if (!decrypt) ctx_state(c)->process = gcm_process_id();
}

int fm_gcm_encrypt_init(fm_gcm_ctx *c, fm_gcm_key *k, uint8_t iv[FM_GCM_IV_LEN]) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctx_init(c, k, iv, FM_GCM_IV_LEN);
  if (st == FM_OK) st = gcm_generate_iv(key_state(k), iv);
  if (st != FM_OK) return gcm_refuse(st, c, iv, iv != NULL ? FM_GCM_IV_LEN : 0, NULL, 0);
  ctx_begin(c, key_state(k), iv, FM_GCM_IV_LEN, false);
  return FM_OK;
}

int fm_gcm_encrypt_init_with_iv(fm_gcm_ctx *c, fm_gcm_key *k, const uint8_t *iv, size_t iv_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctx_init(c, k, iv, iv_len);
  uint64_t n;
  if (st == FM_OK) st = gcm_take_invocation(key_state(k), &n);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  ctx_begin(c, key_state(k), iv, iv_len, false);
  ctx_state(c)->caller_iv = 1; /* its final is not approved either */
  fm_indicator_not_approved(); /* a caller-chosen IV for encryption */
  return FM_OK;
}

int fm_gcm_decrypt_init(fm_gcm_ctx *c, const fm_gcm_key *k, const uint8_t *iv, size_t iv_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_ctx_init(c, k, iv, iv_len);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  ctx_begin(c, key_state_c(k), iv, iv_len, true);
  return FM_OK;
}

/* ctx_usable: initialized, not finished, at the address it was started at, its key still
 * usable, and (encryption) in the process that started it: a child of fork() that went on with
 * its copy would encrypt other data under the parent's IV. */
static bool ctx_usable(const gcm_ctx_state *s) {
  return s->magic == GCM_CTX_MAGIC && s->self == (uintptr_t)s &&
         (s->phase == PHASE_AAD || s->phase == PHASE_TEXT) && s->key != NULL &&
         key_usable(s->key) && s->npartial < 16 && (s->decrypt || gcm_same_process(s->process));
}

static int check_aad(fm_gcm_ctx *c, const uint8_t *aad, size_t len) {
  if (c == NULL || (aad == NULL && len != 0)) return FM_ERR_BAD_ARGUMENT;
  if (!ctx_usable(ctx_state(c)) || ctx_state(c)->phase != PHASE_AAD) return FM_ERR_STATE;
  if ((uint64_t)len > GCM_MAX_AAD_LEN - ctx_state(c)->aad_len) return FM_ERR_LENGTH;
  return FM_OK;
}

int fm_gcm_aad(fm_gcm_ctx *c, const uint8_t *aad, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_aad(c, aad, len);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  if (len != 0) {
    gcm_ctx_aad(ctx_state(c), aad, len);
    gcm_clear_registers();
  }
  return FM_OK;
}

static int check_update(fm_gcm_ctx *c, const uint8_t *in, const uint8_t *out, size_t len) {
  if (c == NULL || (len != 0 && (in == NULL || out == NULL))) return FM_ERR_BAD_ARGUMENT;
  if (!ctx_usable(ctx_state(c))) return FM_ERR_STATE;
  if (!text_len_ok(len) || (uint64_t)len > FM_GCM_MAX_TEXT_LEN - ctx_state(c)->text_len) {
    return FM_ERR_LENGTH;
  }
  if (len != 0 && (fm_buffers_bad_overlap(in, out, len) ||
                   fm_buffers_overlap(out, len, c, sizeof *c))) {
    return FM_ERR_OVERLAP;
  }
  return FM_OK;
}

int fm_gcm_update(fm_gcm_ctx *c, const uint8_t *in, uint8_t *out, size_t len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_update(c, in, out, len);
  if (st != FM_OK) {
    /* An output that overlaps the context is not wiped twice over it: the context stays. */
    const bool out_on_ctx = c != NULL && len != 0 && out != NULL &&
                            fm_buffers_overlap(out, len, c, sizeof *c);
    return gcm_refuse(st, out_on_ctx ? NULL : c, out, text_len_ok(len) ? len : 0, NULL, 0);
  }
  const bool ok = gcm_ctx_text_sliced(ctx_state(c), in, out, len, fm_service_epoch());
  gcm_clear_registers();
  /* a self-test run began during the call */
  if (!ok) return gcm_refuse(FM_ERR_NOT_OPERATIONAL, c, out, len, NULL, 0);
  return FM_OK;
}

/* check_final: the checks of both finals; |decrypt| is the direction the call finishes. */
static int check_final(const fm_gcm_ctx *c, const uint8_t *tag, size_t tag_len, bool decrypt) {
  if (c == NULL || tag == NULL) return FM_ERR_BAD_ARGUMENT;
  const gcm_ctx_state *s = (const gcm_ctx_state *)(const void *)c->opaque;
  if (!ctx_usable(s) || (bool)s->decrypt != decrypt) return FM_ERR_STATE;
  if (!tag_len_ok(tag_len)) return FM_ERR_LENGTH;
  if (!decrypt && fm_buffers_overlap(tag, tag_len, c, sizeof *c)) return FM_ERR_OVERLAP;
  return FM_OK;
}

/* ctx_finish computes the full tag of |c| into |full| and clears the registers. */
static void ctx_finish(fm_gcm_ctx *c, uint8_t full[16]) {
  gcm_ctx_tag(ctx_state(c), full);
  gcm_clear_registers();
}

int fm_gcm_encrypt_final(fm_gcm_ctx *c, uint8_t *tag, size_t tag_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_final(c, tag, tag_len, false);
  if (st != FM_OK) {
    /* A tag over the context: the context is not wiped under it. */
    return gcm_refuse(st, st == FM_ERR_OVERLAP ? NULL : c, tag, tag_wipe_len(tag, tag_len), NULL,
                      0);
  }
  uint8_t full[16];
  ctx_finish(c, full);
  memcpy(tag, full, tag_len);
  fm_zeroize(full, sizeof full);
  mark_short_tag(tag_len);
  if (ctx_state(c)->caller_iv) fm_indicator_not_approved();
  fm_zeroize(c, sizeof *c);
  return FM_OK;
}

int fm_gcm_decrypt_final(fm_gcm_ctx *c, const uint8_t *tag, size_t tag_len) {
  int st = fm_service_gate();
  if (st == FM_OK) st = check_final(c, tag, tag_len, true);
  if (st != FM_OK) return gcm_refuse(st, c, NULL, 0, NULL, 0);
  uint8_t full[16];
  ctx_finish(c, full);
  const bool ok = fm_declassify_u64((uint64_t)tag_eq(full, tag, tag_len)) != 0;
  fm_zeroize(full, sizeof full);
  mark_short_tag(tag_len);
  fm_zeroize(c, sizeof *c);
  /* A wrong tag: not approved. */
  return ok ? FM_OK : gcm_refuse(FM_ERR_VERIFY, NULL, NULL, 0, NULL, 0);
}

int fm_gcm_ctx_wipe(fm_gcm_ctx *c) {
  if (c != NULL) fm_zeroize(c, sizeof *c);
  return fm_service_gate();
}

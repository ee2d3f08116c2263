/* GHASH (SP 800-38D 6.4): the hash subkey's powers, the path dispatch and the portable,
 * constant-time multiply.
 *
 * The reflected form. SP 800-38D numbers the bits of a block from the left: bit 0 (the top bit
 * of byte 0) is the coefficient of x^0. Reading the block as a big-endian integer therefore
 * holds the polynomial bit-reversed. Carry-less multiplication commutes with reversal up to one
 * place: if X and H are the reversed forms of a and h, X (x) H is the reversed form of a (x) h,
 * shifted right by one. Put differently, in the variable y = 1/x the product of the reversed
 * forms is y^127 times the reversed form of a * h mod g, and reducing modulo g (degree 128)
 * becomes a Montgomery reduction by y^128 modulo g' = y^128 + y^127 + y^126 + y^121 + 1 (the
 * reciprocal of g = x^128 + x^7 + x^2 + x + 1). Multiplying H by y once, when the key is set
 * (H' = H * y mod g', i.e. H shifted left one bit and folded), makes Mont(X, H') = X * H' / y^128
 * exactly the reversed form of the GCM product: no per-block shift. The reduction itself takes
 * two 64-bit folds, because g' = 1 mod y^64: to clear the low 64 bits L of the product, add
 * L * g' = L + L * y^64 * (y^63 + y^62 + y^57) + L * y^128, then drop the cleared word.
 *
 * Powers. Mont(H'^i, H') = H'^(i+1) in the same sense (each power also carries one factor y),
 * so an n-block pass multiplies block j by H'^(n - j), sums the unreduced products and reduces
 * once; the fast paths (ghash_clmul.c) do that 8 or 16 blocks at a time.
 *
 * The portable multiply has no table: each 64x64 carry-less product is built from 25 integer
 * multiplies of operands whose bits are spread five apart ("holes"). Within one integer product
 * a result bit sums at most 13 partial products (13 bits per hole class in 64 bits), which fits
 * in the five bits before the next bit of the same class, so the carries never reach a bit that
 * is kept; masking each class and XORing recovers the carry-less product. x86-64 multiplies
 * take the same time whatever their operands. The idea is that of BearSSL's ghash_ctmul64
 * (four-bit holes there, on the low half only); this code spaces the holes five apart so that
 * one full 128-bit integer product per pair serves.
 *
 * The masked operands and partial products spill to clmul64's and the callers' frames (about 80
 * secret-dependent bytes after a seal on the portable GHASH path, test_gcm_residue): gcm.c wipes
 * the stack after every step on the portable path (AES_BULK_STACK_WIPE in internal.h). */
#include <string.h>

#include "module/aes/internal.h"
#include "module/internal.h"

/* ---- Portable carry-less multiplication -------------------------------------------------- */

typedef unsigned __int128 u128;

/* The hole masks: bit k set when k % 5 == class. |k_m64| for the 64-bit operands, |k_m128| (as
 * {lo, hi}) for the 128-bit products. */
static const uint64_t k_m64[5] = {0x1084210842108421ull, 0x2108421084210842ull,
                                  0x4210842108421084ull, 0x8421084210842108ull,
                                  0x0842108421084210ull};
static const uint64_t k_m128[5][2] = {
    {0x1084210842108421ull, 0x2108421084210842ull}, {0x2108421084210842ull, 0x4210842108421084ull},
    {0x4210842108421084ull, 0x8421084210842108ull}, {0x8421084210842108ull, 0x0842108421084210ull},
    {0x0842108421084210ull, 0x1084210842108421ull}};

/* clmul64 returns the 128-bit carry-less product of x and y (both secret). */
static u128 clmul64(uint64_t x, uint64_t y) {
  uint64_t xs[5], ys[5];
  for (int i = 0; i < 5; i++) {
    xs[i] = x & k_m64[i];
    ys[i] = y & k_m64[i];
  }
  u128 z = 0;
  for (int r = 0; r < 5; r++) {
    /* Class r of the product collects x_i * y_j with i + j = r (mod 5); XOR (not add) between
     * the products, so that only each product's own carries, kept within its holes, occur. */
    u128 zr = 0;
    for (int i = 0; i < 5; i++) zr ^= (u128)xs[i] * ys[(r - i + 5) % 5];
    const u128 m = ((u128)k_m128[r][1] << 64) | k_m128[r][0];
    z |= zr & m;
  }
  return z;
}

/* mont_reduce returns the Montgomery reduction of the 256-bit product t3:t2:t1:t0 (see the top
 * of the file): two folds by the low word, L * (y^63 + y^62 + y^57) computed with shifts. */
static inline void mont_reduce(uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3, uint64_t y[2]) {
  /* Fold 1: L = t0; L * y^64 * (y^63 + y^62 + y^57) lands in t1 (low half) and t2 (high half),
   * L * y^128 in t2; L itself cancels t0. */
  t1 ^= (t0 << 63) ^ (t0 << 62) ^ (t0 << 57);
  t2 ^= (t0 >> 1) ^ (t0 >> 2) ^ (t0 >> 7) ^ t0;
  /* Fold 2: the same with L = t1, one word up. */
  t2 ^= (t1 << 63) ^ (t1 << 62) ^ (t1 << 57);
  t3 ^= (t1 >> 1) ^ (t1 >> 2) ^ (t1 >> 7) ^ t1;
  y[0] = t2;
  y[1] = t3;
}

void ghash_mul_portable(uint64_t y[2], const uint64_t h[2]) {
  /* Karatsuba: three 64x64 products. */
  const u128 lo = clmul64(y[0], h[0]);
  const u128 hi = clmul64(y[1], h[1]);
  const u128 mid = clmul64(y[0] ^ y[1], h[0] ^ h[1]) ^ lo ^ hi;
  const uint64_t t0 = (uint64_t)lo;
  const uint64_t t1 = (uint64_t)(lo >> 64) ^ (uint64_t)mid;
  const uint64_t t2 = (uint64_t)hi ^ (uint64_t)(mid >> 64);
  const uint64_t t3 = (uint64_t)(hi >> 64);
  mont_reduce(t0, t1, t2, t3, y);
}

static inline uint64_t load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

/* Out of line: inlined into ghash_blocks, its frame and saved registers would be set up on every
 * call, the carry-less paths' too. */
__attribute__((noinline)) void ghash_blocks_portable(const ghash_key *gk, uint64_t y[2],
                                                     const uint8_t *in, size_t nblocks) {
  const uint64_t *h = gk->hdesc[15];
  for (size_t i = 0; i < nblocks; i++, in += 16) {
    /* SP 800-38D 6.4, step 4: Y_i = (Y_{i-1} ^ X_i) * H. */
    y[1] ^= load_be64(in);
    y[0] ^= load_be64(in + 8);
    ghash_mul_portable(y, h);
  }
}

/* ---- The key and the dispatch ------------------------------------------------------------ */

void ghash_key_init(ghash_key *gk, const uint8_t h[16]) {
  fm_zeroize(gk, sizeof *gk);
  uint64_t hi = load_be64(h), lo = load_be64(h + 8);
  /* H' = H * y mod g': shift left one bit; when the bit shifted out was set, add g' (its low 128
   * bits are 0xc2000000000000000000000000000001). A mask, not a branch: H is secret. */
  const uint64_t carry = ct_msb_mask_u64(hi);
  hi = (hi << 1) | (lo >> 63);
  lo <<= 1;
  hi ^= carry & 0xc200000000000000ull;
  lo ^= carry & 1;
  gk->hdesc[15][0] = lo;
  gk->hdesc[15][1] = hi;
  if (fm_cpu_use(FM_CPU_PCLMULQDQ)) {
    ghash_clmul_powers(gk);
    gk->npow = 16;
  } else {
    gk->npow = 1;
  }
}

#if !FM_HAVE_X86_64_PATHS
/* Without the x86-64 paths (ghash_clmul.c) there is only the portable GHASH. */
int ghash_path(void) { return GHASH_PATH_PORTABLE; }
#endif

#if defined(FIPSMOD_TEST_HOOKS)
/* Written by test code between GHASH calls only: 0 for no cap, else 1 + the widest path (in
 * .bss, like all mutable state). */
static int g_ghash_cap;
void ghash_limit_path_for_testing(int max_path) { g_ghash_cap = max_path >= 0 ? max_path + 1 : 0; }
#endif

int ghash_key_path(const ghash_key *gk) {
  int path = gk->npow == 16 ? ghash_path() : GHASH_PATH_PORTABLE;
#if defined(FIPSMOD_TEST_HOOKS)
  if (g_ghash_cap > 0 && path > g_ghash_cap - 1) path = g_ghash_cap - 1;
#endif
  return path;
}

void ghash_blocks(const ghash_key *gk, uint64_t y[2], const uint8_t *in, size_t nblocks) {
  if (nblocks == 0) return;
  switch (ghash_key_path(gk)) {
#if FM_HAVE_X86_64_PATHS
    case GHASH_PATH_VPCLMUL512: ghash_vpclmul512_blocks(gk, y, in, nblocks); break;
    case GHASH_PATH_VPCLMUL256: ghash_vpclmul256_blocks(gk, y, in, nblocks); break;
    case GHASH_PATH_CLMUL: ghash_clmul_blocks(gk, y, in, nblocks); break;
#endif
    default: ghash_blocks_portable(gk, y, in, nblocks); break;
  }
}

/* The P-256 field multiplication built for CPUs with BMI2 and no ADX: mont_mul_k of
 * ec_field_inline.h, the same CIOS kernel as the portable build, compiled with every 64x64->128
 * product taken by MULX, which writes any pair of registers and leaves the flags of the add/adc
 * chains alone (about 7% off an ECDH or a verification on P-256, measured). ec_point.c calls it
 * when fm_cpu_use(FM_CPU_BMI2) and not FM_CPU_ADX (with ADX, the assembly of ec_p256_jac_adx.c),
 * and the portable build of the same kernel otherwise (other CPUs, FIPSMOD_CPU=portable).
 * Constant time as the portable kernel: no value drives a branch or an address. */
#include "module/ec/ec_curves.h"
#include "module/ec/ec_field_inline.h"
#include "module/ec/internal.h"

static const ec_mod k_p256_p = {.m = P256_P, .rr = P256_P_RR, .one = P256_P_ONE, .n0 = P256_P_N0};

/* The P-256 product with MULX alone (CPUs with BMI2 and no ADX): mont_mul_k. */
__attribute__((target("bmi2"))) void ec_p256_mul_mulx(uint64_t *r, const uint64_t *a,
                                                      const uint64_t *b) {
  mont_mul_k(&k_p256_p, r, a, b, 4);
}

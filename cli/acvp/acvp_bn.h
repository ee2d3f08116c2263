/* acvp_rsa_private_exponent computes d = e^-1 mod lcm(p-1, q-1) for a test key given in CRT
 * form without d (ACVP signaturePrimitive 2.0 and decryptionPrimitive Sp800-56Br2 "crt" keys).
 * Needs e < 2^64 and gcd(p-1, q-1) < 2^64. Writes d (minimal big-endian) and returns 0, or -1
 * when the inputs are out of that range or inconsistent. Not constant time: public test keys. */
#ifndef FIPSMOD_CLI_ACVP_BN_H
#define FIPSMOD_CLI_ACVP_BN_H

#include <stddef.h>
#include <stdint.h>

int acvp_rsa_private_exponent(const uint8_t *e, size_t e_len, const uint8_t *p, size_t p_len,
                              const uint8_t *q, size_t q_len, uint8_t *d, size_t d_cap,
                              size_t *d_len);

#endif

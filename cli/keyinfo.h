/* What a key file holds, said in words when the module does not take it: the module answers
 * FM_ERR_UNSUPPORTED or FM_ERR_BAD_KEY for an EC key, an encrypted key or a certificate alike,
 * and the command line names which one it was. */
#ifndef FIPSMOD_CLI_KEYINFO_H
#define FIPSMOD_CLI_KEYINFO_H

#include <stddef.h>
#include <stdint.h>

/* cli_key_describe looks at the structure of the key file |in| (PEM or DER) that the module
 * refused and writes what it found to |out| ("an EC key (P-256)", "an encrypted PKCS#8 key",
 * "an RSA key with e = 3, below 65537"). Returns 1 when it found something to say, 0 when not.
 * Only the structure is read (PEM labels, DER tags and lengths, algorithm identifiers and an
 * RSA public exponent): no private value is looked at, and the decoded copy is wiped. */
int cli_key_describe(const uint8_t *in, size_t in_len, char *out, size_t out_cap);

/* cli_key_describe_for is cli_key_describe for a command that wanted |want| ("an EC key",
 * "an ML-DSA key"; NULL: any key the module takes): an algorithm other than that is described
 * with ", not <want>" after it. cli_key_describe wants "an RSA key". */
int cli_key_describe_for(const uint8_t *in, size_t in_len, const char *want, char *out,
                         size_t out_cap);

#endif

/** @file
 * RFC 9562 UUIDs: version 4 (random) and version 7 (Unix time ordered), binary and string forms.
 *
 * Binary form: 16 bytes in network order (as RFC 9562 lays them out). String form: 36 characters
 * "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", lower-case hex when produced; the functions that write
 * a string write 37 bytes (the 36 characters and a NUL).
 *
 * Version 4: 122 random bits from the calling thread's batch (rand.h). Version 7: a 48-bit Unix
 * timestamp in milliseconds, then a 16-bit counter (the 12 bits of rand_a and the top 4 bits of
 * rand_b; RFC 9562 6.2, method 1) and 58 random bits. The (timestamp, counter) pair comes from one
 * process-wide atomic, so the version 7 UUIDs of one process are strictly increasing in creation
 * order (compared as bytes or as strings), also within one millisecond and across threads; a
 * counter overflow or a clock that steps back borrows the next millisecond. The timestamp is
 * CLOCK_REALTIME's; on x86-64 CPUs with an invariant time-stamp counter a thread reads the clock
 * once a millisecond and, in between, tells from the counter (with a margin) that the millisecond
 * has not ended yet. That ordering has a price under contention: every version 7 UUID of the
 * process updates one shared word, so threads that make them at full speed side by side wait on
 * each other.
 *
 * The random bits are secret until the caller publishes the UUID. Every function is thread-safe
 * and starts with the module's state gate (FM_ERR_NOT_OPERATIONAL outside OPERATIONAL, outputs
 * wiped). On error the outputs are wiped. */
#ifndef FIPSMOD_UUID_H
#define FIPSMOD_UUID_H

#include <stddef.h>
#include <stdint.h>
#include "fipsmod/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FM_UUID_LEN 16         /**< binary form */
#define FM_UUID_STRING_LEN 36  /**< string form, without the NUL */

/** fm_uuid_v4 / fm_uuid_v7 write a new UUID in binary form. Returns FM_OK; FM_ERR_BAD_ARGUMENT
 * (NULL); FM_ERR_ENTROPY; FM_ERR_NOT_OPERATIONAL. */
FM_MUST_CHECK
FM_API int fm_uuid_v4(uint8_t out[FM_UUID_LEN]);
FM_MUST_CHECK
FM_API int fm_uuid_v7(uint8_t out[FM_UUID_LEN]);

/** fm_uuid_v4_string / fm_uuid_v7_string write a new UUID in string form (36 lower-case
 * characters and a NUL). Status codes as fm_uuid_v4. */
FM_MUST_CHECK
FM_API int fm_uuid_v4_string(char out[FM_UUID_STRING_LEN + 1]);
FM_MUST_CHECK
FM_API int fm_uuid_v7_string(char out[FM_UUID_STRING_LEN + 1]);

/** fm_uuid_format writes the string form of |uuid| (36 lower-case characters and a NUL) to |out|.
 * Any 16 bytes are accepted (no version check). Returns FM_OK or FM_ERR_BAD_ARGUMENT (NULL). */
FM_MUST_CHECK
FM_API int fm_uuid_format(const uint8_t uuid[FM_UUID_LEN], char out[FM_UUID_STRING_LEN + 1]);

/** fm_uuid_parse reads the string form from |str| (exactly |len| == 36 characters: hex digits in
 * either case, hyphens at offsets 8, 13, 18 and 23, nothing else; no braces, no "urn:uuid:"
 * prefix, no surrounding space) into |out| (NULL to validate only). Any version and variant are
 * accepted; use fm_uuid_version to check them. Returns FM_OK; FM_ERR_BAD_ARGUMENT (NULL str);
 * FM_ERR_PARSE (wrong length, a non-hex character or a misplaced hyphen). */
FM_MUST_CHECK
FM_API int fm_uuid_parse(const char *str, size_t len, uint8_t out[FM_UUID_LEN]);

/** fm_uuid_version writes the version field (0..15) of |uuid| to |*version| when the variant is
 * the RFC 9562 one (bits 10x), and returns FM_OK; FM_ERR_PARSE when the variant is another one;
 * FM_ERR_BAD_ARGUMENT (NULL). */
FM_MUST_CHECK
FM_API int fm_uuid_version(const uint8_t uuid[FM_UUID_LEN], int *version);

#ifdef __cplusplus
}
#endif
#endif

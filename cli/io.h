/* File and text helpers the subcommands share: whole-file reads ("-" is standard input),
 * writes that report failure (a full disk is an error, never a silent success), private-key
 * files, and the hash names users type. */
#ifndef FIPSMOD_CLI_IO_H
#define FIPSMOD_CLI_IO_H

#include <stddef.h>
#include <stdint.h>

#include "fipsmod/sha.h"

/* The largest file the commands read whole: a message to sign, a key, a file to encrypt. */
#define CLI_MAX_INPUT (UINT64_C(1) << 30)

/* cli_wipe_free zeroizes and frees a buffer that may hold a secret (NULL is ignored). */
void cli_wipe_free(uint8_t *p, size_t n);

/* cli_read_all reads the whole of |path| ("-": standard input) into a new buffer (free it with
 * cli_wipe_free). Returns 0, or -1 with errno set (EFBIG above CLI_MAX_INPUT). */
int cli_read_all(const char *path, uint8_t **out, size_t *out_len);

/* cli_write_all writes |n| bytes to |path| ("-" or NULL: standard output, flushed). With
 * |private_file| the file is created readable by its owner only and replaces |path| by a
 * rename, so a failed write leaves |path| as it was. Returns 0, or -1 with errno set. */
int cli_write_all(const char *path, const uint8_t *p, size_t n, int private_file);

/* cli_replace_file writes |n| bytes to a fresh temporary file beside |path| (mode |mode|
 * whatever the umask), flushes it and renames it over |path|: |path| either keeps its old
 * contents or holds all |n| bytes. Returns 0, or -1 with errno set. */
int cli_replace_file(const char *path, const uint8_t *p, size_t n, unsigned mode);

/* cli_stdout_done flushes standard output and, when anything written to it was lost (a full
 * disk, a closed pipe), says so for |cmd| on stderr. Returns |rc| when all was written, else
 * CLI_EXIT_USAGE (2: an unwritable output). */
int cli_stdout_done(const char *cmd, int rc);

/* The line of usage texts that names the hashes. */
#define CLI_HASH_LINE "  H is sha256, sha384 or sha512 (or SHA256, sha-256, SHA2-256, ...).\n"

/* cli_hash_from_name sets |*alg| and |*digest_len| for the hash a user names: sha256, SHA256,
 * sha-256 and SHA2-256 alike (any case), for SHA-224/256/384/512, SHA-512/224, SHA-512/256 and
 * SHA3-224..512. Returns 0 when the module offers it, -1 when the name is unknown or the module
 * does not offer it (FM_ERR_UNSUPPORTED; the caller says "unsupported hash NAME"). */
int cli_hash_from_name(const char *name, fm_hash_alg *alg, size_t *digest_len);

/* cli_hash_name is the name messages use for |alg| ("sha256", "sha512-224"). */
const char *cli_hash_name(fm_hash_alg alg);

/* cli_hash_list names every hash the module offers, for messages: "sha256, sha384, sha512". */
const char *cli_hash_list(void);

/* cli_hex_encode writes 2n lower-case hex digits of |in| to |text| (no terminator). */
void cli_hex_encode(const uint8_t *in, size_t n, char *text);

/* cli_base64_encode writes the RFC 4648 base64 of |in| (padded) to |text| and returns its length,
 * 4 * ceil(n / 3) characters (no terminator). */
size_t cli_base64_encode(const uint8_t *in, size_t n, char *text);

/* cli_hex_decode decodes |len| hex digits (either case) into |out| (len / 2 bytes). Returns 0, or
 * -1 for an odd length or a non-hex character. */
int cli_hex_decode(const char *text, size_t len, uint8_t *out);

/* cli_base64_decode decodes RFC 4648 base64 (padding required, line breaks and spaces ignored)
 * into |out| (room for 3 * len / 4 bytes) and sets |*out_len|. Returns 0, or -1 when it is not
 * base64. */
int cli_base64_decode(const char *text, size_t len, uint8_t *out, size_t *out_len);

/* cli_text_decode reads |len| bytes of |text| as hex or base64 (white space around it and,
 * for base64, between lines is ignored) into a new buffer (free with cli_wipe_free). Returns 0,
 * or -1 when it is neither. Hex is tried first: a text that is both (only hex digits, a
 * multiple of 4 long) is read as hex. */
int cli_text_decode(const uint8_t *text, size_t len, uint8_t **out, size_t *out_len);

#endif

/* `fipsmod enc -e|-d --gcm --key FILE [--aad FILE] [--counter-iv FIXEDHEX] IN OUT`: AES-GCM over
 * a whole file, in a framed format that carries what decryption needs and refuses anything cut
 * short or lengthened.
 *
 * The format (all integers big-endian):
 *   offset  0  4 bytes  magic "FMGC"
 *           4  1 byte   format version, 1
 *           5  1 byte   IV length, 12
 *           6  1 byte   tag length, 16
 *           7  1 byte   0 (reserved)
 *           8  8 bytes  plaintext length L
 *          16 12 bytes  IV (made by the module: from its DRBG, or a counter IV)
 *          28  L bytes  ciphertext
 *      28 + L 16 bytes  tag
 * and the file ends there. The tag covers the ciphertext and, as additional data, the whole
 * 28-byte header followed by the contents of --aad FILE (not stored: the reader gives it
 * again). A file whose size is not 44 + L, or whose header or tag was changed, is refused.
 * Decryption writes OUT only when the tag verifies: the plaintext goes to a temporary file
 * beside OUT (mode 0600) that is renamed over it, so a refused file leaves OUT as it was. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/io.h"
#include "cli/options.h"
#include "fipsmod/fipsmod.h"

#define ENC_MAGIC "FMGC"
#define ENC_VERSION 1
#define ENC_HEADER_LEN 28
#define ENC_LEN_AT 8
#define ENC_IV_AT 16

_Static_assert(ENC_IV_AT + FM_GCM_IV_LEN == ENC_HEADER_LEN, "the IV ends the header");

static const char k_enc_usage[] =
    "usage: fipsmod enc -e|-d --gcm --key FILE [--aad FILE] [--counter-iv FIXEDHEX] IN OUT\n"
    "  Encrypts (-e) or decrypts (-d) IN (\"-\": standard input) to OUT (\"-\": standard output)\n"
    "  with AES-GCM under the raw 16-, 24- or 32-byte key in FILE (fipsmod rand 32 --out FILE\n"
    "  makes one). The module makes the 96-bit IV: from its DRBG, or with --counter-iv a 4-byte\n"
    "  fixed field (8 hex digits) and the key's invocation counter (SP 800-38D 8.2).\n"
    "  The output of -e is one frame: \"FMGC\", version 1, IV length 12, tag length 16, a zero\n"
    "  byte, the plaintext length (8 bytes, big-endian), the IV, the ciphertext and the tag.\n"
    "  The tag covers the 28-byte header and the contents of --aad FILE (give the same file to\n"
    "  -d). -d refuses a frame cut short, with trailing bytes, or changed, and writes OUT only\n"
    "  when the tag verifies (a file is replaced by a rename: never left half written).\n"
    "  Files up to 1 GiB.\n" CLI_EXIT_TEXT;

static void put_be64(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

static uint64_t get_be64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}

/* write_out writes |n| bytes to |path|: standard output for "-", else a file replaced whole by
 * a rename (mode 0600 for a plaintext). */
static int write_out(const char *path, const uint8_t *p, size_t n, unsigned mode) {
  if (strcmp(path, "-") == 0) return cli_write_all(NULL, p, n, 0);
  return cli_replace_file(path, p, n, mode);
}

static int encrypt(fm_gcm_key *k, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                   size_t in_len, const char *out_path) {
  const size_t frame_len = ENC_HEADER_LEN + in_len + FM_GCM_TAG_LEN;
  uint8_t *frame = malloc(frame_len);
  if (frame == NULL) {
    fprintf(stderr, "fipsmod enc: out of memory\n");
    return CLI_EXIT_FAILED;
  }
  memcpy(frame, ENC_MAGIC, 4);
  frame[4] = ENC_VERSION;
  frame[5] = FM_GCM_IV_LEN;
  frame[6] = FM_GCM_TAG_LEN;
  frame[7] = 0;
  put_be64(frame + ENC_LEN_AT, in_len);
  /* Streaming, so that the IV the module makes is in the header the tag covers. */
  fm_gcm_ctx c;
  int st = fm_gcm_encrypt_init(&c, k, frame + ENC_IV_AT);
  if (st == FM_OK) st = fm_gcm_aad(&c, frame, ENC_HEADER_LEN);
  if (st == FM_OK) st = fm_gcm_aad(&c, aad, aad_len);
  if (st == FM_OK) st = fm_gcm_update(&c, in, frame + ENC_HEADER_LEN, in_len);
  if (st == FM_OK) st = fm_gcm_encrypt_final(&c, frame + ENC_HEADER_LEN + in_len, FM_GCM_TAG_LEN);
  (void)fm_gcm_ctx_wipe(&c);
  int rc = CLI_EXIT_OK;
  if (st != FM_OK) {
    cli_report_status("enc", st);
    rc = CLI_EXIT_FAILED;
  } else if (write_out(out_path, frame, frame_len, 0644) != 0) {
    fprintf(stderr, "fipsmod enc: cannot write %s: %s\n",
            strcmp(out_path, "-") ? out_path : "standard output", strerror(errno ? errno : EIO));
    rc = CLI_EXIT_USAGE;
  }
  free(frame);
  return rc;
}

static int decrypt(const fm_gcm_key *k, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                   size_t in_len, const char *in_path, const char *out_path) {
  if (in_len == 0 || memcmp(in, ENC_MAGIC, in_len < 4 ? in_len : 4) != 0) {
    fprintf(stderr, "fipsmod enc: %s is not an encrypted file (no \"" ENC_MAGIC "\" header)\n",
            in_path);
    return CLI_EXIT_FAILED;
  }
  if (in_len < ENC_HEADER_LEN) {
    fprintf(stderr, "fipsmod enc: %s is truncated: %zu bytes, less than the %d-byte header\n",
            in_path, in_len, ENC_HEADER_LEN);
    return CLI_EXIT_FAILED;
  }
  if (in[4] != ENC_VERSION || in[5] != FM_GCM_IV_LEN || in[6] != FM_GCM_TAG_LEN || in[7] != 0) {
    fprintf(stderr, "fipsmod enc: %s: unsupported format (version %u, IV %u, tag %u bytes)\n",
            in_path, in[4], in[5], in[6]);
    return CLI_EXIT_FAILED;
  }
  const uint64_t len = get_be64(in + ENC_LEN_AT);
  const uint64_t body = in_len - ENC_HEADER_LEN;
  if (body < FM_GCM_TAG_LEN || len > body - FM_GCM_TAG_LEN) {
    fprintf(stderr,
            "fipsmod enc: %s is truncated: the header says %llu bytes of ciphertext and "
            "a tag, the file holds %llu after the header\n",
            in_path, (unsigned long long)len, (unsigned long long)body);
    return CLI_EXIT_FAILED;
  }
  if (len < body - FM_GCM_TAG_LEN) {
    fprintf(stderr, "fipsmod enc: %s has %llu bytes after the tag\n", in_path,
            (unsigned long long)(body - FM_GCM_TAG_LEN - len));
    return CLI_EXIT_FAILED;
  }
  uint8_t *aad_all = malloc(ENC_HEADER_LEN + aad_len);
  uint8_t *pt = malloc(len > 0 ? (size_t)len : 1);
  if (aad_all == NULL || pt == NULL) {
    free(aad_all);
    free(pt);
    fprintf(stderr, "fipsmod enc: out of memory\n");
    return CLI_EXIT_FAILED;
  }
  memcpy(aad_all, in, ENC_HEADER_LEN);
  if (aad_len > 0) memcpy(aad_all + ENC_HEADER_LEN, aad, aad_len);
  const int st =
      fm_gcm_open(k, in + ENC_IV_AT, FM_GCM_IV_LEN, aad_all, ENC_HEADER_LEN + aad_len,
                  in + ENC_HEADER_LEN, (size_t)len, in + ENC_HEADER_LEN + len, FM_GCM_TAG_LEN, pt);
  free(aad_all);
  int rc = CLI_EXIT_OK;
  if (st == FM_ERR_VERIFY) {
    fprintf(stderr,
            "fipsmod enc: %s does not verify (a wrong key or AAD, or a changed file): "
            "nothing written\n",
            in_path);
    rc = CLI_EXIT_FAILED;
  } else if (st != FM_OK) {
    cli_report_status("enc", st);
    rc = CLI_EXIT_FAILED;
  } else if (write_out(out_path, pt, (size_t)len, 0600) != 0) {
    fprintf(stderr, "fipsmod enc: cannot write %s: %s\n",
            strcmp(out_path, "-") ? out_path : "standard output", strerror(errno ? errno : EIO));
    rc = CLI_EXIT_USAGE;
  }
  cli_wipe_free(pt, (size_t)len);
  return rc;
}

int cmd_enc(int argc, char **argv) {
  if (cli_wants_help(argc, argv)) return cli_print_help(k_enc_usage);
  static const char *const valued[] = {"key", "aad", "counter-iv", NULL};
  const char *key_path = NULL, *aad_path = NULL, *fixed_hex = NULL, *in_path = NULL,
             *out_path = NULL;
  int enc = 0, dec = 0, gcm = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-e") == 0 || cli_opt_is(argv[i], "encrypt")) {
      enc = 1;
    } else if (strcmp(argv[i], "-d") == 0 || cli_opt_is(argv[i], "decrypt")) {
      dec = 1;
    } else if (cli_opt_is(argv[i], "gcm")) {
      gcm = 1;
    } else if (cli_opt_is(argv[i], "key") && i + 1 < argc) {
      key_path = argv[++i];
    } else if (cli_opt_is(argv[i], "aad") && i + 1 < argc) {
      aad_path = argv[++i];
    } else if (cli_opt_is(argv[i], "counter-iv") && i + 1 < argc) {
      fixed_hex = argv[++i];
    } else if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
      if (in_path == NULL) {
        in_path = argv[i];
      } else if (out_path == NULL) {
        out_path = argv[i];
      } else {
        return cli_bad_arg("enc", k_enc_usage, argv[i], valued);
      }
    } else {
      return cli_bad_arg("enc", k_enc_usage, argv[i], valued);
    }
  }
  if (enc == dec) return cli_bad_usage("enc", k_enc_usage, "give one of -e and -d");
  if (!gcm) return cli_bad_usage("enc", k_enc_usage, "--gcm is required (the only mode)");
  if (key_path == NULL) return cli_bad_usage("enc", k_enc_usage, "--key FILE is required");
  if (in_path == NULL || out_path == NULL)
    return cli_bad_usage("enc", k_enc_usage, "give IN and OUT (\"-\" for standard streams)");
  uint8_t fixed[FM_GCM_FIXED_LEN];
  if (fixed_hex != NULL && (dec || strlen(fixed_hex) != 2 * FM_GCM_FIXED_LEN ||
                            cli_hex_decode(fixed_hex, strlen(fixed_hex), fixed) != 0))
    return cli_bad_usage("enc", k_enc_usage,
                         dec ? "--counter-iv is for -e" : "--counter-iv takes 8 hex digits");
  if (strcmp(in_path, "-") == 0 && strcmp(key_path, "-") == 0)
    return cli_bad_usage("enc", k_enc_usage, "IN and --key cannot both be standard input");

  uint8_t *key = NULL, *aad = NULL, *in = NULL;
  size_t key_len = 0, aad_len = 0, in_len = 0;
  int rc = CLI_EXIT_USAGE;
  const char *unreadable = NULL;
  if (cli_read_all(key_path, &key, &key_len) != 0) {
    unreadable = key_path;
  } else if (aad_path != NULL && cli_read_all(aad_path, &aad, &aad_len) != 0) {
    unreadable = aad_path;
  } else if (cli_read_all(in_path, &in, &in_len) != 0) {
    unreadable = in_path;
  }
  if (unreadable != NULL) {
    fprintf(stderr, "fipsmod enc: cannot read %s: %s\n", unreadable, strerror(errno));
    goto done;
  }
  if (key_len != 16 && key_len != 24 && key_len != 32) {
    fprintf(stderr, "fipsmod enc: %s holds %zu bytes: an AES-GCM key is 16, 24 or 32 raw bytes\n",
            key_path, key_len);
    goto done;
  }
  fm_gcm_key k;
  int st = fixed_hex != NULL ? fm_gcm_key_init_counter_iv(&k, key, key_len, fixed)
                             : fm_gcm_key_init(&k, key, key_len);
  if (st != FM_OK) {
    cli_report_status("enc", st);
    rc = CLI_EXIT_FAILED;
    goto done;
  }
  rc = enc ? encrypt(&k, aad, aad_len, in, in_len, out_path)
           : decrypt(&k, aad, aad_len, in, in_len, in_path, out_path);
  (void)fm_gcm_key_wipe(&k);
done:
  cli_wipe_free(key, key_len);
  cli_wipe_free(aad, aad_len);
  cli_wipe_free(in, in_len);
  return rc;
}

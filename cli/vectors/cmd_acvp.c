/* `fipsmod acvp PROMPT.json [-o RESPONSE.json]`: answers an ACVP vector set through the public
 * API and writes the response of the ACVP specification. Exit status: 0 when every offered test
 * was answered, 1 when a test failed or nothing was offered, 2 on a malformed or unreadable
 * file or a usage error. What was left out, and why, goes to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/vectors/internal.h"
#include "cli/commands.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: fipsmod acvp PROMPT.json [-o RESPONSE.json]\n"
          "Answers an ACVP vector set (a JSON object, or the server's [{\"acvVersion\": ...},\n"
          "{...}] array) and writes the response ([{\"acvVersion\"}, {vsId, algorithm, mode,\n"
          "revision, testGroups}]) to RESPONSE.json or stdout. Tests the module does not offer\n"
          "are left out and listed on stderr.\n"
          "Algorithms: SHA2-224/256/384/512, SHA2-512/224, SHA2-512/256, SHA3-224/256/384/512,\n"
          "SHAKE-128/256, HMAC-<each SHA-2/SHA-3 hash>, ACVP-AES-ECB/CBC/CTR/GCM,\n"
          "ctrDRBG, RSA, KDA HKDF (Sp800-56Cr1, Sp800-56Cr2), KDF (SP 800-108 counter mode),\n"
          "PBKDF, ECDSA, DetECDSA, KAS-ECC-SSC, KAS-ECC CDH-Component.\n"
          "  -o, --output FILE  write the response to FILE\n"
          "  -h, --help         this text\n"
          "Exit status: 0 every offered test answered; 1 a test failed or none was offered;\n"
          "2 a malformed or unreadable file, or a usage error.\n");
}

int cmd_acvp(int argc, char **argv) {
  const char *in = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "fipsmod acvp: %s needs a file name\n", argv[i]);
        return 2;
      }
      out = argv[++i];
    } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "fipsmod acvp: unknown option %s\n", argv[i]);
      usage(stderr);
      return 2;
    } else if (in == NULL) {
      in = argv[i];
    } else {
      fprintf(stderr, "fipsmod acvp: one vector set at a time\n");
      return 2;
    }
  }
  if (in == NULL) {
    usage(stderr);
    return 2;
  }
  kat_report *r = calloc(1, sizeof(*r));
  if (r == NULL) {
    fprintf(stderr, "fipsmod acvp: out of memory\n");
    return 2;
  }
  snprintf(r->path, sizeof(r->path), "%s", in);
  kat_options opt = {.large = 1};
  kat_ctx c = {.report = r, .opt = &opt, .path = in, .run_ldt = 1};
  json_error_t err;
  json_t *root = json_load_file(in, JSON_DECODE_ANY, &err), *resp = NULL;
  json_t *body = root ? acvp_body(root) : NULL;
  int status = 0;
  if (root == NULL && err.line < 0) {
    kat_error(&c, "%s: cannot open or read (%s)", in, err.text);
  } else if (root == NULL) {
    kat_error(&c, "%s:%d:%d: malformed JSON: %s", in, err.line, err.column, err.text);
  } else if (body == NULL) {
    kat_error(&c, "%s: not an ACVP vector set (no object with \"algorithm\")", in);
  } else {
    acvp_respond(&c, body, &resp);
  }
  kat_arena_reset(&c);
  free(c.arena);
  if (r->error || resp == NULL) {
    fprintf(stderr, "fipsmod acvp: MALFORMED: %s\n", r->error ? r->errmsg : "no response");
    status = 2;
  } else {
    /* The response envelope: the protocol version the prompt gave, else 1.0. */
    const char *ver = "1.0";
    json_t *first = json_is_array(root) ? json_array_get(root, 0) : NULL;
    json_t *v = first ? json_object_get(first, "acvVersion") : NULL;
    if (json_is_string(v)) ver = json_string_value(v);
    json_t *doc = json_array();
    json_t *head = json_object();
    json_object_set_new(head, "acvVersion", json_string(ver));
    json_array_append_new(doc, head);
    json_array_append(doc, resp);
    int wrc = out ? json_dump_file(doc, out, JSON_INDENT(2))
                  : json_dumpf(doc, stdout, JSON_INDENT(2));
    if (!out && wrc == 0) wrc = fputc('\n', stdout) == EOF ? -1 : fflush(stdout);
    json_decref(doc);
    if (wrc != 0) {
      fprintf(stderr, "fipsmod acvp: cannot write %s\n", out ? out : "the response");
      status = 2;
    }
  }
  if (status != 2) {
    fprintf(stderr, "%s: %s: %ld tests answered, %ld failed, %ld left out\n", in, r->kind,
            c.answered, r->fail, r->skip);
    for (int i = 0; i < r->n_skip_reasons; i++) {
      fprintf(stderr, "  left out %ld: %s\n", r->skips[i].count, r->skips[i].reason);
    }
    if (r->skips_unlisted) fprintf(stderr, "  left out %ld for other reasons\n", r->skips_unlisted);
    for (int i = 0; i < r->n_failures; i++) {
      fprintf(stderr, "  FAIL %s: %s\n", r->failures[i].id, r->failures[i].msg);
    }
    if (r->fail > r->n_failures) {
      fprintf(stderr, "  ... and %ld more failures\n", r->fail - r->n_failures);
    }
    if (r->fail > 0) {
      status = 1;
    } else if (c.answered == 0) {
      fprintf(stderr, "  NOTHING TESTED: the set has no test the module offers\n");
      status = 1;
    }
  }
  json_decref(resp);
  json_decref(root);
  free(r);
  return status;
}

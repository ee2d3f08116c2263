/* `fipsmod kat`: runs vector files and prints per-file counts, the first mismatches with their
 * case ids, and optionally JSON. Exit status: 0 all passed (and every --expect-* held), 1 a case
 * failed or an expectation did not hold, 2 a file was malformed/unreadable or a usage error. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/vectors/kat.h"

static void usage(FILE *out) {
  fprintf(out,
          "usage: fipsmod kat [--json] [--large] [--expect-pass N] [--expect-fail N]\n"
          "                   [--expect-skip N] FILE|DIR [EXPECTED.json] ...\n"
          "Runs CAVP (.rsp/.txt/.fax), ACVP (JSON vector sets, internalProjection or\n"
          "prompt.json + expectedResults.json, the second file after the first or beside it)\n"
          "and Wycheproof (JSON) known-answer files for SHA-2, HMAC, AES (ECB, CBC, CTR, GCM),\n"
          "CTR_DRBG, RSA, HKDF, KBKDF, PBKDF2, ECDSA and ECDH (KAS-ECC), and the NIST\n"
          "toolkit's AES-GCM worked examples (AES_GCM.txt), recognised by their content.\n"
          "A DIR is walked recursively in name order: its .rsp, .txt, .fax and .json files\n"
          "are run (in an ACVP set's folder, internalProjection.json, else prompt.json with\n"
          "the expectedResults.json beside it).\n"
          "  --json           machine-readable report on stdout\n"
          "  --large          also run ACVP large-data tests (gigabytes of hashing)\n"
          "  --expect-X N     exit 1 unless the total of passed/failed/skipped cases is N\n"
          "  -h, --help       this text\n"
          "Exit status: 0 every case run passed and every --expect-* held; 1 a case failed,\n"
          "an expectation did not hold, or a file had nothing tested (no groups, or every\n"
          "case skipped); 2 a file was malformed or unreadable, or a usage error.\n");
}

static int parse_count(const char *s, long *out) {
  char *end;
  if (s == NULL || *s == '\0') return -1;
  long v = strtol(s, &end, 10);
  if (*end != '\0' || v < 0) return -1;
  *out = v;
  return 0;
}

static void print_text(const kat_report *r) {
  printf("%s: %s: %ld passed, %ld failed, %ld skipped%s\n", r->path,
         r->kind[0] ? r->kind : "unrecognised", r->pass, r->fail, r->skip,
         r->error ? " (MALFORMED)" : "");
  for (int i = 0; i < r->n_skip_reasons; i++) {
    printf("  skipped %ld: %s\n", r->skips[i].count, r->skips[i].reason);
  }
  if (r->skips_unlisted) printf("  skipped %ld for other reasons\n", r->skips_unlisted);
  if (r->ignored_lines) {
    printf("  note: ignored %ld line%s without `=` (first at line %d)\n", r->ignored_lines,
           r->ignored_lines == 1 ? "" : "s", r->first_ignored_line);
  }
  for (int i = 0; i < r->n_failures; i++) {
    printf("  FAIL %s: %s\n", r->failures[i].id, r->failures[i].msg);
  }
  if (r->fail > r->n_failures) printf("  ... and %ld more failures\n", r->fail - r->n_failures);
  if (r->error) printf("  ERROR: %s\n", r->errmsg);
  if (r->nothing_tested) printf("  NOTHING TESTED: no case of this file was run\n");
}

static json_t *report_json(const kat_report *r) {
  json_t *o = json_object();
  json_object_set_new(o, "file", json_string(r->path));
  json_object_set_new(o, "kind", json_string(r->kind));
  json_object_set_new(o, "pass", json_integer(r->pass));
  json_object_set_new(o, "fail", json_integer(r->fail));
  json_object_set_new(o, "skip", json_integer(r->skip));
  json_object_set_new(o, "error", r->error ? json_string(r->errmsg) : json_null());
  json_object_set_new(o, "ignored_lines", json_integer(r->ignored_lines));
  json_object_set_new(o, "nothing_tested", json_boolean(r->nothing_tested));
  json_t *fails = json_array();
  for (int i = 0; i < r->n_failures; i++) {
    json_t *f = json_object();
    json_object_set_new(f, "id", json_string(r->failures[i].id));
    json_object_set_new(f, "message", json_string(r->failures[i].msg));
    json_array_append_new(fails, f);
  }
  json_object_set_new(o, "failures", fails);
  json_t *skips = json_array();
  for (int i = 0; i < r->n_skip_reasons; i++) {
    json_t *s = json_object();
    json_object_set_new(s, "reason", json_string(r->skips[i].reason));
    json_object_set_new(s, "count", json_integer(r->skips[i].count));
    json_array_append_new(skips, s);
  }
  json_object_set_new(o, "skipped", skips);
  return o;
}

/* ---- directories ----------------------------------------------------------------------- */

typedef struct path_list {
  char **v;
  size_t n, cap;
  unsigned char *walked; /* walked[i]: v[i] was found in a directory (never paired) */
} path_list;

static int list_add(path_list *l, const char *dir, const char *name) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    char **v = realloc(l->v, cap * sizeof(*v));
    if (v == NULL) return -1;
    l->v = v;
    unsigned char *w = realloc(l->walked, cap);
    if (w == NULL) return -1;
    l->walked = w;
    l->cap = cap;
  }
  l->walked[l->n] = dir[0] != '\0';
  size_t len = strlen(dir) + strlen(name) + 2;
  char *p = malloc(len);
  if (p == NULL) return -1;
  snprintf(p, len, "%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "", name);
  l->v[l->n++] = p;
  return 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_ext(const char *name, const char *ext) {
  size_t n = strlen(name), e = strlen(ext);
  return n > e && strcmp(name + n - e, ext) == 0;
}

/* walk_dir appends the vector files under |dir| (recursively, sorted by name) to |out|. In a
 * folder that holds an ACVP set, only the file that runs the set is taken: internalProjection
 * .json, else prompt.json (which finds its expectedResults.json itself). Returns 0, or -1 when
 * a directory cannot be read or memory runs out (reported on stderr). */
static int walk_dir(const char *dir, path_list *out, int depth) {
  if (depth > 32) {
    fprintf(stderr, "fipsmod kat: %s: directories nested too deep\n", dir);
    return -1;
  }
  DIR *d = opendir(dir);
  if (d == NULL) {
    fprintf(stderr, "fipsmod kat: cannot read directory %s\n", dir);
    return -1;
  }
  path_list names = {0};
  struct dirent *e;
  int rc = 0;
  while (rc == 0 && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ., .. and hidden files */
    rc = list_add(&names, "", e->d_name);
  }
  closedir(d);
  if (names.n) qsort(names.v, names.n, sizeof(*names.v), cmp_str);
  int has_ip = 0, has_prompt = 0;
  for (size_t i = 0; i < names.n; i++) {
    has_ip |= strcmp(names.v[i], "internalProjection.json") == 0;
    has_prompt |= strcmp(names.v[i], "prompt.json") == 0;
  }
  for (size_t i = 0; rc == 0 && i < names.n; i++) {
    const char *nm = names.v[i];
    path_list one = {0};
    if (list_add(&one, dir, nm) < 0) {
      rc = -1;
      break;
    }
    struct stat st;
    if (stat(one.v[0], &st) == 0 && S_ISDIR(st.st_mode)) {
      rc = walk_dir(one.v[0], out, depth + 1);
    } else if (has_ext(nm, ".rsp") || has_ext(nm, ".txt") || has_ext(nm, ".fax") ||
               has_ext(nm, ".json")) {
      int acvp_part = strcmp(nm, "prompt.json") == 0 || strcmp(nm, "expectedResults.json") == 0 ||
                      strcmp(nm, "internalProjection.json") == 0;
      int take = !acvp_part || (has_ip ? strcmp(nm, "internalProjection.json") == 0
                                       : has_prompt ? strcmp(nm, "prompt.json") == 0 : 1);
      if (take) rc = list_add(out, dir, nm);
    }
    free(one.v[0]);
    free(one.v);
    free(one.walked);
  }
  for (size_t i = 0; i < names.n; i++) free(names.v[i]);
  free(names.v);
  free(names.walked);
  return rc;
}

int cmd_kat(int argc, char **argv) {
  int as_json = 0;
  kat_options opt = {0};
  long expect[3] = {-1, -1, -1}; /* pass, fail, skip */
  int first_file = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      first_file = i + 1;
      break;
    } else if (strcmp(a, "--json") == 0) {
      as_json = 1;
    } else if (strcmp(a, "--large") == 0) {
      opt.large = 1;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--expect-pass") == 0 || strcmp(a, "--expect-fail") == 0 ||
               strcmp(a, "--expect-skip") == 0) {
      int k = a[9] == 'p' ? 0 : a[9] == 'f' ? 1 : 2;
      if (i + 1 >= argc || parse_count(argv[i + 1], &expect[k]) < 0) {
        fprintf(stderr, "fipsmod kat: %s needs a count\n", a);
        return 2;
      }
      i++;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "fipsmod kat: unknown option %s\n", a);
      usage(stderr);
      return 2;
    } else {
      first_file = i;
      break;
    }
  }
  if (first_file < 0 || first_file >= argc) {
    fprintf(stderr, "fipsmod kat: no vector file given\n");
    usage(stderr);
    return 2;
  }
  /* The files to run: each argument, a directory replaced by the vector files under it. */
  path_list todo = {0};
  for (int i = first_file; i < argc; i++) {
    struct stat st;
    int rc = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) ? walk_dir(argv[i], &todo, 0)
                                                              : list_add(&todo, "", argv[i]);
    if (rc < 0) {
      fprintf(stderr, "fipsmod kat: cannot list %s\n", argv[i]);
      for (size_t k = 0; k < todo.n; k++) free(todo.v[k]);
      free(todo.v);
      free(todo.walked);
      return 2;
    }
  }
  kat_report *r = malloc(sizeof(*r));
  if (r == NULL) {
    fprintf(stderr, "fipsmod kat: out of memory\n");
    for (size_t k = 0; k < todo.n; k++) free(todo.v[k]);
    free(todo.v);
    free(todo.walked);
    return 2;
  }
  long total[3] = {0, 0, 0};
  int errors = 0;
  json_t *files = as_json ? json_array() : NULL;
  int untested = 0;
  for (size_t i = 0; i < todo.n; i++) {
    /* A prompt followed by its expectedResults file is one run. */
    /* Only files named on the command line pair up; one found in a directory that is a
     * prompt.json finds its expectedResults.json beside it by itself. */
    if (i + 1 < todo.n && !todo.walked[i] && !todo.walked[i + 1] &&
        kat_is_answer_file_for(todo.v[i], todo.v[i + 1])) {
      kat_run_pair(todo.v[i], todo.v[i + 1], &opt, r);
      i++;
    } else {
      kat_run_file(todo.v[i], &opt, r);
    }
    /* A file in which nothing was tested (no groups, or every case skipped) is not a pass. */
    r->nothing_tested = !r->error && r->pass == 0 && r->fail == 0;
    untested += r->nothing_tested;
    total[0] += r->pass;
    total[1] += r->fail;
    total[2] += r->skip;
    errors += r->error;
    if (as_json) {
      json_array_append_new(files, report_json(r));
    } else {
      print_text(r);
      fflush(stdout);
    }
  }
  free(r);
  if (todo.n == 0) {
    fprintf(stderr, "fipsmod kat: no vector file found\n");
    untested++;
  }
  for (size_t k = 0; k < todo.n; k++) free(todo.v[k]);
  free(todo.v);
  free(todo.walked);

  static const char *const names[3] = {"passed", "failed", "skipped"};
  char unmet[3][96];
  int n_unmet = 0;
  for (int k = 0; k < 3; k++) {
    if (expect[k] >= 0 && expect[k] != total[k]) {
      snprintf(unmet[n_unmet++], sizeof(unmet[0]), "%ld %s, expected %ld", total[k], names[k],
               expect[k]);
    }
  }
  int status = errors ? 2 : (total[1] > 0 || n_unmet > 0 || untested > 0) ? 1 : 0;
  if (as_json) {
    json_t *o = json_object();
    json_object_set_new(o, "files", files);
    json_object_set_new(o, "pass", json_integer(total[0]));
    json_object_set_new(o, "fail", json_integer(total[1]));
    json_object_set_new(o, "skip", json_integer(total[2]));
    json_object_set_new(o, "malformed_files", json_integer(errors));
    json_object_set_new(o, "untested_files", json_integer(untested));
    json_t *ex = json_array();
    for (int k = 0; k < n_unmet; k++) json_array_append_new(ex, json_string(unmet[k]));
    json_object_set_new(o, "unmet_expectations", ex);
    json_object_set_new(o, "ok", json_boolean(status == 0));
    json_dumpf(o, stdout, JSON_INDENT(2));
    fputc('\n', stdout);
    json_decref(o);
  } else {
    printf("total: %ld passed, %ld failed, %ld skipped, %d malformed file%s%s\n", total[0],
           total[1], total[2], errors, errors == 1 ? "" : "s",
           untested ? ", files with nothing tested" : "");
    for (int k = 0; k < n_unmet; k++) printf("EXPECTATION NOT MET: %s\n", unmet[k]);
  }
  /* A report lost to a full disk or a closed pipe is an unwritable output, not a pass. */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "fipsmod kat: cannot write standard output: %s\n",
            strerror(errno ? errno : EIO));
    return 2;
  }
  return status;
}

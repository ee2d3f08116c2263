/* Splits an ACVP internalProjection.json into the server's prompt.json / expectedResults.json
 * pair (each wrapped as [{"acvVersion": ...}, {vector set}]), moving the named answer fields of
 * every test into expectedResults, so that the KAT runner's pairing of the two files is tested
 * on real vector sets. Usage: acvp_split <internalProjection.json> <out dir> <field>... */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

static int dump(json_t *set, const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  json_t *wrap = json_pack("[{s:s}, O]", "acvVersion", "1.0", set);
  int rc = json_dump_file(wrap, path, JSON_INDENT(1));
  json_decref(wrap);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: acvp_split <internalProjection.json> <out dir> <field>...\n");
    return 2;
  }
  json_error_t err;
  json_t *prompt = json_load_file(argv[1], 0, &err);
  if (prompt == NULL) {
    fprintf(stderr, "%s:%d: %s\n", argv[1], err.line, err.text);
    return 2;
  }
  json_t *expected = json_object();
  json_object_set(expected, "vsId", json_object_get(prompt, "vsId"));
  json_object_set(expected, "algorithm", json_object_get(prompt, "algorithm"));
  json_object_set(expected, "revision", json_object_get(prompt, "revision"));
  json_t *egroups = json_array();
  json_object_set_new(expected, "testGroups", egroups);
  size_t gi, ti;
  json_t *g, *t;
  long moved = 0;
  json_array_foreach(json_object_get(prompt, "testGroups"), gi, g) {
    json_t *eg = json_object(), *etests = json_array();
    json_object_set(eg, "tgId", json_object_get(g, "tgId"));
    json_object_set_new(eg, "tests", etests);
    json_array_append_new(egroups, eg);
    json_array_foreach(json_object_get(g, "tests"), ti, t) {
      json_t *et = json_object();
      json_object_set(et, "tcId", json_object_get(t, "tcId"));
      for (int f = 3; f < argc; f++) {
        json_t *v = json_object_get(t, argv[f]);
        if (v != NULL) {
          json_object_set(et, argv[f], v);
          json_object_del(t, argv[f]);
          moved++;
        }
      }
      json_array_append_new(etests, et);
    }
  }
  int rc = dump(prompt, argv[2], "prompt.json") | dump(expected, argv[2], "expectedResults.json");
  printf("moved %ld answers into expectedResults.json\n", moved);
  json_decref(prompt);
  json_decref(expected);
  return rc == 0 && moved > 0 ? 0 : 1;
}

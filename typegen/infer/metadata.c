/*
 * The #[metadata] section is TVM's JSON node graph (SaveJSON): "root" is a Map whose key
 * "relay.Constant" lists the constant nodes; each constant's "data" attribute indexes
 * "b64ndarrays", base64 strings of serialized NDArrays whose header holds the dtype and shape.
 */
#include "infer.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parser/ast.h"
#include "../../support/diag.h"
#include "../../support/xalloc.h"

/* NDArray serialization (TVM's runtime/ndarray.h SaveDLTensor): the fields we need, in order. */
enum { NDARRAY_MAGIC_LO = 0x96B4A13F, HEADER_BYTES = 8 + 8 + 8 + 4 + 4 };

static int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Decodes at most `max` bytes from the start of a base64 string. */
static size_t b64_decode_prefix(const char *s, unsigned char *out, size_t max) {
  size_t n = 0;
  unsigned acc = 0;
  int bits = 0;
  for (; *s && *s != '=' && n < max; s++) {
    int v = b64_value(*s);
    if (v < 0) continue; /* TVM's writer may wrap lines */
    acc = (acc << 6) | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (unsigned char)(acc >> bits);
    }
  }
  return n;
}

static uint64_t le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

static bool read_header(const char *b64, MetaConst *c, char *err, size_t errlen) {
  unsigned char buf[HEADER_BYTES + 16 * 8];
  size_t n = b64_decode_prefix(b64, buf, sizeof buf);
  if (n < HEADER_BYTES || (uint32_t)le(buf, 4) != NDARRAY_MAGIC_LO) {
    snprintf(err, errlen, "a b64ndarrays entry is not a serialized NDArray");
    return false;
  }
  /* magic (8), reserved (8), device (8), ndim (4), dtype code/bits/lanes (1/1/2), shape (8 each) */
  int64_t ndim = (int32_t)le(buf + 24, 4);
  if (ndim < 0 || ndim > 16 || n < HEADER_BYTES + (size_t)ndim * 8) {
    snprintf(err, errlen, "an NDArray of rank %lld is not supported", (long long)ndim);
    return false;
  }
  c->dtype = (DType){buf[28], buf[29], (uint16_t)le(buf + 30, 2)};
  if (c->dtype.code == 1 && c->dtype.bits == 1) c->dtype.code = DT_UINT; /* bool */
  c->ndims = (size_t)ndim;
  for (int64_t i = 0; i < ndim; i++) c->dims[i] = (int64_t)le(buf + HEADER_BYTES + i * 8, 8);
  return true;
}

static long attr_index(json_t *node, const char *key) {
  json_t *attrs = json_object_get(node, "attrs");
  const char *v = json_string_value(json_object_get(attrs, key));
  return v ? strtol(v, NULL, 10) : -1;
}

/* The last section read, by length and content hash: the reducer and the mutator type the same
   program (and its megabytes of weights) again and again; the JSON is parsed once. */
static struct {
  size_t len;
  uint64_t hash;
  MetaConst *consts;
  size_t nconsts;
  bool valid;
} last;

/* FNV-1a over 8 bytes a step (the section is megabytes; a byte a step was most of a start-up). */
static uint64_t fnv1a(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 1099511628211ull;
  }
  for (; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static bool meta_table_parse(MetaTable *t, const char *metadata, char *err, size_t errlen, size_t *where);

bool meta_table_init(MetaTable *t, const char *metadata, char *err, size_t errlen, size_t *where) {
  t->consts = NULL;
  t->nconsts = 0;
  if (!metadata) return true;
  size_t len = strlen(metadata);
  uint64_t hash = fnv1a(metadata, len);
  if (!(last.valid && last.len == len && last.hash == hash)) {
    if (!meta_table_parse(t, metadata, err, errlen, where)) return false;
    free(last.consts);
    last.consts = xmalloc((t->nconsts ? t->nconsts : 1) * sizeof *t->consts);
    if (t->nconsts) memcpy(last.consts, t->consts, t->nconsts * sizeof *t->consts);
    last.nconsts = t->nconsts;
    last.len = len;
    last.hash = hash;
    last.valid = true;
    return true;
  }
  t->nconsts = last.nconsts;
  t->consts = xmalloc((t->nconsts ? t->nconsts : 1) * sizeof *t->consts);
  if (t->nconsts) memcpy(t->consts, last.consts, t->nconsts * sizeof *t->consts);
  return true;
}

json_t *meta_json_load(const char *section, char *err, size_t errlen, size_t *where) {
  const char *bracket = strchr(section, ']');
  const char *json = bracket ? bracket + 1 : section;
  json_error_t jerr;
  json_t *root = json_loads(json, JSON_DECODE_ANY, &jerr);
  if (!root) {
    snprintf(err, errlen, "invalid JSON: %s", jerr.text);
    /* jansson's position is just past what it read; point at that last byte */
    if (where) *where = (size_t)(json - section) + (jerr.position > 0 ? (size_t)jerr.position - 1 : 0);
  }
  return root;
}

/* The section with each b64ndarrays string cut to its first KEEP characters, or NULL when it is
   not laid out as TVM writes it.  The type of a constant needs only the NDArray's header; the
   strings are the weights (megabytes), which jansson would otherwise copy and check byte by byte. */
enum { KEEP = 256 };

static char *without_weights(const char *json) {
  const char *key = strstr(json, "\"b64ndarrays\"");
  if (!key) return NULL;
  const char *p = key + strlen("\"b64ndarrays\"");
  p += strspn(p, " \t\r\n");
  if (*p++ != ':') return NULL;
  p += strspn(p, " \t\r\n");
  if (*p++ != '[') return NULL;
  size_t total = strlen(json);
  char *out = xmalloc(total + 1), *o = out;
  memcpy(o, json, (size_t)(p - json));
  o += p - json;
  for (;;) {
    size_t blanks = strspn(p, " \t\r\n,");
    memcpy(o, p, blanks);
    o += blanks;
    p += blanks;
    if (*p == ']') break;
    if (*p != '"') return free(out), NULL;
    /* only a string of base64 characters is cut: whatever else is in one (an escape, a control
       character) is left to jansson, which judges it as it always did */
    static bool b64_char[256];
    if (!b64_char['A'])
      for (int c = 0; c < 256; c++) b64_char[c] = b64_value((char)c) >= 0 || c == '=';
    const char *end = p + 1;
    while (b64_char[(unsigned char)*end]) end++;
    if (*end != '"') return free(out), NULL;
    size_t keep = (size_t)(end - p - 1) < KEEP ? (size_t)(end - p - 1) : KEEP;
    *o++ = '"';
    memcpy(o, p + 1, keep);
    o += keep;
    *o++ = '"';
    p = end + 1;
  }
  size_t rest = strlen(p);
  memcpy(o, p, rest + 1);
  return out;
}

void meta_report(Diag *diag, const AstModule *m, const char *err, size_t where) {
  size_t n = m->metadata ? strlen(m->metadata) : 0, at = 0;
  if (diag->text && m->metadata_at + n <= diag->len && !memcmp(diag->text + m->metadata_at, m->metadata, n) && where < n)
    at = m->metadata_at + where;
  diag_error(diag, at, "cannot read the #[metadata] section: %s", err);
}

json_t *meta_json_constant_list(json_t *root) {
  json_t *nodes = json_object_get(root, "nodes");
  json_t *map = json_array_get(nodes, (size_t)json_integer_value(json_object_get(root, "root")));
  json_t *keys = json_object_get(map, "keys"), *key;
  size_t k;
  json_array_foreach(keys, k, key) {
    if (json_string_value(key) && !strcmp(json_string_value(key), "relay.Constant"))
      return json_array_get(nodes, (size_t)json_integer_value(json_array_get(json_object_get(map, "data"), k)));
  }
  return NULL;
}

static bool meta_table_parse(MetaTable *t, const char *metadata, char *err, size_t errlen, size_t *where) {
  if (where) *where = 0;
  char *light = without_weights(metadata);
  json_t *root = light ? meta_json_load(light, err, errlen, NULL) : NULL;
  free(light);
  if (!root) root = meta_json_load(metadata, err, errlen, where); /* also: where the JSON breaks */
  if (!root) return false;
  bool ok = false;
  json_t *nodes = json_object_get(root, "nodes"), *arrays = json_object_get(root, "b64ndarrays");
  json_t *map = json_array_get(nodes, (size_t)json_integer_value(json_object_get(root, "root")));
  if (!json_is_array(nodes) || !json_is_array(json_object_get(map, "keys"))) {
    snprintf(err, errlen, "not a TVM node graph (no root map)");
    goto out;
  }
  json_t *list = meta_json_constant_list(root);
  if (list) {
    json_t *items = json_object_get(list, "data");
    t->nconsts = json_array_size(items);
    t->consts = xcalloc(t->nconsts ? t->nconsts : 1, sizeof *t->consts);
    for (size_t i = 0; i < t->nconsts; i++) {
      json_t *node = json_array_get(nodes, (size_t)json_integer_value(json_array_get(items, i)));
      long di = attr_index(node, "data");
      const char *b64 = json_string_value(json_array_get(arrays, di < 0 ? (size_t)-1 : (size_t)di));
      if (!b64) {
        snprintf(err, errlen, "constant %zu has no NDArray data", i);
        goto out;
      }
      if (!read_header(b64, &t->consts[i], err, errlen)) goto out;
    }
  }
  ok = true;
out:
  json_decref(root);
  if (!ok) meta_table_free(t);
  return ok;
}

void meta_table_free(MetaTable *t) {
  free(t->consts);
  t->consts = NULL;
  t->nconsts = 0;
}

/* The entry a "meta[relay.Constant][i]" reference names, or NULL. */
static const MetaConst *find(const MetaTable *t, const char *ref) {
  static const char prefix[] = "meta[relay.Constant][";
  if (strncmp(ref, prefix, sizeof prefix - 1) != 0) return NULL;
  char *end;
  long i = strtol(ref + sizeof prefix - 1, &end, 10);
  if (*end != ']' || i < 0 || (size_t)i >= t->nconsts) return NULL;
  return &t->consts[i];
}

bool meta_has_constant(const MetaTable *t, const char *ref) { return find(t, ref) != NULL; }

const Type *meta_constant_type(const MetaTable *t, TyTable *types, const char *ref) {
  const MetaConst *c = find(t, ref);
  if (!c) return NULL;
  return ty_tensor(types, c->dtype, c->dims, c->ndims);
}

/*
 * Dropping constants from TVM's #[metadata] node graph (SaveJSON; see typegen/infer/metadata.c for the
 * layout).  Nodes refer to each other by index: Array and Map nodes through their "data" list,
 * other nodes through attributes holding an index as a string.  Which attributes are indices
 * depends on the node type's reflection schema, which the JSON does not record ("value": "3" of an
 * IntImm is a number, "shape": "3" of a TensorType a node), so the types whose references we know
 * are listed below; a graph holding any other node with attributes is left alone rather than
 * risk renumbering a number.
 */
#include "meta_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/strbuf.h"
#include "../support/xalloc.h"
#include "../typegen/infer/infer.h"

/* The attributes that hold node indices, per type key (NULL-terminated). */
static const struct {
  const char *type_key;
  const char *refs[4];
} schemas[] = {
    {"relay.Constant", {"_checked_type_", "span", "virtual_device_"}}, /* its "data" indexes b64ndarrays */
    {"relay.TensorType", {"shape", "span"}},
    {"relay.TupleType", {"fields", "span"}},
    {"VirtualDevice", {"memory_scope", "target"}},
    {"IntImm", {"span"}},
    {"FloatImm", {"span"}},
    {"Span", {"source_name"}},
    {"SourceName", {"name"}},
};

static const char *const *refs_of(json_t *node) {
  const char *tk = json_string_value(json_object_get(node, "type_key"));
  for (size_t i = 0; tk && i < sizeof schemas / sizeof schemas[0]; i++)
    if (!strcmp(schemas[i].type_key, tk)) return schemas[i].refs;
  return NULL;
}

static bool is_constant(json_t *node) {
  const char *tk = json_string_value(json_object_get(node, "type_key"));
  return tk && !strcmp(tk, "relay.Constant");
}

/* An index held as a string attribute; -1 if absent or not a number in [0, n). */
static long str_index(json_t *v, size_t n) {
  const char *s = json_string_value(v);
  if (!s || !*s) return -1;
  char *end;
  long i = strtol(s, &end, 10);
  return *end || i < 0 || (size_t)i >= n ? -1 : i;
}

typedef struct Graph {
  json_t *nodes;
  size_t n;
  bool *reach;
  long *renum; /* old node index -> new */
} Graph;

/* Marks everything node i reaches; false on a reference we cannot follow. */
static bool mark(Graph *g, size_t i, char *err, size_t errlen) {
  if (g->reach[i]) return true;
  g->reach[i] = true;
  json_t *node = json_array_get(g->nodes, i), *v;
  size_t k;
  json_array_foreach(json_object_get(node, "data"), k, v) {
    json_int_t j = json_integer_value(v);
    if (!json_is_integer(v) || j < 0 || (size_t)j >= g->n) return snprintf(err, errlen, "node %zu: bad data", i), false;
    if (!mark(g, (size_t)j, err, errlen)) return false;
  }
  json_t *attrs = json_object_get(node, "attrs");
  if (!attrs || !json_object_size(attrs)) return true;
  const char *const *refs = refs_of(node);
  if (!refs) {
    snprintf(err, errlen, "node %zu: unknown node type %s", i, json_string_value(json_object_get(node, "type_key")));
    return false;
  }
  for (; *refs; refs++) {
    json_t *r = json_object_get(attrs, *refs);
    if (!r) continue;
    long j = str_index(r, g->n);
    if (j < 0) return snprintf(err, errlen, "node %zu: bad %s", i, *refs), false;
    if (!mark(g, (size_t)j, err, errlen)) return false;
  }
  return true;
}

static void set_index_attr(json_t *attrs, const char *key, long i) {
  char buf[32];
  snprintf(buf, sizeof buf, "%ld", i);
  json_object_set_new(attrs, key, json_string(buf));
}

/* Renumbers node's references in place (old -> new node indices, and b64ndarrays indices). */
static void renumber(const Graph *g, json_t *node, const long *arrays) {
  json_t *v;
  size_t k;
  json_array_foreach(json_object_get(node, "data"), k, v) json_integer_set(v, g->renum[json_integer_value(v)]);
  json_t *attrs = json_object_get(node, "attrs");
  const char *const *refs = attrs ? refs_of(node) : NULL;
  for (; refs && *refs; refs++)
    if (json_object_get(attrs, *refs)) set_index_attr(attrs, *refs, g->renum[str_index(json_object_get(attrs, *refs), g->n)]);
  if (attrs && is_constant(node)) set_index_attr(attrs, "data", arrays[str_index(json_object_get(attrs, "data"), (size_t)-1)]);
}

/* ------------------------------------------------------------------ printing as TVM does
   dmlc's JSONWriter: ", " then a newline between items, two spaces an indent level, lists of
   integers on one line, the top-level "attrs" object on one line. */
static void put_string(StrBuf *sb, const char *s) {
  json_t *j = json_string(s);
  char *t = json_dumps(j, JSON_ENCODE_ANY);
  sb_puts(sb, t);
  free(t);
  json_decref(j);
}

static void put_value(StrBuf *sb, json_t *v, int indent, bool one_line);

static void put_newline(StrBuf *sb, int indent) {
  sb_putc(sb, '\n');
  for (int i = 0; i < indent; i++) sb_putc(sb, ' ');
}

static void put_array(StrBuf *sb, json_t *a, int indent) {
  bool ints = true;
  json_t *v;
  size_t k;
  json_array_foreach(a, k, v) ints &= json_is_integer(v);
  sb_putc(sb, '[');
  json_array_foreach(a, k, v) {
    if (k) sb_puts(sb, ", ");
    if (!ints) put_newline(sb, indent + 2);
    put_value(sb, v, indent + 2, false);
  }
  if (!ints && json_array_size(a)) put_newline(sb, indent);
  sb_putc(sb, ']');
}

static void put_object(StrBuf *sb, json_t *o, int indent, bool one_line) {
  const char *key;
  json_t *v;
  bool first = true;
  sb_putc(sb, '{');
  json_object_foreach(o, key, v) {
    if (!first) sb_puts(sb, ", ");
    first = false;
    if (!one_line) put_newline(sb, indent + 2);
    put_string(sb, key);
    sb_puts(sb, ": ");
    put_value(sb, v, indent + 2, indent == 0 && !strcmp(key, "attrs"));
  }
  if (!one_line && json_object_size(o)) put_newline(sb, indent);
  sb_putc(sb, '}');
}

static void put_value(StrBuf *sb, json_t *v, int indent, bool one_line) {
  if (json_is_object(v)) {
    put_object(sb, v, indent, one_line);
  } else if (json_is_array(v)) {
    put_array(sb, v, indent);
  } else {
    char *t = json_dumps(v, JSON_ENCODE_ANY);
    sb_puts(sb, t);
    free(t);
  }
}

/* ------------------------------------------------------------------ the rewrite */
/* Drops the constants not kept from the list node; false if an index is out of range. */
static bool filter_list(json_t *list, const size_t *keep, size_t nkeep) {
  json_t *data = json_object_get(list, "data"), *kept = json_array();
  for (size_t i = 0; i < nkeep; i++) {
    if (keep[i] >= json_array_size(data)) return json_decref(kept), false;
    json_array_append(kept, json_array_get(data, keep[i]));
  }
  /* TVM writes no "data" for an empty Array */
  if (nkeep) json_object_set_new(list, "data", kept);
  else json_object_del(list, "data"), json_decref(kept);
  return true;
}

static char *rewrite(const char *section, json_t *root, const size_t *keep, size_t nkeep, char *err, size_t errlen) {
  json_t *nodes = json_object_get(root, "nodes"), *arrays = json_object_get(root, "b64ndarrays");
  json_t *list = meta_json_constant_list(root);
  if (!json_is_array(nodes) || !json_is_array(arrays) || !list) return snprintf(err, errlen, "no constant list"), NULL;
  if (!filter_list(list, keep, nkeep)) return snprintf(err, errlen, "no such constant"), NULL;
  Graph g = {nodes, json_array_size(nodes), NULL, NULL};
  g.reach = xcalloc(g.n + 1, sizeof *g.reach);
  g.renum = xcalloc(g.n + 1, sizeof *g.renum);
  size_t narrays = json_array_size(arrays);
  long *arr_renum = xcalloc(narrays + 1, sizeof *arr_renum);
  bool *arr_used = xcalloc(narrays + 1, sizeof *arr_used);
  char *out = NULL;
  long r = (long)json_integer_value(json_object_get(root, "root"));
  g.reach[0] = true; /* SaveJSON's null node stays first */
  if (r <= 0 || (size_t)r >= g.n || !mark(&g, (size_t)r, err, errlen)) {
    if (r <= 0 || (size_t)r >= g.n) snprintf(err, errlen, "bad root");
    goto done;
  }
  json_t *kept_nodes = json_array(), *kept_arrays = json_array();
  bool ok = true;
  long next = 0;
  for (size_t i = 0; i < g.n; i++) {
    json_t *node = json_array_get(nodes, i);
    if (!g.reach[i]) continue;
    g.renum[i] = next++;
    json_array_append(kept_nodes, node);
    if (!is_constant(node)) continue;
    long a = str_index(json_object_get(json_object_get(node, "attrs"), "data"), narrays);
    if (a < 0) ok = false, snprintf(err, errlen, "constant node %zu has no data", i);
    else arr_used[a] = true;
  }
  for (size_t a = 0, next_a = 0; a < narrays; a++)
    if (arr_used[a]) {
      arr_renum[a] = (long)next_a++;
      json_array_append(kept_arrays, json_array_get(arrays, a));
    }
  if (ok) {
    size_t k;
    json_t *node;
    json_array_foreach(kept_nodes, k, node) renumber(&g, node, arr_renum);
    json_object_set_new(root, "root", json_integer(g.renum[r]));
    json_object_set(root, "nodes", kept_nodes);
    json_object_set(root, "b64ndarrays", kept_arrays);
    /* keep the text around the JSON ("#[metadata]\n" before, the final newline after) */
    const char *open = strchr(strchr(section, ']'), '{'), *close = strrchr(section, '}');
    StrBuf sb;
    sb_init(&sb);
    sb_putn(&sb, section, (size_t)(open - section));
    put_value(&sb, root, 0, false);
    sb_puts(&sb, close + 1);
    out = sb_take(&sb);
  }
  json_decref(kept_nodes);
  json_decref(kept_arrays);
done:
  free(g.reach);
  free(g.renum);
  free(arr_renum);
  free(arr_used);
  return out;
}

char *meta_json_keep_constants(const char *section, const size_t *keep, size_t nkeep, char *err, size_t errlen) {
  const char *bracket = strchr(section, ']');
  const char *open = bracket ? strchr(bracket, '{') : NULL;
  if (!open || !strrchr(section, '}')) return snprintf(err, errlen, "no JSON object"), NULL;
  json_t *root = meta_json_load(section, err, errlen, NULL);
  if (!root) return NULL;
  char *out = rewrite(section, root, keep, nkeep, err, errlen);
  json_decref(root);
  return out;
}

/* ------------------------------------------------------------------ resizing constants
   An NDArray as TVM serializes it (runtime/ndarray.h SaveDLTensor), base64 in "b64ndarrays":
   magic (8 bytes), reserved (8), device (8), ndim (4), dtype code/bits/lanes (1/1/2), the shape
   (8 each), the data's byte count (8), the data (row-major), all little-endian. */
enum { NDARRAY_HEADER = 8 + 8 + 8 + 4 + 4, NDARRAY_MAX_RANK = 16 };

static const char b64_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static unsigned char *b64_decode(const char *s, size_t *n) {
  signed char value[256];
  memset(value, -1, sizeof value);
  for (int i = 0; i < 64; i++) value[(unsigned char)b64_digits[i]] = (signed char)i;
  size_t len = strlen(s);
  unsigned char *out = xmalloc(len / 4 * 3 + 3);
  unsigned acc = 0;
  int bits = 0;
  *n = 0;
  for (; *s && *s != '='; s++) {
    if (value[(unsigned char)*s] < 0) continue; /* a writer may wrap lines */
    acc = (acc << 6) | (unsigned)value[(unsigned char)*s];
    if ((bits += 6) >= 8) out[(*n)++] = (unsigned char)(acc >> (bits -= 8));
  }
  return out;
}

static char *b64_encode(const unsigned char *p, size_t n) {
  char *out = xmalloc((n + 2) / 3 * 4 + 1), *o = out;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
    *o++ = b64_digits[v >> 18 & 63];
    *o++ = b64_digits[v >> 12 & 63];
    *o++ = i + 1 < n ? b64_digits[v >> 6 & 63] : '=';
    *o++ = i + 2 < n ? b64_digits[v & 63] : '=';
  }
  *o = '\0';
  return out;
}

static uint64_t get_le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static void put_le(unsigned char *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; i++, v >>= 8) p[i] = (unsigned char)v;
}

/* The NDArray `b64` with every dimension `from` cut to `to`, base64 (malloc'd); NULL when it has
   no such dimension; *bad when it cannot be read. */
static char *resize_ndarray(const char *b64, long long from, long long to, bool *bad) {
  size_t n;
  unsigned char *a = b64_decode(b64, &n), *b = NULL;
  char *out = NULL;
  int64_t ndim = n >= NDARRAY_HEADER ? (int32_t)get_le(a + 24, 4) : -1;
  size_t at = NDARRAY_HEADER + (size_t)(ndim > 0 ? ndim : 0) * 8;
  *bad = ndim < 0 || ndim > NDARRAY_MAX_RANK || n < at + 8;
  if (*bad) goto done;
  int64_t old[NDARRAY_MAX_RANK], dims[NDARRAY_MAX_RANK];
  size_t elem = ((size_t)a[29] * get_le(a + 30, 2) + 7) / 8, count = 1, kept = 1;
  bool cut = false, negative = false;
  for (int64_t i = 0; i < ndim; i++) {
    old[i] = (int64_t)get_le(a + NDARRAY_HEADER + i * 8, 8);
    negative |= old[i] < 0;
    dims[i] = old[i] == from ? to : old[i];
    cut |= old[i] == from;
    count *= (size_t)old[i];
    kept *= (size_t)dims[i];
  }
  *bad = negative || get_le(a + at, 8) != count * elem || n < at + 8 + count * elem;
  if (*bad || !cut) goto done;
  b = xmalloc(at + 8 + kept * elem + 1);
  memcpy(b, a, NDARRAY_HEADER);
  for (int64_t i = 0; i < ndim; i++) put_le(b + NDARRAY_HEADER + i * 8, (uint64_t)dims[i], 8);
  put_le(b + at, kept * elem, 8);
  /* the kept rows, the last axis's first dims[ndim-1] elements of each (an odometer over the others) */
  size_t row = (size_t)(ndim ? dims[ndim - 1] : 1) * elem, old_row = (size_t)(ndim ? old[ndim - 1] : 1) * elem;
  int64_t idx[NDARRAY_MAX_RANK] = {0};
  for (size_t r = 0, rows = kept * elem / (row ? row : 1); row && r < rows; r++) {
    size_t off = 0;
    for (int64_t i = 0; i + 1 < ndim; i++) off = off * (size_t)old[i] + (size_t)idx[i];
    memcpy(b + at + 8 + r * row, a + at + 8 + off * old_row, row);
    for (int64_t i = ndim - 2; i >= 0 && ++idx[i] == dims[i]; i--) idx[i] = 0;
  }
  out = b64_encode(b, at + 8 + kept * elem);
done:
  free(a);
  free(b);
  return out;
}

/* The IntImm nodes of a constant's type (its "_checked_type_", a TensorType, its "shape" Array)
   holding `from` now hold `to`; false when the type is not laid out so. */
static bool resize_type(json_t *nodes, json_t *constant, long long from, long long to) {
  size_t n = json_array_size(nodes);
  long t = str_index(json_object_get(json_object_get(constant, "attrs"), "_checked_type_"), n);
  if (t == 0) return true; /* no type recorded: TVM infers it from the data */
  json_t *type = json_array_get(nodes, (size_t)t);
  const char *tk = json_string_value(json_object_get(type, "type_key"));
  if (t < 0 || !tk || strcmp(tk, "relay.TensorType")) return false;
  long s = str_index(json_object_get(json_object_get(type, "attrs"), "shape"), n);
  json_t *dim;
  size_t k;
  json_array_foreach(json_object_get(json_array_get(nodes, s < 0 ? 0 : (size_t)s), "data"), k, dim) {
    json_t *attrs = json_object_get(json_array_get(nodes, (size_t)json_integer_value(dim)), "attrs");
    const char *v = json_string_value(json_object_get(attrs, "value"));
    if (v && strtoll(v, NULL, 10) == from) {
      char buf[32];
      snprintf(buf, sizeof buf, "%lld", to);
      json_object_set_new(attrs, "value", json_string(buf));
    }
  }
  return s > 0;
}

char *meta_json_resize_constants(const char *section, long long from, long long to, size_t *changed, char *err,
                                 size_t errlen) {
  if (changed) *changed = 0;
  json_t *root = meta_json_load(section, err, errlen, NULL);
  if (!root) return NULL;
  json_t *nodes = json_object_get(root, "nodes"), *arrays = json_object_get(root, "b64ndarrays");
  json_t *list = meta_json_constant_list(root), *ref;
  size_t k, nconsts = json_array_size(json_object_get(list, "data")), done = 0, narrays = json_array_size(arrays);
  bool ok = json_is_array(nodes) && json_is_array(arrays) && list;
  bool *cut = xcalloc(narrays + 1, sizeof *cut); /* an NDArray two constants share is cut once */
  json_array_foreach(json_object_get(list, "data"), k, ref) {
    json_t *c = json_array_get(nodes, (size_t)json_integer_value(ref));
    long a = str_index(json_object_get(json_object_get(c, "attrs"), "data"), narrays);
    bool bad = a < 0 || !json_string_value(json_array_get(arrays, (size_t)a));
    char *resized = bad || cut[a] ? NULL : resize_ndarray(json_string_value(json_array_get(arrays, (size_t)a)), from, to, &bad);
    if (resized) {
      json_array_set_new(arrays, (size_t)a, json_string(resized));
      cut[a] = true;
    }
    if (!bad && (resized || cut[a])) {
      bad = !resize_type(nodes, c, from, to);
      done++;
    }
    free(resized);
    if (bad) {
      snprintf(err, errlen, "constant %zu: cannot read its NDArray or its type", k);
      ok = false;
      break;
    }
  }
  free(cut);
  char *out = NULL;
  if (ok && !done) {
    out = xstrdup(section);
  } else if (ok) {
    size_t *keep = xmalloc((nconsts ? nconsts : 1) * sizeof *keep);
    for (size_t i = 0; i < nconsts; i++) keep[i] = i;
    out = rewrite(section, root, keep, nconsts, err, errlen);
    free(keep);
  }
  json_decref(root);
  if (out && changed) *changed = done;
  return out;
}

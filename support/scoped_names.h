/* Names bound in nested scopes: bind pushes a binding, truncate leaves scopes, find gives the
   innermost binding of a name in constant time.  A 50,000-binding program looked up by a linear
   scan per use costs seconds; this keeps type checking linear. */
#ifndef RELAYKIT_SCOPED_NAMES_H
#define RELAYKIT_SCOPED_NAMES_H
#include <stdbool.h>
#include <stddef.h>

typedef struct ScopedName {
  const char *name;  /* not copied: it must outlive the table (AST strings do) */
  const void *value;
  size_t shadowed;   /* the binding of the same name this one hides, as index + 1 (0: none) */
} ScopedName;

typedef struct NameSlot {
  const char *name;
  size_t binding; /* the innermost binding of name, as index + 1 (0: unbound now) */
} NameSlot;

typedef struct ScopedNames {
  ScopedName *items; /* in binding order: innermost last */
  size_t len, cap;
  NameSlot *slots;   /* open addressing over every name ever bound */
  size_t nslots, used;
} ScopedNames;

/* A zeroed ScopedNames is empty and ready. */
void names_bind(ScopedNames *s, const char *name, const void *value);
/* The innermost binding's value; *found says whether there is one (values may be NULL). */
const void *names_find(const ScopedNames *s, const char *name, bool *found);
/* Drops the bindings made after the first `len` (leaving scopes). */
void names_truncate(ScopedNames *s, size_t len);
void names_free(ScopedNames *s);

#endif

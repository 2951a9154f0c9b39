/* Relay's numeric literal spellings (§2.6): their values, widths and range checks. */
#ifndef RELAYKIT_LITERAL_H
#define RELAYKIT_LITERAL_H
#include <stdbool.h>
#include <stdint.h>

/* "42", "-42i64", "--10": value and width in bits (32 or 64 when unsuffixed, by range).
   On failure returns false and points *err at a message. */
bool lit_int(const char *text, int64_t *value, int *bits, const char **err);
/* "1e-05f", "3f16", "-inff": value and width in bits (16, 32 or 64). */
bool lit_float(const char *text, double *value, int *bits, const char **err);

/* TVM's printed spelling of a value, for nodes a program makes (§2.6): int32 `42`, int16 `42i16`,
   int64 `42i64`; floats with six significant digits as C++ streams print them and a width
   suffix: `1e-05f`, `3f16`, `0.5f64`, `inff`, `-inff`, `nanf`.  `buf` holds at least 48 bytes. */
enum { LIT_SPELLING_MAX = 48 };
void lit_spell_int(int64_t value, int bits, char *buf);
void lit_spell_float(double value, int bits, char *buf);

#endif

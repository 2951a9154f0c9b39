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

#endif

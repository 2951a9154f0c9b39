/* Reading inputs whole and replacing files atomically, so a user's file is never half-written. */
#ifndef RELAYKIT_FILEIO_H
#define RELAYKIT_FILEIO_H
#include <stdbool.h>
#include <stddef.h>

/* Reads `path` ("-" is standard input) into a malloc'd, NUL-terminated buffer.  On failure
   returns NULL and prints `TOOL: PATH: reason` to stderr (TOOL: cli_tool()). */
char *file_read(const char *path, size_t *len);
/* file_read for a program, which is text: a NUL byte (a binary file) is refused with its line and
   column, since everything after it would silently be lost.  Then errno is EILSEQ: the input is
   ill-formed (exit 1, as for any other), where another failure is an I/O error (exit 2). */
char *file_read_text(const char *path, size_t *len);
/* file_read_text of a file that may not be there: NULL, and nothing said, when it is not. */
char *file_read_text_if_there(const char *path, size_t *len);
/* Writes `data` to a temporary file beside `path`, then renames it over `path`, keeping the
   original's permissions.  Returns false (after a message on stderr) and leaves `path` untouched
   on any failure. */
bool file_replace(const char *path, const char *data, size_t len);
/* file_replace's temporary files, NAME.tmpXXXXXX beside NAME, stay behind when a kill comes while
   it writes.  A tool removes those of its own files when it starts again: in dir, those whose NAME
   is `stem` or starts with `stem.` (FILE.tmpXXXXXX, FILE.orig.tmpXXXXXX), or every one when stem
   is NULL (a directory only the tool writes, such as rfuzz's campaign). */
void file_remove_stale_temps(const char *dir, const char *stem);
/* The same for `path`'s own (stem: its name), beside the file it points to if it is a symlink, as
   file_replace writes them. */
void file_remove_stale_temps_of(const char *path);
/* Writes all of data to fd, retrying short writes and EINTR; false on any other failure (errno set). */
bool fd_write_all(int fd, const char *data, size_t len);

#endif

#define _POSIX_C_SOURCE 200809L
#include "fileio.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "xalloc.h"

char *file_read(const char *path, size_t *len) {
  bool is_stdin = !strcmp(path, "-");
  int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(stderr, "%s: %s: %s\n", cli_tool(), path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "%s: %s: is a directory\n", cli_tool(), path);
    close(fd);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) cap = (size_t)st.st_size + 1;
  char *buf = xmalloc(cap);
  for (;;) {
    if (n + 1 >= cap) buf = xrealloc(buf, cap *= 2);
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0) {
      if (errno == EINTR) continue;
      fprintf(stderr, "%s: %s: %s\n", cli_tool(), path, strerror(errno));
      free(buf);
      if (!is_stdin) close(fd);
      return NULL;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  if (!is_stdin) close(fd);
  buf[n] = '\0';
  *len = n;
  return buf;
}

char *file_read_text_if_there(const char *path, size_t *len) {
  return access(path, F_OK) == 0 ? file_read_text(path, len) : NULL;
}

char *file_read_text(const char *path, size_t *len) {
  char *text = file_read(path, len);
  const char *nul = text ? memchr(text, '\0', *len) : NULL;
  if (nul) {
    uint32_t line, col;
    diag_line_col(text, *len, (size_t)(nul - text), &line, &col);
    fprintf(stderr, "%s: %s:%u:%u: error: NUL byte in input (is this a binary file?)\n", cli_tool(), path, line, col);
    free(text);
    errno = EILSEQ;
    return NULL;
  }
  return text;
}

bool file_replace(const char *path, const char *data, size_t len) {
  /* Through a symlink the file it points to is replaced and the link stays a link. */
  struct stat lst;
  char *target = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL) : NULL;
  if (target) {
    bool ok = file_replace(target, data, len);
    free(target);
    return ok;
  }
  size_t plen = strlen(path);
  char *tmp = xmalloc(plen + 16);
  snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "%s: %s: cannot create a temporary file beside it: %s\n", cli_tool(), path, strerror(errno));
    free(tmp);
    return false;
  }
  struct stat st;
  if (stat(path, &st) == 0) {
    fchmod(fd, st.st_mode & 07777);
  } else { /* a new file gets the mode open(2) would give it, not mkstemp's 0600 */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
  }
  bool ok = fd_write_all(fd, data, len);
  if (ok && fsync(fd) != 0) ok = false;
  if (close(fd) != 0) ok = false;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    fprintf(stderr, "%s: %s: cannot replace the file: %s (left unchanged)\n", cli_tool(), path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok;
}

bool fd_write_all(int fd, const char *data, size_t len) {
  for (size_t off = 0; off < len;) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    off += (size_t)w;
  }
  return true;
}

/* Whether name is a temporary file of file_replace's (NAME.tmpXXXXXX, mkstemp's six letters and
   digits) for a file named stem or stem.SOMETHING (stem NULL: any). */
static bool stale_temp(const char *name, const char *stem) {
  size_t n = strlen(name);
  if (n < 11) return false;
  const char *t = name + n - 10;
  if (strncmp(t, ".tmp", 4) != 0) return false;
  for (int i = 4; i < 10; i++)
    if (!isalnum((unsigned char)t[i])) return false;
  if (!stem) return true;
  size_t s = strlen(stem);
  return (size_t)(t - name) >= s && !strncmp(name, stem, s) && (name + s == t || name[s] == '.');
}

void file_remove_stale_temps(const char *dir, const char *stem) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!stale_temp(e->d_name, stem)) continue;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < sizeof path) unlink(path);
  }
  closedir(d);
}

void file_remove_stale_temps_of(const char *path) {
  char *real = realpath(path, NULL); /* NULL for a file not written yet: then path as it is */
  char *copy = xstrdup(real ? real : path);
  char *slash = strrchr(copy, '/');
  if (!slash) file_remove_stale_temps(".", copy);
  else if (slash == copy) file_remove_stale_temps("/", copy + 1);
  else {
    *slash = '\0';
    file_remove_stale_temps(copy, slash + 1);
  }
  free(copy);
  free(real);
}

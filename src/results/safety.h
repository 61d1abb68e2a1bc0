/* safety.h: the file-system policies every command shares (docs/robustness.md,
 * "Attack classes"): the inputs an output may never be, the one reader of
 * files inside results directories, deletion that never follows a link, and
 * the temporary files of atomic writes (removed on a signal, stale ones
 * removed by the next write in their directory). */
#ifndef NICSIM_RESULTS_SAFETY_H
#define NICSIM_RESULTS_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- inputs an output may never be ---------------------------------------------------- */

/* The error (as a positive errno value) of a write refused because its target
 * is an input of the command; nicsim_strerror names both. */
#define NICSIM_E_INPUT 4242
/* The error of a directory inside a results directory (points/, plots/,
 * evals/) that is a symbolic link: never written through. */
#define NICSIM_E_LINK 4244
/* Notes path (followed to its file: any spelling, link or hard link is the
 * same input) as an input of this process, what it is in role ("the
 * scenario", "a suite entry"). An absent path is ignored. */
void nicsim_input_note(const char *path, const char *role);
/* The same for a file known by identity (name is what errors print). */
void nicsim_input_note_id(uint64_t dev, uint64_t ino, const char *role, const char *name);
/* Forgets every noted input (a command that writes what it read, e.g.
 * regress --update's baselines, never notes those). */
void nicsim_input_forget_all(void);
/* 0 if path (its own directory entry, and the file a symlink there names)
 * is no noted input; else -NICSIM_E_INPUT, and nicsim_strerror(NICSIM_E_INPUT)
 * says which input it is. Called by every atomic write. */
int nicsim_input_clash(const char *path);
/* strerror, but for NICSIM_E_INPUT: "it is <role> <name>, an input of this
 * command" (the last clash found), and for the reader's refusals below. */
const char *nicsim_strerror(int err);

/* ---- the reader of files inside results directories ----------------------------------- */

/* The error of a file found inside a results directory that is not a regular
 * file (a FIFO, a device, a socket, a directory). */
#define NICSIM_E_NOTREG 4243
/* Reads the whole of path (at most max bytes) into *buf (NUL-terminated,
 * free()d by the caller), its length in *len. Opened with O_NOFOLLOW and
 * O_NONBLOCK, checked to be a regular file by fstat before any read: a
 * symlink is -ELOOP, a FIFO, device or socket -NICSIM_E_NOTREG (never
 * blocking), a larger file -EFBIG. 0 or -errno. */
int nicsim_read_results_file(const char *path, size_t max, char **buf, size_t *len);
/* The one-line reason nicsim_read_results_file failed with rc, for messages:
 * "is a symbolic link (refused inside a results directory)", ... */
const char *nicsim_read_strerror(int rc);

/* ---- deletion ------------------------------------------------------------------------- */

/* Opens directory path for *at() calls without following a symlink at its
 * last component (O_NOFOLLOW | O_DIRECTORY). fd or -errno. */
int nicsim_dir_open(const char *path);
/* Removes path: a symlink, regular file or special file is unlinked (a link
 * is removed, never followed); a directory (never a link to one) is emptied
 * the same way, depth first, and removed. 0 or -errno (the first failure). */
int nicsim_remove_tree(const char *path);

/* ---- temporary files ------------------------------------------------------------------ */

/* Notes tmp as a temporary file being written (removed by the handler of
 * SIGTERM, SIGINT and SIGHUP that nicsim_tmp_note installs where the
 * disposition is still the default), or forgets it. */
void nicsim_tmp_note(const char *tmp);
void nicsim_tmp_forget(const char *tmp);
/* Removes every noted temporary file; async-signal-safe (for a command's own
 * signal handler). */
void nicsim_tmp_remove_all(void);
/* In a forked child: forgets the parent's temporary files (not the child's
 * to remove). */
void nicsim_tmp_forget_all(void);
/* True if name is one of nicsim's temporary names, ".NAME.tmp.XXXXXX". */
bool nicsim_is_tmp_name(const char *name);
/* Once per directory and process: removes stale temporary files of
 * nicsim's naming in dir (regular files no writer holds: each writer holds
 * an flock on its temporary file). */
void nicsim_tmp_clean_dir(const char *dir);

#ifdef __cplusplus
}
#endif
#endif

/* doc_sync.h: compares and rewrites the generated key reference inside
 * docs/config.md (between <!-- BEGIN KEYS --> and <!-- END KEYS -->). */
#ifndef NICSIM_TESTS_CONFIG_DOC_SYNC_H
#define NICSIM_TESTS_CONFIG_DOC_SYNC_H

#ifdef __cplusplus
extern "C" {
#endif

#define DOC_BEGIN "<!-- BEGIN KEYS -->\n"
#define DOC_END "<!-- END KEYS -->"

/* The key reference as nc_write_config_doc writes it (malloc'd), or NULL. */
char *doc_generate(void);
/* The text between the markers of md (malloc'd), or NULL if they are missing. */
char *doc_region(const char *md);
/* md with its region replaced by the generated reference (malloc'd), or NULL. */
char *doc_splice(const char *md);
/* A whole file (malloc'd, NUL-terminated), or NULL. */
char *doc_read(const char *path);

#ifdef __cplusplus
}
#endif
#endif

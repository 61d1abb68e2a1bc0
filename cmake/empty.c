/* empty.c: keeps a library target valid while its directory has no sources yet. */
typedef int nicsim_empty_translation_unit;

/* escape.h: text that came from outside (scenario names, descriptions and
 * labels, sweep.json fields, file names, metric names, error messages that
 * quote input) made safe for where it is written: a terminal, HTML,
 * Markdown, CSV, gnuplot data and scripts. Every writer of such text goes
 * through one of these (docs/robustness.md, "Attack classes"). */
#ifndef NICSIM_RESULTS_ESCAPE_H
#define NICSIM_RESULTS_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Terminal and plain-text reports: every control character (C0, DEL, C1
 * such as CSI U+009B) and every byte that is not valid UTF-8 is written as
 * \xNN, so printing the text cannot drive a terminal (OSC 52 clipboard
 * writes, cursor movement, title changes). Everything else is kept. */
void nicsim_put_term(FILE *f, const char *s);
/* The same into buf (n bytes; always terminated; cut only between
 * characters, with "..." at the end when cut). Returns buf. */
char *nicsim_term_text(const char *s, char *buf, size_t n);

/* HTML text or attribute value (double-quoted): & < > " ' as entities,
 * control characters as in nicsim_put_term. */
void nicsim_put_html(FILE *f, const char *s);

/* A path component in a URL (an HTML src or href, a Markdown link): every
 * byte but A-Z a-z 0-9 - . _ ~ as %XX, so it can neither leave the
 * attribute nor name a scheme (javascript:). */
void nicsim_put_url_path(FILE *f, const char *s);

/* Markdown inline text (also safe in a table cell, and at the start of a
 * line): \ ` * [ ] < > | are backslash-escaped everywhere, and # - + = > or
 * "1." / "1)" at the start of the text, so no code span, emphasis, link,
 * image (and so no javascript: URL), HTML tag, autolink, table column,
 * heading, list or quote can start inside it; line breaks become spaces;
 * control characters as in nicsim_put_term (written \\xNN). Other
 * punctuation is left as it is, so labels and keys stay readable. */
void nicsim_put_md(FILE *f, const char *s);

/* CSV, OWASP's advice on CSV injection: a cell that a spreadsheet would
 * read as a formula (starting with =, +, -, @, tab or CR) gets a leading
 * single quote, unless the whole cell is a number (-1.5, +3, 1e-3), which
 * stays a number. True if s needs the quote. Readers of our CSV files drop
 * one leading quote before any of these characters (nicsim_csv_unguard). */
bool nicsim_csv_needs_guard(const char *s);
/* The cell's text as written before the guard: s without the leading quote
 * that nicsim_csv_needs_guard added, else s. */
const char *nicsim_csv_unguard(const char *s);

/* gnuplot data (NAME.dat): a label as a double-quoted string that gnuplot
 * reads back whole: never a comment (a leading '#' is inside the quotes),
 * its double quotes written as '' (gnuplot data has no escape for them),
 * tabs and line breaks as spaces, control characters as \xNN. */
void nicsim_put_dat_label(FILE *f, const char *s);

/* gnuplot scripts (NAME.gp): s as a double-quoted gnuplot string that
 * gnuplot shows as it is and never runs or expands: ` @ ' " \ $ written as
 * octal escapes (\140 ...) so that neither `command` substitution nor
 * @macro expansion, which scan the raw line, sees them, and so is an octal
 * digit right after an escape (gnuplot would take it into the escape); tabs
 * and line breaks (which could end the command) as spaces, other control
 * characters as in nicsim_put_term (a visible \xNN). Single quotes would not
 * do: gnuplot 5.4 ends a single-quoted string at a doubled quote that opens
 * it or follows another. */
void nicsim_put_gp_string(FILE *f, const char *s);

/* YAML double-quoted scalar: " and \ backslash-escaped; every character
 * libyaml would read as a line break or refuse (C0, tab included, DEL, C1 with
 * NEL U+0085, LS U+2028, PS U+2029, BOM U+FEFF) as \xNN or \uNNNN; a byte
 * that is not UTF-8 as the visible text \\xNN. */
void nicsim_put_yaml_str(FILE *f, const char *s);
/* Text inside a YAML '#' comment: it stays on its line, as those characters
 * become spaces (a comment cannot end early and set keys); a byte that is
 * not UTF-8 is the text \xNN. */
void nicsim_put_yaml_comment(FILE *f, const char *s);
/* XML 1.0 text and attribute values (JUnit): & < > " ' as entities; every
 * character outside XML 1.0's Char production (C0 controls but tab, LF, CR;
 * surrogates; U+FFFE, U+FFFF) and every byte that is not UTF-8 as U+FFFD,
 * so the document stays well-formed whatever a label holds. */
void nicsim_put_xml(FILE *f, const char *s);
/* True if s is valid UTF-8. */
bool nicsim_is_utf8(const char *s);
/* A file name that is not UTF-8, for a JSON string (which holds only
 * UTF-8): each byte that is not UTF-8 as \xNN and each backslash as \\,
 * so the name reads back exactly. "" if it does not fit n. */
void nicsim_name_escape(const char *s, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif

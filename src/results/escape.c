/* escape.c: text from outside made safe for terminals, HTML, Markdown, CSV
 * and gnuplot data (see escape.h). */
#include "results/escape.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 character at s (1 for ASCII), or 0 if the bytes
 * at s are no valid character. */
static size_t nicsim__utf8_len(const unsigned char *s) {
  size_t n, i;
  if (s[0] < 0x80)
    return 1;
  if (s[0] >= 0xC2 && s[0] <= 0xDF)
    n = 2;
  else if (s[0] >= 0xE0 && s[0] <= 0xEF)
    n = 3;
  else if (s[0] >= 0xF0 && s[0] <= 0xF4)
    n = 4;
  else
    return 0;
  for (i = 1; i < n; i++)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
      (n == 4 && s[0] == 0xF0 && s[1] < 0x90) || (n == 4 && s[0] == 0xF4 && s[1] >= 0x90))
    return 0; /* overlong, surrogate, above U+10FFFF */
  return n;
}

/* The next piece of s: *len bytes, to be shown as \xNN per byte (escape
 * true: a control character or an invalid byte) or as they are. */
static void nicsim__next(const char *s, size_t *len, bool *escape) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = nicsim__utf8_len(u);
  if (n == 0) {
    *len = 1;
    *escape = true;
  } else if (n == 1) {
    *len = 1;
    *escape = u[0] < 0x20 || u[0] == 0x7F;
  } else {
    *len = n;
    *escape = n == 2 && u[0] == 0xC2 && u[1] <= 0x9F; /* C1 */
  }
}

void nicsim_put_term(FILE *f, const char *s) {
  size_t len, k;
  bool esc;
  for (; s && *s; s += len) {
    nicsim__next(s, &len, &esc);
    for (k = 0; k < len; k++) {
      if (esc)
        fprintf(f, "\\x%02X", (unsigned char)s[k]);
      else
        fputc(s[k], f);
    }
  }
}

char *nicsim_term_text(const char *s, char *buf, size_t n) {
  size_t j = 0, len, k, need;
  bool esc;
  if (n == 0)
    return buf;
  for (; s && *s; s += len) {
    nicsim__next(s, &len, &esc);
    need = esc ? 4 * len : len;
    if (j + need + 1 > n) {
      /* Cut between characters (j is one; backing up for the "...", skip
       * back over a character's continuation bytes), and say so. */
      size_t cut = j;
      while (cut > 0 && cut + 4 > n)
        cut--;
      while (cut > 0 && cut < j && ((unsigned char)buf[cut] & 0xC0) == 0x80)
        cut--;
      j = cut;
      if (j + 4 <= n) {
        memcpy(buf + j, "...", 3);
        j += 3;
      }
      break;
    }
    for (k = 0; k < len; k++) {
      if (esc) {
        snprintf(buf + j, n - j, "\\x%02X", (unsigned char)s[k]);
        j += 4;
      } else {
        buf[j++] = s[k];
      }
    }
  }
  buf[j] = '\0';
  return buf;
}

void nicsim_put_html(FILE *f, const char *s) {
  size_t len;
  bool esc;
  for (; s && *s; s += len) {
    nicsim__next(s, &len, &esc);
    if (esc) {
      for (size_t k = 0; k < len; k++)
        fprintf(f, "\\x%02X", (unsigned char)s[k]);
      continue;
    }
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default: fwrite(s, 1, len, f); break;
    }
  }
}

void nicsim_put_url_path(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~')
      fputc(c, f);
    else
      fprintf(f, "%%%02X", c);
  }
}

void nicsim_put_md(FILE *f, const char *s) {
  /* What can start markup anywhere: code spans, emphasis, links and images
   * ([ ]), HTML and autolinks (< >), table cells (|), escapes (\). */
  static const char always[] = "\\`*[]<>|";
  /* What starts a block at the start of a line: headings, lists, quotes,
   * setext underlines (the text may be written at a line's start). */
  static const char leading[] = "#-+=>";
  size_t len;
  bool esc, first = true;
  for (; s && *s; s += len, first = false) {
    nicsim__next(s, &len, &esc);
    if (len == 1 && (*s == '\n' || *s == '\r' || *s == '\t')) {
      fputc(' ', f);
      continue;
    }
    if (esc) {
      for (size_t k = 0; k < len; k++)
        fprintf(f, "\\\\x%02X", (unsigned char)s[k]);
      continue;
    }
    if (len == 1 && (strchr(always, *s) || (first && strchr(leading, *s))))
      fputc('\\', f);
    else if (first && *s >= '0' && *s <= '9') {
      /* "1." or "1)" would start an ordered list: escape its delimiter. */
      size_t d = 0;
      while (s[d] >= '0' && s[d] <= '9')
        d++;
      if (s[d] == '.' || s[d] == ')') {
        fwrite(s, 1, d, f);
        fputc('\\', f);
        len = d;
        continue;
      }
    }
    fwrite(s, 1, len, f);
  }
}

/* True if the whole of s is a decimal number as we write them (what strtod
 * reads, without hex; "-inf" of a metric is one too). */
static bool nicsim__is_number(const char *s) {
  char *end = NULL;
  double v;
  const char *p = s;
  if (*p == '+' || *p == '-')
    p++;
  if (strcmp(p, "inf") == 0 || strcmp(p, "nan") == 0)
    return true;
  if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
    return false;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    return false;
  v = strtod(s, &end);
  (void)v;
  return end != s && *end == '\0';
}

/* A cell starting with one of these is read as a formula by spreadsheets. */
static bool nicsim__formula_start(const char *s) { return s[0] != '\0' && strchr("=+-@\t\r", s[0]); }

bool nicsim_csv_needs_guard(const char *s) {
  /* Quotes already in front of a formula are guarded too (one more), so that
   * nicsim_csv_unguard gives back exactly what was written. */
  while (s && *s == '\'')
    s++;
  return s && nicsim__formula_start(s) && !nicsim__is_number(s);
}

const char *nicsim_csv_unguard(const char *s) {
  if (s && s[0] == '\'' && nicsim_csv_needs_guard(s + 1))
    return s + 1;
  return s;
}

void nicsim_put_dat_label(FILE *f, const char *s) {
  size_t len;
  bool esc;
  fputc('"', f);
  for (; s && *s; s += len) {
    nicsim__next(s, &len, &esc);
    if (len == 1 && (*s == '\n' || *s == '\r' || *s == '\t')) {
      fputc(' ', f);
    } else if (esc) {
      for (size_t k = 0; k < len; k++)
        fprintf(f, "\\x%02X", (unsigned char)s[k]);
    } else if (*s == '"') {
      fputs("''", f);
    } else {
      fwrite(s, 1, len, f);
    }
  }
  fputc('"', f);
}

void nicsim_put_gp_string(FILE *f, const char *s) {
  size_t len;
  bool esc, octal = false; /* the last thing written was an octal escape */
  fputc('"', f);
  for (; s && *s; s += len) {
    nicsim__next(s, &len, &esc);
    if (len == 1 && (*s == '\n' || *s == '\r' || *s == '\t')) {
      fputc(' ', f);
      octal = false;
    } else if (esc) {
      /* \xNN shown as text: its backslash is itself an octal escape. */
      for (size_t k = 0; k < len; k++)
        fprintf(f, "\\134x%02X", (unsigned char)s[k]);
      octal = false;
    } else if (len == 1 && (strchr("`@'\"\\$", *s) != NULL || (octal && *s >= '0' && *s <= '7'))) {
      fprintf(f, "\\%03o", (unsigned char)*s);
      octal = true;
    } else {
      fwrite(s, 1, len, f);
      octal = false;
    }
  }
  fputc('"', f);
}

/* The code point of the valid UTF-8 character of len bytes at s. */
static unsigned long nicsim__cp(const unsigned char *s, size_t len) {
  unsigned long c = len == 1 ? s[0] : len == 2 ? s[0] & 0x1Fu : len == 3 ? s[0] & 0x0Fu : s[0] & 0x07u;
  size_t i;
  for (i = 1; i < len; i++)
    c = (c << 6) | (s[i] & 0x3Fu);
  return c;
}

/* True for what YAML (1.1, libyaml) reads as a line break or may not hold
 * in a printable scalar: C0 (tab too), DEL, C1 (NEL U+0085 among them),
 * LS U+2028, PS U+2029, BOM U+FEFF. */
static bool nicsim__yaml_unsafe(unsigned long c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0xFEFF;
}

void nicsim_put_yaml_str(FILE *f, const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  fputc('"', f);
  while (u && *u) {
    size_t len = nicsim__utf8_len(u);
    unsigned long c;
    if (len == 0) { /* not UTF-8: the byte, visibly (as \xNN in a terminal) */
      fprintf(f, "\\\\x%02X", *u);
      u++;
      continue;
    }
    c = nicsim__cp(u, len);
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", (int)c);
    else if (nicsim__yaml_unsafe(c))
      fprintf(f, c > 0xFF ? "\\u%04lX" : "\\x%02lX", c);
    else
      fwrite(u, 1, len, f);
    u += len;
  }
  fputc('"', f);
}

void nicsim_put_yaml_comment(FILE *f, const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  while (u && *u) {
    size_t len = nicsim__utf8_len(u);
    if (len == 0) {
      fprintf(f, "\\x%02X", *u);
      u++;
      continue;
    }
    if (nicsim__yaml_unsafe(nicsim__cp(u, len)))
      fputc(' ', f);
    else
      fwrite(u, 1, len, f);
    u += len;
  }
}

void nicsim_put_xml(FILE *f, const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  while (u && *u) {
    size_t len = nicsim__utf8_len(u);
    unsigned long c = len ? nicsim__cp(u, len) : 0;
    switch (len ? c : 0x100000000ul) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      /* XML 1.0's Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
       * [#x10000-#x10FFFF]; anything else (invalid UTF-8 too) is U+FFFD. */
      if (len != 0 && (c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
                       (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF)))
        fwrite(u, 1, len, f);
      else
        fputs("\xEF\xBF\xBD", f);
    }
    u += len ? len : 1;
  }
}

bool nicsim_is_utf8(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  size_t len;
  for (; *u; u += len)
    if ((len = nicsim__utf8_len(u)) == 0)
      return false;
  return true;
}

void nicsim_name_escape(const char *s, char *buf, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t j = 0, len;
  if (n == 0)
    return;
  for (; *u; u += len) {
    char piece[8];
    len = nicsim__utf8_len(u);
    if (len == 0 || *u == '\\') {
      if (*u == '\\')
        snprintf(piece, sizeof(piece), "\\\\");
      else
        snprintf(piece, sizeof(piece), "\\x%02X", *u);
      len = 1;
    } else {
      memcpy(piece, u, len);
      piece[len] = '\0';
    }
    if (j + strlen(piece) + 1 > n) {
      buf[0] = '\0'; /* never a cut name */
      return;
    }
    memcpy(buf + j, piece, strlen(piece));
    j += strlen(piece);
  }
  buf[j] = '\0';
}

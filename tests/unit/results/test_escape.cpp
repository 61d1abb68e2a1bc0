// test_escape.cpp: the escapers every writer of outside text goes through
// (results/escape.h; issue 23, defects 4, 7, 8, 9).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "results/escape.h"
#include "results/output.h"

namespace {

template <typename F>
std::string captured(F put, const char *s) {
  char *buf = nullptr;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  put(f, s);
  fclose(f);
  std::string out(buf, len);
  free(buf);
  return out;
}

// True if s has a byte the terminal would act on (C0 but none, DEL, C1 in UTF-8, ESC).
bool has_control(const std::string &s) {
  for (size_t i = 0; i < s.size(); i++) {
    unsigned char c = s[i];
    if (c < 0x20 || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < s.size() && (unsigned char)s[i + 1] <= 0x9F) return true;
    if (c >= 0x80 && c <= 0x9F && (i == 0 || (unsigned char)s[i - 1] < 0xC0)) return true;
  }
  return false;
}

const char *const kHostile[] = {
    "\x1b]52;c;aGVsbG8=\x07",    // OSC 52: writes the clipboard
    "\x1b[2J\x1b[31mred",        // clear screen, colour
    "a\xc2\x9b" "31mb",          // CSI as C1 (UTF-8)
    "a\x9b" "31mb",              // a raw C1 byte (not UTF-8)
    "tab\there\nnew\rline\x7f",  // other C0 and DEL
    "\xff\xfe invalid",          // not UTF-8
};

}  // namespace

TEST(Escape, TerminalTextHasNoControlCharacters) {
  for (const char *s : kHostile) {
    std::string out = captured(nicsim_put_term, s);
    EXPECT_FALSE(has_control(out)) << out;
    EXPECT_NE(out.find("\\x"), std::string::npos) << out;
    char buf[64];
    EXPECT_FALSE(has_control(nicsim_term_text(s, buf, sizeof buf))) << buf;
  }
  // Plain and UTF-8 text is kept as it is.
  EXPECT_EQ(captured(nicsim_put_term, "rx 9.87 Gbit/s, caf\xc3\xa9 \xe2\x80\x94 ok"),
            "rx 9.87 Gbit/s, caf\xc3\xa9 \xe2\x80\x94 ok");
  // A cut text ends between characters, marked.
  char small[12];
  EXPECT_STREQ(nicsim_term_text("\x1b\x1b\x1b\x1b", small, sizeof small), "\\x1B\\x1B...");
  char six[6];
  EXPECT_STREQ(nicsim_term_text("\xc3\xa9\xc3\xa9\xc3\xa9", six, sizeof six), "\xc3\xa9...");
}

TEST(Escape, HtmlTextIsInert) {
  EXPECT_EQ(captured(nicsim_put_html, "<img src=x onerror=alert(1)>"),
            "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(captured(nicsim_put_html, "x\" onerror=\"alert(1).svg"),
            "x&quot; onerror=&quot;alert(1).svg");
  EXPECT_EQ(captured(nicsim_put_html, "a'b&c"), "a&#39;b&amp;c");
  for (const char *s : kHostile) EXPECT_FALSE(has_control(captured(nicsim_put_html, s)));
}

TEST(Escape, MarkdownTextIsInert) {
  std::string out = captured(nicsim_put_md, "# Heading <script>alert(1)</script> [x](javascript:alert(1)) `code` | cell");
  // Every character Markdown or HTML could read as syntax is backslash-escaped.
  for (size_t i = 0; i < out.size(); i++) {
    if (out[i] == '\\') {
      i++;  // an escape and what it escapes
      continue;
    }
    EXPECT_EQ(std::string("<>[]`|*").find(out[i]), std::string::npos)
        << "unescaped '" << out[i] << "' at " << i << " in " << out;
  }
  EXPECT_EQ(out.rfind("\\#", 0), 0u) << out;
  EXPECT_EQ(captured(nicsim_put_md, "line\nbreak"), "line break");
  // Labels and keys stay readable; block starts are escaped only at the start.
  EXPECT_EQ(captured(nicsim_put_md, "traffic.frame_bytes=1518/nic.desc_spacing=16"),
            "traffic.frame_bytes=1518/nic.desc_spacing=16");
  EXPECT_EQ(captured(nicsim_put_md, "- item"), "\\- item");
  EXPECT_EQ(captured(nicsim_put_md, "12. item"), "12\\. item");
  EXPECT_EQ(captured(nicsim_put_md, "a - b"), "a - b");
  for (const char *s : kHostile) EXPECT_FALSE(has_control(captured(nicsim_put_md, s)));
}

TEST(Escape, CsvFollowsOwaspAndRoundTrips) {
  struct Case {
    const char *in;
    bool guard;
  } cases[] = {{"=HYPERLINK(\"x\")", true}, {"+1+cmd|' /C calc'!A0", true}, {"-2+3", true},
               {"@SUM(A1)", true},          {"\tx", true},                   {"\rx", true},
               {"-1.5", false},             {"+3", false},                   {"1e-3", false},
               {"-inf", false},             {"before/x", false},             {"", false},
               {"'=x", true},               {"'x", false},                   {"'-1", false}};
  for (const Case &c : cases) {
    EXPECT_EQ(nicsim_csv_needs_guard(c.in), c.guard) << c.in;
    std::string written = captured(nicsim_csv_field, c.in);
    std::string cell = written;
    if (!cell.empty() && cell[0] == '"') {  // undo RFC 4180 quoting
      cell = cell.substr(1, cell.size() - 2);
      for (size_t p; (p = cell.find("\"\"")) != std::string::npos;) cell.erase(p, 1);
    }
    if (c.guard) {
      EXPECT_EQ(cell[0], '\'') << written;
    }
    EXPECT_EQ(std::string(nicsim_csv_unguard(cell.c_str())), c.in) << written;
  }
}

TEST(Escape, GnuplotLabelsStayWhole) {
  EXPECT_EQ(captured(nicsim_put_dat_label, "#hidden"), "\"#hidden\"");
  EXPECT_EQ(captured(nicsim_put_dat_label, "a \"quoted\" b"), "\"a ''quoted'' b\"");
  EXPECT_EQ(captured(nicsim_put_dat_label, "tab\tnew\nline"), "\"tab new line\"");
}

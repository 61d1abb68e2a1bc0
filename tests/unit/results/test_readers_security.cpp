// test_readers_security.cpp: the readers of results files (point files,
// sweep.json, baselines all go through nicsim_json_error_where) never show
// the content of a file that is not one (issue 23, defect 1's class).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "results/input.h"

namespace {

std::string read_error(const std::string &text) {
  char tmpl[] = "/tmp/nicsim-reader-XXXXXX";
  int fd = mkstemp(tmpl);
  EXPECT_GE(fd, 0);
  FILE *f = fdopen(fd, "wb");
  fwrite(text.data(), 1, text.size(), f);
  fclose(f);
  nicsim_config cfg;
  nicsim_results res;
  char why[1024] = "";
  int rc = nicsim_point_json_read(tmpl, &cfg, &res, nullptr, why, sizeof why);
  remove(tmpl);
  EXPECT_EQ(rc, -1);
  return why;
}

}  // namespace

TEST(ResultsReaderSecurity, ParseErrorsNeverQuoteTheFile) {
  for (const char *text : {"root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n",
                           "{\"a\": SECRETHASH}\n", "[1, 2, SECRETHASH\n",
                           "{\"a\": \"\xC3(SECRETHASH\"}\n", "{\"a\": 1} SECRETHASH\n"}) {
    std::string e = read_error(text);
    EXPECT_EQ(e.find("SECRET"), std::string::npos) << e;
    EXPECT_EQ(e.find("root"), std::string::npos) << e;
    EXPECT_EQ(e.find("0xc3"), std::string::npos) << e;
    EXPECT_NE(e.find(":1:"), std::string::npos) << "the position is given: " << e;
  }
}

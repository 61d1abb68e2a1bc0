// test_csv.cpp: CSV output: RFC 4180 quoting, the header and row layout of
// sweep results, and shortest round-trip number text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "results_test_util.h"

using nicsim_test::capture;
using nicsim_test::default_config;
using nicsim_test::full_results;
using nicsim_test::make_zeroed;

namespace {

using Row = std::vector<std::string>;

// A strict RFC 4180 reader (LF or CRLF line ends); fails the test on bad syntax.
std::vector<Row> parse_csv(const std::string &text) {
  std::vector<Row> rows;
  Row row;
  std::string field;
  size_t i = 0;
  bool at_field_start = true;
  while (i < text.size()) {
    char ch = text[i];
    if (at_field_start && ch == '"') {
      i++;
      for (;;) {
        if (i >= text.size()) {
          ADD_FAILURE() << "unterminated quoted field";
          return rows;
        }
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      at_field_start = false;
      if (i < text.size() && text[i] != ',' && text[i] != '\n') {
        ADD_FAILURE() << "text after a closing quote at " << i;
        return rows;
      }
      continue;
    }
    if (ch == ',') {
      row.push_back(field);
      field.clear();
      at_field_start = true;
    } else if (ch == '\n') {
      row.push_back(field);
      rows.push_back(row);
      row.clear();
      field.clear();
      at_field_start = true;
    } else {
      EXPECT_NE(ch, '"') << "bare quote in an unquoted field at " << i;
      field += ch;
      at_field_start = false;
    }
    i++;
  }
  EXPECT_TRUE(row.empty() && field.empty()) << "last line without LF";
  return rows;
}

std::string field(const char *s) {
  return capture([&](FILE *f) { nicsim_csv_field(f, s); });
}

std::string real(double v) {
  char buf[64];
  nicsim_format_real(v, buf, sizeof buf);
  return buf;
}

TEST(Csv, FieldQuotingFollowsRfc4180) {
  EXPECT_EQ(field("plain"), "plain");
  EXPECT_EQ(field(""), "");
  EXPECT_EQ(field("a b;c"), "a b;c");
  EXPECT_EQ(field("a,b"), "\"a,b\"");
  EXPECT_EQ(field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(field("cr\rhere"), "\"cr\rhere\"");
  EXPECT_EQ(field("\""), "\"\"\"\"");
}

TEST(Csv, RealsAreShortestRoundTrip) {
  EXPECT_EQ(real(0.1), "0.1");
  EXPECT_EQ(real(9.87), "9.87");
  EXPECT_EQ(real(2000), "2000");
  EXPECT_EQ(real(0), "0");
  EXPECT_EQ(real(-2.5), "-2.5");
  EXPECT_EQ(real(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(real(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(real(1e300), "1e+300");
  EXPECT_EQ(real(1e16), "10000000000000000");
  EXPECT_EQ(real(1e17), "1e+17");
  EXPECT_EQ(real(0.0001234), "0.0001234");
  EXPECT_EQ(real(0.00001234), "1.234e-05");
  EXPECT_EQ(real(123456789.125), "123456789.125");
  EXPECT_EQ(real(5e-324), "5e-324");
  EXPECT_EQ(real(NAN), "nan");
  EXPECT_EQ(real(INFINITY), "inf");
  EXPECT_EQ(real(-INFINITY), "-inf");
  EXPECT_EQ(strtod(real(DBL_MAX).c_str(), nullptr), DBL_MAX);
  EXPECT_EQ(strtod(real(DBL_MIN).c_str(), nullptr), DBL_MIN);
}

TEST(Csv, RealsRoundTripAndNoShorterTextWould) {
  uint64_t x = 0x9e3779b97f4a7c15ull;  // xorshift: deterministic, bit patterns all over
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double v;
    memcpy(&v, &x, sizeof v);
    if (!std::isfinite(v)) continue;
    if (i % 2) v = static_cast<double>(x % 100000000) / 1000.0;  // "decimal-looking" values too
    std::string s = real(v);
    ASSERT_EQ(strtod(s.c_str(), nullptr), v) << s;
    // Minimal: no more significant digits than the first precision that reads back.
    int pmin = 17;
    char fewer[64];
    for (int p = 1; p < 17; p++) {
      snprintf(fewer, sizeof fewer, "%.*e", p - 1, v);
      if (strtod(fewer, nullptr) == v) {
        pmin = p;
        break;
      }
    }
    std::string mant = s.substr(0, s.find('e')), digits;
    for (char ch : mant)
      if (ch >= '0' && ch <= '9') digits += ch;
    digits.erase(0, digits.find_first_not_of('0'));
    digits.erase(digits.find_last_not_of('0') + 1);
    ASSERT_LE(static_cast<int>(digits.size()), pmin) << s;
    ASSERT_EQ(s.find("e"), (std::fabs(v) >= 1e17 || (v != 0 && std::fabs(v) < 1e-4))
                               ? s.find("e")
                               : std::string::npos)
        << "plain decimals between 1e-4 and 1e17: " << s;
  }
}

TEST(Csv, MetricValuesFormatByKind) {
  char buf[64];
  nicsim_format_metric(12345678901.0, NM_KIND_COUNT, buf, sizeof buf);
  EXPECT_STREQ(buf, "12345678901");
  nicsim_format_metric(2.5, NM_KIND_COUNT, buf, sizeof buf);
  EXPECT_STREQ(buf, "2.5") << "a non-integral count is not truncated";
  nicsim_format_metric(3, NM_KIND_REAL, buf, sizeof buf);
  EXPECT_STREQ(buf, "3");
  nicsim_format_metric(0.25, NM_KIND_WALL, buf, sizeof buf);
  EXPECT_STREQ(buf, "0.25");
}

TEST(Csv, SweepTableLayout) {
  auto c0 = default_config("small, \"quoted\"");
  auto c1 = default_config("failed");
  auto c2 = default_config("big");
  c0->nic.desc_spacing = 16;
  c2->nic.desc_spacing = 64;
  c0->traffic.mode = NC_MODE_RX;
  c2->traffic.mode = NC_MODE_BIDIR;
  snprintf(c2->platform, sizeof c2->platform, "arm64-a53");
  auto r0 = full_results();
  auto r2 = make_zeroed<nicsim_results>();
  nicsim_results_init(r2.get());
  nicsim_results_set(r2.get(), nicsim_metric_find("rx.gbps"), 0.1);
  nicsim_results_set(r2.get(), nicsim_metric_find("rx.pkts"), 77);
  nicsim_results_set_extra(r0.get(), "cpu.profile.zeta", "cycles", NM_KIND_COUNT, "", 5);
  nicsim_results_set_extra(r2.get(), "cpu.profile.alpha", "cycles", NM_KIND_COUNT, "", 6);
  nicsim_point pts[3] = {{c0.get(), r0.get()}, {c1.get(), nullptr}, {c2.get(), r2.get()}};
  const char *keys[] = {"nic.desc_spacing", "traffic.mode", "platform"};

  std::string text = capture([&](FILE *f) { EXPECT_EQ(nicsim_csv_dump(f, keys, 3, pts, 3), 0); });
  std::vector<Row> rows = parse_csv(text);
  ASSERT_EQ(rows.size(), 3u) << "header + 2 successful points (the failed one omitted)\n" << text;

  Row want = {"label", "nic.desc_spacing", "traffic.mode", "platform", "bottleneck"};
  const nicsim_metric_def *defs = nicsim_metric_defs();
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) want.push_back(defs[i].name);
  want.push_back("cpu.profile.alpha");
  want.push_back("cpu.profile.zeta");
  EXPECT_EQ(rows[0], want);
  for (const Row &row : rows) EXPECT_EQ(row.size(), want.size());

  EXPECT_EQ(rows[1][0], "small, \"quoted\"");
  EXPECT_EQ(rows[1][1], "16");
  EXPECT_EQ(rows[1][2], "rx");
  EXPECT_EQ(rows[1][3], "x86-gen3");
  EXPECT_EQ(rows[1][5 + nicsim_metric_find("rx.pkts")], std::to_string(1000 + nicsim_metric_find("rx.pkts")));
  EXPECT_EQ(rows[1][5 + nicsim_metric_find("rx.gbps")], real((nicsim_metric_find("rx.gbps") + 1) / 3.0));
  EXPECT_EQ(rows[1][5 + nicsim_metric_count()], "") << "alpha is absent from point 0";
  EXPECT_EQ(rows[1][5 + nicsim_metric_count() + 1], "5");

  EXPECT_EQ(rows[2][0], "big");
  EXPECT_EQ(rows[2][1], "64");
  EXPECT_EQ(rows[2][2], "bidir");
  EXPECT_EQ(rows[2][3], "arm64-a53");
  EXPECT_EQ(rows[2][5 + nicsim_metric_find("rx.gbps")], "0.1");
  EXPECT_EQ(rows[2][5 + nicsim_metric_find("rx.pkts")], "77");
  EXPECT_EQ(rows[2][5 + nicsim_metric_find("tx.gbps")], "") << "absent metric: empty field";
  EXPECT_EQ(rows[2][5 + nicsim_metric_count()], "6");
  EXPECT_EQ(rows[2][5 + nicsim_metric_count() + 1], "");

  // Same input, same bytes.
  std::string again = capture([&](FILE *f) { nicsim_csv_dump(f, keys, 3, pts, 3); });
  EXPECT_EQ(text, again);
}

// A point source that hands out every point through one scratch config and
// one scratch result, as the sweep does: writers must not keep pointers.
struct ScratchSource {
  const nicsim_point *points;
  nicsim_test::cptr<nicsim_config> cfg = make_zeroed<nicsim_config>();
  nicsim_test::cptr<nicsim_results> res = make_zeroed<nicsim_results>();
  size_t fail_at = SIZE_MAX;
  static int get(void *arg, size_t i, nicsim_point *out) {
    auto *s = static_cast<ScratchSource *>(arg);
    if (i == s->fail_at) return -EIO;
    memcpy(s->cfg.get(), s->points[i].cfg, sizeof(nicsim_config));
    out->cfg = s->cfg.get();
    out->res = nullptr;
    if (s->points[i].res) {
      memcpy(s->res.get(), s->points[i].res, sizeof(nicsim_results));
      out->res = s->res.get();
    }
    return 0;
  }
};

TEST(Csv, PointSourceWithScratchBuffersGivesTheSameTable) {
  auto c0 = default_config("p0"), c1 = default_config("p1"), c2 = default_config("p2");
  auto r0 = full_results(), r2 = full_results();
  nicsim_results_set_extra(r0.get(), "x.only_in_0", "u", NM_KIND_COUNT, "", 1);
  nicsim_results_set_extra(r2.get(), "x.only_in_2", "u", NM_KIND_COUNT, "", 2);
  nicsim_results_set(r2.get(), nicsim_metric_find("rx.gbps"), 0.25);
  nicsim_point pts[3] = {{c0.get(), r0.get()}, {c1.get(), nullptr}, {c2.get(), r2.get()}};
  const char *keys[] = {"nic.desc_spacing"};
  std::string want = capture([&](FILE *f) { EXPECT_EQ(nicsim_csv_dump(f, keys, 1, pts, 3), 0); });
  ScratchSource src;
  src.points = pts;
  std::string got = capture([&](FILE *f) {
    EXPECT_EQ(nicsim_csv_dump_each(f, keys, 1, 3, ScratchSource::get, &src), 0);
  });
  EXPECT_EQ(got, want);
  EXPECT_NE(want.find(",x.only_in_0,x.only_in_2\n"), std::string::npos) << want;

  std::string table = capture([&](FILE *f) { nicsim_sweep_table_print(f, keys, 1, pts, 3); });
  std::string table2 = capture([&](FILE *f) {
    EXPECT_EQ(nicsim_sweep_table_print_each(f, keys, 1, 3, ScratchSource::get, &src), 0);
  });
  EXPECT_EQ(table, table2);

  src.fail_at = 1;
  capture([&](FILE *f) {
    EXPECT_EQ(nicsim_csv_dump_each(f, keys, 1, 3, ScratchSource::get, &src), -EIO);
  });
  capture([&](FILE *f) {
    EXPECT_EQ(nicsim_sweep_table_print_each(f, keys, 1, 3, ScratchSource::get, &src), -EIO);
  });
  char dir[] = "/tmp/nicsim_csv_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/r.csv";
  EXPECT_EQ(nicsim_csv_write_each(path.c_str(), keys, 1, 3, ScratchSource::get, &src), -EIO);
  EXPECT_NE(access(path.c_str(), F_OK), 0) << "no file from a failed write";
  rmdir(dir);
}

TEST(Csv, NoPointsGiveAHeaderOnly) {
  auto c = default_config("x");
  nicsim_point pt = {c.get(), nullptr};
  std::string text =
      capture([&](FILE *f) { EXPECT_EQ(nicsim_csv_dump(f, nullptr, 0, &pt, 1), 0); });
  std::vector<Row> rows = parse_csv(text);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].size(), 2u + nicsim_metric_count()) << "label, bottleneck, the metrics";
}

TEST(Csv, WriteCreatesTheFile) {
  char dir[] = "/tmp/nicsim_csv_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/results.csv";
  auto c = default_config("only");
  auto r = full_results();
  nicsim_point pt = {c.get(), r.get()};
  ASSERT_EQ(nicsim_csv_write(path.c_str(), nullptr, 0, &pt, 1), 0);
  FILE *f = fopen(path.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char line[64] = "";
  ASSERT_NE(fgets(line, sizeof line, f), nullptr);
  fclose(f);
  EXPECT_EQ(std::string(line).substr(0, 25), "label,bottleneck,rx.gbps,");
  unlink(path.c_str());
  rmdir(dir);
}

}  // namespace

// test_input.cpp: reading a point's JSON back (results/input.h) gives the same
// config and results, so resume, merge, plot and report see what the run saw.
#include <gtest/gtest.h>
#include <math.h>
#include <unistd.h>

#include "results/input.h"
#include "results_test_util.h"

using nicsim_test::capture;
using nicsim_test::default_config;
using nicsim_test::fill_distinct;
using nicsim_test::full_results;
using nicsim_test::make_zeroed;

namespace {

// A temporary file name, removed at destruction.
struct TempFile {
  std::string path;
  TempFile() {
    char tmpl[] = "/tmp/nicsim-input-XXXXXX";
    int fd = mkstemp(tmpl);
    EXPECT_GE(fd, 0);
    if (fd >= 0) close(fd);
    path = tmpl;
  }
  ~TempFile() { unlink(path.c_str()); }
};

TEST(ResultsInput, ConfigAndResultsRoundTripExactly) {
  auto cfg = default_config("a/b=1");
  fill_distinct(cfg.get());
  auto res = full_results();
  nicsim_results_set(res.get(), nicsim_metric_find("rx.gbps"), NAN);  // written as null
  nicsim_results_set_extra(res.get(), "cpu.profile.rx_poll", "cycles", NM_KIND_COUNT, "d", 12345);
  nicsim_results_set_extra(res.get(), "q0.ratio", "", NM_KIND_REAL, "d", 0.1 + 0.2);
  TempFile f;
  ASSERT_EQ(nicsim_json_write(f.path.c_str(), "v", cfg.get(), res.get()), 0);

  auto cfg2 = make_zeroed<nicsim_config>();
  auto res2 = make_zeroed<nicsim_results>();
  char why[512] = "";
  json_t *doc = nullptr;
  ASSERT_EQ(nicsim_point_json_read(f.path.c_str(), cfg2.get(), res2.get(), &doc, why, sizeof why), 0)
      << why;
  ASSERT_NE(doc, nullptr);
  json_decref(doc);
  EXPECT_STREQ(cfg2->label, "a/b=1");
  EXPECT_STREQ(cfg2->name, cfg->name);
  // Every key: the JSON of the read-back config equals the original's.
  json_t *a = nicsim_config_to_json(cfg.get()), *b = nicsim_config_to_json(cfg2.get());
  EXPECT_TRUE(json_equal(a, b));
  json_decref(a);
  json_decref(b);
  // The CSV row (what a resumed or merged sweep writes) is byte-identical.
  const char *keys[] = {"nic.desc_spacing"};
  nicsim_point p1 = {cfg.get(), res.get()}, p2 = {cfg2.get(), res2.get()};
  std::string c1 = capture([&](FILE *out) { nicsim_csv_dump(out, keys, 1, &p1, 1); });
  std::string c2 = capture([&](FILE *out) { nicsim_csv_dump(out, keys, 1, &p2, 1); });
  EXPECT_EQ(c1, c2);
  EXPECT_NE(c1.find("cpu.profile.rx_poll"), std::string::npos) << c1;
  double v = 0;
  ASSERT_TRUE(nicsim_results_get(res2.get(), "q0.ratio", &v));
  EXPECT_EQ(v, 0.1 + 0.2);
  ASSERT_TRUE(nicsim_results_get(res2.get(), "rx.gbps", &v));
  EXPECT_TRUE(std::isnan(v));
}

TEST(ResultsInput, BadDocumentsSayWhy) {
  TempFile f;
  char why[512];
  auto cfg = make_zeroed<nicsim_config>();
  auto res = make_zeroed<nicsim_results>();
  FILE *o = fopen(f.path.c_str(), "w");
  ASSERT_NE(o, nullptr);
  fputs("{\"config\": {\"name\": \"x\"}, \"metrics\": {}}", o);
  fclose(o);
  EXPECT_NE(nicsim_point_json_read(f.path.c_str(), cfg.get(), res.get(), nullptr, why, sizeof why), 0);
  EXPECT_NE(std::string(why).find("config has no "), std::string::npos) << why;

  o = fopen(f.path.c_str(), "w");
  fputs("{\"config\": ", o);
  fclose(o);
  EXPECT_NE(nicsim_point_json_read(f.path.c_str(), cfg.get(), res.get(), nullptr, why, sizeof why), 0);
  EXPECT_NE(std::string(why).find(f.path + ":1:"), std::string::npos) << why;

  auto good = default_config();
  json_t *c = nicsim_config_to_json(good.get());
  json_object_set_new(json_object_get(c, "traffic"), "mode", json_string("sideways"));
  EXPECT_NE(nicsim_config_from_json(c, cfg.get(), why, sizeof why), 0);
  EXPECT_NE(std::string(why).find("config traffic.mode is not one of"), std::string::npos) << why;
  json_decref(c);

  json_t *m = json_pack("{s:s}", "rx.gbps", "fast");
  EXPECT_NE(nicsim_results_from_json(m, res.get(), why, sizeof why), 0);
  EXPECT_NE(std::string(why).find("metric rx.gbps is not a number"), std::string::npos) << why;
  json_decref(m);
}

}  // namespace

// test_metrics_doc.cpp: the metric reference generated from the catalogue
// (the models' statistics declarations), and docs/metrics.md kept in sync with it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>

#include "results_test_util.h"

using nicsim_test::capture;

namespace {

std::string slurp(const std::string &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(MetricsDoc, TableListsEveryMetricWithUnitAndKind) {
  std::string doc = capture([](FILE *f) { EXPECT_EQ(nicsim_write_metrics_doc(f), 0); });
  EXPECT_EQ(doc.rfind("| Metric | Unit | Kind | Meaning |\n|---|---|---|---|\n", 0), 0u) << doc;
  const nicsim_metric_def *defs = nicsim_metric_defs();
  size_t rows = 0;
  for (char ch : doc) rows += ch == '\n';
  EXPECT_EQ(rows, 2u + nicsim_metric_count());
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    std::string row = std::string("| `") + defs[i].name + "` | " + defs[i].unit + " | " +
                      nicsim_metric_kind_name(defs[i].kind) + " | " + defs[i].desc + " |\n";
    EXPECT_NE(doc.find(row), std::string::npos) << row;
  }
}

TEST(MetricsDoc, ExtrasTableListsEveryFamilyAndExtra) {
  std::string doc = capture([](FILE *f) { EXPECT_EQ(nicsim_write_extra_metrics_doc(f), 0); });
  EXPECT_EQ(doc.rfind("| Pattern | Unit | Kind | Meaning |\n|---|---|---|---|\n", 0), 0u) << doc;
  size_t rows = 0;
  for (char ch : doc) rows += ch == '\n';
  EXPECT_EQ(rows, 2u + nicsim_metric_extra_count());
  /* A family's pattern, its choices' bar escaped for Markdown. */
  EXPECT_NE(doc.find("| `pcie.<up\\|down>.<purpose>.tlps` | TLPs | count |"), std::string::npos) << doc;
  EXPECT_NE(doc.find("| `cpu.profile.<function>` | fraction | real |"), std::string::npos) << doc;
  EXPECT_NE(doc.find("| `bus.rd_util` | fraction | real |"), std::string::npos) << doc;
}

// Fails when docs/metrics.md is stale: run the update-metrics-doc target.
TEST(MetricsDoc, CheckedInFileIsUpToDate) {
  bool stale = true;
  std::string path = std::string(NICSIM_SOURCE_DIR) + "/docs/metrics.md";
  ASSERT_EQ(nicsim_metrics_doc_sync(path.c_str(), false, &stale), 0) << path;
  EXPECT_FALSE(stale) << path
                      << " is out of date: cmake --build <build> --target update-metrics-doc";
}

TEST(MetricsDoc, SyncDetectsAndRewritesAStaleRegionOnly) {
  char dir[] = "/tmp/nicsim_mdoc_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/metrics.md";
  std::string head = "# Metrics\n\nHand-written intro.\n\n<!-- BEGIN METRICS -->\n";
  std::string mid = "<!-- END METRICS -->\n\nHand-written notes.\n\n<!-- BEGIN EXTRA METRICS -->\n";
  std::string tail = "<!-- END EXTRA METRICS -->\n\nMore notes.\n";
  std::ofstream(path) << head << "| old | table |\n" << mid << "| old | extras |\n" << tail;

  bool stale = false;
  ASSERT_EQ(nicsim_metrics_doc_sync(path.c_str(), false, &stale), 0);
  EXPECT_TRUE(stale);
  EXPECT_EQ(slurp(path), head + "| old | table |\n" + mid + "| old | extras |\n" + tail) << "check mode never writes";

  ASSERT_EQ(nicsim_metrics_doc_sync(path.c_str(), true, &stale), 0);
  EXPECT_TRUE(stale);
  std::string table = capture([](FILE *f) { nicsim_write_metrics_doc(f); });
  std::string extras = capture([](FILE *f) { nicsim_write_extra_metrics_doc(f); });
  EXPECT_EQ(slurp(path), head + table + mid + extras + tail);

  ASSERT_EQ(nicsim_metrics_doc_sync(path.c_str(), false, &stale), 0);
  EXPECT_FALSE(stale);

  std::ofstream(path) << "# no markers\n";
  EXPECT_EQ(nicsim_metrics_doc_sync(path.c_str(), true, &stale), -EINVAL);
  EXPECT_EQ(slurp(path), "# no markers\n");
  EXPECT_EQ(nicsim_metrics_doc_sync((std::string(dir) + "/missing.md").c_str(), false, &stale),
            -ENOENT);
  unlink(path.c_str());
  rmdir(dir);
}

}  // namespace

// test_catalog.cpp: the catalogue of every metric, built from the models'
// and the top's declarations in a process with no SystemC (this binary
// links neither SystemC nor the models): unique names, columns in their
// stable CSV order, families and extras recognised by name.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "results/metrics.h"
#include "sim/stats_catalog.h"

namespace {

using namespace nicsim::stats;

TEST(Catalog, EveryDeclarationIsAColumnOrAnExtraOnce) {
  size_t nt = 0;
  const TableView *t = nicsim::stats_tables(&nt);
  ASSERT_GT(nt, 5u);
  std::set<std::string> names, models;
  size_t columns = 0, extras = 0;
  for (size_t k = 0; k < nt; k++) {
    models.insert(t[k].model());
    for (size_t i = 0; i < t[k].size(); i++) {
      const Info &info = t[k].at(i);
      EXPECT_TRUE(names.insert(info.name).second) << "declared twice: " << info.name;
      EXPECT_GT(std::strlen(info.desc), 10u) << info.name;
      if (info.extra) {
        extras++;
        EXPECT_TRUE(nicsim_metric_is_extra_name(info.name) || info.what == What::Family) << info.name;
      } else {
        columns++;
        EXPECT_GE(nicsim_metric_find(info.name), 0) << info.name;
      }
    }
  }
  EXPECT_EQ(columns, nicsim_metric_count());
  EXPECT_EQ(extras, nicsim_metric_extra_count());
  EXPECT_LE(nicsim_metric_count(), static_cast<size_t>(NICSIM_MAX_METRICS));
  for (const char *m : {"cpu", "nic", "mac", "dma", "peer", "pcie", "bus", "dram", "iommu", "system", "run"})
    EXPECT_EQ(models.count(m), 1u) << m;
}

TEST(Catalog, ColumnsKeepTheirCsvOrder) {
  /* The first columns and their neighbours, as results files have had them. */
  const nicsim_metric_def *d = nicsim_metric_defs();
  ASSERT_GE(nicsim_metric_count(), 96u);
  EXPECT_STREQ(d[0].name, "rx.gbps");
  EXPECT_STREQ(d[3].name, "rx.delivered_gbps");
  EXPECT_STREQ(d[5].name, "rx.drops");
  EXPECT_STREQ(d[nicsim_metric_find("nic.desc_fetched") + 1].name, "nic.desc_fetch_reqs_per_pkt");
  EXPECT_STREQ(d[95].name, "sim.wall_s");
  EXPECT_EQ(d[95].kind, NM_KIND_WALL);
  /* The declaration's unit, kind and meaning travel with the name. */
  const long id = nicsim_metric_find("pcie.up.util");
  ASSERT_GE(id, 0);
  EXPECT_STREQ(d[id].unit, "fraction");
  EXPECT_EQ(d[id].kind, NM_KIND_REAL);
  EXPECT_STREQ(d[id].desc, "Busy fraction of the device-to-host direction");
}

TEST(Catalog, ExtrasAndFamiliesAreRecognisedByName) {
  EXPECT_TRUE(nicsim_metric_is_extra_name("nic.rxq3.pkts"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("irq.vec0.suppressed"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("cpu.core1.softirqs"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("bus.rd_util"));
  EXPECT_TRUE(nicsim_metric_is_extra_name("bus.desc_fetch.bytes"));
  EXPECT_FALSE(nicsim_metric_is_extra_name("rx.gbps")) << "a column, not an extra";
  EXPECT_FALSE(nicsim_metric_is_extra_name("nic.rxq.pkts"));
  bool found = false;
  for (size_t i = 0; i < nicsim_metric_extra_count(); i++)
    found = found || std::strcmp(nicsim_metric_extra_defs()[i].name, "pcie.<up|down>.<purpose>.tlps") == 0;
  EXPECT_TRUE(found);
}

}  // namespace

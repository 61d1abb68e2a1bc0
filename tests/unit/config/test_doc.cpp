// test_doc.cpp: docs/config.md's generated key reference matches the schema,
// and the generator covers every key.
#include <cstdlib>
#include <cstring>
#include <string>

#include "config_test_util.h"
#include "doc_sync.h"

namespace {

// A malloc'd C string owned by a std::string copy.
std::string take(char *s) {
  std::string r = s ? s : "";
  free(s);
  return r;
}

TEST(ConfigDoc, GeneratedTableCoversEveryKey) {
  std::string gen = take(doc_generate());
  ASSERT_FALSE(gen.empty());
  size_t rows = 0;
  for (size_t p = gen.find("\n| `"); p != std::string::npos; p = gen.find("\n| `", p + 1)) rows++;
  if (gen.rfind("| `", 0) == 0) rows++;
  EXPECT_EQ(rows, static_cast<size_t>(NC_KEY__COUNT));
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    std::string cell = std::string("| `") + nc_keys()[i].path + "` |";
    EXPECT_NE(gen.find(cell), std::string::npos) << cell;
  }
  EXPECT_NE(gen.find("| `nic.desc_spacing` | int | B | `16` | [4, 4096] |"), std::string::npos);
  EXPECT_NE(gen.find("| `traffic.mode` | enum | - | `rx` | one of rx, tx, bidir, forward |"),
            std::string::npos);
  EXPECT_NE(gen.find("### `workload`"), std::string::npos);
}

TEST(ConfigDoc, ConfigMdIsInSyncWithTheSchema) {
  const std::string path = std::string(NICSIM_SOURCE_DIR) + "/docs/config.md";
  std::string md = take(doc_read(path.c_str()));
  ASSERT_FALSE(md.empty()) << "cannot read " << path;
  char *region = doc_region(md.c_str());
  ASSERT_NE(region, nullptr) << path << " has no <!-- BEGIN KEYS --> / <!-- END KEYS --> markers";
  EXPECT_EQ(take(region), take(doc_generate()))
      << path << " is out of date: run `cmake --build <build dir> --target update-config-doc`";
}

TEST(ConfigDoc, SpliceReplacesOnlyTheRegion) {
  std::string md = "# Title\n\n" DOC_BEGIN "stale\n" DOC_END "\n\ntail\n";
  std::string out = take(doc_splice(md.c_str()));
  std::string gen = take(doc_generate());
  EXPECT_EQ(out, "# Title\n\n" DOC_BEGIN + gen + DOC_END "\n\ntail\n");
  EXPECT_EQ(take(doc_region(out.c_str())), gen);
  EXPECT_EQ(doc_splice("no markers here"), nullptr);
  EXPECT_EQ(doc_region(DOC_BEGIN "no end"), nullptr);
}

}  // namespace

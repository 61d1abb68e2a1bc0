// test_json.cpp: the JSON results document: structure, key order, typed values,
// NaN/inf, number text, and a config round trip through the loader's parser.
#include <gtest/gtest.h>
#include <jansson.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "results_test_util.h"

using nicsim_test::capture;
using nicsim_test::default_config;
using nicsim_test::fill_distinct;
using nicsim_test::full_results;
using nicsim_test::make_zeroed;

namespace {

// Owns a json_t reference.
struct Json {
  json_t *j;
  explicit Json(json_t *p) : j(p) {}
  ~Json() { json_decref(j); }
  Json(const Json &) = delete;
  Json &operator=(const Json &) = delete;
};

// Keys of a JSON object in document order.
std::vector<std::string> keys_of(json_t *obj) {
  std::vector<std::string> out;
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) out.push_back(k);
  return out;
}

// Dumps doc with nicsim_json_dump and parses the text back.
json_t *dump_and_parse(json_t *doc, std::string *text) {
  *text = capture([&](FILE *f) { EXPECT_EQ(nicsim_json_dump(doc, f), 0); });
  json_error_t err;
  json_t *back = json_loads(text->c_str(), 0, &err);
  EXPECT_NE(back, nullptr) << err.text << " at line " << err.line << "\n" << *text;
  return back;
}

TEST(Json, TopLevelStructureAndOrder) {
  auto c = default_config("before/nic.desc_spacing=16");
  auto r = full_results();
  std::string text;
  Json doc(nicsim_results_to_json("9.9.9", c.get(), r.get()));
  ASSERT_NE(doc.j, nullptr);
  Json back(dump_and_parse(doc.j, &text));
  ASSERT_NE(back.j, nullptr);
  EXPECT_EQ(keys_of(back.j), (std::vector<std::string>{"nicsim", "config", "metrics", "analysis"}));
  EXPECT_STREQ(json_string_value(json_object_get(back.j, "nicsim")), "9.9.9");
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text.find("\n  \"config\": {"), std::string::npos) << "2-space indent:\n" << text;

  json_t *config = json_object_get(back.j, "config");
  std::vector<std::string> want = {"name", "description", "platform", "label"};
  const nc_key *keys = nc_keys();
  for (size_t i = 0; i < NC_KEY__COUNT; i++)
    if (want.back() != keys[i].section) want.push_back(keys[i].section);
  EXPECT_EQ(keys_of(config), want) << "top-level strings, then the sections in schema order";
  EXPECT_STREQ(json_string_value(json_object_get(config, "name")), c->name);
  EXPECT_STREQ(json_string_value(json_object_get(config, "description")), c->description);
  EXPECT_STREQ(json_string_value(json_object_get(config, "platform")), "x86-gen3");
  EXPECT_STREQ(json_string_value(json_object_get(config, "label")), "before/nic.desc_spacing=16");
}

TEST(Json, ConfigValuesAreTypedInSchemaOrder) {
  auto c = default_config();
  fill_distinct(c.get());
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  std::string text;
  Json doc(nicsim_results_to_json("v", c.get(), r.get()));
  Json back(dump_and_parse(doc.j, &text));
  ASSERT_NE(back.j, nullptr);
  json_t *config = json_object_get(back.j, "config");
  const nc_key *keys = nc_keys();
  std::string prev_section;
  size_t idx_in_section = 0;
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    const nc_key &k = keys[i];
    json_t *sec = json_object_get(config, k.section);
    ASSERT_TRUE(json_is_object(sec)) << k.section;
    idx_in_section = prev_section == k.section ? idx_in_section + 1 : 0;
    prev_section = k.section;
    ASSERT_LT(idx_in_section, keys_of(sec).size());
    EXPECT_EQ(keys_of(sec)[idx_in_section], k.name) << "schema order in " << k.section;
    json_t *v = json_object_get(sec, k.name);
    ASSERT_NE(v, nullptr) << k.path;
    const char *field = reinterpret_cast<const char *>(c.get()) + k.offset;
    switch (k.type) {
      case NC_BOOL:
        ASSERT_TRUE(json_is_boolean(v)) << k.path;
        EXPECT_EQ(json_is_true(v), *reinterpret_cast<const bool *>(field)) << k.path;
        break;
      case NC_INT:
        ASSERT_TRUE(json_is_integer(v)) << k.path;
        EXPECT_EQ(json_integer_value(v), *reinterpret_cast<const int64_t *>(field)) << k.path;
        break;
      case NC_REAL:
        ASSERT_TRUE(json_is_real(v)) << k.path << " must be a real even when integral";
        EXPECT_EQ(json_real_value(v), *reinterpret_cast<const double *>(field)) << k.path;
        break;
      case NC_ENUM: {
        ASSERT_TRUE(json_is_string(v)) << k.path;
        std::string choices = k.choices;
        EXPECT_EQ(json_string_value(v), choices.substr(choices.rfind('|') + 1)) << k.path;
        break;
      }
      case NC_STR:
        ASSERT_TRUE(json_is_string(v)) << k.path;
        EXPECT_STREQ(json_string_value(v), field) << k.path;
        break;
    }
  }
  EXPECT_EQ(json_integer_value(json_object_get(json_object_get(config, "pcie"), "gen")),
            c->pcie.gen);
}

TEST(Json, MetricTypesAndOrder) {
  auto c = default_config();
  auto r = full_results();
  nicsim_results_set_extra(r.get(), "cpu.profile.b", "cycles", NM_KIND_COUNT, "", 20);
  nicsim_results_set_extra(r.get(), "cpu.profile.a", "cycles", NM_KIND_COUNT, "", 10);
  std::string text;
  Json doc(nicsim_results_to_json("v", c.get(), r.get()));
  Json back(dump_and_parse(doc.j, &text));
  ASSERT_NE(back.j, nullptr);
  json_t *metrics = json_object_get(back.j, "metrics");
  std::vector<std::string> want;
  const nicsim_metric_def *defs = nicsim_metric_defs();
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) want.push_back(defs[i].name);
  want.push_back("cpu.profile.a");
  want.push_back("cpu.profile.b");
  EXPECT_EQ(keys_of(metrics), want);
  for (int i = 0; i < static_cast<int>(nicsim_metric_count()); i++) {
    json_t *v = json_object_get(metrics, defs[i].name);
    if (defs[i].kind == NM_KIND_COUNT) {
      ASSERT_TRUE(json_is_integer(v)) << defs[i].name;
      EXPECT_EQ(json_integer_value(v), 1000 + i);
    } else {
      ASSERT_TRUE(json_is_real(v)) << defs[i].name;
      EXPECT_EQ(json_real_value(v), (i + 1) / 3.0) << defs[i].name << " must read back exactly";
    }
  }
  EXPECT_EQ(json_integer_value(json_object_get(metrics, "cpu.profile.a")), 10);
}

TEST(Json, NonFiniteValuesBecomeNullAndFractionalCountsStayReal) {
  auto c = default_config();
  c->run.duration_us = INFINITY;  // not a valid config, but the writer must not break
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("rx.gbps"), NAN);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.gbps"), INFINITY);
  nicsim_results_set(r.get(), nicsim_metric_find("cpu.util"), -INFINITY);
  nicsim_results_set(r.get(), nicsim_metric_find("rx.pkts"), NAN);
  nicsim_results_set(r.get(), nicsim_metric_find("tx.pkts"), 2.5);
  nicsim_results_set(r.get(), nicsim_metric_find("irq.count"), 1e30);
  std::string text;
  Json doc(nicsim_results_to_json("v", c.get(), r.get()));
  ASSERT_NE(doc.j, nullptr);
  Json back(dump_and_parse(doc.j, &text));
  ASSERT_NE(back.j, nullptr);
  json_t *metrics = json_object_get(back.j, "metrics");
  EXPECT_TRUE(json_is_null(json_object_get(metrics, "rx.gbps")));
  EXPECT_TRUE(json_is_null(json_object_get(metrics, "tx.gbps")));
  EXPECT_TRUE(json_is_null(json_object_get(metrics, "cpu.util")));
  EXPECT_TRUE(json_is_null(json_object_get(metrics, "rx.pkts")));
  EXPECT_EQ(json_real_value(json_object_get(metrics, "tx.pkts")), 2.5);
  EXPECT_EQ(json_real_value(json_object_get(metrics, "irq.count")), 1e30);
  EXPECT_TRUE(json_is_null(
      json_object_get(json_object_get(json_object_get(back.j, "config"), "run"), "duration_us")));
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
}

TEST(Json, RealsUseTheFewestDigitsThatReadBack) {
  auto c = default_config();
  auto r = make_zeroed<nicsim_results>();
  nicsim_results_init(r.get());
  nicsim_results_set(r.get(), nicsim_metric_find("rx.gbps"), 9.87);
  nicsim_results_set(r.get(), nicsim_metric_find("cpu.util"), 0.5);
  Json doc(nicsim_results_to_json("v", c.get(), r.get()));
  std::string text;
  Json back(dump_and_parse(doc.j, &text));
  EXPECT_NE(text.find("\"rx.gbps\": 9.87,\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\"duration_us\": 2000.0,\n"), std::string::npos) << "no exponent: " << text;
  EXPECT_NE(text.find("\"cpu.util\": 0.5\n"), std::string::npos) << text;

  // One value that needs 17 digits: every real still reads back exactly.
  nicsim_results_set(r.get(), nicsim_metric_find("tx.gbps"), 1.0 / 3.0);
  Json doc2(nicsim_results_to_json("v", c.get(), r.get()));
  Json back2(dump_and_parse(doc2.j, &text));
  json_t *metrics = json_object_get(back2.j, "metrics");
  EXPECT_EQ(json_real_value(json_object_get(metrics, "rx.gbps")), 9.87);
  EXPECT_EQ(json_real_value(json_object_get(metrics, "tx.gbps")), 1.0 / 3.0);
}

TEST(Json, InvalidUtf8InAStringIsReplacedNotFatal) {
  auto c = default_config();
  snprintf(c->description, sizeof c->description, "bad \xff\xfe bytes");
  auto r = full_results();
  Json doc(nicsim_results_to_json("v", c.get(), r.get()));
  ASSERT_NE(doc.j, nullptr);
  std::string text;
  Json back(dump_and_parse(doc.j, &text));
  EXPECT_STREQ(json_string_value(json_object_get(json_object_get(back.j, "config"), "description")),
               "bad ?? bytes");
}

TEST(Json, WriteGoesToTheFile) {
  auto c = default_config("p1");
  auto r = full_results();
  char dir[] = "/tmp/nicsim_json_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/out.json";
  ASSERT_EQ(nicsim_json_write(path.c_str(), "1.2.3", c.get(), r.get()), 0);
  json_error_t err;
  Json back(json_load_file(path.c_str(), 0, &err));
  ASSERT_NE(back.j, nullptr) << err.text;
  EXPECT_STREQ(json_string_value(json_object_get(back.j, "nicsim")), "1.2.3");
  EXPECT_EQ(json_integer_value(json_object_get(json_object_get(back.j, "metrics"), "rx.pkts")),
            1000 + nicsim_metric_find("rx.pkts"));
  EXPECT_EQ(
      nicsim_json_write((std::string(dir) + "/missing/out.json").c_str(), "v", c.get(), r.get()),
      -ENOENT);
  unlink(path.c_str());
  rmdir(dir);
}

// The loader's own parser reads the JSON config back into an identical config:
// every key, as written in the JSON, applied with nc_config_set.
TEST(Json, ConfigRoundTripsThroughTheLoader) {
  nc_scenario *s = nullptr;
  nc_error err{};
  ASSERT_EQ(nc_scenario_load(nullptr, &s, &err), 0) << err.msg;
  auto c = make_zeroed<nicsim_config>();
  ASSERT_EQ(nc_scenario_resolve(s, -1, nullptr, 0, c.get(), &err), 0) << err.msg;
  nc_scenario_free(s);
  c->cpu.memcpy_cycles_per_byte = 0.1;  // not exact in binary
  auto r = full_results();
  Json doc(nicsim_results_to_json("v", c.get(), r.get()));
  std::string text;
  Json back(dump_and_parse(doc.j, &text));
  json_t *config = json_object_get(back.j, "config");

  auto c2 = make_zeroed<nicsim_config>();
  nc_config_defaults(c2.get());
  const nc_key *keys = nc_keys();
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    json_t *v = json_object_get(json_object_get(config, keys[i].section), keys[i].name);
    std::string val;
    if (json_is_string(v)) {
      val = json_string_value(v);
    } else {
      char *t = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
      val = t;
      free(t);
    }
    std::string assignment = std::string(keys[i].path) + "=" + val;
    ASSERT_EQ(nc_config_set(c2.get(), assignment.c_str(), &err), 0)
        << assignment << ": " << err.msg;
  }
  for (size_t i = 0; i < NC_KEY__COUNT; i++) {
    char a[NC_PATH_MAX], b[NC_PATH_MAX];
    nc_value_format(c.get(), &keys[i], a, sizeof a);
    nc_value_format(c2.get(), &keys[i], b, sizeof b);
    EXPECT_STREQ(a, b) << keys[i].path;
  }
  EXPECT_EQ(c2->cpu.memcpy_cycles_per_byte, 0.1);
}

}  // namespace

/*
 * stats.h: statistics, declared once where they are counted (gem5's ADD_STAT
 * idea). A model declares a static table of its statistics over a snapshot
 * type S of its own (a plain struct of its counters): each entry gives the
 * metric's name, unit, kind, description and how its value follows from the
 * snapshots taken at the edges of the run. The tables are plain data, so the
 * catalogue of every metric (src/sim/stats_catalog.cpp) is there in a
 * process that never starts SystemC; a run registers the tables of the
 * models it builds with a Registry, which snapshots them at the edges and
 * evaluates them into a Sink (src/sim fills nicsim_results from it).
 *
 * The edges (docs/metrics.md):
 *   a  run.warmup_us     the measurement window opens
 *   b  run.duration_us   the window closes (traffic stops)
 *   f  the finish        the driver was removed after the drain (or the run
 *                        stopped on a violation): whole-run values
 * Entries:
 *   Decl<S>::stat     a value from the snapshots: a window delta (b - a), a
 *                     whole-run value (f), a time average of an integral
 *                     ((b - a) / window), a counter the model keeps for the
 *                     window itself (f), or any formula of them
 *   Decl<S>::family   metrics whose names are made at run time from a
 *                     pattern ("nic.rxq<q>.pkts"), one per queue, vector,
 *                     profiled function...
 *   Decl<S>::derived  a formula of other metrics' values, by name (a
 *                     system-level figure over several models)
 * Snapshots are taken only at the edges, never on a per-event path.
 * No SystemC here: the tables compile into nicsim_stats, which
 * src/results links (every *_stats.cpp under models/ goes there).
 */
#ifndef NICSIM_MODELS_COMMON_STATS_H
#define NICSIM_MODELS_COMMON_STATS_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace nicsim {
namespace stats {

/* How a value is written: Count an exact integer, Real a derived or
 * fractional figure, Wall the one figure that is not a function of the
 * configuration and seed (sim.wall_s). The values are those of the C
 * enum nicsim_metric_kind (src/results/metrics.h). */
enum class Kind : uint8_t { Count, Real, Wall };

/* What an entry is. */
enum class What : uint8_t { Stat, Family, Derived };

/* The edges a registry snapshots (see above). */
enum class Edge : uint8_t { Warmup, Duration, Finish };
constexpr int kEdges = 3;

/* An entry's description, the same for every snapshot type: what the
 * catalogue lists. */
struct Info {
  What what;
  const char *name; /* dotted name; a family's pattern with <placeholders> */
  const char *unit; /* "B", "ns", "fraction", "" for none */
  Kind kind;
  const char *desc; /* one sentence; for a family, what one instance is */
  bool extra;       /* not a CSV column of its own: reported only when present,
                       after the columns, sorted by name (families always) */
};

/* Facts about the whole run every formula may use. */
struct Run {
  double win_ps = 0;   /* length of the window, ps */
  uint64_t end_ps = 0; /* end of the drain (run.duration_us + run.drain_us), ps */
  uint64_t events = 0; /* SystemC delta cycles executed */
  double wall_s = 0;   /* wall-clock time of the simulation, s */
  double drain_extended_us = -1; /* how much longer than run.drain_us the drain ran, us; < 0: it was not extended */
};

/* What a statistic of snapshot type S is computed from. */
template <class S>
struct Edges {
  const S &a;   /* at the window's start */
  const S &b;   /* at the window's end */
  const S &f;   /* at the finish */
  const Run &run;
  /* The window's length in ns and s (as the formulas have always computed them). */
  double win_ns() const { return run.win_ps / 1000.0; }
  double win_s() const { return run.win_ps * 1e-12; }
  /* Counter m over the window, b - a. */
  template <class T>
  double delta(T S::*m) const {
    return static_cast<double>(b.*m - a.*m);
  }
  /* The same for m of sub-struct o. */
  template <class O, class T>
  double delta(O S::*o, T O::*m) const {
    return static_cast<double>((b.*o).*m - (a.*o).*m);
  }
};

/* Formula helpers for the common cases; M is a member pointer of S. */
template <class T>
struct MemberOf;
template <class C, class T>
struct MemberOf<T C::*> {
  using Class = C;
};
template <auto M>
using ClassOf = typename MemberOf<decltype(M)>::Class;

/* The window delta of counter M: b - a. */
template <auto M>
double delta(const Edges<ClassOf<M>> &e) {
  return e.delta(M);
}
/* The whole-run value of M (or a counter the model keeps for the window only), at the finish. */
template <auto M>
double at_finish(const Edges<ClassOf<M>> &e) {
  return static_cast<double>(e.f.*M);
}
/* The time average over the window of M, an integral (value x ps): (b - a) / window. */
template <auto M>
double time_avg(const Edges<ClassOf<M>> &e) {
  return static_cast<double>(e.b.*M - e.a.*M) / e.run.win_ps;
}

/* Where a family's instances go. */
class FamilyOut {
 public:
  virtual ~FamilyOut() = default;
  /* One instance: its name (matching the pattern), its own description and value. */
  virtual void add(const char *name, const char *desc, double value) = 0;
};

/* The values of the metrics emitted so far, for a derived entry. A lookup of
 * a metric the run did not report makes the entry absent. */
class Values {
 public:
  virtual ~Values() = default;
  /* The value of metric name; NaN (and the entry absent) if it was not reported. */
  virtual double operator()(const char *name) const = 0;
  /* The run's facts. */
  virtual const Run &run() const = 0;
};

/* One entry of a model's table over snapshot type S. Info comes first: the
 * catalogue reads it through TableView, whatever S. */
template <class S>
struct Decl {
  using E = Edges<S>;
  Info info;
  double (*value)(const E &) = nullptr;           /* Stat */
  bool (*when)(const E &) = nullptr;              /* Stat: reported only if true (nullptr: always) */
  void (*instances)(const E &, FamilyOut &) = nullptr; /* Family */
  double (*formula)(const Values &) = nullptr;    /* Derived */

  /* A statistic of this model's snapshots; when, if given, says whether the run reports it. */
  static constexpr Decl stat(const char *name, const char *unit, Kind kind, const char *desc,
                             double (*value)(const E &), bool (*when)(const E &) = nullptr) {
    return Decl{Info{What::Stat, name, unit, kind, desc, false}, value, when, nullptr, nullptr};
  }
  /* The same, reported only when present (not a CSV column of its own). */
  static constexpr Decl extra(const char *name, const char *unit, Kind kind, const char *desc,
                              double (*value)(const E &), bool (*when)(const E &) = nullptr) {
    return Decl{Info{What::Stat, name, unit, kind, desc, true}, value, when, nullptr, nullptr};
  }
  /* Metrics named at run time: pattern names them ("irq.vec<v>.count");
   * instances emits each one the run has. */
  static constexpr Decl family(const char *pattern, const char *unit, Kind kind, const char *desc,
                               void (*instances)(const E &, FamilyOut &)) {
    return Decl{Info{What::Family, pattern, unit, kind, desc, true}, nullptr, nullptr, instances, nullptr};
  }
  /* A formula of other metrics, by name. */
  static constexpr Decl derived(const char *name, const char *unit, Kind kind, const char *desc,
                                double (*formula)(const Values &)) {
    return Decl{Info{What::Derived, name, unit, kind, desc, false}, nullptr, nullptr, nullptr, formula};
  }
};

/* A model's table: its name ("pcie") and its entries. Declared in the
 * model's <name>_stats.h as `extern const stats::Table<S> kPcieStats;`,
 * defined with table() over a static array of Decl<S>. */
template <class S>
struct Table {
  const char *model;
  const Decl<S> *decls;
  size_t n;
};
template <class S, size_t N>
constexpr Table<S> table(const char *model, const Decl<S> (&decls)[N]) {
  return Table<S>{model, decls, N};
}

/* A table as the catalogue sees it: its entries' Info, whatever S. */
class TableView {
 public:
  template <class S>
  TableView(const Table<S> &t) : m_model(t.model), m_base(t.decls), m_stride(sizeof(Decl<S>)), m_n(t.n) {}
  const char *model() const { return m_model; }
  size_t size() const { return m_n; }
  /* Entry i's Info (Decl<S> is standard-layout with Info first). */
  const Info &at(size_t i) const {
    return *reinterpret_cast<const Info *>(static_cast<const char *>(m_base) + i * m_stride);
  }

 private:
  const char *m_model;
  const void *m_base;
  size_t m_stride;
  size_t m_n;
};

/* Where a registry's values go. */
class Sink {
 public:
  virtual ~Sink() = default;
  /* A stat or derived entry's value. */
  virtual void value(const Info &info, double v) = 0;
  /* One instance of family info. */
  virtual void instance(const Info &family, const char *name, const char *desc, double v) = 0;
};

/* The statistics of one run: the tables of the models it built, each with
 * the reader that fills its snapshot from the model. */
class Registry {
 public:
  Registry();
  ~Registry();
  Registry(const Registry &) = delete;
  Registry &operator=(const Registry &) = delete;

  /* Registers table with read, which fills a snapshot of the model now
   * (the edge is given for models that act on one, e.g. restart a maximum
   * at the window's start). */
  template <class S, class Read>
  void add(const Table<S> &t, Read read) {
    m_groups.emplace_back(new Group<S>(t.decls, t.n, std::function<void(S &, Edge)>(std::move(read))));
  }
  /* Every registered model's snapshot at edge e, now. */
  void snapshot(Edge e);
  /* True once snapshot(e) was taken. */
  bool taken(Edge e) const { return m_taken[static_cast<int>(e)]; }
  /* Evaluates every entry into out: the stats and families of each table
   * in registration order, then the derived entries (which may use any
   * value emitted before them). */
  void emit(const Run &run, Sink &out) const;

 private:
  struct GroupBase {
    virtual ~GroupBase() = default;
    virtual void snapshot(Edge e) = 0;
    /* Stats and families into out; derived entries into later. */
    virtual void emit(const Run &run, Sink &out, std::vector<const Info *> *derived_info,
                      std::vector<double (*)(const Values &)> *derived_fn) const = 0;
  };
  template <class S>
  struct Group : GroupBase {
    const Decl<S> *table;
    size_t n;
    std::function<void(S &, Edge)> read;
    std::unique_ptr<S[]> snaps; /* one per edge: large ones stay off coroutine stacks */
    Group(const Decl<S> *t, size_t count, std::function<void(S &, Edge)> r)
        : table(t), n(count), read(std::move(r)), snaps(new S[kEdges]()) {}
    void snapshot(Edge e) override { read(snaps[static_cast<int>(e)], e); }
    void emit(const Run &run, Sink &out, std::vector<const Info *> *derived_info,
              std::vector<double (*)(const Values &)> *derived_fn) const override {
      const Edges<S> e{snaps[0], snaps[1], snaps[2], run};
      struct Out : FamilyOut {
        Sink &sink;
        const Info *fam = nullptr;
        explicit Out(Sink &s) : sink(s) {}
        void add(const char *name, const char *desc, double v) override { sink.instance(*fam, name, desc, v); }
      } fam_out(out);
      for (size_t i = 0; i < n; i++) {
        const Decl<S> &d = table[i];
        switch (d.info.what) {
          case What::Stat:
            if (!d.when || d.when(e)) out.value(d.info, d.value(e));
            break;
          case What::Family:
            fam_out.fam = &d.info;
            d.instances(e, fam_out);
            break;
          case What::Derived:
            derived_info->push_back(&d.info);
            derived_fn->push_back(d.formula);
            break;
        }
      }
    }
  };

  std::vector<std::unique_ptr<GroupBase>> m_groups;
  bool m_taken[kEdges] = {};
};

/* Writes a metric identifier made from text (a function name): its letters,
 * digits and underscores, the rest left out ("(other)" gives "other"). */
std::string ident(const char *text);

/* True if name matches a family pattern: the pattern's literal text, each
 * <placeholder> one identifier ([A-Za-z0-9_]+), or one of the words of a
 * <a|b> choice. */
bool pattern_matches(const char *pattern, const char *name);

}  // namespace stats
}  // namespace nicsim
#endif

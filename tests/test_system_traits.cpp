// The table of system traits (include/skipstone/system_traits.hpp) against what is listed
// elsewhere: the host catalogue's start kinds and observables, the names of the Params, and the
// enum names that benchmarks/kernel_resources.py reads from the headers to name the kernels.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "observables.hpp"
#include "skipstone/system_traits.hpp"
#include "systems.hpp"

namespace {

using skipstone::kSystems;

// The row's start kinds are the catalogue's, and the catalogue's default start is one of them.
TEST(SystemTraits, StartKindsAreTheCatalogues) {
  for (const skipstone::SystemTraits& t : kSystems) {
    const skipstone::SystemSchema s = skipstone::system_schema(t.name);
    std::uint32_t kinds = 0;
    for (const auto& [name, start] : s.starts) kinds |= skipstone::start_bit(start.kind);
    EXPECT_EQ(kinds, t.starts) << t.name << ": the catalogue's start kinds differ from kSystems";
    EXPECT_TRUE(s.starts.count(s.default_start)) << t.name << ": default start " << s.default_start;
  }
}

// Every group of observables a row has is named, by observables the host can write.
TEST(SystemTraits, ObservableGroupsHaveNamedObservables) {
  for (const skipstone::SystemTraits& t : kSystems) {
    const skipstone::SystemSchema s = skipstone::system_schema(t.name);
    EXPECT_FALSE(s.observables.empty()) << t.name;
    for (const auto& name : s.observables) EXPECT_NO_THROW(skipstone::observable_info(name)) << t.name << ": " << name;
    const std::set<std::string> distinct(s.observables.begin(), s.observables.end());
    EXPECT_EQ(distinct.size(), s.observables.size()) << t.name << ": an observable in two groups";
  }
}

// A Param's name is a config key: unique and not empty.
TEST(SystemTraits, ParamNamesAreDistinct) {
  std::set<std::string> names;
  for (int p = 0; p < skipstone::kParamCount; ++p) {
    const std::string name = skipstone::param_name(static_cast<skipstone::Param>(p));
    EXPECT_FALSE(name.empty()) << "Param " << p;
    EXPECT_TRUE(names.insert(name).second) << "two Params are named " << name;
  }
}

// The name of a ModelKind as the enum spells it (a new enumerator without a case is a -Wswitch
// warning here).
std::string model_name(skipstone::ModelKind m) {
  using skipstone::ModelKind;
  switch (m) {
    case ModelKind::noslip_plane: return "noslip_plane";
    case ModelKind::noslip_sphere: return "noslip_sphere";
    case ModelKind::noslip_cylinder: return "noslip_cylinder";
    case ModelKind::roll_disc_transversal: return "roll_disc_transversal";
    case ModelKind::roll_planes: return "roll_planes";
    case ModelKind::roll_strip: return "roll_strip";
    case ModelKind::roll_inside_cylinder: return "roll_inside_cylinder";
    case ModelKind::roll_disc: return "roll_disc";
    case ModelKind::roll3_table: return "roll3_table";
    case ModelKind::roll4_table: return "roll4_table";
    case ModelKind::rubber_sphere: return "rubber_sphere";
    case ModelKind::driven_disk: return "driven_disk";
    case ModelKind::driven_ball: return "driven_ball";
  }
  return "?";
}

// kernel_resources.py names the kernel variants from ModelKind and TableKind as it reads them
// from the headers: each system's model and table must come out under their own names.
TEST(SystemTraits, KernelResourcesReadsTheEnums) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "/usr/bin/python3 is not installed";
  const std::string cmd =
      std::string("/usr/bin/python3 ") + SKIPSTONE_SOURCE_DIR + "/benchmarks/kernel_resources.py --enums";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ASSERT_EQ(::pclose(pipe), 0) << cmd;
  const nlohmann::json e = nlohmann::json::parse(out);
  const auto& models = e.at("models");
  const auto& tables = e.at("tables");
  std::set<int> seen;
  for (const skipstone::SystemTraits& t : kSystems) {
    const int m = static_cast<int>(t.model), k = static_cast<int>(t.table);
    ASSERT_LT(m, static_cast<int>(models.size())) << t.name;
    ASSERT_LT(k, static_cast<int>(tables.size())) << t.name;
    EXPECT_EQ(models[m].get<std::string>(), model_name(t.model)) << t.name;
    seen.insert(m);
    // a no-slip plane system is named after its table
    if (t.model == skipstone::ModelKind::noslip_plane) {
      EXPECT_EQ(tables[k].get<std::string>(), t.name);
    }
  }
  std::size_t named = 0;
  for (const auto& m : models) named += m.is_null() ? 0 : 1;
  EXPECT_EQ(seen.size(), named) << "kernel_resources.py reads a model that no system has";
  EXPECT_EQ(tables.back().get<std::string>(), "none");
  EXPECT_EQ(tables.size(), static_cast<std::size_t>(skipstone::TableKind::none) + 1);
}

// The systems with a float kernel (options.precision float), as docs/config.md and
// docs/numerics.md list them: the no-slip disc and cylinder:disc, roll4:disc and its Figure-18
// system, and every rolling table roll3:<table>, roll4:<table>.
TEST(SystemTraits, FloatKernelsAreTheListedSystems) {
  const std::set<std::string> listed = {"disc", "cylinder:disc", "roll4:disc-transversal", "roll4:disc",
                                        "roll3:disc", "roll3:stadium", "roll3:ellipse", "roll3:rectangle",
                                        "roll3:polygon", "roll3:sinai", "roll4:stadium", "roll4:ellipse",
                                        "roll4:rectangle", "roll4:polygon", "roll4:sinai"};
  std::set<std::string> with_float;
  for (const skipstone::SystemTraits& t : kSystems)
    if (t.float_kernel) with_float.insert(t.name);
  EXPECT_EQ(with_float, listed);
}

}  // namespace

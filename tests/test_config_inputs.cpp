// Config inputs that must never surprise: a key given twice, an empty axes list, a config path
// that is a folder or missing, JSON that is not JSON (NaN, Infinity, 1e999) and integers out
// of range each give a ConfigError that names the key path and what is allowed (exit status 2
// in the CLI); a misspelt key at any level is answered with the nearest allowed key; and the
// top-level "description" is kept in the resolved config and so in meta.json. A NUL byte or
// text after the document is not JSON, and a config that is not JSON is reported naming its
// file. Command-line values get the same care: every numeric option of every subcommand is
// read strictly (no spaces, no wrap-around) against a stated range, and an empty path, an
// option where a value belongs, a single-dash option and a missing command exit 2 naming them.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "cli_support.hpp"
#include "config.hpp"
#include "config_error.hpp"

namespace {

using skipstone::ConfigError;
using skipstone::parse_config;
using skipstone::parse_config_text;
using namespace skipstone::testing;

// A valid disc config with `extra` spliced in at the top level and the given sections.
std::string disc(const std::string& parameters = R"({"gamma": 0.8})", const std::string& stop = R"({"max_events": 10})",
                 const std::string& extra = "") {
  return R"({"system": "disc", "parameters": )" + parameters + R"(, "stop": )" + stop + extra + "}";
}

// The ConfigError of parsing `text`; fails the test if it parses or throws something else.
ConfigError rejection(const std::string& text) {
  try {
    parse_config_text(text);
  } catch (const ConfigError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ConfigError: " << e.what() << "\n" << text;
    return ConfigError("(none)", "");
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return ConfigError("(none)", "");
}

void expect_message_has(const ConfigError& e, const std::string& needle) {
  EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "\"" << needle << "\" not in: " << e.what();
}

TEST(ConfigInputs, ADuplicateKeyIsRejectedWithItsPath) {
  const ConfigError top = rejection(R"({"system": "disc", "system": "disc", "parameters": {"gamma": 0.8}, "stop": {"max_events": 10}})");
  EXPECT_EQ(top.key(), "system");
  expect_message_has(top, "duplicate key");
  EXPECT_EQ(rejection(disc(R"({"gamma": 0.8, "gamma": 0.5})")).key(), "parameters.gamma");
  const std::string axes = R"(, "scan": {"axes": [{"param": "angle", "min": 0, "max": 1, "n": 3},
                                                 {"param": "spin", "min": 0, "max": 1, "n": 3, "n": 4}]})";
  EXPECT_EQ(rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", axes)).key(), "scan.axes[1].n");
  // the same key in two different objects is no duplicate
  EXPECT_NO_THROW(parse_config_text(disc(R"({"gamma": 0.8, "R": 1})", R"({"max_events": 10})",
                                         R"(, "initial": {"start": "boundary"}, "scan": {"axes": [{"param": "angle", "min": 0, "max": 1, "n": 2}]})")));
}

TEST(ConfigInputs, AnEmptyAxesListIsRejected) {
  const ConfigError e = rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", R"(, "scan": {"type": "grid", "axes": []})"));
  EXPECT_EQ(e.key(), "scan.axes");
  expect_message_has(e, "allowed: 1 to 8 axes");
  // without axes a run is one trajectory, and its resolved config (which merge re-reads) has none
  const auto rc = parse_config_text(disc());
  EXPECT_EQ(rc.spec.count, 1u);
  EXPECT_FALSE(rc.resolved.at("scan").contains("axes")) << rc.resolved.dump();
  EXPECT_EQ(parse_config(rc.resolved).resolved, rc.resolved);
}

TEST(ConfigInputs, NotJsonNamesTheKeyBeingReadAndTheLine) {
  const ConfigError overflow = rejection(disc(R"({"gamma": 0.8, "R": 1e999})"));
  EXPECT_EQ(overflow.key(), "parameters.R");
  expect_message_has(overflow, "allowed: a finite number");
  const ConfigError nan = rejection(disc(R"({"gamma": NaN})"));
  EXPECT_EQ(nan.key(), "parameters.gamma");
  expect_message_has(nan, "line 1, column");
  expect_message_has(nan, "NaN and Infinity are not JSON");
  const std::string axes = R"(, "scan": {"axes": [{"param": "angle", "min": 0, "max": 1, "n": 3},
                                                 {"param": "spin", "min": 0, "max": Infinity, "n": 3}]})";
  const ConfigError inf = rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", axes));
  EXPECT_EQ(inf.key(), "scan.axes[1].max");
  expect_message_has(inf, "line 2, column");
  EXPECT_EQ(rejection(disc(R"({"gamma": 0.8,})")).key(), "parameters");
  EXPECT_EQ(rejection("not json").key(), "(file)");
}

TEST(ConfigInputs, ANulByteOrTextAfterTheDocumentIsNotJson) {
  std::string text = disc();
  text.push_back('\0');
  ConfigError e = rejection(text);
  EXPECT_EQ(e.key(), "(file)");
  expect_message_has(e, "not valid JSON: a NUL byte at line 1, column " + std::to_string(disc().size() + 1));
  e = rejection(disc() + "\n x");
  expect_message_has(e, "not valid JSON");
  expect_message_has(e, "line 2");
  EXPECT_NO_THROW(parse_config_text(disc() + " \n\t\r\n"));
}

TEST(ConfigInputs, AnIntegerOutOfRangeNamesTheAllowedRange) {
  const ConfigError huge = rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 1e20})"));
  EXPECT_EQ(huge.key(), "stop.max_events");
  expect_message_has(huge, "allowed: an integer in [1, 18446744073709551615]");
  expect_message_has(rejection(disc(R"({"gamma": 0.8})", R"({"max_events": -3})")), "allowed: an integer in [1, ");
  expect_message_has(rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 2.5})")), "allowed: an integer in [1, ");
  const ConfigError bins = rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})",
                                          R"(, "histograms": {"rho_even": {"min": 0, "max": 1, "bins": 1e7}})"));
  EXPECT_EQ(bins.key(), "histograms.rho_even.bins");
  expect_message_has(bins, "allowed: an integer in [1, 1000000]");
}

// A config built in code holds small integers as signed JSON numbers (the parser of a text
// gives unsigned ones): a positive one is accepted, a negative one named with its range.
TEST(ConfigInputs, SignedIntegersBuiltInCodeAreCheckedByValue) {
  nlohmann::json config = nlohmann::json::parse(disc());
  config["stop"]["max_events"] = std::int64_t{3};
  ASSERT_TRUE(config["stop"]["max_events"].is_number_integer() && !config["stop"]["max_events"].is_number_unsigned());
  EXPECT_EQ(parse_config(config).resolved["stop"]["max_events"], 3);
  config["stop"]["max_events"] = std::int64_t{-3};
  try {
    parse_config(config);
    ADD_FAILURE() << "max_events -3 accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "stop.max_events");
    expect_message_has(e, "allowed: an integer in [1, ");
  }
}

TEST(ConfigInputs, AMisspeltKeyGetsTheNearestAllowedOneAtEveryLevel) {
  for (const char* misspelt : {"observable", "histogram"}) {
    const ConfigError e = rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", std::string(R"(, ")") + misspelt + R"(": {})"));
    EXPECT_EQ(e.key(), misspelt);
    expect_message_has(e, std::string("did you mean \"") + misspelt + "s\"?");
    for (const char* key : {"description", "histograms", "initial", "observables", "options", "parameters", "scan", "stop", "system"})
      expect_message_has(e, key);
  }
  // a misspelt section is reported as such, not as the section's absence
  const ConfigError section = rejection(R"({"system": "disc", "parameter": {"gamma": 0.8}, "stop": {"max_events": 10}})");
  EXPECT_EQ(section.key(), "parameter");
  expect_message_has(section, "did you mean \"parameters\"?");
  const ConfigError gamma = rejection(disc(R"({"gama": 0.8})"));
  EXPECT_EQ(gamma.key(), "parameters.gama");
  expect_message_has(gamma, "did you mean \"gamma\"?");
  expect_message_has(rejection(disc(R"({"gamma": 0.8})", R"({"max_event": 10})")), "did you mean \"max_events\"?");
  expect_message_has(rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", R"(, "options": {"rtoll": 1e-9})")),
                     "did you mean \"rtol\"?");
  expect_message_has(rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", R"(, "initial": {"strat": "boundary"})")),
                     "did you mean \"start\"?");
  // a required key that is missing next to a near miss
  const ConfigError n = rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})",
                                       R"(, "scan": {"axes": [{"param": "angle", "min": 0, "max": 1, "nn": 3}]})"));
  EXPECT_EQ(n.key(), "scan.axes[0].n");
  expect_message_has(n, "is \"nn\" a misspelling of it?");
  // nothing near: no suggestion
  const ConfigError far = rejection(disc(R"({"gamma": 0.8, "zzzzzz": 1})"));
  EXPECT_EQ(std::string(far.what()).find("did you mean"), std::string::npos) << far.what();
}

TEST(ConfigInputs, TheDescriptionIsKeptInTheResolvedConfig) {
  const auto rc = parse_config_text(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", R"(, "description": "disc, gamma 0.8")"));
  EXPECT_EQ(rc.resolved.at("description"), "disc, gamma 0.8");
  EXPECT_EQ(parse_config(rc.resolved).resolved, rc.resolved);
  EXPECT_FALSE(parse_config_text(disc()).resolved.contains("description"));
  EXPECT_EQ(rejection(disc(R"({"gamma": 0.8})", R"({"max_events": 10})", R"(, "description": 3)")).key(), "description");
}

class ConfigInputsCli : public CliTest {};

TEST_F(ConfigInputsCli, TheDescriptionReachesMetaJson) {
  const fs::path cfg = write_config("described.json", disc(R"({"gamma": 0.8})", R"({"max_events": 10})",
                                                           R"(, "description": "a described run")"));
  const CliResult r = run(cfg, dir_ / "out", "--backend cpu");
  ASSERT_EQ(r.rc, 0) << describe(r);
  const json meta = json::parse(read_text(dir_ / "out" / "meta.json"));
  EXPECT_EQ(meta.at("config").at("description"), "a described run");
}

TEST_F(ConfigInputsCli, AConfigPathThatIsAFolderOrMissingExitsTwoNamingIt) {
  const fs::path folder = dir_ / "a_folder.json";
  fs::create_directories(folder);
  CliResult r = run(folder, dir_ / "out");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("config error: " + folder.string() + ": not a file"), std::string::npos) << describe(r);
  const fs::path missing = dir_ / "missing.json";
  r = run(missing, dir_ / "out");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("config error: " + missing.string() + ": no such file"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(ConfigInputsCli, AnUnreadableConfigExitsTwoNamingIt) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: every file is readable";
  const fs::path unreadable = write_config("unreadable.json", disc());
  fs::permissions(unreadable, fs::perms::none);
  const CliResult r = run(unreadable, dir_ / "out");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("config error: " + unreadable.string() + ": cannot open"), std::string::npos) << describe(r);
}

TEST_F(ConfigInputsCli, AConfigThatIsNotJsonIsReportedNamingTheFile) {
  const fs::path empty = write_config("empty.json", "");
  CliResult r = run(empty, dir_ / "out");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("config error: " + empty.string() + ": not valid JSON"), std::string::npos) << describe(r);
  const fs::path broken = write_config("broken.json", R"({"system": "disc", "parameters": {"gamma": 0.8,}})");
  r = run(broken, dir_ / "out");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("not valid JSON in " + broken.string()), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(ConfigInputsCli, BadCommandLineValuesExitTwoNamingTheOptionAndWhatIsAllowed) {
  const std::string cfg = shell_quote(write_config("c.json", disc()).string());  // 1 trajectory
  const std::string out = shell_quote((dir_ / "out").string());
  const std::string csv = shell_quote((dir_ / "t.csv").string());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "skipstone: a COMMAND is needed"},
      {"run " + cfg + " --out " + out + " --threads 4294967297", "--threads 4294967297: expected an integer in [1, 4096]"},
      {"run " + cfg + " --out " + out + " --threads ' 4'", "--threads  4: expected an integer in [1, 4096]"},
      {"run " + cfg + " --out " + out + " --threads -1", "--threads -1: expected an integer in [1, 4096]"},
      {"run " + cfg + " --out " + out + " --chunk 4294967296", "--chunk 4294967296: expected an integer in [1, 1000000000]"},
      {"run " + cfg + " --out ''", "--out: empty path"},
      {"run " + cfg + " --out --quiet", "option --out needs a value"},
      {"run " + cfg + " --out " + out + " -o", "unknown option -o"},
      {"trace " + cfg + " --out " + csv + " --index 18446744073709551616",
       "--index 18446744073709551616: expected an integer in [0, 18446744073709551615]"},
      {"trace " + cfg + " --out " + csv + " --index 1", "--index 1: expected an integer in [0, 0] (the scan has 1 trajectories)"},
      {"trace " + cfg + " --out " + csv + " --sample ' 0.1'", "--sample  0.1: expected a finite number > 0"},
      {"trace " + cfg + " --out " + csv + " --max-rows 0", "--max-rows 0: expected an integer in [1, 1000000000]"},
      {"trace " + cfg + " --out ''", "--out: empty path"},
      {"merge s0 --out ''", "--out: empty path"},
      {"run " + cfg + " --out -", "--out -: the outputs are a folder, not standard output"},
      {"merge s0 --out -", "--out -: the outputs are a folder, not standard output"},
      {"merge '' --out " + out, "SHARD_DIR argument '': empty path"},
      {"bench --reps ' 1'", "--reps  1: expected an integer in [1, 1000]"},
      {"bench --reps 1001", "--reps 1001: expected an integer in [1, 1000]"},
      {"bench --scaling --max-trajectories 1e16", "--max-trajectories 1e16: expected an integer in [1, 1000000000000000]"},
      {"bench --json ''", "--json: empty path"}};
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const CliResult r = skipstone(args);
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE(r.err.find(message), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "out"));
    EXPECT_FALSE(fs::exists(dir_ / "t.csv"));
  }
}

}  // namespace

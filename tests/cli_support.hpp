// Helpers for the end-to-end tests of the skipstone executable: a fixture with a fresh
// temporary folder per test, running `skipstone ARGS` as a child process with its exit status
// and captured stdout/stderr, and small file helpers.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace skipstone::testing {

namespace fs = std::filesystem;
using nlohmann::json;

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  ASSERT_TRUE(out.good()) << "cannot write " << p;
}

inline std::set<std::string> file_names(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

struct CliResult {
  int rc = -1;  // exit status; -1 when the child did not exit normally
  std::string out, err;
};

// Runs the shell `command` with stdout and stderr captured through the files `out` and `err`
// (removed afterwards) and no standard input.
inline CliResult run_captured(const std::string& command, const fs::path& out, const fs::path& err) {
  const std::string cmd = command + " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string()) + " </dev/null";
  const int st = std::system(cmd.c_str());
  CliResult r;
  r.rc = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(err, ec);
  return r;
}

// A fresh temporary folder per test; every child process's stdout/stderr is captured there.
inline std::string describe(const CliResult& r) {
  return "exit " + std::to_string(r.rc) + "\n--- stdout:\n" + r.out + "\n--- stderr:\n" + r.err;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<unsigned> counter{0};
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    dir_ = fs::temp_directory_path() / ("skipstone_test_cli." + std::to_string(::getpid()) + "." +
                                        std::to_string(counter.fetch_add(1)) + "." + name);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // Runs `skipstone ARGS` (ARGS already shell-quoted where needed).
  CliResult skipstone(const std::string& args) {
    const unsigned id = calls_++;
    const fs::path out = dir_ / ("stdout." + std::to_string(id) + ".txt");
    const fs::path err = dir_ / ("stderr." + std::to_string(id) + ".txt");
    return run_captured(shell_quote(SKIPSTONE_BINARY) + (args.empty() ? "" : " " + args), out, err);
  }

  fs::path write_config(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    write_text(p, text);
    return p;
  }

  // `skipstone run CONFIG --out DIR --quiet EXTRA`
  CliResult run(const fs::path& config, const fs::path& out, const std::string& extra = "") {
    return skipstone("run " + shell_quote(config.string()) + " --out " + shell_quote(out.string()) + " --quiet" +
                     (extra.empty() ? "" : " " + extra));
  }

  // Runs config `one` into dir_/one and `chunked` (the same scan in small chunks) into
  // dir_/chunked and as 3 shards merged into dir_/merged; each of `files` must be the same bytes
  // in the three folders (outputs that do not depend on chunks, shards or merging).
  void expect_same_files_over_chunks_and_shards(const fs::path& one, const fs::path& chunked,
                                                std::initializer_list<const char*> files) {
    CliResult r = run(one, dir_ / "one", "--backend cpu");
    ASSERT_EQ(r.rc, 0) << describe(r);
    r = run(chunked, dir_ / "chunked", "--backend cpu");
    ASSERT_EQ(r.rc, 0) << describe(r);
    std::string shards;
    for (int i = 0; i < 3; ++i) {
      const fs::path d = dir_ / ("shard" + std::to_string(i));
      r = run(chunked, d, "--backend cpu --shard " + std::to_string(i) + "/3");
      ASSERT_EQ(r.rc, 0) << describe(r);
      shards += " " + shell_quote(d.string());
    }
    r = skipstone("merge" + shards + " --out " + shell_quote((dir_ / "merged").string()) + " --quiet");
    ASSERT_EQ(r.rc, 0) << describe(r);
    for (const char* f : files) {
      EXPECT_EQ(read_text(dir_ / "one" / f), read_text(dir_ / "chunked" / f)) << f;
      EXPECT_EQ(read_text(dir_ / "one" / f), read_text(dir_ / "merged" / f)) << f;
    }
  }

  fs::path dir_;
  unsigned calls_ = 0;
};

// A 130 x 100 grid of disc boundary starts, 13000 trajectories of up to 200 impacts: 4
// statistics blocks of 4096; status.npy is 13 kB, events.npy 104 kB.
inline const char* const kDiscGrid130x100 = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 130},
                                    {"param": "spin", "min": -1, "max": 1, "n": 100}]},
  "stop": {"max_events": 200}
})";

// The config's initial section of a start from a file of states (initial.start state_file).
inline std::string state_file_initial(const fs::path& file) {
  return R"("initial": {"start": "state_file", "file": ")" + file.string() + "\"}";
}

inline json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}

}  // namespace skipstone::testing

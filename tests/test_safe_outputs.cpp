// Outputs that never clobber, inputs that never surprise (end to end, through the executable):
// `trace --out` through a symbolic link replaces the link's target and keeps the link, writes
// devices, pipes and "-" (standard output) in place; a masked start gives the CSV header; a run
// or merge into a folder holding another run's outputs is refused unless --overwrite, which
// leaves none of the old run's files and none of the user's lost; a grid larger than the memory
// is refused before the run; an option given twice is an error for every subcommand. An
// existing file is replaced by trace --out and bench --json only with --overwrite; a FIFO
// without a reader, a file-size limit and a trace with too many rows fail at once, leaving
// nothing behind; bench --json - writes the document alone on standard output.
#include <sys/stat.h>
#include <sys/types.h>

#include <algorithm>

#include <string>
#include <vector>

#include "cli_support.hpp"

namespace {

using namespace skipstone::testing;

const char* const kGridA = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 16},
                                    {"param": "spin", "min": -1, "max": 1, "n": 12}]},
  "stop": {"max_events": 20}, "observables": ["status", "t_end", "events", "energy_error"]})";

// Another run: another table and fewer observables.
const char* const kGridB = R"({
  "system": "stadium", "parameters": {"half_length": 1.0, "R": 1.0, "gamma": 0.8}, "initial": {"start": "boundary"},
  "scan": {"type": "grid", "axes": [{"param": "boundary_s", "min": 0, "max": 1, "n": 10},
                                    {"param": "angle", "min": -1, "max": 1, "n": 8}]},
  "stop": {"max_events": 20}, "observables": ["status", "t_end"]})";

const std::set<std::string> kOutputsA = {"meta.json",  "status.npy", "status.png",       "t_end.npy",       "t_end.png",
                                         "events.npy", "events.png", "energy_error.npy", "energy_error.png"};
const std::set<std::string> kOutputsB = {"meta.json", "status.npy", "status.png", "t_end.npy", "t_end.png"};

// A disc scan whose point 0 starts outside the table: masked.
const char* const kMaskedStart = R"({
  "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "interior", "x": 5.0, "y": 0.0},
  "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1, "max": 1, "n": 4}]}, "stop": {"max_events": 20}})";

const char* const kDiscHeader = "event,t,x,y,ux,uy,spin,contact_x,contact_y";

class SafeOutputs : public CliTest {
 protected:
  // `sh -c SCRIPT` in the test folder, with stdout and stderr captured.
  CliResult shell(const std::string& script) {
    const fs::path out = dir_ / "sh.stdout.txt", err = dir_ / "sh.stderr.txt";
    return run_captured("cd " + shell_quote(dir_.string()) + " && sh -c " + shell_quote(script), out, err);
  }
  static std::string bin() { return shell_quote(SKIPSTONE_BINARY); }
  CliResult trace(const fs::path& config, const std::string& out) {
    return skipstone("trace " + shell_quote(config.string()) + " --out " + shell_quote(out));
  }
  static std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }
};

// ------------------------------------------------------------------ trace --out ----

TEST_F(SafeOutputs, TraceIntoAnExistingFileOrALinkToOneIsRefusedUnlessOverwrite) {
  const fs::path cfg = write_config("a.json", kGridA);
  write_text(dir_ / "old.csv", "old contents\n");
  fs::create_symlink("old.csv", dir_ / "link.csv");
  for (const char* name : {"old.csv", "link.csv"}) {
    SCOPED_TRACE(name);
    const CliResult r = trace(cfg, (dir_ / name).string());
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE(r.err.find((dir_ / name).string() + ": the file exists; add --overwrite"), std::string::npos) << describe(r);
    EXPECT_EQ(read_text(dir_ / "old.csv"), "old contents\n");
  }
  const CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote((dir_ / "old.csv").string()) +
                                " --overwrite");
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_EQ(first_line(read_text(dir_ / "old.csv")), kDiscHeader);
}

TEST_F(SafeOutputs, TraceThroughASymlinkReplacesTheTargetAndKeepsTheLink) {
  const fs::path cfg = write_config("a.json", kGridA);
  write_text(dir_ / "target.csv", "old contents\n");
  fs::create_symlink("target.csv", dir_ / "link.csv");
  const CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --out " + shell_quote((dir_ / "link.csv").string()) +
                                " --overwrite");
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv")) << "the link was replaced by a file";
  EXPECT_EQ(first_line(read_text(dir_ / "target.csv")), kDiscHeader);
  EXPECT_EQ(read_text(dir_ / "link.csv"), read_text(dir_ / "target.csv"));
}

TEST_F(SafeOutputs, TraceThroughADanglingSymlinkCreatesItsTarget) {
  const fs::path cfg = write_config("a.json", kGridA);
  fs::create_directories(dir_ / "sub");
  fs::create_symlink("sub/new.csv", dir_ / "link.csv");
  const CliResult r = trace(cfg, (dir_ / "link.csv").string());
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(first_line(read_text(dir_ / "sub" / "new.csv")), kDiscHeader);
}

TEST_F(SafeOutputs, TraceToADeviceThroughALinkWritesTheDevice) {
  const fs::path cfg = write_config("a.json", kGridA);
  fs::create_symlink("/dev/null", dir_ / "null.csv");
  const CliResult r = trace(cfg, (dir_ / "null.csv").string());
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_TRUE(fs::is_symlink(dir_ / "null.csv"));
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST_F(SafeOutputs, TraceToAPipeWritesThePipe) {
  write_config("a.json", kGridA);
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  // Without a writer the reader gives up after 20 s instead of hanging the test. The reader
  // must have opened the pipe first (a pipe without a reader is an error): 1 s to do so.
  const CliResult r =
      shell("(timeout 20 cat fifo > got.csv &) ; sleep 1; " + bin() + " trace a.json --out fifo; s=$?; sleep 1; exit $s");
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo")) << "the pipe was replaced by a file";
  EXPECT_EQ(first_line(read_text(dir_ / "got.csv")), kDiscHeader);
}

TEST_F(SafeOutputs, TraceToAPipeWithoutAReaderFailsAtOnce) {
  write_config("a.json", kGridA);
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  // `timeout` turns a hang (waiting for a reader) into exit 124.
  const CliResult r = shell("timeout 20 " + bin() + " trace a.json --out fifo");
  EXPECT_EQ(r.rc, 1) << describe(r);
  EXPECT_NE(r.err.find("no reader on FIFO 'fifo'"), std::string::npos) << describe(r);
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo"));
}

TEST_F(SafeOutputs, TraceBeyondTheFileSizeLimitFailsNamingTheFileAndLeavesNoTemporary) {
  write_config("a.json", kGridA);
  // SIGXFSZ at its default disposition: skipstone must ignore it itself. The limit applies to
  // the subshell only; its messages and exit status come through a pipe, which it does not limit.
  const CliResult r = shell("{ (trap - XFSZ; ulimit -f 0; exec " + bin() + " trace a.json --out t.csv) 2>&1; echo \"rc=$?\"; } | cat");
  EXPECT_NE(r.out.find("rc=1"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("'t.csv': File too large"), std::string::npos) << describe(r);
  EXPECT_EQ(file_names(dir_), (std::set<std::string>{"a.json"}));
}

TEST_F(SafeOutputs, TraceRowsBeyondMaxRowsStopTheTraceAndWriteNothing) {
  const fs::path cfg = write_config("a.json", kGridA);  // at most 20 events
  const std::string csv = shell_quote((dir_ / "t.csv").string());
  CliResult r = skipstone("trace " + shell_quote(cfg.string()) + " --out " + csv + " --max-rows 5");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("--max-rows 5: the trajectory has more rows"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("stop.t_max"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "t.csv"));
  r = skipstone("trace " + shell_quote(cfg.string()) + " --out " + csv + " --max-rows 30");
  EXPECT_EQ(r.rc, 0) << describe(r);
}

TEST_F(SafeOutputs, BenchJsonToDashWritesOneDocumentOnStandardOutput) {
  const CliResult r = shell(bin() + " bench --quick --reps 1 --json -");
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "-")) << "a file named '-' was created";
  const json doc = json::parse(r.out);  // the report went to stderr
  EXPECT_EQ(doc.at("reps"), 1);
  EXPECT_NE(r.err.find("skipstone bench"), std::string::npos) << describe(r);
}

TEST_F(SafeOutputs, BenchJsonIntoAnExistingFileIsRefusedBeforeItRuns) {
  write_text(dir_ / "old.json", "{}\n");
  const CliResult r = shell(bin() + " bench --quick --reps 1 --json old.json");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("--json old.json: the file exists; add --overwrite"), std::string::npos) << describe(r);
  EXPECT_EQ(r.out, "") << "the bench ran";
  EXPECT_EQ(read_text(dir_ / "old.json"), "{}\n");
}

TEST_F(SafeOutputs, TraceToDashWritesStandardOutput) {
  write_config("a.json", kGridA);
  const CliResult r = shell(bin() + " trace a.json --out -");
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "-")) << "a file named '-' was created";
  EXPECT_EQ(first_line(r.out), kDiscHeader) << describe(r);
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << "the summary belongs on stderr\n" << describe(r);
  EXPECT_NE(r.err.find("wrote"), std::string::npos) << describe(r);
}

TEST_F(SafeOutputs, TraceToALinkToStandardOutputWritesStandardOutput) {
  // A link of ours to this process's standard output (a file here), not the system's /dev/stdout.
  write_config("a.json", kGridA);
  fs::create_symlink("/proc/self/fd/1", dir_ / "stdout.csv");
  const CliResult r = shell(bin() + " trace a.json --out stdout.csv");
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_TRUE(fs::is_symlink(dir_ / "stdout.csv"));
  EXPECT_EQ(first_line(r.out), kDiscHeader) << describe(r);
}

// ------------------------------------------------------------------ masked trace ----

TEST_F(SafeOutputs, TraceOfAMaskedStartWritesTheHeaderAndSaysSo) {
  const fs::path cfg = write_config("masked.json", kMaskedStart);
  const CliResult r = trace(cfg, (dir_ / "m.csv").string());
  ASSERT_EQ(r.rc, 0) << describe(r);
  EXPECT_EQ(read_text(dir_ / "m.csv"), std::string(kDiscHeader) + "\n");
  EXPECT_NE(r.err.find("masked"), std::string::npos) << describe(r);
}

// The header now comes from the model before any row: it must name the columns the rows have.
TEST_F(SafeOutputs, TraceHeaderHasTheColumnsOfTheRowsForEveryModel) {
  const fs::path examples = fs::path(SKIPSTONE_SOURCE_DIR) / "examples";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"disc_caustics.json", "0"}, {"sphere.json", "0"},      {"cylinder_rolling_impact.json", "0"},
      {"figure11.json", "0"},      {"figure16.json", "0"},    {"inside_cylinder.json", "0"},
      {"figure19.json", "0"},      {"figure18.json", "524800"},  // the centre of Figure 18's energy disc
      {"rubber_sphere_b.json", "0"}};
  for (const auto& [file, index] : cases) {
    SCOPED_TRACE(file);
    const fs::path csv = dir_ / (file + ".csv");
    const CliResult r = skipstone("trace " + shell_quote((examples / file).string()) + " --index " + index + " --out " +
                                  shell_quote(csv.string()));
    ASSERT_EQ(r.rc, 0) << describe(r);
    const std::string text = read_text(csv);
    const std::string header = first_line(text);
    const std::size_t second = text.find('\n') + 1;
    ASSERT_LT(second, text.size()) << "no rows";
    const std::string row = text.substr(second, text.find('\n', second) - second);
    EXPECT_EQ(std::count(header.begin(), header.end(), ','), std::count(row.begin(), row.end(), ','))
        << header << "\n" << row;
  }
}

// ------------------------------------------------------------ another run's outputs ----

TEST_F(SafeOutputs, RunIntoAnotherRunsFolderIsRefused) {
  const fs::path a = write_config("a.json", kGridA), b = write_config("b.json", kGridB);
  const fs::path out = dir_ / "out";
  ASSERT_EQ(run(a, out, "--backend cpu").rc, 0);
  const std::string meta_a = read_text(out / "meta.json");
  const CliResult r = run(b, out, "--backend cpu");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find(out.string()), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("events.npy"), std::string::npos) << "the message names what is there\n" << describe(r);
  EXPECT_NE(r.err.find("--overwrite"), std::string::npos) << describe(r);
  EXPECT_EQ(file_names(out), kOutputsA);
  EXPECT_EQ(read_text(out / "meta.json"), meta_a);
}

TEST_F(SafeOutputs, OverwriteLeavesNoFileOfTheOldRunAndKeepsTheUsersFiles) {
  const fs::path a = write_config("a.json", kGridA), b = write_config("b.json", kGridB);
  const fs::path out = dir_ / "out";
  ASSERT_EQ(run(a, out, "--backend cpu").rc, 0);
  write_text(out / "notes.txt", "mine");
  fs::create_directories(out / "plots");
  const CliResult r = run(b, out, "--backend cpu --overwrite");
  ASSERT_EQ(r.rc, 0) << describe(r);
  std::set<std::string> expected = kOutputsB;
  expected.insert({"notes.txt", "plots"});
  EXPECT_EQ(file_names(out), expected);
  EXPECT_EQ(read_json(out / "meta.json").at("system"), "stadium");
  EXPECT_EQ(read_text(out / "notes.txt"), "mine");
  EXPECT_NE(r.err.find("notes.txt"), std::string::npos) << "says which files it keeps\n" << describe(r);
}

TEST_F(SafeOutputs, UnrecordedOutputFilesAreRefusedEvenWithOverwrite) {
  const fs::path a = write_config("a.json", kGridA), b = write_config("b.json", kGridB);
  const fs::path out = dir_ / "out";
  ASSERT_EQ(run(a, out, "--backend cpu").rc, 0);
  write_text(out / "my_analysis.npy", "not skipstone's");
  const CliResult r = run(b, out, "--backend cpu --overwrite");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("my_analysis.npy"), std::string::npos) << describe(r);
  std::set<std::string> expected = kOutputsA;
  expected.insert("my_analysis.npy");
  EXPECT_EQ(file_names(out), expected);
  // Maps without a meta.json (an unfinished run, or the user's): also refused.
  const fs::path loose = dir_ / "loose";
  fs::create_directories(loose);
  write_text(loose / "t_end.npy", "whose?");
  const CliResult l = run(b, loose, "--backend cpu --overwrite");
  EXPECT_EQ(l.rc, 2) << describe(l);
  EXPECT_EQ(read_text(loose / "t_end.npy"), "whose?");
}

TEST_F(SafeOutputs, ShardIntoAnotherShardsFolderIsRefusedAndAFinishedShardResumes) {
  const fs::path a = write_config("a.json", kGridA);
  const fs::path s1 = dir_ / "s1";
  ASSERT_EQ(run(a, s1, "--backend cpu --shard 1/2").rc, 0);
  const CliResult other = run(a, s1, "--backend cpu --shard 0/2");
  EXPECT_EQ(other.rc, 2) << describe(other);
  EXPECT_EQ(read_json(s1 / "meta.json").at("partial").at("shard"), 1);
  // A shard task started again with --resume after it had finished (a requeued array task).
  const CliResult again = run(a, s1, "--backend cpu --shard 1/2 --resume");
  EXPECT_EQ(again.rc, 0) << describe(again);
  // Another run with --resume is still another run.
  const CliResult whole = run(a, s1, "--backend cpu --resume");
  EXPECT_EQ(whole.rc, 2) << describe(whole);
}

TEST_F(SafeOutputs, MergeIntoAnotherRunsFolderIsRefusedUnlessOverwrite) {
  const fs::path a = write_config("a.json", kGridA), b = write_config("b.json", kGridB);
  const fs::path s0 = dir_ / "s0", s1 = dir_ / "s1", out = dir_ / "out";
  ASSERT_EQ(run(a, s0, "--backend cpu --shard 0/2").rc, 0);
  ASSERT_EQ(run(a, s1, "--backend cpu --shard 1/2").rc, 0);
  ASSERT_EQ(run(b, out, "--backend cpu").rc, 0);
  const std::string shards = shell_quote(s0.string()) + " " + shell_quote(s1.string());
  const CliResult refused = skipstone("merge " + shards + " --out " + shell_quote(out.string()) + " --quiet");
  EXPECT_EQ(refused.rc, 2) << describe(refused);
  EXPECT_EQ(file_names(out), kOutputsB);
  const CliResult merged = skipstone("merge " + shards + " --out " + shell_quote(out.string()) + " --quiet --overwrite");
  ASSERT_EQ(merged.rc, 0) << describe(merged);
  EXPECT_EQ(file_names(out), kOutputsA);
  // Into one of its own shard folders: refused, also with --overwrite.
  const CliResult own = skipstone("merge " + shards + " --out " + shell_quote(s1.string()) + " --quiet --overwrite");
  EXPECT_EQ(own.rc, 2) << describe(own);
  EXPECT_TRUE(fs::exists(s1 / "range.json"));
}

// ------------------------------------------------------------------ memory ----

TEST_F(SafeOutputs, GridLargerThanTheMemoryIsRefusedBeforeTheRun) {
  // 1.5e8 trajectories of status: 1.35 GB in memory (float64 while collected, int8 to write),
  // 150 MB on disk; the address space is limited to 1 GiB.
  write_config("big.json", R"({
    "system": "disc", "parameters": {"gamma": 0.8}, "initial": {"start": "boundary"},
    "scan": {"type": "grid", "axes": [{"param": "angle", "min": -1.2, "max": 1.2, "n": 12500},
                                      {"param": "spin", "min": -1, "max": 1, "n": 12000}]},
    "stop": {"max_events": 2}, "observables": ["status"]})");
  const CliResult r = shell("ulimit -v 1048576; exec " + bin() + " run big.json --out out --quiet --backend cpu --threads 1");
  EXPECT_EQ(r.rc, 2) << describe(r);
  EXPECT_NE(r.err.find("150000000 trajectories"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("grid angle 12500 x spin 12000"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("memory"), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("available"), std::string::npos) << describe(r);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "meta.json"));
}

// ------------------------------------------------------------------ repeated options ----

TEST_F(SafeOutputs, AnOptionGivenTwiceIsAnError) {
  const fs::path a = write_config("a.json", kGridA);
  const std::string cfg = shell_quote(a.string());
  const std::string x = shell_quote((dir_ / "x").string()), y = shell_quote((dir_ / "y").string());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + cfg + " --out " + x + " --out " + y, "--out"},
      {"run " + cfg + " --out " + x + " --quiet --quiet", "--quiet"},
      {"run " + cfg + " --out " + x + " --threads 1 --threads 2", "--threads"},
      {"trace " + cfg + " --out " + x + " --out " + y, "--out"},
      {"trace " + cfg + " --out " + x + " --index 1 --index 2", "--index"},
      {"merge " + x + " --out " + y + " --out " + x, "--out"},
      {"bench --reps 1 --reps 2", "--reps"}};
  for (const auto& [args, option] : cases) {
    SCOPED_TRACE(args);
    const CliResult r = skipstone(args);
    EXPECT_EQ(r.rc, 2) << describe(r);
    EXPECT_NE(r.err.find(option + " given more than once"), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(dir_ / "x"));
    EXPECT_FALSE(fs::exists(dir_ / "y"));
  }
}

}  // namespace

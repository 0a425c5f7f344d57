// The progress line on stderr (host/progress.*): what a user watching a long run sees when
// stderr is not a terminal (CTest captures it): fraction, rate and time left, one line at 100%.
#include <gtest/gtest.h>

#include <string>

#include "progress.hpp"

namespace {

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Progress, FinalUpdateAndFinishPrintOneCompleteLine) {
  testing::internal::CaptureStderr();
  skipstone::Progress p("run", 10, false);
  p.update(4);   // within the first seconds: not printed (lines at most every few seconds)
  p.update(10);  // done: always printed
  p.finish();    // nothing new to say
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(err, "\n"), 1) << err;
  EXPECT_EQ(count_of(err, "100.0%"), 1) << err;
  EXPECT_NE(err.find("10/10"), std::string::npos) << err;
  EXPECT_NE(err.find("traj/s"), std::string::npos) << err;
  EXPECT_NE(err.find("s left"), std::string::npos) << err;
}

TEST(Progress, FinishAloneReportsCompletion) {
  testing::internal::CaptureStderr();
  skipstone::Progress p("merge", 3, false);
  p.finish();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count_of(err, "100.0%"), 1) << err;
  EXPECT_NE(err.find("merge:"), std::string::npos) << err;
}

TEST(Progress, QuietPrintsNothing) {
  testing::internal::CaptureStderr();
  skipstone::Progress p("run", 10, true);
  p.update(10);
  p.finish();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace

#include "report/json_reader.h"

#include <gtest/gtest.h>

#include "report/json_writer.h"
#include "sample_finding.h"

namespace snag::report {
namespace {

using nlohmann::json;

std::optional<JsonReport> read(const std::string &text, std::string &error) {
  std::vector<std::string> notes;
  return read_json_report(text, error, notes);
}

TEST(JsonReader, ReadsBackWhatTheWriterWrote) {
  Finding race = testing::sample_race();
  race.count = 3;
  const RunInfo run{.engine = "explore",
                    .program = "./a.out",
                    .arguments = {"--fast"},
                    .exit_status = 0,
                    .notes = {"a note"},
                    .warnings = {"a warning"},
                    .details = {{"explore", {{"shard", "1/2"}, {"schedules", 7}}}}};

  std::string error;
  auto report = read(to_report_json({race}, run).dump(), error);
  ASSERT_TRUE(report) << error;
  ASSERT_EQ(report->findings.size(), 1u);
  EXPECT_EQ(report->findings[0], race);
  EXPECT_EQ(report->run.engine, "explore");
  EXPECT_EQ(report->run.program, "./a.out");
  EXPECT_EQ(report->run.arguments, run.arguments);
  EXPECT_EQ(report->run.exit_status, 0);
  EXPECT_EQ(report->run.notes, run.notes);
  EXPECT_EQ(report->run.warnings, run.warnings);
  EXPECT_EQ(report->run.details, run.details);
}

TEST(JsonReader, RefusesWhatIsNotAReport) {
  std::string line = to_json(testing::sample_race()).dump();
  const std::pair<std::string, std::string> cases[] = {
      {"{\"version\": 1, \"findings\": [", "not valid JSON at byte 29"},
      {"[1, 2]", "not a snag JSON report (not a JSON object)"},
      {"{\"version\": \"2.1.0\", \"runs\": []}", "is a SARIF log; merge reads --format json reports"},
      {line + "\n" + line + "\n", "is a findings file (JSON lines), not a --format json report"},
      {line, "is a findings line, not a report; merge reads --format json reports"},
      {"{\"version\": 2, \"run\": {}, \"findings\": []}",
       "is a version 2 report; this snag reads version 1"},
      {"{\"version\": 1, \"run\": {\"engine\": 3}, \"findings\": []}",
       "\"run\": field 'engine' has the wrong type"},
      {"{\"version\": 1, \"run\": {}, \"findings\": [{\"snag\": 1}]}",
       "finding 1: missing required field 'engine'"},
  };
  for (const auto &[text, expected] : cases) {
    std::string error;
    EXPECT_FALSE(read(text, error)) << text;
    EXPECT_EQ(error, expected) << text;
  }
}

}  // namespace
}  // namespace snag::report

#include "cli/replay_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/diagnostics.h"
#include "cli/temp_file.h"

namespace snag::cli {
namespace {

using nlohmann::json;

void write_text(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// The message read_replay_file throws for the file at `path`, or "" if none.
std::string error_of(const std::string &path) {
  try {
    read_replay_file(path);
  } catch (const UsageError &e) {
    return e.what();
  }
  return "";
}

class ReplayFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(program_.path(), "a program, as far as the hash is concerned\n");
    replay_.program = identify_program(program_.path());
    replay_.arguments = {"--flag", "two words"};
    replay_.strategy = "pct";
    replay_.seed = 987;
    replay_.schedule = 12;
    replay_.preempt_on_access = true;
    replay_.with_race = false;
    replay_.max_steps = 200000;
    replay_.points = "vars/555555577250,5555555772a0";
    replay_.bug = {"deadlock", "lock-order inversion: M1 -> M2 -> M1", "/src/a.cc:12:5"};
    replay_.preemptions = 2;
    replay_.decisions = "0 1 2p1 0p2 0";
  }

  // The replay file as JSON with `edit` applied, written to file_.
  std::string write_edited(const std::function<void(json &)> &edit) {
    json document = json::parse(to_json(replay_).dump());
    edit(document);
    write_text(file_.path(), document.dump());
    return file_.path();
  }

  std::string error_after(const std::function<void(json &)> &edit) {
    return error_of(write_edited(edit));
  }

  TempFile program_{"program", ""};
  TempFile file_{"replay", ".json"};
  ReplayFile replay_;
};

TEST(Fnv1a64, KnownValues) {
  // Reference values of FNV-1a 64 (offset basis for the empty input).
  EXPECT_EQ(fnv1a64_hex(""), "cbf29ce484222325");
  EXPECT_EQ(fnv1a64_hex("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(fnv1a64_hex("foobar"), "85944171f73967e8");
}

TEST_F(ReplayFileTest, IdentifiesTheProgramByPathSizeAndHash) {
  EXPECT_EQ(replay_.program.path, program_.path());  // already absolute
  EXPECT_EQ(replay_.program.size, 43u);
  EXPECT_EQ(replay_.program.fnv1a64, fnv1a64_hex("a program, as far as the hash is concerned\n"));
}

TEST_F(ReplayFileTest, RoundTrip) {
  write_replay_file(file_.path(), replay_);
  EXPECT_EQ(read_replay_file(file_.path()), replay_);
}

TEST_F(ReplayFileTest, RoundTripWithExpectedOutput) {
  replay_.bug = {"output-mismatch", "output differs from schedule 0's: ...", ""};
  replay_.output = ExpectedOutput{fnv1a64_hex("total 10\n"),
                                  {{"output.txt", fnv1a64_hex("4\n")}, {"never.txt", ""}},
                                  "output.txt",
                                  1,
                                  "4",
                                  "3"};
  write_replay_file(file_.path(), replay_);
  EXPECT_EQ(read_replay_file(file_.path()), replay_);
  json document = json::parse(to_json(replay_).dump());
  EXPECT_TRUE(document["output"]["files"][1]["fnv1a64"].is_null());
}

TEST_F(ReplayFileTest, RejectsAMalformedExpectedOutput) {
  EXPECT_NE(error_after([](json &d) { d["output"] = {{"stdout_fnv1a64", "xyz"}}; })
                .find("field \"output.stdout_fnv1a64\" should be 16 lowercase hex digits"),
            std::string::npos);
  EXPECT_NE(error_after([](json &d) {
              d["output"] = {{"stdout_fnv1a64", "cbf29ce484222325"}, {"files", {{{"name", 3}}}}};
            }).find("field \"output.files\" should be"),
            std::string::npos);
}

TEST_F(ReplayFileTest, WritesTheDocumentedShape) {
  json document = json::parse(to_json(replay_).dump());
  EXPECT_EQ(document["snag_replay"], 1);
  EXPECT_EQ(document["program"]["fnv1a64"], replay_.program.fnv1a64);
  EXPECT_EQ(document["options"], (json{{"preempt_on_access", true},
                                       {"with_race", false},
                                       {"max_steps", 200000},
                                       {"points", "vars/555555577250,5555555772a0"}}));
  EXPECT_EQ(document["bug"]["location"], "/src/a.cc:12:5");
  EXPECT_EQ(document["decisions"], "0 1 2p1 0p2 0");
  // In the documented order, for people reading the file.
  EXPECT_EQ(to_json(replay_).begin().key(), "snag_replay");
}

// --eager-threads shapes what a program sees (its kernel threads), so a
// replay must do the same; files without it are lazy (the default).
TEST_F(ReplayFileTest, EagerThreadsIsWrittenOnlyWhenSet) {
  EXPECT_FALSE(json::parse(to_json(replay_).dump())["options"].contains("eager_threads"));
  replay_.eager_threads = true;
  json document = json::parse(to_json(replay_).dump());
  EXPECT_EQ(document["options"]["eager_threads"], true);
  write_replay_file(file_.path(), replay_);
  EXPECT_TRUE(read_replay_file(file_.path()).eager_threads);
  replay_.eager_threads = false;
  write_replay_file(file_.path(), replay_);
  EXPECT_FALSE(read_replay_file(file_.path()).eager_threads);
}

TEST_F(ReplayFileTest, AnEmptyScheduleIsValid) {
  replay_.decisions = "";
  replay_.preemptions = 0;
  write_replay_file(file_.path(), replay_);
  EXPECT_EQ(read_replay_file(file_.path()).decisions, "");
}

TEST_F(ReplayFileTest, PointsMayBeLeftOut) {
  write_edited([](json &d) { d["options"].erase("points"); });
  EXPECT_EQ(read_replay_file(file_.path()).points, "accesses");  // preempt_on_access is true
  write_edited([](json &d) {
    d["options"].erase("points");
    d["options"]["preempt_on_access"] = false;
  });
  EXPECT_EQ(read_replay_file(file_.path()).points, "sync");
}

// The racy access sites of the race pass follow the points (records.cpp).
TEST_F(ReplayFileTest, PointsMayNameRacySites) {
  for (const char *points : {"sync+sites/1a2b", "vars/55,66+sites/00000000deadbeef,7",
                             "sync+sites/1a+addrs/555555558010", "sync+addrs/7ffff0001000,8"}) {
    write_edited([&](json &d) { d["options"]["points"] = points; });
    EXPECT_EQ(read_replay_file(file_.path()).points, points);
  }
}

TEST_F(ReplayFileTest, UnknownFieldsAreIgnored) {
  EXPECT_EQ(error_after([](json &d) { d["comment"] = "added by hand"; }), "");
}

TEST_F(ReplayFileTest, MissingFile) {
  EXPECT_EQ(error_of("/no/such/dir/x.json"), "no such replay file: /no/such/dir/x.json");
}

TEST_F(ReplayFileTest, Directory) {
  EXPECT_EQ(error_of("/tmp"), "/tmp is a directory, not a replay file");
}

TEST_F(ReplayFileTest, NotJson) {
  write_text(file_.path(), "{\"snag_replay\": 1,\n oops");
  EXPECT_EQ(error_of(file_.path()),
            file_.path() + " is not a replay file (not valid JSON at byte 21)");
  write_text(file_.path(), "");
  EXPECT_EQ(error_of(file_.path()),
            file_.path() + " is not a replay file (not valid JSON at byte 1)");
}

TEST_F(ReplayFileTest, NotAnObject) {
  write_text(file_.path(), "[1, 2]");
  EXPECT_EQ(error_of(file_.path()), file_.path() + " is not a replay file (not a JSON object)");
}

TEST_F(ReplayFileTest, Version) {
  EXPECT_EQ(error_after([](json &d) { d.erase("snag_replay"); }),
            file_.path() + " is not a replay file (no \"snag_replay\" field)");
  EXPECT_EQ(error_after([](json &d) { d["snag_replay"] = 2; }),
            file_.path() + " is a version 2 replay file; this snag reads version 1");
  EXPECT_EQ(error_after([](json &d) { d["snag_replay"] = "1"; }),
            file_.path() + ": field \"snag_replay\" should be a version number");
}

TEST_F(ReplayFileTest, MissingFields) {
  for (const char *top : {"program", "arguments", "strategy", "seed", "schedule", "options", "bug",
                          "preemptions", "decisions"}) {
    EXPECT_EQ(error_after([&](json &d) { d.erase(top); }),
              file_.path() + ": missing field \"" + top +
                  (std::string(top) == "program" ? ".path" : "") +
                  (std::string(top) == "options" ? ".preempt_on_access" : "") +
                  (std::string(top) == "bug" ? ".kind" : "") + "\"")
        << top;
  }
  EXPECT_EQ(error_after([](json &d) { d["program"].erase("fnv1a64"); }),
            file_.path() + ": missing field \"program.fnv1a64\"");
  EXPECT_EQ(error_after([](json &d) { d["options"].erase("max_steps"); }),
            file_.path() + ": missing field \"options.max_steps\"");
  EXPECT_EQ(error_after([](json &d) { d["bug"].erase("location"); }),
            file_.path() + ": missing field \"bug.location\"");
}

TEST_F(ReplayFileTest, MistypedFields) {
  const std::string prefix = file_.path() + ": field ";
  EXPECT_EQ(error_after([](json &d) { d["seed"] = "987"; }),
            prefix + "\"seed\" should be a non-negative integer");
  EXPECT_EQ(error_after([](json &d) { d["schedule"] = -1; }),
            prefix + "\"schedule\" should be a non-negative integer");
  EXPECT_EQ(error_after([](json &d) { d["preemptions"] = 1.5; }),
            prefix + "\"preemptions\" should be a non-negative integer");
  EXPECT_EQ(error_after([](json &d) { d["strategy"] = 3; }),
            prefix + "\"strategy\" should be a string");
  EXPECT_EQ(error_after([](json &d) {
              d["decisions"] = json::array({0, 1});
            }),
            prefix + "\"decisions\" should be a string");
  EXPECT_EQ(error_after([](json &d) { d["arguments"] = "--flag"; }),
            prefix + "\"arguments\" should be an array of strings");
  EXPECT_EQ(error_after([](json &d) {
              d["arguments"] = json::array({"a", 1});
            }),
            prefix + "\"arguments\" should be an array of strings");
  EXPECT_EQ(error_after([](json &d) { d["options"]["with_race"] = 1; }),
            prefix + "\"options.with_race\" should be true or false");
  EXPECT_EQ(error_after([](json &d) { d["options"]["points"] = json::array(); }),
            prefix + "\"options.points\" should be a string");
  // Its value goes into SNAG_OPTIONS: nothing but the runtime's own forms.
  for (const char *smuggled : {"sync:engine=none", "accesses findings=/tmp/x", "vars/12,zz", "",
                                "sync+sites/", "sync+sites/1a:engine=none", "+sites/1a"})
    EXPECT_EQ(error_after([&](json &d) { d["options"]["points"] = smuggled; }),
              prefix +
                  "\"options.points\" should be sync, accesses or vars/ and comma-separated hex "
                  "variables, then maybe +sites/ and +addrs/ with hex sites and addresses")
        << smuggled;
  EXPECT_EQ(error_after([](json &d) { d["program"] = "/bin/prog"; }),
            prefix + "\"program\" should be an object");
  EXPECT_EQ(error_after([](json &d) { d["program"]["fnv1a64"] = "XYZ"; }),
            prefix + "\"program.fnv1a64\" should be 16 lowercase hex digits");
}

TEST_F(ReplayFileTest, MalformedDecision) {
  EXPECT_EQ(
      error_after([](json &d) { d["decisions"] = "0 1 2q1 0"; }),
      file_.path() +
          ": malformed decision '2q1' in \"decisions\" (expected T or TpU, such as 2 or 2p1)");
  EXPECT_EQ(error_after([](json &d) { d["decisions"] = "0 p1"; }),
            file_.path() +
                ": malformed decision 'p1' in \"decisions\" (expected T or TpU, such as 2 or 2p1)");
}

TEST_F(ReplayFileTest, ProgramMissing) {
  std::string gone = program_.path() + ".gone";
  EXPECT_EQ(error_after([&](json &d) { d["program"]["path"] = gone; }),
            file_.path() + " was recorded for " + gone + ", which no longer exists");
}

TEST_F(ReplayFileTest, ProgramChanged) {
  write_replay_file(file_.path(), replay_);
  std::string expected = "replay file " + file_.path() + " was recorded for " + program_.path() +
                         " (fnv1a64 " + replay_.program.fnv1a64 + "), but " + program_.path() +
                         " now differs (rebuilt?)";
  // Same size, other contents: only the hash tells.
  write_text(program_.path(), "A program, as far as the hash is concerned\n");
  EXPECT_EQ(error_of(file_.path()), expected);
  // Another size.
  write_text(program_.path(), "rebuilt\n");
  EXPECT_EQ(error_of(file_.path()), expected);
}

TEST_F(ReplayFileTest, WriteFailureNamesTheFile) {
  try {
    write_replay_file("/no/such/dir/x.json", replay_);
    FAIL() << "no exception";
  } catch (const std::runtime_error &e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot write replay file /no/such/dir/x.json: No such file or directory");
  }
}

}  // namespace
}  // namespace snag::cli

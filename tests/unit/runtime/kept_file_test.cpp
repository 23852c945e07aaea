// A KeptFile survives what programs do to their descriptors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/kept_file.h"

namespace snag {
namespace {

std::string temp_path(const char *name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/snag_kept_file_" + name + "_" +
         std::to_string(getpid());
}

std::string contents(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(KeptFile, ReopensByPathWhenTheProgramClosedEveryDescriptor) {
  std::string mine = temp_path("mine"), theirs = temp_path("theirs");
  std::remove(mine.c_str());
  KeptFile file;
  ASSERT_TRUE(file.open(mine.c_str(), true));
  ASSERT_TRUE(file.write("one\n", 4));
  // A daemon closes everything, then opens a file of its own, which may
  // get the number the kept file had.
  for (int fd = 3; fd < 65536; ++fd) close(fd);
  int their_fd = open(theirs.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(their_fd, 0);
  ASSERT_TRUE(file.write("two\n", 4));
  close(their_fd);
  EXPECT_EQ(contents(mine), "one\ntwo\n");
  EXPECT_EQ(contents(theirs), "");
  std::remove(mine.c_str());
  std::remove(theirs.c_str());
}

TEST(KeptFile, AnAdoptedDescriptorThatIsGoneIsNotWrittenTo) {
  KeptFile missing;
  EXPECT_FALSE(missing.adopt(9999));
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  KeptFile adopted;
  ASSERT_TRUE(adopted.adopt(pipe_fds[1]));
  close(pipe_fds[1]);  // the program's copy; snag keeps its own
  ASSERT_TRUE(adopted.write("x", 1));
  char c = 0;
  ASSERT_EQ(read(pipe_fds[0], &c, 1), 1);
  EXPECT_EQ(c, 'x');
  close(pipe_fds[0]);
}

}  // namespace
}  // namespace snag

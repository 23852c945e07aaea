// Temporary files that the program under test writes into (findings, event
// stream) and that snag reads back. Removed when the object goes away, so an
// error anywhere in the command leaves nothing behind.
#pragma once

#include <string>

namespace snag::cli {

// The directory for temporary files: $TMPDIR when it is usable, else /tmp.
// Paths go into SNAG_OPTIONS, whose values end at ':' or a space, so a
// $TMPDIR containing either is passed over.
std::string temp_directory();

class TempFile {
 public:
  // Creates an empty file named "snag-<purpose>-XXXXXX<suffix>" in
  // temp_directory(). Throws std::system_error when it cannot.
  TempFile(const std::string &purpose, const std::string &suffix);
  ~TempFile();
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace snag::cli

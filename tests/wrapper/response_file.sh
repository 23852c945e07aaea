#!/usr/bin/env bash
# Compile and link through @response files holding -c, -o and quoted paths
# with spaces. The wrapper reads them to tell a compile from a link (the -c
# and the inputs are only in the file), and the result is instrumented and
# runs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mkdir -p "src dir" "obj dir" "inc dir"
cat >"inc dir/answer.h" <<'EOF'
#define ANSWER 42
EOF
cat >"src dir/main file.c" <<'EOF'
#include <stdio.h>
#include "answer.h"

int shared_answer;
int helper(void);

int main(void) {
  shared_answer = ANSWER; /* MARK-RSP-WRITE */
  printf("answer=%d helper=%d\n", shared_answer, helper());
  return 0;
}
EOF
cat >"src dir/helper's file.c" <<'EOF'
int helper(void) { return 7; }
EOF

# Double quotes, single quotes, a backslash escape, several lines.
cat >compile.rsp <<'EOF'
-c "src dir/main file.c"
-I 'inc dir'
-o "obj dir/main file.o"
EOF
cat >helper.rsp <<'EOF'
-c src\ dir/helper\'s\ file.c -o "obj dir/helper's file.o"
EOF
cat >link.rsp <<'EOF'
"obj dir/main file.o"
'obj dir/'"helper's file.o"
-o "program with spaces"
EOF

must "compile through @compile.rsp" "$SNAG_CC" -fsnag-verbose @compile.rsp
# The wrapper saw the -c inside the file: no runtime on a compile.
expect_no_grep "libsnag_rt\.a" last.log "the clang command for a -c given in a response file"
[[ -f "obj dir/main file.o" ]] || fail "the -o in compile.rsp was not honoured"
[[ ! -e a.out ]] || fail "compiling through compile.rsp produced a.out"
expect_section "obj dir/main file.o" snag_sites
expect_no_section "obj dir/main file.o" snag_runtime

must "compile through @helper.rsp" "$SNAG_CC" @helper.rsp
[[ -f "obj dir/helper's file.o" ]] || fail "helper.rsp's object was not produced"

must "link through @link.rsp" "$SNAG_CC" -fsnag-verbose @link.rsp
# The only inputs are inside the file: the wrapper must still see a link.
expect_grep "libsnag_rt\.a" last.log "the clang command for a link whose inputs are in a response file"
[[ -f "program with spaces" ]] || fail "link.rsp's output was not produced"
expect_section "program with spaces" snag_runtime
expect_section "program with spaces" snag_sites
expect_output "answer=42 helper=7" "running the program" "./program with spaces"

record events.txt "./program with spaces"
expect_grep " T0 write .* at=.*/main file\.c:$(line_of MARK-RSP-WRITE "src dir/main file.c"):" events.txt \
  "the write in 'main file.c'"

# A response file that names another one (relative to the working directory,
# as clang resolves them).
printf '%s\n' '@link.rsp' '-O1' >outer.rsp
rm -f "program with spaces"
must "link through a nested response file" "$SNAG_CC" @outer.rsp
expect_section "program with spaces" snag_runtime
expect_output "answer=42 helper=7" "running the program linked through outer.rsp" "./program with spaces"

# Compile and link in one step, the source in the file.
printf '%s\n' '"src dir/main file.c" "src dir/helper'"'"'s file.c"' "-I'inc dir'" '-o one-step' >onestep.rsp
must "compile and link through @onestep.rsp" "$SNAG_CC" @onestep.rsp
expect_section one-step snag_runtime
expect_output "answer=42 helper=7" "running the one-step program" ./one-step

# snag-c++ reads response files too.
cp "src dir/main file.c" main.cpp
printf '%s\n' "-x c++ main.cpp -x none -I 'inc dir' \"obj dir/helper's file.o\" -o cxx-program" >cxx.rsp
# helper is C (no mangling): declare it so in the C++ build.
sed -i 's/^int helper(void);/extern "C" int helper(void);/' main.cpp
must "compile and link C++ through @cxx.rsp" "$SNAG_CXX" @cxx.rsp
expect_section cxx-program snag_runtime
expect_output "answer=42 helper=7" "running the C++ program" ./cxx-program

echo "PASS [$TEST_NAME]"

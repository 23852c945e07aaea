// The API hooks are inserted before optimization, so they must not keep the
// optimizer from optimizing the code around them: they are declared to touch
// only memory the program cannot access (inaccessiblememonly, nounwind,
// willreturn, nofree, nosync, mustprogress) and to neither read nor capture
// the object pointer. As plain calls they would clobber all memory, and a
// loop over a vector would reload its begin and end pointers on every
// iteration (more than 10x slower).
// RUN: SNAG_INSTRUMENT=api check=DECL,LOOP -O2
// RUN: SNAG_INSTRUMENT=api check=DECL,LOOP -O1
// RUN: SNAG_INSTRUMENT=api check=DECL -O0
#include <cstddef>
#include <vector>

std::vector<double> a, b;

// LOOP-LABEL: define {{.*}}double @_Z3dotv()
// The loop condition's a.size() is first checked before the loop.
// LOOP: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @a to i8*), i32 0, i64 [[SIZE:-?[0-9]+]])
// The vectors' begin pointers (and a's end pointer) are loaded once, before
// the loop: a[i] is the first call of the loop body, and from there to the
// loop's back edge no pointer is loaded from a vector, although the hooks of
// all three calls stay in the loop.
// LOOP: load double*, double** getelementptr inbounds (%"class.std::vector", %"class.std::vector"* @b,
// LOOP: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @a to i8*), i32 0, i64 [[INDEX_A:-?[0-9]+]])
// LOOP-NOT: load double*
// LOOP: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @a to i8*), i64 [[INDEX_A]])
// LOOP-NOT: load double*
// LOOP: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @b to i8*), i32 0, i64 [[INDEX_B:-?[0-9]+]])
// LOOP-NOT: load double*
// LOOP: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @b to i8*), i64 [[INDEX_B]])
// LOOP-NOT: load double*
// LOOP: call void @__snag_api_begin(i8* bitcast (%"class.std::vector"* @a to i8*), i32 0, i64 [[SIZE]])
// LOOP-NOT: load double*
// LOOP: call void @__snag_api_end(i8* bitcast (%"class.std::vector"* @a to i8*), i64 [[SIZE]])
// LOOP-NOT: load double*
// LOOP: br {{.*}}, !llvm.loop
// LOOP: {{^}}}
double dot() {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += a[i] * b[i];
  return s;
}

// DECL: declare void @__snag_api_begin(i8* nocapture readnone, i32, i64) {{.*}}#[[HOOK:[0-9]+]]
// DECL: declare void @__snag_api_end(i8* nocapture readnone, i64) {{.*}}#[[HOOK]]
// DECL: attributes #[[HOOK]] = { inaccessiblememonly mustprogress nofree nosync nounwind willreturn }

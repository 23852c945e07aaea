// compute_kernel: threads compute over large shared read-only arrays.
// Every thread reads the whole input vector x and a band of the shared matrix
// (mat-vec), and runs a 5-point stencil + dot product over its own slice of
// the shared inputs, reading a halo that belongs to the neighbouring slices.
// All writes go to per-thread outputs; main combines them in a fixed order.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;
constexpr int kN = 1 << 20;      // stencil / dot-product length
constexpr int kRows = 1024;      // mat-vec: kRows x kCols
constexpr int kCols = 1024;
constexpr int kPasses = 9;

struct alignas(64) Result {
  double dot = 0;
  double stencil = 0;
  double matvec = 0;
};

uint64_t lcg(uint64_t& s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return s >> 33;
}

void worker(int t, const std::vector<double>& a, const std::vector<double>& b,
            const std::vector<double>& m, const std::vector<double>& x,
            Result& out) {
  // Slice of the 1-D arrays owned by this thread (halo reads cross slices).
  const int lo = t * (kN / kThreads), hi = lo + kN / kThreads;
  std::vector<double> tmp(hi - lo);  // per-thread output buffer
  double dot = 0, st = 0, mv = 0;
  for (int pass = 0; pass < kPasses; ++pass) {
    const double w = 0.5 + 0.125 * pass;
    for (int i = lo; i < hi; ++i) {
      const double l2 = a[(i - 2 + kN) % kN], l1 = a[(i - 1 + kN) % kN];
      const double r1 = a[(i + 1) % kN], r2 = a[(i + 2) % kN];
      tmp[i - lo] = w * a[i] + 0.25 * (l1 + r1) - 0.0625 * (l2 + r2);
    }
    for (int i = lo; i < hi; ++i) {
      dot += tmp[i - lo] * b[i];
      st += tmp[i - lo];
    }
    // Mat-vec over a band of rows; every thread reads all of x.
    const int rlo = t * (kRows / kThreads), rhi = rlo + kRows / kThreads;
    for (int r = rlo; r < rhi; ++r) {
      double acc = 0;
      const double* row = &m[static_cast<size_t>(r) * kCols];
      for (int c = 0; c < kCols; ++c) acc += row[c] * x[(c + pass) % kCols];
      mv += acc * w;
    }
  }
  out.dot = dot;
  out.stencil = st;
  out.matvec = mv;
}

}  // namespace

int main() {
  std::vector<double> a(kN), b(kN), m(static_cast<size_t>(kRows) * kCols),
      x(kCols);
  uint64_t s = 12345;
  for (auto& v : a) v = (lcg(s) % 2000) / 1000.0 - 1.0;
  for (auto& v : b) v = (lcg(s) % 2000) / 1000.0 - 1.0;
  for (auto& v : m) v = (lcg(s) % 2000) / 1000.0 - 1.0;
  for (auto& v : x) v = (lcg(s) % 2000) / 1000.0 - 1.0;

  std::vector<Result> res(kThreads);
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t)
    th.emplace_back(worker, t, std::cref(a), std::cref(b), std::cref(m),
                    std::cref(x), std::ref(res[t]));
  for (auto& t : th) t.join();

  double dot = 0, st = 0, mv = 0;
  for (const auto& r : res) {
    dot += r.dot;
    st += r.stencil;
    mv += r.matvec;
  }
  uint64_t h = 0;
  for (double d : {dot, st, mv}) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    h = h * 1000003 ^ bits;
  }
  std::printf("checksum %016llx dot=%.6e stencil=%.6e matvec=%.6e\n",
              static_cast<unsigned long long>(h), dot, st, mv);
  return 0;
}

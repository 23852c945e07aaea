#include "report/text_writer.h"

#include <deque>
#include <string>
#include <vector>

#include "common/finding_text.h"
#include "report/summary.h"

namespace snag::report {

namespace {

class StreamSink final : public text::Sink {
 public:
  explicit StreamSink(std::ostream &out) : out_(out) {}
  void write(const char *data, size_t size) override {
    out_.write(data, static_cast<std::streamsize>(size));
  }

 private:
  std::ostream &out_;
};

text::Str view(const std::string &s) { return text::Str(s.data(), s.size()); }

// A finding seen through common/finding_text's plain structs; everything
// they point into lives here, at addresses that do not move.
class FindingView {
 public:
  explicit FindingView(const Finding &f) {
    text_.title = view(f.title);
    text_.kind = view(f.kind);
    text_.message = view(f.message);
    text_.has_pid = f.pid.has_value();
    text_.pid = f.pid.value_or(0);
    text_.count = f.count;
    for (const Side &side : f.sides) {
      std::vector<text::Lock> &locks = locks_.emplace_back();
      for (const Lock &lock : side.locks)
        locks.push_back(text::Lock{view(lock.name), view(lock.address), stack(lock.stack)});
      text::Side &out = sides_.emplace_back();
      out.description = view(side.description);
      out.locks = locks.data();
      out.lock_count = static_cast<uint32_t>(locks.size());
      out.stack = stack(side.stack);
    }
    text_.sides = sides_.data();
    text_.side_count = static_cast<uint32_t>(sides_.size());
    if (f.heap) {
      text_.has_heap = true;
      text_.heap_size = f.heap->size;
      text_.heap_address = view(f.heap->address);
      if (f.heap->thread) text_.heap_thread = thread(f, *f.heap->thread);
      text_.heap_stack = stack(f.heap->stack);
    } else if (f.global) {
      text_.global_name = view(f.global->name);
      text_.global_size = f.global->size;
      text_.global_address = view(f.global->address);
    }
    for (const ThreadInfo &t : f.threads) {
      text::Thread &out = threads_.emplace_back();
      out.self = thread(f, t.id);
      if (t.parent) out.parent = thread(f, *t.parent);
      out.stack = stack(t.stack);
    }
    text_.threads = threads_.data();
    text_.thread_count = static_cast<uint32_t>(threads_.size());
    if (f.details.is_object()) {
      for (const auto &[key, value] : f.details.items()) {
        strings_.push_back(key);
        text::Str k = view(strings_.back());
        strings_.push_back(value.is_string() ? value.get<std::string>()
                                             : value.dump(-1, ' ', false,
                                                          nlohmann::json::error_handler_t::replace));
        details_.push_back(text::Detail{k, view(strings_.back())});
      }
    }
    text_.details = details_.data();
    text_.detail_count = static_cast<uint32_t>(details_.size());
    text_.has_seed = f.seed.has_value();
    text_.seed = f.seed.value_or(0);
    if (const Frame *top = f.primary_frame()) {
      primary_ = text_frame(*top);
      text_.primary = &primary_;
    }
  }
  const text::Finding &text() const { return text_; }

 private:
  text::Stack stack(const Stack &s) {
    std::vector<text::Frame> &frames = frames_.emplace_back();
    for (const Frame &f : s) frames.push_back(text_frame(f));
    return text::Stack{frames.data(), static_cast<uint32_t>(frames.size())};
  }
  // Threads are shown by the name the finding lists them under, if any.
  static text::ThreadRef thread(const Finding &f, int64_t id) {
    text::ThreadRef ref;
    ref.known = true;
    ref.id = id;
    if (const ThreadInfo *info = f.thread_info(id)) ref.name = view(info->name);
    return ref;
  }

  text::Finding text_;
  text::Frame primary_;
  // deques: growing them never moves what earlier views point into.
  std::deque<std::vector<text::Frame>> frames_;
  std::deque<std::vector<text::Lock>> locks_;
  std::deque<std::string> strings_;
  std::vector<text::Side> sides_;
  std::vector<text::Thread> threads_;
  std::vector<text::Detail> details_;
};

}  // namespace

void write_text_finding(std::ostream &out, const Finding &finding, const TextOptions &options) {
  FindingView view(finding);
  StreamSink sink(out);
  text::Style style;
  style.color = options.color;
  text::write_finding_text(sink, view.text(), style);
}

void write_text(std::ostream &out, const std::vector<Finding> &findings, const TextOptions &options) {
  for (const Finding &finding : findings) write_text_finding(out, finding, options);
  out << summary_line(findings) << '\n';
}

}  // namespace snag::report

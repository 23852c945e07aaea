#include "interp/ir/memory.h"

#include <algorithm>

namespace snag::interp::ir {

void Memory::Place(const MemObject& object) {
  last_ = nullptr;
  objects_[object.base] = object;
}

MemObject& Memory::Allocate(uint64_t size, MemObject::Kind kind, bool zero, std::string name) {
  // Round up and leave a gap so one-past-the-end pointers of neighbours never
  // alias the next object.
  const uint64_t rounded = (size + 15) & ~uint64_t{15};
  MemObject& o = objects_[next_];
  o.base = next_;
  o.size = size;
  o.data.assign(size, 0);
  o.known.assign(size, zero ? 1 : 0);
  o.name = std::move(name);
  o.kind = kind;
  next_ += rounded + 16;
  if (kind == MemObject::Kind::kHeap) heap_bytes_ += size;
  return o;
}

void Memory::Free(uint64_t base) {
  auto it = objects_.find(base);
  if (it == objects_.end()) return;
  if (it->second.kind == MemObject::Kind::kHeap) heap_bytes_ -= it->second.size;
  if (!it->second.name.empty())
    freed_names_[base] = Named{it->second.size, std::move(it->second.name), it->second.type};
  if (last_ == &it->second) last_ = nullptr;
  objects_.erase(it);
}

MemObject* Memory::Find(uint64_t address, uint64_t size) {
  if (last_ && address >= last_->base && address + size <= last_->base + last_->size &&
      address + size >= address)
    return last_;
  auto it = objects_.upper_bound(address);
  if (it == objects_.begin()) return nullptr;
  --it;
  MemObject& o = it->second;
  if (address + size < address || address + size > o.base + o.size) return nullptr;
  last_ = &o;
  return &o;
}

const MemObject* Memory::FindAny(uint64_t address) const {
  auto it = objects_.upper_bound(address);
  if (it == objects_.begin()) return nullptr;
  --it;
  if (address >= it->second.base + std::max<uint64_t>(it->second.size, 1)) return nullptr;
  return &it->second;
}

Memory::NameInfo Memory::NameAt(uint64_t address) const {
  if (const MemObject* o = FindAny(address)) return {o->name, o->type, o->base};
  auto it = freed_names_.upper_bound(address);
  if (it == freed_names_.begin()) return {};
  --it;
  if (address >= it->first + std::max<uint64_t>(it->second.size, 1)) return {};
  return {it->second.name, it->second.type, it->first};
}

void Memory::ResetTo(const std::vector<MemObject>& globals) {
  last_ = nullptr;
  objects_.erase(objects_.lower_bound(kDynamicBase), objects_.end());
  freed_names_.clear();
  next_ = kDynamicBase;
  heap_bytes_ = 0;
  if (objects_.size() != globals.size()) {
    objects_.clear();
    for (const MemObject& g : globals) objects_[g.base] = g;
    return;
  }
  for (const MemObject& g : globals) {
    MemObject& o = objects_[g.base];
    if (!o.dirty) continue;
    o.data = g.data;
    o.known = g.known;
    o.dirty = false;
  }
}

void Memory::Clear() {
  objects_.clear();
  freed_names_.clear();
  last_ = nullptr;
  next_ = kDynamicBase;
  heap_bytes_ = 0;
}

}  // namespace snag::interp::ir

// The model memory of `snag check`'s interpreter: byte-addressed objects
// (globals, stack slots, heap blocks), each byte concrete or unknown. Nothing
// here touches real memory of the analysed program; addresses are invented and
// deterministic, so the same seed gives the same run. A read outside every
// object, or of bytes never written, gives unknown; a write outside every
// object is dropped (paper 001: stores through unknown pointers are lost).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llvm {
class DIType;
}

namespace snag::interp::ir {

struct MemObject {
  uint64_t base = 0;
  uint64_t size = 0;
  std::vector<uint8_t> data;
  std::vector<uint8_t> known;  // 1 per byte whose value is concrete
  std::string name;            // variable name for messages ("counter"), may be empty
  const llvm::DIType* type = nullptr;  // debug type, to name fields
  enum class Kind : uint8_t { kGlobal, kStack, kHeap } kind = Kind::kGlobal;
  bool dirty = false;  // written since placed (globals are restored only then)
};

class Memory {
 public:
  // Address ranges: functions live below kFunctionEnd (not readable), globals
  // from kGlobalBase, stack slots and heap blocks from kDynamicBase upwards.
  static constexpr uint64_t kFunctionBase = 0x1000;
  static constexpr uint64_t kFunctionEnd = 0x100000;
  static constexpr uint64_t kGlobalBase = 0x100000;
  static constexpr uint64_t kDynamicBase = 0x10000000;

  // Places a copy of `object` (globals at their fixed addresses).
  void Place(const MemObject& object);
  // A fresh object of `size` bytes, all unknown (or all zero when `zero`).
  MemObject& Allocate(uint64_t size, MemObject::Kind kind, bool zero, std::string name = {});
  void Free(uint64_t base);

  // The object holding [address, address + size), or null.
  MemObject* Find(uint64_t address, uint64_t size);
  const MemObject* FindAny(uint64_t address) const;  // the object holding address
  // Name and debug type of the object that holds or held `address` (freed
  // stack slots keep their names for the run's report; addresses are never
  // reused within a run).
  struct NameInfo {
    std::string name;
    const llvm::DIType* type = nullptr;
    uint64_t base = 0;
  };
  NameInfo NameAt(uint64_t address) const;

  uint64_t heap_bytes() const { return heap_bytes_; }
  void Clear();
  // Drops every stack slot and heap block and puts back the initial
  // contents of the globals written since (a big global array is not copied
  // again on every run).
  void ResetTo(const std::vector<MemObject>& globals);

 private:
  std::map<uint64_t, MemObject> objects_;
  struct Named {
    uint64_t size;
    std::string name;
    const llvm::DIType* type;
  };
  std::map<uint64_t, Named> freed_names_;
  MemObject* last_ = nullptr;
  uint64_t next_ = kDynamicBase;
  uint64_t heap_bytes_ = 0;
};

}  // namespace snag::interp::ir

// The engines this runtime has. Each engine's folder provides a factory; an
// engine issue adds one line here.
#include "core/engine.h"
#include "core/platform.h"

namespace snag {

Engine *create_record_engine();
Engine *create_race_engine();
Engine *create_explore_engine();
Engine *create_tsv_engine();
Engine *create_learn_engine();
Engine *create_guard_engine();
Engine *create_expose_engine();

namespace {
struct EngineEntry {
  const char *name;
  Engine *(*create)();
};

const EngineEntry kEngines[] = {
    {"record", create_record_engine},
    {"race", create_race_engine},
    {"explore", create_explore_engine},
    {"tsv", create_tsv_engine},
    {"learn", create_learn_engine},
    {"guard", create_guard_engine},
    {"expose", create_expose_engine},
};
}  // namespace

Engine *create_engine(const char *name) {
  for (const EngineEntry &entry : kEngines)
    if (cstr_eq(entry.name, name)) return entry.create();
  return nullptr;
}

}  // namespace snag

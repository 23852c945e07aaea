#include "core/global_symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/platform.h"

namespace snag {

namespace {

struct ModuleMatch {
  uintptr_t addr;
  uintptr_t bias;
  const char *path;
  bool found;
};

int match_module(struct dl_phdr_info *info, size_t, void *data) {
  auto *m = static_cast<ModuleMatch *>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (m->addr >= lo && m->addr < lo + ph.p_memsz) {
      m->bias = info->dlpi_addr;
      m->path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
      m->found = true;
      return 1;
    }
  }
  return 0;
}

// Demangles with the C++ runtime's demangler when the program has one.
void demangle_into(const char *mangled, char *out, size_t capacity) {
  using Demangle = char *(*)(const char *, char *, size_t *, int *);
  static Demangle demangle =
      reinterpret_cast<Demangle>(dlsym(RTLD_DEFAULT, "__cxa_demangle"));
  int status = -1;
  char *text = demangle && mangled[0] == '_' && mangled[1] == 'Z'
                   ? demangle(mangled, nullptr, nullptr, &status)
                   : nullptr;
  copy_text(out, capacity, status == 0 && text ? text : mangled);
  free(text);
}

bool search_file(const char *path, uintptr_t file_addr, GlobalSymbol *out, uintptr_t bias) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool found = false;
  if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(ElfW(Ehdr))) {
    void *map = mmap(nullptr, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      auto *base = static_cast<const char *>(map);
      auto *eh = reinterpret_cast<const ElfW(Ehdr) *>(base);
      size_t file_size = static_cast<size_t>(st.st_size);
      bool sane = eh->e_ident[0] == 0x7f && eh->e_shoff &&
                  eh->e_shoff + size_t(eh->e_shnum) * sizeof(ElfW(Shdr)) <= file_size;
      auto *sections = reinterpret_cast<const ElfW(Shdr) *>(base + (sane ? eh->e_shoff : 0));
      for (int i = 0; sane && !found && i < eh->e_shnum; ++i) {
        const ElfW(Shdr) &sh = sections[i];
        if ((sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || sh.sh_link >= eh->e_shnum)
          continue;
        const ElfW(Shdr) &strtab = sections[sh.sh_link];
        if (sh.sh_offset + sh.sh_size > file_size || strtab.sh_offset + strtab.sh_size > file_size)
          continue;
        auto *syms = reinterpret_cast<const ElfW(Sym) *>(base + sh.sh_offset);
        size_t count = sh.sh_size / sizeof(ElfW(Sym));
        for (size_t k = 0; k < count; ++k) {
          const ElfW(Sym) &s = syms[k];
          if (ELF64_ST_TYPE(s.st_info) != STT_OBJECT && ELF64_ST_TYPE(s.st_info) != STT_TLS) continue;
          uintptr_t size = s.st_size ? s.st_size : 1;
          if (file_addr < s.st_value || file_addr >= s.st_value + size) continue;
          if (s.st_name >= strtab.sh_size) continue;
          demangle_into(base + strtab.sh_offset + s.st_name, out->name, sizeof out->name);
          out->address = s.st_value + bias;
          out->size = s.st_size;
          found = true;
          break;
        }
      }
      munmap(map, st.st_size);
    }
  }
  close(fd);
  return found;
}

}  // namespace

bool find_global_symbol(uintptr_t addr, GlobalSymbol *out) {
  ModuleMatch m{addr, 0, nullptr, false};
  dl_iterate_phdr(match_module, &m);
  if (!m.found) return false;
  return search_file(m.path, addr - m.bias, out, m.bias);
}

}  // namespace snag

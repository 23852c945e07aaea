#include "interp/frontend/frontend.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "interp/frontend/bitcode_cache.h"
#include "interp/frontend/promote.h"
#include "interp/frontend/subprocess.h"

namespace snag::interp::frontend {

namespace {

// Part of every cache key: bump it when what is stored changes meaning (other
// flags, another pass), so old entries are never read back.
constexpr const char *kCacheFormat = "snag-check-frontend 1";

// `compiler --version`, asked once per compiler per process: a different
// clang (an upgrade of the package) must not reuse another's bitcode.
std::string compiler_version(const std::string &compiler) {
  static std::mutex mutex;
  static std::map<std::string, std::string> versions;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = versions.find(compiler);
  if (found != versions.end()) return found->second;
  CapturedRun run = run_captured({compiler, "--version"}, "");
  if (run.exit_status != 0) throw std::runtime_error(compiler + " --version failed");
  return versions[compiler] = run.out;
}

std::string working_directory(const TranslationUnit &unit) {
  std::error_code error;
  if (unit.directory.empty()) return std::filesystem::current_path(error).string();
  return unit.directory;
}

std::vector<std::string> command_for(const std::string &compiler, const TranslationUnit &unit,
                                     std::initializer_list<const char *> mode) {
  std::vector<std::string> argv = {compiler};
  argv.insert(argv.end(), unit.flags.begin(), unit.flags.end());
  argv.insert(argv.end(), bitcode_flags().begin(), bitcode_flags().end());
  argv.insert(argv.end(), mode.begin(), mode.end());
  argv.push_back(unit.file);
  return argv;
}

std::unique_ptr<llvm::Module> parse_bitcode(const std::string &bytes, const std::string &name,
                                            llvm::LLVMContext &context, std::string &error) {
  llvm::MemoryBufferRef buffer(llvm::StringRef(bytes.data(), bytes.size()), name);
  llvm::Expected<std::unique_ptr<llvm::Module>> module = llvm::parseBitcodeFile(buffer, context);
  if (!module) {
    error = llvm::toString(module.takeError());
    return nullptr;
  }
  return std::move(*module);
}

std::string write_bitcode(const llvm::Module &module) {
  std::string bytes;
  llvm::raw_string_ostream out(bytes);
  llvm::WriteBitcodeToFile(module, out);
  out.flush();
  return bytes;
}

}  // namespace

const std::vector<std::string> &bitcode_flags() {
  // -O0 keeps every access where the source has it; -disable-O0-optnone lets
  // mem2reg run afterwards; value names make the IR readable when debugging
  // the interpreter and cost nothing in line information.
  static const std::vector<std::string> flags = {
      "-O0", "-g", "-Xclang", "-disable-O0-optnone", "-fno-discard-value-names"};
  return flags;
}

std::string default_cache_dir() {
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/snag/check";
  const char *home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.cache/snag/check";
  return {};
}

const std::string &compiler_for(const FrontendOptions &options, const std::string &file) {
  return std::filesystem::path(file).extension() == ".c" ? options.clang : options.clangxx;
}

std::vector<std::string> unknown_arguments(const std::string &diagnostics) {
  static const std::string marker = "error: unknown argument: '";
  std::vector<std::string> unknown;
  for (size_t at = diagnostics.find(marker); at != std::string::npos;
       at = diagnostics.find(marker, at + 1)) {
    size_t begin = at + marker.size();
    size_t end = diagnostics.find("'\n", begin);
    if (end == std::string::npos) end = diagnostics.find('\'', begin);
    if (end != std::string::npos) unknown.push_back(diagnostics.substr(begin, end - begin));
  }
  return unknown;
}

CompileResult compile_translation_unit(const TranslationUnit &original, const FrontendOptions &options,
                                       llvm::LLVMContext &context) {
  CompileResult result;
  TranslationUnit unit = original;
  const std::string &compiler = compiler_for(options, unit.file);
  std::string directory = working_directory(unit);

  std::vector<std::string> key_parts = {kCacheFormat, LLVM_VERSION_STRING, compiler,
                                        compiler_version(compiler), directory, unit.file};
  key_parts.insert(key_parts.end(), unit.flags.begin(), unit.flags.end());
  std::string command_key = content_key(key_parts);
  BitcodeCache cache(options.cache_dir);
  auto load = [&](const std::string &key) {
    std::optional<std::string> cached = cache.load(key);
    std::string ignored;
    // A damaged entry reads as a miss: it is compiled again and overwritten.
    if (cached) result.module = parse_bitcode(*cached, unit.file, context, ignored);
    result.from_cache = result.module != nullptr;
    return result.from_cache;
  };
  // No file of the TU changed since the last check: no clang at all.
  if (std::optional<std::string> key = cache.lookup_manifest(command_key); key && load(*key)) return result;

  result.ran_clang = true;
  CapturedRun preprocessed = run_captured(command_for(compiler, unit, {"-E", "-o", "-"}), directory);
  // A database written for GCC may hold options clang 14 does not have
  // (-fconcepts-diagnostics-depth=N): they never change what the code means
  // to clang, so drop them and try once more.
  if (std::vector<std::string> unknown = unknown_arguments(preprocessed.err);
      preprocessed.exit_status != 0 && !unknown.empty()) {
    std::erase_if(unit.flags, [&](const std::string &flag) {
      return std::find(unknown.begin(), unknown.end(), flag) != unknown.end();
    });
    result.dropped_flags = unknown;
    preprocessed = run_captured(command_for(compiler, unit, {"-E", "-o", "-"}), directory);
  }
  if (preprocessed.exit_status != 0) {
    result.diagnostics = preprocessed.err;
    return result;
  }
  if (!result.dropped_flags.empty()) {
    key_parts = {kCacheFormat, LLVM_VERSION_STRING, compiler, compiler_version(compiler), directory, unit.file};
    key_parts.insert(key_parts.end(), unit.flags.begin(), unit.flags.end());
  }
  std::vector<std::string> files = files_of_preprocessed(preprocessed.out, directory);
  key_parts.push_back(std::move(preprocessed.out));
  std::string key = content_key(key_parts);
  if (load(key)) {
    cache.store_manifest(command_key, key, files);
    return result;
  }

  CapturedRun compiled =
      run_captured(command_for(compiler, unit, {"-emit-llvm", "-c", "-o", "-"}), directory);
  if (compiled.exit_status != 0) {
    result.diagnostics = compiled.err;
    return result;
  }
  std::string error;
  result.module = parse_bitcode(compiled.out, unit.file, context, error);
  if (!result.module) {
    result.diagnostics = compiler + " wrote no usable bitcode for " + unit.file + ": " + error;
    return result;
  }
  promote_memory_to_registers(*result.module);
  if (cache.store(key, write_bitcode(*result.module))) cache.store_manifest(command_key, key, files);
  return result;
}

std::unique_ptr<llvm::Module> link_modules(std::vector<std::unique_ptr<llvm::Module>> modules,
                                           std::string &error) {
  if (modules.empty()) {
    error = "nothing to link";
    return nullptr;
  }
  std::unique_ptr<llvm::Module> linked = std::move(modules.front());
  llvm::LLVMContext &context = linked->getContext();
  // LLVM's default diagnostic handler exits the process on an error; keep
  // the first message instead and let the caller decide.
  struct Collected {
    std::string first_error;
  } collected;
  auto previous_handler = context.getDiagnosticHandlerCallBack();
  void *previous_context = context.getDiagnosticContext();
  context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo &info, void *opaque) {
        auto *sink = static_cast<Collected *>(opaque);
        if (info.getSeverity() != llvm::DS_Error || !sink->first_error.empty()) return;
        llvm::raw_string_ostream out(sink->first_error);
        llvm::DiagnosticPrinterRawOStream printer(out);
        info.print(printer);
      },
      &collected);
  bool failed = false;
  for (size_t i = 1; i < modules.size() && !failed; ++i) {
    std::string name = modules[i]->getModuleIdentifier();
    failed = llvm::Linker::linkModules(*linked, std::move(modules[i]));
    if (failed) {
      error = "cannot link " + name + ": " +
              (collected.first_error.empty() ? "the linker gave no reason" : collected.first_error);
    }
  }
  context.setDiagnosticHandlerCallBack(previous_handler, previous_context);
  if (failed) return nullptr;
  return linked;
}

}  // namespace snag::interp::frontend

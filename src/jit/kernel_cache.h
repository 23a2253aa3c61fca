#pragma once
// The compiled-kernel cache (DESIGN.md, "Caches"): in memory, and on disk under
// $TESSERA_CACHE_DIR (default ~/.cache/tessera, created with mode 0700). An entry's key is
// a hash of everything that shapes the artifact: the source, the compiler and its version,
// the options, the target architecture and tessera's build id. Files are written under a
// temporary name and renamed into place; each carries a checksum verified on load, and a
// damaged or foreign file is rebuilt, never used. All functions are thread-safe; concurrent
// requests for one key build it once per process.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::jit {

// What an artifact depends on; hashed (with the build id) into the cache key.
struct CacheKey {
  std::string kind;                // "ptx", "cubin", "sim-so": the artifact's type
  std::vector<std::string> parts;  // source, compiler identity, options, arch ...
};

// The cache directory, created (0700) if missing. $TESSERA_CACHE_DIR is read on every call,
// so tests may point it elsewhere at any time.
std::filesystem::path cache_dir();

// The artifact's bytes: from memory, else from disk (checksum verified), else `build()`
// (then stored in both). `build` may throw; nothing is stored then. The disk only saves
// time: when it cannot be written, the bytes are still returned (and kept in memory).
std::string cached_bytes(const CacheKey& key, const std::function<std::string()>& build);

// A file that must exist on disk to be used (a shared object to dlopen): its verified path
// in the cache, produced by `build(path)` writing `path` (a temporary name, renamed into
// place after the checksum is recorded) on a miss. The checksum lives in a sidecar file,
// `<path>.sha256`, so the artifact itself stays byte for byte what `build` wrote.
std::filesystem::path cached_file(const CacheKey& key, std::string_view extension,
                                  const std::function<void(const std::filesystem::path&)>& build);

// The hex digest used for keys and checksums: SHA-256.
std::string digest(std::string_view bytes);

// What identifies this build of tessera in every key: the GNU build-id of the binary that
// holds this code (a hash of its contents written by the linker), else that binary's path,
// size and modification time.
const std::string& build_id();

// Forgets what is cached in memory (the disk cache stays): for tests of the disk cache.
void clear_memory_cache();

}  // namespace tessera::jit

#include "jit/kernel_cache.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "jit/sha256.h"

namespace tessera::jit {
namespace fs = std::filesystem;
namespace {

// The first line of every cache file and sidecar; a new layout gets a new number.
constexpr std::string_view kMagic = "tessera-cache 1\n";
constexpr char kHex[] = "0123456789abcdef";

std::string errno_text() { return std::strerror(errno); }

// --- build id ---------------------------------------------------------------------------

struct ImageSearch {
  uintptr_t address;  // an address inside this code
  std::string name;   // the image's file name ("" for the main program)
  std::string build_id;
};

std::string note_build_id(const dl_phdr_info* info, const ElfW(Phdr) * segment) {
  // Notes are padded to the segment's alignment (4, or 8 for .note.gnu.property).
  size_t align = segment->p_align == 8 ? 8 : 4;
  auto pad = [align](size_t n) { return (n + align - 1) / align * align; };
  auto p = reinterpret_cast<const char*>(info->dlpi_addr + segment->p_vaddr);
  const char* end = p + segment->p_memsz;
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    auto note = reinterpret_cast<const ElfW(Nhdr)*>(p);
    const char* name = p + sizeof(ElfW(Nhdr));
    auto desc = reinterpret_cast<const unsigned char*>(name + pad(note->n_namesz));
    if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
        std::memcmp(name, "GNU", 4) == 0) {
      std::string hex;
      for (size_t i = 0; i < note->n_descsz; ++i) {
        hex += kHex[desc[i] >> 4];
        hex += kHex[desc[i] & 0xf];
      }
      return hex;
    }
    p = reinterpret_cast<const char*>(desc) + pad(note->n_descsz);
  }
  return "";
}

int inspect_image(dl_phdr_info* info, size_t, void* data) {
  auto search = static_cast<ImageSearch*>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && search->address - start < ph.p_memsz) contains = true;
  }
  if (!contains) return 0;
  search->name = info->dlpi_name;
  for (int i = 0; i < info->dlpi_phnum && search->build_id.empty(); ++i) {
    if (info->dlpi_phdr[i].p_type == PT_NOTE) {
      search->build_id = note_build_id(info, &info->dlpi_phdr[i]);
    }
  }
  return 1;
}

std::string compute_build_id() {
  ImageSearch search{reinterpret_cast<uintptr_t>(&compute_build_id), "", ""};
  dl_iterate_phdr(inspect_image, &search);
  if (!search.build_id.empty()) return "gnu-build-id " + search.build_id;
  // Linked without --build-id: any relink changes the file's size or time.
  fs::path image = search.name.empty() ? fs::path("/proc/self/exe") : fs::path(search.name);
  std::error_code error;
  fs::path resolved = fs::canonical(image, error);
  struct stat info {};
  if (error || stat(resolved.c_str(), &info) != 0) {
    throw std::runtime_error("[kernel_cache] cannot identify tessera's binary " + image.string());
  }
  return "image " + resolved.string() + " " + std::to_string(info.st_size) + " " +
         std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
}

// --- keys and file layout -----------------------------------------------------------------

// Length-prefixed, so that no two different keys hash the same byte stream.
void add_field(Sha256& hash, std::string_view field) {
  hash.update(std::to_string(field.size()));
  hash.update(":");
  hash.update(field);
}

std::string key_digest(const CacheKey& key) {
  Sha256 hash;
  add_field(hash, "tessera kernel cache");
  add_field(hash, build_id());
  add_field(hash, key.kind);
  for (const auto& part : key.parts) add_field(hash, part);
  return hash.hex_digest();
}

// A file name's suffix from the kind, for people listing the directory; unsafe characters go.
std::string kind_suffix(std::string_view kind) {
  std::string suffix = ".";
  for (char c : kind) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') suffix += c;
  }
  return suffix;
}

// Both record kinds start with this: the key the file answers, and the payload's checksum.
std::string header(std::string_view key, std::string_view checksum) {
  std::string text(kMagic);
  text.append(key).append("\n").append(checksum).append("\n");
  return text;
}

constexpr size_t kHeaderSize = kMagic.size() + 2 * 65;

std::optional<std::string> read_whole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

// The verified payload of a record file, or nothing when it is missing, damaged or foreign.
std::optional<std::string> load_record(const fs::path& path, std::string_view key) {
  std::optional<std::string> text = read_whole(path);
  if (!text || text->size() < kHeaderSize) return std::nullopt;
  std::string_view payload = std::string_view(*text).substr(kHeaderSize);
  if (text->compare(0, kHeaderSize, header(key, sha256_hex(payload))) != 0) return std::nullopt;
  return std::string(payload);
}

fs::path temp_path(const fs::path& dir, std::string_view key, std::string_view extension) {
  static std::atomic<uint64_t> counter{0};
  // Unique per process and call; the extension stays last for tools that look at it.
  return dir / (std::string(key) + ".tmp" + std::to_string(getpid()) + "-" +
                std::to_string(counter++) + std::string(extension));
}

void rename_into_place(const fs::path& from, const fs::path& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    throw std::runtime_error("[kernel_cache] cannot rename " + from.string() + " to " +
                             to.string() + ": " + errno_text());
  }
}

// Removes a temporary file unless it was renamed into place.
struct TempFile {
  fs::path path;
  ~TempFile() {
    std::error_code ignored;
    fs::remove(path, ignored);
  }
};

// Writes `bytes` to `path` through a temporary name, so readers see all of it or none.
// No fsync: a file cut short by a crash fails its checksum and is rebuilt.
void write_atomically(const fs::path& path, std::string_view key, std::string_view bytes) {
  TempFile temp{temp_path(path.parent_path(), key, path.extension().string())};
  int fd = open(temp.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw std::runtime_error("[kernel_cache] cannot write " + temp.path.string() + ": " +
                             errno_text());
  }
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
  bool ok = done == bytes.size();
  std::string error = ok ? "" : errno_text();
  if (close(fd) != 0 && ok) {
    ok = false;
    error = errno_text();
  }
  if (!ok) {
    throw std::runtime_error("[kernel_cache] cannot write " + temp.path.string() + ": " + error);
  }
  rename_into_place(temp.path, path);
}

std::optional<std::string> file_sha256(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  Sha256 hash;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    hash.update(std::string_view(buffer, size_t(in.gcount())));
  }
  if (in.bad()) return std::nullopt;
  return hash.hex_digest();
}

// Held while an entry is built, so that the processes sharing a cache directory (pytest's
// or Dask's workers, starting together) build each entry once: the others wait, then find
// it built. An advisory lock (flock) on an empty file per entry under locks/, released when
// its holder closes it or dies. The files are never removed: removing one that another
// process has opened would let two builders in. Best effort: where the file cannot be made,
// processes build side by side, and correctness never rests on the lock (entries are renamed
// into place whole and verified on load). Locks are taken one entry inside another only
// along the builds' own dependencies (a module's precompiled header), so none waits in a
// circle.
class BuildLock {
 public:
  BuildLock(const fs::path& dir, std::string_view digest) {
    const fs::path locks = dir / "locks";
    if (mkdir(locks.c_str(), 0700) != 0 && errno != EEXIST) return;
    fd_ = open((locks / std::string(digest)).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    while (fd_ >= 0 && flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) break;  // no locks here (ENOLCK): build unlocked
    }
  }
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;
  ~BuildLock() {
    if (fd_ >= 0) close(fd_);
  }

 private:
  int fd_ = -1;
};

// --- the in-memory cache --------------------------------------------------------------------

// One per key, locked while the key is built so that concurrent callers build it once.
struct Slot {
  std::mutex mutex;
  bool ready = false;
  std::string bytes;
};

class MemoryCache {
 public:
  std::shared_ptr<Slot> slot(const std::string& key) {
    std::lock_guard lock(mutex_);
    auto& slot = slots_[key];
    if (!slot) slot = std::make_shared<Slot>();
    return slot;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    slots_.clear();
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Slot>> slots_;
};

MemoryCache& memory() {
  static MemoryCache cache;
  return cache;
}

fs::path default_cache_dir() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw std::runtime_error("[kernel_cache] neither TESSERA_CACHE_DIR nor HOME is set");
  }
  return fs::path(home) / ".cache" / "tessera";
}

void create_private_dir(const fs::path& dir) {
  if (fs::is_directory(dir)) return;
  std::error_code ignored;  // a parent that cannot be made shows as mkdir's error below
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ignored);
  if (mkdir(dir.c_str(), 0700) == 0) {
    chmod(dir.c_str(), 0700);  // the umask may have taken bits away
  } else if (errno != EEXIST || !fs::is_directory(dir)) {
    throw std::runtime_error("[kernel_cache] cannot create the cache directory " + dir.string() +
                             ": " + errno_text());
  }
}

}  // namespace

fs::path cache_dir() {
  const char* env = std::getenv("TESSERA_CACHE_DIR");
  fs::path dir = fs::absolute(env != nullptr && *env != '\0' ? fs::path(env) : default_cache_dir());
  // Checked on every call (one stat when it exists): it may have been removed meanwhile.
  create_private_dir(dir);
  return dir;
}

std::string cached_bytes(const CacheKey& key, const std::function<std::string()>& build) {
  std::string digest = key_digest(key);
  auto slot = memory().slot("bytes " + digest);
  std::lock_guard lock(slot->mutex);
  if (slot->ready) return slot->bytes;
  // The disk only saves time: without a usable directory every process builds.
  std::optional<fs::path> path;
  try {
    path = cache_dir() / (digest + kind_suffix(key.kind));
  } catch (const std::exception&) {
  }
  std::optional<std::string> bytes = path ? load_record(*path, digest) : std::nullopt;
  std::optional<BuildLock> building;
  if (!bytes && path) {
    building.emplace(path->parent_path(), digest);
    bytes = load_record(*path, digest);  // built by the process that held the lock
  }
  if (!bytes) {
    bytes = build();
    if (path) {
      try {
        write_atomically(*path, digest, header(digest, sha256_hex(*bytes)) + *bytes);
      } catch (const std::exception&) {
      }
    }
  }
  slot->bytes = std::move(*bytes);
  slot->ready = true;
  return slot->bytes;
}

fs::path cached_file(const CacheKey& key, std::string_view extension,
                     const std::function<void(const fs::path&)>& build) {
  std::string digest = key_digest(key);
  fs::path dir = cache_dir();
  fs::path path = dir / (digest + std::string(extension));
  // Keyed by path: a file verified in one cache directory says nothing about another.
  auto slot = memory().slot("file " + path.string());
  std::lock_guard lock(slot->mutex);
  if (slot->ready) return path;
  fs::path sidecar = path;
  sidecar += ".sha256";
  const auto verified = [&] {
    const std::optional<std::string> record = read_whole(sidecar);
    const std::optional<std::string> checksum = record ? file_sha256(path) : std::nullopt;
    return checksum && *record == header(digest, *checksum);
  };
  std::optional<BuildLock> building;
  if (!verified()) building.emplace(dir, digest);
  if (building && !verified()) {  // nor built by the process that held the lock
    TempFile temp{temp_path(dir, digest, extension)};
    build(temp.path);
    const std::optional<std::string> checksum = file_sha256(temp.path);
    if (!checksum) {
      throw std::runtime_error("[kernel_cache] the build step did not write " + temp.path.string());
    }
    // A racing process may pair its sidecar with our file; the pair then fails to verify and
    // is rebuilt later, never used.
    write_atomically(sidecar, digest, header(digest, *checksum));
    rename_into_place(temp.path, path);
  }
  slot->ready = true;
  return path;
}

std::string digest(std::string_view bytes) { return sha256_hex(bytes); }

const std::string& build_id() {
  static const std::string id = compute_build_id();
  return id;
}

void clear_memory_cache() { memory().clear(); }

}  // namespace tessera::jit

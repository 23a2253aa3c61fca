// The kernel cache (src/jit/kernel_cache.h): memory and disk hits, rejection of damaged and
// foreign files, the private directory, and concurrent writers.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <latch>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "jit/kernel_cache.h"
#include "jit/sha256.h"

namespace fs = std::filesystem;
using tessera::jit::cached_bytes;
using tessera::jit::cached_file;
using tessera::jit::CacheKey;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Each test gets an empty cache directory and an empty memory cache.
class KernelCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* previous = std::getenv("TESSERA_CACHE_DIR")) previous_ = previous;
    std::string scratch = (fs::temp_directory_path() / "tessera-cache-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(scratch.data()), nullptr);
    scratch_ = scratch;
    dir_ = scratch_ / "nested" / "cache";
    setenv("TESSERA_CACHE_DIR", dir_.c_str(), 1);
    tessera::jit::clear_memory_cache();
  }
  void TearDown() override {
    if (previous_) {
      setenv("TESSERA_CACHE_DIR", previous_->c_str(), 1);
    } else {
      unsetenv("TESSERA_CACHE_DIR");
    }
    tessera::jit::clear_memory_cache();
    fs::remove_all(scratch_);
  }

  // The cache's files, by name (not locks/, the build locks' directory).
  std::set<std::string> files() const {
    std::set<std::string> names;
    if (!fs::exists(dir_)) return names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      if (!entry.is_directory()) names.insert(entry.path().filename());
    }
    return names;
  }

  // The one file that appeared since `before`.
  fs::path new_file(const std::set<std::string>& before) const {
    std::vector<std::string> added;
    for (const auto& name : files()) {
      if (!before.contains(name)) added.push_back(name);
    }
    EXPECT_EQ(added.size(), 1u);
    return added.empty() ? fs::path() : dir_ / added.front();
  }

  std::optional<std::string> previous_;
  fs::path scratch_;
  fs::path dir_;
};

// A build step that counts its calls.
struct CountingBuild {
  std::string bytes;
  int* calls;
  std::string operator()() const {
    ++*calls;
    return bytes;
  }
};

TEST(Sha256, KnownDigests) {
  using tessera::jit::sha256_hex;
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Lengths around the padding boundaries (56 and 64 bytes).
  const std::pair<size_t, const char*> lengths[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"}};
  for (const auto& [length, expected] : lengths) {
    EXPECT_EQ(sha256_hex(std::string(length, 'a')), expected) << length;
  }
}

TEST(Sha256, IncrementalMatchesWhole) {
  // A million 'a' fed in uneven pieces, so pieces straddle block boundaries.
  tessera::jit::Sha256 hash;
  std::string piece(997, 'a');
  size_t left = 1000000;
  for (; left >= piece.size(); left -= piece.size()) hash.update(piece);
  hash.update(std::string(left, 'a'));
  EXPECT_EQ(hash.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(KernelCacheKey, BuildIdAndDigest) {
  EXPECT_FALSE(tessera::jit::build_id().empty());
  EXPECT_EQ(tessera::jit::digest("abc"), tessera::jit::sha256_hex("abc"));
}

TEST_F(KernelCacheTest, DirectoryIsCreatedPrivate) {
  EXPECT_EQ(tessera::jit::cache_dir(), dir_);
  struct stat info {};
  ASSERT_EQ(stat(dir_.c_str(), &info), 0);
  EXPECT_TRUE(S_ISDIR(info.st_mode));
  EXPECT_EQ(info.st_mode & 0777, 0700u);
}

TEST_F(KernelCacheTest, MissThenHit) {
  int calls = 0;
  CacheKey key{"test", {"source", "options"}};
  EXPECT_EQ(cached_bytes(key, CountingBuild{"alpha", &calls}), "alpha");
  EXPECT_EQ(cached_bytes(key, CountingBuild{"other", &calls}), "alpha");
  EXPECT_EQ(calls, 1);
  // Every part of the key counts, and so does the kind.
  EXPECT_EQ(cached_bytes({"test", {"source", "options2"}}, CountingBuild{"beta", &calls}), "beta");
  EXPECT_EQ(cached_bytes({"test2", {"source", "options"}}, CountingBuild{"gamma", &calls}),
            "gamma");
  // Parts are length-prefixed: moving a boundary makes a different key.
  EXPECT_EQ(cached_bytes({"test", {"sourceo", "ptions"}}, CountingBuild{"delta", &calls}), "delta");
  EXPECT_EQ(calls, 4);
}

TEST_F(KernelCacheTest, DiskPersistsAcrossMemoryClear) {
  int calls = 0;
  CacheKey key{"test", {"persist"}};
  std::string bytes("binary\0payload\xff", 15);
  EXPECT_EQ(cached_bytes(key, CountingBuild{bytes, &calls}), bytes);
  tessera::jit::clear_memory_cache();
  EXPECT_EQ(cached_bytes(key, CountingBuild{"rebuilt", &calls}), bytes);
  EXPECT_EQ(calls, 1);
}

TEST_F(KernelCacheTest, FailedBuildStoresNothing) {
  CacheKey key{"test", {"fails"}};
  auto before = files();
  EXPECT_THROW(cached_bytes(key, []() -> std::string { throw std::runtime_error("no"); }),
               std::runtime_error);
  EXPECT_EQ(files(), before);
  int calls = 0;
  EXPECT_EQ(cached_bytes(key, CountingBuild{"ok", &calls}), "ok");
  EXPECT_EQ(calls, 1);
}

TEST_F(KernelCacheTest, DamagedFileIsRebuilt) {
  int calls = 0;
  CacheKey key{"test", {"damaged"}};
  auto before = files();
  cached_bytes(key, CountingBuild{"payload-bytes", &calls});
  fs::path file = new_file(before);
  // A flipped byte, a truncated file, an empty file: each is rebuilt and rewritten.
  std::string good = read_file(file);
  std::string flipped = good;
  flipped.back() ^= 1;
  for (const std::string& bad : {flipped, good.substr(0, good.size() - 3), std::string()}) {
    write_file(file, bad);
    tessera::jit::clear_memory_cache();
    EXPECT_EQ(cached_bytes(key, CountingBuild{"payload-bytes", &calls}), "payload-bytes");
    EXPECT_EQ(read_file(file), good);
  }
  EXPECT_EQ(calls, 4);
}

TEST_F(KernelCacheTest, ForeignFileIsRejected) {
  int calls = 0;
  CacheKey key_a{"test", {"a"}};
  CacheKey key_b{"test", {"b"}};
  auto before = files();
  cached_bytes(key_a, CountingBuild{"bytes of a", &calls});
  fs::path file_a = new_file(before);
  before = files();
  cached_bytes(key_b, CountingBuild{"bytes of b", &calls});
  fs::path file_b = new_file(before);
  // A valid entry of another key, and a file that is no cache entry at all.
  for (const std::string& foreign : {read_file(file_b), std::string(200, 'x')}) {
    write_file(file_a, foreign);
    tessera::jit::clear_memory_cache();
    EXPECT_EQ(cached_bytes(key_a, CountingBuild{"bytes of a", &calls}), "bytes of a");
  }
  EXPECT_EQ(calls, 4);
}

TEST_F(KernelCacheTest, CachedFileKeepsBytesAndVerifiesSidecar) {
  int calls = 0;
  auto build = [&calls](const std::string& bytes) {
    return [&calls, bytes](const fs::path& path) {
      ++calls;
      write_file(path, bytes);
    };
  };
  CacheKey key{"test-so", {"lib"}};
  fs::path path = cached_file(key, ".so",
                              build("\x7f"
                                    "ELF shared object"));
  EXPECT_EQ(path.parent_path(), dir_);
  EXPECT_EQ(path.extension(), ".so");
  EXPECT_EQ(read_file(path),
            "\x7f"
            "ELF shared object");
  fs::path sidecar = path;
  sidecar += ".sha256";
  ASSERT_TRUE(fs::exists(sidecar));
  EXPECT_EQ(cached_file(key, ".so", build("unused")), path);
  tessera::jit::clear_memory_cache();
  EXPECT_EQ(cached_file(key, ".so", build("unused")), path);
  EXPECT_EQ(calls, 1);

  // A damaged file, a missing sidecar, and another key's sidecar are each rebuilt.
  fs::path other = cached_file({"test-so", {"other"}}, ".so", build("other library"));
  fs::path other_sidecar = other;
  other_sidecar += ".sha256";
  EXPECT_EQ(calls, 2);
  write_file(path,
             "\x7f"
             "ELF shared objecT");
  tessera::jit::clear_memory_cache();
  cached_file(key, ".so",
              build("\x7f"
                    "ELF shared object"));
  EXPECT_EQ(read_file(path),
            "\x7f"
            "ELF shared object");
  fs::remove(sidecar);
  tessera::jit::clear_memory_cache();
  cached_file(key, ".so",
              build("\x7f"
                    "ELF shared object"));
  EXPECT_TRUE(fs::exists(sidecar));
  fs::copy_file(other, path, fs::copy_options::overwrite_existing);
  fs::copy_file(other_sidecar, sidecar, fs::copy_options::overwrite_existing);
  tessera::jit::clear_memory_cache();
  cached_file(key, ".so",
              build("\x7f"
                    "ELF shared object"));
  EXPECT_EQ(read_file(path),
            "\x7f"
            "ELF shared object");
  EXPECT_EQ(calls, 5);
}

TEST_F(KernelCacheTest, CachedFileBuildThatWritesNothingThrows) {
  auto before = files();
  EXPECT_THROW(cached_file({"test-so", {"empty"}}, ".so", [](const fs::path&) {}),
               std::runtime_error);
  EXPECT_EQ(files(), before);
}

TEST_F(KernelCacheTest, ConcurrentCallersBuildOnce) {
  std::atomic<int> calls = 0;
  constexpr int kThreads = 8;
  std::latch start(kThreads);
  std::vector<std::string> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      results[t] = cached_bytes({"test", {"once"}}, [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return std::string("built once");
      });
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(calls.load(), 1);
  for (const auto& result : results) EXPECT_EQ(result, "built once");
}

// Two processes wanting one entry at once (pytest's workers): one builds it, the other waits
// for it and loads it. Each build appends a line to a log shared by both.
TEST_F(KernelCacheTest, ProcessesSharingTheDirectoryBuildOnce) {
  const fs::path log = scratch_ / "builds.log";
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const auto build = [&](const std::string& who) {
    return [&, who](const fs::path& path) {
      std::ofstream(log, std::ios::app) << who << "\n";
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      write_file(path, "module");
    };
  };
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    const char byte = 1;
    const bool written = write(ready[1], &byte, 1) == 1;
    const fs::path file = cached_file({"test-so", {"shared"}}, ".so", build("child"));
    _exit(written && read_file(file) == "module" ? 0 : 1);
  }
  close(ready[1]);
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);  // both ask for the entry at about the same time
  close(ready[0]);
  const fs::path file = cached_file({"test-so", {"shared"}}, ".so", build("parent"));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(read_file(file), "module");
  const std::string builds = read_file(log);
  EXPECT_EQ(std::count(builds.begin(), builds.end(), '\n'), 1) << builds;
}

TEST_F(KernelCacheTest, ConcurrentWritersLeaveValidFiles) {
  // Clearing the memory cache while other threads read and write makes several threads
  // write the same entries at once; every result and every file must stay whole.
  constexpr int kThreads = 6;
  constexpr int kKeys = 3;
  auto payload = [](int k) { return std::string(100000 + k, char('a' + k)); };
  std::latch start(kThreads);
  std::atomic<int> wrong = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      for (int i = 0; i < 30; ++i) {
        int k = (t + i) % kKeys;
        if (i % 2 == 0) tessera::jit::clear_memory_cache();
        if (cached_bytes({"test", {std::to_string(k)}}, [&] { return payload(k); }) != payload(k)) {
          ++wrong;
        }
        fs::path file = cached_file({"test-so", {std::to_string(k)}}, ".so",
                                    [&](const fs::path& path) { write_file(path, payload(k)); });
        if (read_file(file) != payload(k)) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  // Three entries, three files with their sidecars, and no temporary left behind.
  EXPECT_EQ(files().size(), 3u * kKeys);
  tessera::jit::clear_memory_cache();
  for (int k = 0; k < kKeys; ++k) {
    EXPECT_EQ(cached_bytes({"test", {std::to_string(k)}},
                           []() -> std::string { throw std::logic_error("rebuilt"); }),
              payload(k));
  }
}

}  // namespace

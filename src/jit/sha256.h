#pragma once
// SHA-256 (FIPS 180-4) for cache keys and checksums. Written here because the engine links no
// crypto library, and a cache key must not collide by accident.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::jit {

// Incremental hashing, so that large files can be hashed without reading them whole.
class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  // The digest as 64 lowercase hex characters; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> block_{};
  size_t block_size_ = 0;
  uint64_t total_bytes_ = 0;
};

// The hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace tessera::jit

#pragma once
// Where an array's data lives. The CPU is always there; CUDA devices are numbered from 0.

#include <cstdint>
#include <string>

namespace tessera {

enum class DeviceKind : uint8_t { CPU, CUDA };

struct Device {
  DeviceKind kind = DeviceKind::CPU;
  int index = 0;

  static Device cpu() { return {DeviceKind::CPU, 0}; }
  static Device cuda(int index) { return {DeviceKind::CUDA, index}; }

  bool is_cpu() const { return kind == DeviceKind::CPU; }
  friend bool operator==(const Device&, const Device&) = default;
  std::string str() const;  // "cpu", "cuda:0"
};

// Parses "cpu", "cuda", "cuda:1"; throws ValueError naming `api` otherwise.
Device parse_device(const std::string& spec, const char* api);

// The device new arrays go to when none is named: set per thread by `with Device(...)`.
Device current_device();
void set_current_device(Device d);

}  // namespace tessera

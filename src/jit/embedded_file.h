#pragma once
// A source file carried inside libtessera as text (cmake/embed_text.cmake), for the
// compilers tessera runs at run time.

#include <cstddef>

namespace tessera::jit {

struct EmbeddedFile {
  const char* path;  // under src/, e.g. "kernels/ops_trig.h"
  const char* text;
};

}  // namespace tessera::jit

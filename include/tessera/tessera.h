#pragma once
// The tessera engine for C++ programs: arrays on devices, with NumPy's semantics.

#include "tessera/array.h"
#include "tessera/buffer.h"
#include "tessera/creation.h"
#include "tessera/device.h"
#include "tessera/dims.h"
#include "tessera/dtype.h"
#include "tessera/errors.h"
#include "tessera/fft.h"
#include "tessera/indexing.h"
#include "tessera/linalg.h"
#include "tessera/memory.h"
#include "tessera/reduction.h"
#include "tessera/scalar.h"
#include "tessera/sorting.h"
#include "tessera/stream.h"
#include "tessera/ufunc.h"

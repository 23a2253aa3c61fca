# The single-source kernels (src/kernels/) as text: generated kernels include the very
# functors the CPU build compiles (src/jit/kernel_text.h). Standard includes go too: each
# renderer's preamble supplies them (the host's headers, or libcu++'s under NVRTC).
tessera_embed_text(tessera_core STRIP_ALL
  OUTPUT kernel_text.cpp
  HEADER jit/kernel_text.h
  NAMESPACE tessera::jit
  ARRAY kKernelFiles
  FILES
    kernels/defs.h
    kernels/complex_type.h
    kernels/element_types.h
    kernels/complex_math.h
    kernels/cast.h
    kernels/ops_exp_log.h
    kernels/ops_arithmetic.h
    kernels/ops_comparison.h
    kernels/ops_floating.h
    kernels/ops_logic.h
    kernels/ops_rounding.h
    kernels/ops_select.h
    kernels/ops_trig.h
    kernels/range.h
    kernels/philox.h)

# The CUDA renderers' own device code (src/backend/cuda/device/): the folds that generated
# reduction, arg-reduction and scan kernels instantiate (backend/cuda/render_fold.h), and
# the fills (backend/cuda/fill_kernel.h), the indexing kernels (index_kernel.h), the
# sorts (sort_kernel.h), integer matrix products (product_kernel.h) and the unpacking of
# real eigenvectors (cusolver.cpp).
tessera_embed_text(tessera_core STRIP_ALL
  OUTPUT cuda_device_text.cpp
  HEADER backend/cuda/device_text.h
  NAMESPACE tessera::cuda
  ARRAY kDeviceFiles
  FILES
    backend/cuda/device/fold.cuh
    backend/cuda/device/fill.cuh
    backend/cuda/device/index.cuh
    backend/cuda/device/sort.cuh
    backend/cuda/device/product.cuh
    backend/cuda/device/linalg.cuh)

# What code generated from Python functions needs besides the functors
# (jit/render_python.h): array views, range counts, Python's errors.
tessera_embed_text(tessera_core STRIP_ALL
  OUTPUT python_kernel_text.cpp
  HEADER jit/python_kernel_text.h
  NAMESPACE tessera::jit
  ARRAY kPythonKernelFiles
  FILES
    jit/python_runtime.h)

# What CUDA kernels from Python functions (tessera.cuda.jit) add: Numba's `cuda` module on
# the device (jit/render_python.h's CUDA renderer).
tessera_embed_text(tessera_core STRIP_ALL
  OUTPUT python_cuda_text.cpp
  HEADER jit/python_kernel_text.h
  NAMESPACE tessera::jit
  ARRAY kPythonCudaFiles
  FILES
    jit/python_cuda_runtime.h)

# What kernels written as CUDA C++ snippets (ElementwiseKernel, ReductionKernel) add: CuPy's
# CArray and CIndexer, the loops (jit/render_user_kernel.h).
tessera_embed_text(tessera_core STRIP_ALL
  OUTPUT user_kernel_text.cpp
  HEADER jit/render_user_kernel.h
  NAMESPACE tessera::jit
  ARRAY kUserKernelFiles
  FILES
    jit/user_kernel_runtime.h)

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
    kernels/element_types.h
    kernels/cast.h
    kernels/ops_exp_log.h
    kernels/ops_arithmetic.h
    kernels/ops_comparison.h
    kernels/ops_floating.h
    kernels/ops_logic.h
    kernels/ops_rounding.h
    kernels/ops_select.h
    kernels/ops_trig.h)

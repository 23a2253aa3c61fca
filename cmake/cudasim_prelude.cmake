# The CUDA simulator's prelude (src/backend/cudasim/prelude/) as text: every kernel module
# the simulator compiles at run time starts with it (module_source.h, kPreludeFiles). In the
# order a module's translation unit needs them; fp16.h only replaces <cuda_fp16.h>.
tessera_embed_text(tessera_core
  OUTPUT cudasim_prelude.cpp
  HEADER backend/cudasim/module_source.h
  NAMESPACE tessera::cudasim
  ARRAY kPreludeFiles
  FILES
    backend/cudasim/sim_abi.h
    backend/cudasim/prelude/runtime.h
    backend/cudasim/prelude/vector_types.h
    backend/cudasim/prelude/sync.h
    backend/cudasim/prelude/atomics.h
    backend/cudasim/prelude/math.h
    backend/cudasim/prelude/intrinsics.h
    backend/cudasim/prelude/kernel_export.h
    backend/cudasim/prelude/std_headers.h
    backend/cudasim/prelude/fp16.h)

# LibTorch for the targets that link it (models/, src/nn/): include() this from their
# CMakeLists.txt. The top-level CMakeLists.txt finds Torch once; if it did not, this finds it and
# makes its imported targets global, because modules under src/ are configured before models/ and
# cmake otherwise sees imported targets only in the directory that found them.
# Defines SZ_TORCH_LIBRARIES.
if(NOT TARGET torch)
  find_package(Torch REQUIRED)
  get_property(sz_torch_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
  foreach(target IN LISTS sz_torch_imported)
    set_target_properties(${target} PROPERTIES IMPORTED_GLOBAL TRUE)
  endforeach()
  set_property(GLOBAL PROPERTY SZ_TORCH_LIBRARIES "${TORCH_LIBRARIES}")
endif()
if(TORCH_LIBRARIES)
  set(SZ_TORCH_LIBRARIES ${TORCH_LIBRARIES})
else()
  get_property(SZ_TORCH_LIBRARIES GLOBAL PROPERTY SZ_TORCH_LIBRARIES)
endif()

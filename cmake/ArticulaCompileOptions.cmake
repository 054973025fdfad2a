# Warning and sanitizer flags shared by every Articula target.
add_library(articula_options INTERFACE)
target_compile_options(articula_options INTERFACE
  -Wall -Wextra -Wshadow -Wpedantic -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual)
# g++ 12 reports -Wrestrict inside libstdc++ for `"x" + std::string(...)` at -O2 (GCC bug
# 105329, a false positive); concatenation is too common to write around it.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(articula_options INTERFACE -Wno-restrict)
endif()
if(ARTICULA_WERROR)
  target_compile_options(articula_options INTERFACE -Werror)
endif()
if(ARTICULA_SANITIZE)
  # -O1 -g1 (after the build type's -O3, so it wins): the usual sanitizer setting, cheaper
  # to compile than -O3, with file:line in every report.
  target_compile_options(articula_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
    -O1 -g1)
  # g++ 12's -Wmaybe-uninitialized depends on inlining: at -O1 with the instrumentation it
  # fires inside Eigen's decompositions where the Release build's -O3 stays silent. This
  # build checks such reads at run time instead (UBSan found the one the warning hinted at,
  # IkTreeWorkspace copying never-computed Eigen solvers); the Release build keeps the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(articula_options INTERFACE -Wno-maybe-uninitialized)
  endif()
  target_link_options(articula_options INTERFACE -fsanitize=address,undefined)
endif()

# Third-party headers (Eigen, tinygltf, Qt) are included as system headers so their
# warnings do not drown ours.
function(articula_target_defaults target)
  target_link_libraries(${target} PRIVATE articula_options)
endfunction()

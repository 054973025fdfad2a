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
  target_compile_options(articula_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(articula_options INTERFACE -fsanitize=address,undefined)
endif()

# Third-party headers (Eigen, tinygltf, Qt) are included as system headers so their
# warnings do not drown ours.
function(articula_target_defaults target)
  target_link_libraries(${target} PRIVATE articula_options)
endfunction()

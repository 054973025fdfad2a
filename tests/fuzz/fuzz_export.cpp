// libFuzzer target: exportScene (fuzz_entry_points.h).
#include <cstddef>
#include <cstdint>

#include "fuzz_entry_points.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  articula::fuzz::exportScene({data, size});
  return 0;
}

#include "core/ik/allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> gArmed{false};
std::atomic<int> gAllocations{0};
}  // namespace

namespace {
void* countedAllocation(std::size_t size) noexcept {
  if (gArmed.load(std::memory_order_relaxed)) gAllocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

// Every unaligned form is replaced, so each block is malloc'ed and free'd by the same pair:
// a form left to the runtime (libstdc++'s temporary buffers use the nothrow one) would
// allocate with the runtime's operator new and free here (AddressSanitizer's
// alloc-dealloc-mismatch).
void* operator new(std::size_t size) {
  if (void* p = countedAllocation(size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = countedAllocation(size)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return countedAllocation(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return countedAllocation(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace articula::test {

void armAllocationCounter() {
  gAllocations = 0;
  gArmed = true;
}

int disarmAllocationCounter() {
  gArmed = false;
  return gAllocations.load();
}

}  // namespace articula::test

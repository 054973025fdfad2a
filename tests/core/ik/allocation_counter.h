#pragma once
// Counts heap allocations (global operator new) while armed, to check that solvers allocate
// nothing in run(). The replacement operators live in allocation_counter.cpp.
namespace articula::test {

void armAllocationCounter();
// Disarms and returns the allocations counted since armAllocationCounter().
int disarmAllocationCounter();

}  // namespace articula::test

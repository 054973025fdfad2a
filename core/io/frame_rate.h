#pragma once
#include <vector>

namespace articula {

// The frame rate a clip is stepped and baked at when its file does not say (glTF, Collada).
inline constexpr double kDefaultFrameRate = 30.0;

// The frame rate of a clip from its key times (seconds, any order): the smallest common rate
// whose frame grid holds every key (keys authored at 24 fps that skip frames still give 24);
// else the rate of regularly spaced keys; else kDefaultFrameRate.
double inferFrameRate(std::vector<double> times);

}  // namespace articula

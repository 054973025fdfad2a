#pragma once
#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace articula {

// What `articula-cli info` prints: skeleton tree, joint count, meshes (vertices, influences
// per vertex), clips (duration, frames, keys, channels, interpolation kinds).
// `joints` counts Joint nodes over every skeleton of the file (BVH End Sites are tips and
// helper/mesh nodes are transforms, neither counts).
std::string sceneInfoText(const Scene& scene);
// One JSON object: joints, jointNames, skeletons, nodes, meshes[], clips[] (name, duration
// in seconds, frameRate, frameCount, keyCount, channelCount, interpolations, curves), and
// `warnings` as given (what loadSceneOrProject said: repairs, a changed asset).
std::string sceneInfoJson(const Scene& scene, const std::vector<std::string>& warnings = {});

}  // namespace articula

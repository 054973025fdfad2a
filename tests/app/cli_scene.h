#pragma once
// What the CLI tests that make their inputs from a capture share: the capture imported, and
// where such a test writes its files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "core/io/import.h"

namespace articula::testing_tools {

// The scene of `path`; a failed expectation, and an empty scene, when it does not import.
inline Scene importedScene(const std::string& path) {
  auto scene = importScene(path);
  EXPECT_TRUE(scene) << (scene ? "" : scene.error());
  return scene ? std::move(*scene) : Scene{};
}

// `name` in the system's temporary folder behind `prefix` and the process id.
inline std::filesystem::path tempOutput(const std::string& prefix, const std::string& name) {
  return std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()) + "_" + name);
}

}  // namespace articula::testing_tools

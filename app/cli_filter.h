#pragma once
// `--filter` on bake and export: the clip filters (core/clipops/clip_filter.h) run on every
// animated joint of a clip over its whole range before it is baked or written, in the order
// given, and reported in --json.
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula::cli {

// Adds the repeatable `--filter WORD` option to `command`.
void addFilterOption(CLI::App& command, std::vector<std::string>& words);

// Runs each filter `words` names on `clip` in turn; the JSON array of what each did (the
// filter, frames, joints, channels, keys before and after in the range, frames changed).
// Fails on a word it cannot read or a clip a filter refuses, in one line naming `inPath`,
// with `clip` as it was.
Result<nlohmann::json> applyFilters(const std::vector<std::string>& words, const std::string& inPath,
                                    const Skeleton& skeleton, float heightModel, Clip& clip);

}  // namespace articula::cli

#include "app/cli_filter.h"

#include "core/clipops/clip_filter.h"

namespace articula::cli {

void addFilterOption(CLI::App& command, std::vector<std::string>& words) {
  command.add_option("--filter", words,
                     "Filter every animated joint of the clip first, in the order given (repeat the option): "
                     "butterworth:CUTOFF_HZ[:ORDER] (zero-phase low-pass), unroll (rotation sign flips), "
                     "resample:RATE, peaks[:FACTOR] (single-frame spikes), reduce (keys within the bake's 1 mm)");
}

Result<nlohmann::json> applyFilters(const std::vector<std::string>& words, const std::string& inPath,
                                    const Skeleton& skeleton, float heightModel, Clip& clip) {
  nlohmann::json reports = nlohmann::json::array();
  Clip filtered = clip;
  for (const std::string& word : words) {
    auto settings = parseFilter(word);
    if (!settings) return makeError(settings.error());
    auto report = filterWholeClip(skeleton, heightModel, filtered, *settings);
    if (!report) return makeError(inPath + ": " + report.error());
    reports.push_back({{"clip", clip.name},
                       {"filter", report->filter},
                       {"firstFrame", report->firstFrame},
                       {"lastFrame", report->lastFrame},
                       {"joints", report->joints},
                       {"channels", report->channels},
                       {"keysBefore", report->keysBefore},
                       {"keysAfter", report->keysAfter},
                       {"framesChanged", report->framesChanged}});
  }
  clip = std::move(filtered);
  return reports;
}

}  // namespace articula::cli

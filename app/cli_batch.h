#pragma once
// articula-cli's file commands (bake, export, contacts) on many inputs at once: several files
// or folders, written into --out-dir by --jobs worker processes. Each input runs as its own
// articula-cli process in the single-file form (IN --out OUT and the command's other options
// as given), so a file that fails, even by crashing, is reported and the others go on, and
// one file's memory is returned before the next. One JSON line per file on stdout; a
// progress bar on stderr when it is a terminal.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace articula::cli {

struct BatchOptions {
  std::string outDir;  // empty: the single-file form
  int jobs = 1;        // worker processes at a time
};

// Adds --out-dir and --jobs to a file command.
void addBatchOptions(CLI::App& command, BatchOptions& options);

// Runs a parsed file command: one input with --out goes to `runOne(input)` (the form the
// command always had); anything with --out-dir goes through the batch. `childJson`: the
// command prints one JSON object with --json, which the batch asks for and merges into each
// file's line. Returns the exit code (non-zero when any file failed).
int runFileCommand(const CLI::App& command, const std::vector<std::string>& inputs, const std::string& out,
                   const BatchOptions& options, bool childJson, const std::function<int(const std::string&)>& runOne);

}  // namespace articula::cli

#include "app/cli_batch.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "core/io/import.h"
#include "core/util/message_text.h"

extern char** environ;

namespace articula::cli {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// One input of the batch and where its output goes; `problem` set when it cannot run at all.
struct Task {
  std::string in;
  std::string out;
  std::optional<std::string> problem;
};

std::string lowerExtension(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

// What a folder contributes: the files articula-cli opens (importScene's formats and projects).
bool isInputFile(const fs::path& path) {
  const std::string extension = lowerExtension(path);
  if (extension == ".articula") return true;
  const auto importable = importableExtensions();
  return std::any_of(importable.begin(), importable.end(), [&](const char* e) { return extension == e; });
}

bool isInside(const fs::path& path, const fs::path& folder) {
  if (folder.empty()) return false;
  const auto [folderEnd, pathAt] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return folderEnd == folder.end();
}

// The files under `folder` (recursively, sorted), each written to the same relative path under
// `outDir` as .glb; files already inside `outDir` (a library baked into itself) are skipped.
void addFolder(const fs::path& folder, const fs::path& outDir, std::vector<Task>& tasks) {
  std::error_code ec;
  const fs::path outCanonical = fs::weakly_canonical(outDir, ec);
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code fileEc;
    if (!it->is_regular_file(fileEc) || !isInputFile(it->path())) continue;
    if (isInside(fs::weakly_canonical(it->path(), fileEc), outCanonical)) continue;
    files.push_back(it->path());
  }
  if (ec) {
    tasks.push_back({folder.string(), {}, folder.string() + ": cannot be listed (" + ec.message() + ")"});
    return;
  }
  if (files.empty()) {
    tasks.push_back({folder.string(), {}, folder.string() + ": holds no file articula-cli opens"});
    return;
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    tasks.push_back({file.string(), (outDir / file.lexically_relative(folder)).replace_extension(".glb").string(), {}});
  }
}

// Every input expanded into tasks; two inputs that would write the same file: the later fails.
std::vector<Task> gatherTasks(const std::vector<std::string>& inputs, const fs::path& outDir) {
  std::vector<Task> tasks;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      addFolder(input, outDir, tasks);
    } else {
      // A missing or unreadable file is the child's to report, in the single-file form's words.
      tasks.push_back({input, (outDir / fs::path(input).filename()).replace_extension(".glb").string(), {}});
    }
  }
  std::map<std::string, std::string> writers;  // output → the input writing it
  for (Task& task : tasks) {
    if (task.problem) continue;
    std::error_code ec;
    if (fs::equivalent(task.in, task.out, ec)) {
      task.problem = task.in + ": is its own output in --out-dir; write into another folder";
      continue;
    }
    const auto [it, fresh] = writers.emplace(fs::path(task.out).lexically_normal().string(), task.in);
    if (!fresh) task.problem = task.in + ": would overwrite " + task.out + ", the output of " + it->second;
  }
  return tasks;
}

// The options given to the command, as arguments for each input's own run: everything except
// the inputs, the outputs, --jobs and --json (the batch decides those).
std::vector<std::string> forwardedArguments(const CLI::App& command) {
  static const std::set<std::string> kBatchOwned = {"--out", "--out-dir", "--jobs", "--json", "--help"};
  std::vector<std::string> arguments;
  for (const CLI::Option* option : command.get_options()) {
    if (option->count() == 0 || option->get_lnames().empty()) continue;  // not given, or positional
    const std::string name = "--" + option->get_lnames().front();
    if (kBatchOwned.count(name) != 0) continue;
    if (option->get_expected_max() == 0) {
      arguments.push_back(name);  // a flag
      continue;
    }
    for (const std::string& value : option->results()) {
      arguments.push_back(name);
      arguments.push_back(value);
    }
  }
  return arguments;
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> nonEmptyLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// Why a run failed, in one line: its error message, else how it ended.
std::string failureReason(int status, const std::string& errText) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    return "articula-cli stopped by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  }
  std::vector<std::string> lines = nonEmptyLines(errText);
  if (lines.empty()) return "articula-cli exited with code " + std::to_string(WEXITSTATUS(status));
  std::string reason = lines.back();
  if (reason.rfind("error: ", 0) == 0) reason.erase(0, 7);
  return reason;
}

// A progress bar on stderr, only when it is a terminal; JSON lines go to stdout between redraws.
class Progress {
 public:
  explicit Progress(std::size_t total) : mTotal(total), mShown(::isatty(STDERR_FILENO) != 0) { draw(); }

  void clear() const {
    if (mShown) std::cerr << "\r\033[K" << std::flush;
  }

  void advance(bool failed) {
    ++mDone;
    mFailed += failed ? 1 : 0;
    draw();
  }

 private:
  void draw() const {
    if (!mShown) return;
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = mTotal > 0 ? mDone * kWidth / mTotal : kWidth;
    std::cerr << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, ' ') << "] " << mDone << '/'
              << mTotal << " files" << (mFailed > 0 ? ", " + std::to_string(mFailed) + " failed" : "")
              << (mDone == mTotal ? "\n" : "") << std::flush;
  }

  std::size_t mTotal = 0;
  std::size_t mDone = 0;
  std::size_t mFailed = 0;
  bool mShown = false;
};

// Runs each task as its own articula-cli process, `jobs` at a time, and prints its line as it
// finishes.
class Batch {
 public:
  Batch(std::string command, std::vector<std::string> forwarded, bool childJson)
      : mCommand(std::move(command)), mForwarded(std::move(forwarded)), mChildJson(childJson) {}

  // Returns the number of failed tasks.
  std::size_t run(std::vector<Task> tasks, int jobs, const fs::path& scratch) {
    Progress progress(tasks.size());
    std::size_t failed = 0;
    const auto report = [&](const Json& line) {
      progress.clear();
      std::cout << line.dump() << '\n' << std::flush;
      const bool ok = line["ok"].get<bool>();
      failed += ok ? 0 : 1;
      progress.advance(!ok);
    };
    std::map<pid_t, std::size_t> running;  // child → task index
    std::size_t next = 0;
    while (next < tasks.size() || !running.empty()) {
      while (next < tasks.size() && running.size() < static_cast<std::size_t>(jobs)) {
        const std::size_t index = next++;
        const Task& task = tasks[index];
        if (task.problem) {
          report(failedLine(task, *task.problem));
          continue;
        }
        std::string problem;
        const pid_t pid = spawn(task, scratch / std::to_string(index), problem);
        if (pid < 0) {
          report(failedLine(task, problem));
        } else {
          running.emplace(pid, index);
        }
      }
      if (running.empty()) continue;
      int status = 0;
      const pid_t pid = ::waitpid(-1, &status, 0);
      const auto it = running.find(pid);
      if (pid < 0 || it == running.end()) continue;  // interrupted, or not one of ours
      const std::size_t index = it->second;
      running.erase(it);
      report(finishedLine(tasks[index], status, scratch / std::to_string(index)));
    }
    return failed;
  }

 private:
  static Json failedLine(const Task& task, const std::string& reason) {
    Json line = {{"in", task.in}};
    if (!task.out.empty()) line["out"] = task.out;
    line["ok"] = false;
    line["error"] = reason;
    return line;
  }

  // The single-file form of the command on this task, its stdout and stderr in files beside
  // `scratch`. Returns the child, or -1 with `problem` set.
  pid_t spawn(const Task& task, const fs::path& scratch, std::string& problem) const {
    std::error_code ec;
    fs::create_directories(fs::path(task.out).parent_path(), ec);
    if (ec) {
      problem = fs::path(task.out).parent_path().string() + ": cannot be created (" + ec.message() + ")";
      return -1;
    }
    std::vector<std::string> arguments = {selfPath(), mCommand, task.in, "--out", task.out};
    arguments.insert(arguments.end(), mForwarded.begin(), mForwarded.end());
    if (mChildJson) arguments.emplace_back("--json");
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    const std::string outPath = scratch.string() + ".out";
    const std::string errPath = scratch.string() + ".err";
    posix_spawn_file_actions_t actions;
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid = -1;
    const int error = ::posix_spawn(&pid, argv.front(), &actions, nullptr, argv.data(), environ);
    ::posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
      problem = std::string("cannot start ") + argv.front() + " (" + std::strerror(error) + ")";
      return -1;
    }
    return pid;
  }

  Json finishedLine(const Task& task, int status, const fs::path& scratch) const {
    const std::string outText = readText(scratch.string() + ".out");
    const std::string errText = readText(scratch.string() + ".err");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return failedLine(task, failureReason(status, errText));
    Json line = {{"in", task.in}, {"out", task.out}, {"ok", true}};
    const Json report = mChildJson ? Json::parse(outText, nullptr, false) : Json();
    if (report.is_object()) {
      for (const auto& [key, value] : report.items()) {
        if (!line.contains(key)) line[key] = value;
      }
    } else {
      line["output"] = nonEmptyLines(outText);
    }
    return line;
  }

  // This very executable, so each input runs the same build of the command.
  static std::string selfPath() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("articula-cli") : self.string();
  }

  std::string mCommand;
  std::vector<std::string> mForwarded;
  bool mChildJson = false;
};

int runBatch(const CLI::App& command, const std::vector<std::string>& inputs, const BatchOptions& options,
             bool childJson) {
  // Children are waited for one by one: an inherited "ignore SIGCHLD" would reap them unseen.
  std::signal(SIGCHLD, SIG_DFL);
  std::error_code ec;
  fs::create_directories(options.outDir, ec);
  if (ec || !fs::is_directory(options.outDir, ec)) {
    std::cerr << "error: --out-dir " << options.outDir << ": cannot be created (" << ec.message() << ")\n";
    return 1;
  }
  const fs::path scratch = fs::temp_directory_path() / ("articula-batch-" + std::to_string(::getpid()));
  fs::create_directories(scratch, ec);
  if (ec) {
    std::cerr << "error: " << scratch.string() << ": cannot be created (" << ec.message() << ")\n";
    return 1;
  }
  Batch batch(command.get_name(), forwardedArguments(command), childJson);
  const std::size_t failed = batch.run(gatherTasks(inputs, options.outDir), options.jobs, scratch);
  fs::remove_all(scratch, ec);
  return failed == 0 ? 0 : 1;
}

}  // namespace

void addBatchOptions(CLI::App& command, BatchOptions& options) {
  command
      .add_option("--out-dir", options.outDir,
                  "Write each input to DIR/<name>.glb (a folder's files at their relative paths) and print one "
                  "JSON line per file; goes on past files that fail, exit code 1 if any did")
      ->excludes("--out");
  command
      .add_option("--jobs", options.jobs,
                  "With --out-dir: files processed at a time, each in its own process (default 1)")
      ->check(CLI::PositiveNumber);
}

int runFileCommand(const CLI::App& command, const std::vector<std::string>& inputs, const std::string& out,
                   const BatchOptions& options, bool childJson, const std::function<int(const std::string&)>& runOne) {
  if (!options.outDir.empty()) return runBatch(command, inputs, options, childJson);
  const auto fail = [](const std::string& message) {
    std::cerr << "error: " << message << '\n';
    return 1;
  };
  if (out.empty()) return fail(command.get_name() + ": --out FILE or --out-dir DIR is required");
  if (inputs.size() != 1)
    return fail(command.get_name() + ": several inputs are written with --out-dir DIR, not --out");
  std::error_code ec;
  if (fs::is_directory(inputs.front(), ec))
    return fail(inputs.front() + ": is a folder: write its files with --out-dir DIR");
  // A library's exception (an allocation the input's sizes asked for) names the input.
  try {
    return runOne(inputs.front());
  } catch (const std::bad_alloc&) {
    return fail(printableLine(inputs.front() + ": needs more memory than is available"));
  } catch (const std::exception& e) {
    return fail(printableLine(inputs.front() + ": " + jsonErrorInOurWords(e.what())));
  }
}

}  // namespace articula::cli

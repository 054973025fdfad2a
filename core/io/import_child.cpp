// importWithAssimp: Assimp runs in a forked child under resource limits, so whatever a file
// does to it (abort, stack overflow, unbounded allocation, endless loop) ends the child and
// not the editor. fork without exec: the child already holds the reader, so there is no
// helper executable to install and find, and it starts in microseconds. A child forked while
// another thread held a lock (glibc's malloc is fork-safe, AddressSanitizer's allocator in
// GCC 12 is not: about 1 fork in 100 beside an allocating thread) waits forever without using
// the processor: the parent sees that and forks again.
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <string_view>

#include "core/io/atomic_file.h"
#include "core/io/import.h"
#include "core/io/import_scene_binary.h"

namespace articula {
namespace {

// First byte of the child's answer; what follows is a scene or an error line.
constexpr char kSceneFollows = 'S';
constexpr char kErrorFollows = 'E';

// Address space mapped now, in bytes (0 when /proc cannot tell): RLIMIT_AS caps the whole
// address space, inherited mappings included, so the child's budget is added to it.
std::size_t mappedBytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

void limitChild(const AssimpImportLimits& limits, std::size_t inheritedBytes) {
  const rlimit memory{inheritedBytes + limits.memoryBytes, inheritedBytes + limits.memoryBytes};
  ::setrlimit(RLIMIT_AS, &memory);
  const auto cpu = static_cast<rlim_t>(limits.cpuSeconds);
  // The soft limit sends SIGXCPU, the hard one a second later SIGKILL.
  const rlimit processor{cpu, cpu + 1};
  ::setrlimit(RLIMIT_CPU, &processor);
  // Assimp's loggers and an abort's message are not the user's business: the parent says
  // what happened in one line.
  const int devNull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (devNull >= 0) {
    ::dup2(devNull, STDOUT_FILENO);
    ::dup2(devNull, STDERR_FILENO);
  }
}

std::string childAnswer(const std::string& path) {
  try {
    const Result<Scene> scene = importWithAssimpInProcess(path);
    if (!scene) return kErrorFollows + scene.error();
    return kSceneFollows + encodeSceneBinary(*scene);
  } catch (const std::bad_alloc&) {
    return kErrorFollows + importErrorLine(path, "too large: reading it needs more memory than the import may use");
  }
}

[[noreturn]] void runChild(int answerFd, const std::string& path, const AssimpImportLimits& limits,
                           std::size_t inheritedBytes) {
  limitChild(limits, inheritedBytes);
  const bool sent = writeAllBytes(answerFd, childAnswer(path));
  // _exit: the parent's atexit handlers and static destructors (Qt, test runners) are the
  // parent's, not to be run twice.
  ::_exit(sent ? 0 : 1);
}

enum class ReadEnd { Complete, TimedOut, Stuck, Failed };

// Processor time the process has used, in clock ticks, from /proc/<pid>/stat (fields 14 and
// 15, counted after the command name, which may hold spaces and parentheses); -1 when /proc
// cannot tell.
long long processorTicks(pid_t process) {
  std::ifstream stat("/proc/" + std::to_string(process) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return -1;
  const std::size_t nameEnd = line.rfind(')');
  if (nameEnd == std::string::npos) return -1;
  std::istringstream fields(line.substr(nameEnd + 1));
  std::string field;
  long long user = -1;
  long long system = -1;
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) user = std::atoll(field.c_str());
    if (index == 15) system = std::atoll(field.c_str());
  }
  return user < 0 || system < 0 ? -1 : user + system;
}

// Everything the child writes until it closes the pipe; or until the wall-clock limit; or
// until the child has neither written nor used the processor for limits.stuckSeconds.
ReadEnd readAnswer(int fd, pid_t child, const AssimpImportLimits& limits, std::string& answer) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(limits.wallSeconds);
  auto lastProgress = Clock::now();
  long long lastTicks = processorTicks(child);
  char buffer[1 << 16];
  for (;;) {
    const auto now = Clock::now();
    if (now >= deadline) return ReadEnd::TimedOut;
    const long long ticks = processorTicks(child);
    if (ticks != lastTicks || ticks < 0) {
      lastTicks = ticks;
      lastProgress = now;
    } else if (now - lastProgress >= std::chrono::seconds(limits.stuckSeconds)) {
      return ReadEnd::Stuck;
    }
    // Wake at least once a second to look at the child's processor time.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    pollfd ready{fd, POLLIN, 0};
    const int polled = ::poll(&ready, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (polled < 0 && errno != EINTR) return ReadEnd::Failed;
    if (polled <= 0) continue;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return ReadEnd::Complete;
    if (got < 0) {
      if (errno == EINTR) continue;
      return ReadEnd::Failed;
    }
    answer.append(buffer, static_cast<std::size_t>(got));
    lastProgress = Clock::now();
  }
}

int waitForChild(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::string signalName(int signal) {
  switch (signal) {
    case SIGABRT: return "aborted";
    case SIGSEGV: return "segmentation fault, often nesting too deep";
    case SIGBUS: return "bus error";
    case SIGFPE: return "arithmetic error";
    case SIGILL: return "illegal instruction";
    default: return std::string("signal ") + std::to_string(signal);
  }
}

Result<Scene> interpretAnswer(const std::string& path, const AssimpImportLimits& limits, int status,
                              const std::string& answer) {
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    if (signal == SIGXCPU || signal == SIGKILL) {
      return makeError(importErrorLine(path, "reading it used more than " + std::to_string(limits.cpuSeconds) +
                                                 " s of processor time or ran out of memory and was stopped"));
    }
    return makeError(importErrorLine(path, "the importer (Assimp) crashed on this file (" + signalName(signal) +
                                               "): it is damaged or uses something Assimp cannot read"));
  }
  if (!answer.empty() && answer.front() == kErrorFollows) return makeError(answer.substr(1));
  if (answer.empty() || answer.front() != kSceneFollows || WEXITSTATUS(status) != 0) {
    return makeError(importErrorLine(path, "the importer (Assimp) stopped on this file (exit status " +
                                               std::to_string(WEXITSTATUS(status)) +
                                               "): it is damaged or uses something Assimp cannot read"));
  }
  Result<Scene> scene = decodeSceneBinary(std::string_view(answer).substr(1));
  if (!scene) return makeError(importErrorLine(path, scene.error()));
  return scene;
}

// One child reads the file: its answer and exit status, or how the reading ended.
struct ChildRun {
  ReadEnd end = ReadEnd::Failed;
  std::string answer;
  int status = 0;
};

Result<ChildRun> runChildOnce(const std::string& path, const AssimpImportLimits& limits) {
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
    return makeError(importErrorLine(path, std::string("cannot start the importer: ") + std::strerror(errno)));
  }
  const std::size_t inheritedBytes = mappedBytes();
  const pid_t child = ::fork();
  if (child < 0) {
    const int error = errno;
    ::close(pipeFds[0]);
    ::close(pipeFds[1]);
    return makeError(importErrorLine(path, std::string("cannot start the importer: ") + std::strerror(error)));
  }
  if (child == 0) {
    ::close(pipeFds[0]);
    runChild(pipeFds[1], path, limits, inheritedBytes);
  }
  ::close(pipeFds[1]);
  ChildRun run;
  run.end = readAnswer(pipeFds[0], child, limits, run.answer);
  if (run.end != ReadEnd::Complete) ::kill(child, SIGKILL);
  ::close(pipeFds[0]);
  run.status = waitForChild(child);
  return run;
}

}  // namespace

Result<Scene> importWithAssimp(const std::string& path, const AssimpImportLimits& limits) {
  for (int attempt = 1;; ++attempt) {
    Result<ChildRun> run = runChildOnce(path, limits);
    if (!run) return makeError(run.error());
    if (run->end == ReadEnd::Stuck && attempt < limits.stuckAttempts) continue;
    switch (run->end) {
      case ReadEnd::Complete: return interpretAnswer(path, limits, run->status, run->answer);
      case ReadEnd::TimedOut:
        return makeError(importErrorLine(
            path, "reading it took longer than " + std::to_string(limits.wallSeconds) + " s and was stopped"));
      case ReadEnd::Stuck:
        return makeError(importErrorLine(
            path, "reading it stalled: the importer used no processor time for " +
                      std::to_string(limits.stuckSeconds) + " s, " + std::to_string(limits.stuckAttempts) +
                      " times, and was stopped (a file that never delivers its data, such as a named pipe, does this)"));
      case ReadEnd::Failed: break;
    }
    return makeError(importErrorLine(path, "the importer's answer could not be read"));
  }
}

}  // namespace articula

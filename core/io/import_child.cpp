// importWithAssimp: Assimp runs in a forked child under resource limits, so whatever a file
// does to it (abort, stack overflow, unbounded allocation, endless loop) ends the child and
// not the editor. fork without exec: the child already holds the reader, so there is no
// helper executable to install and find, and it starts in microseconds; glibc's malloc is
// fork-safe, and the wall-clock limit ends a child that inherited some other lock held.
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <new>
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

enum class ReadEnd { Complete, TimedOut, Failed };

// Everything the child writes until it closes the pipe, or until the wall-clock limit.
ReadEnd readAnswer(int fd, int wallSeconds, std::string& answer) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wallSeconds);
  char buffer[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return ReadEnd::TimedOut;
    pollfd ready{fd, POLLIN, 0};
    const int polled = ::poll(&ready, 1, static_cast<int>(left.count()));
    if (polled < 0 && errno != EINTR) return ReadEnd::Failed;
    if (polled <= 0) continue;
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return ReadEnd::Complete;
    if (got < 0) {
      if (errno == EINTR) continue;
      return ReadEnd::Failed;
    }
    answer.append(buffer, static_cast<std::size_t>(got));
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

}  // namespace

Result<Scene> importWithAssimp(const std::string& path, const AssimpImportLimits& limits) {
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
  std::string answer;
  const ReadEnd end = readAnswer(pipeFds[0], limits.wallSeconds, answer);
  if (end != ReadEnd::Complete) ::kill(child, SIGKILL);
  ::close(pipeFds[0]);
  const int status = waitForChild(child);
  if (end == ReadEnd::TimedOut) {
    return makeError(importErrorLine(
        path, "reading it took longer than " + std::to_string(limits.wallSeconds) + " s and was stopped"));
  }
  if (end == ReadEnd::Failed) return makeError(importErrorLine(path, "the importer's answer could not be read"));
  return interpretAnswer(path, limits, status, answer);
}

}  // namespace articula

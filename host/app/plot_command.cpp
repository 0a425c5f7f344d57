// `skipstone plot DIR [options]`: publication figures of a run's maps, drawn by the Python
// module (python/skipstone/plot.py): this command runs `python3 -m skipstone.plot` with the
// module's build folder on PYTHONPATH, or says how to build the module when this build lacks it.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "commands.hpp"

// Set by python/CMakeLists.txt when the module is built: the folder holding the package
// skipstone, and the interpreter it is built for.
#ifndef SKIPSTONE_PYTHON_PATH
#define SKIPSTONE_PYTHON_PATH ""
#define SKIPSTONE_PYTHON_EXECUTABLE ""
#endif

namespace skipstone {

int plot_command(const std::vector<std::string>& args) {
  const std::string path = SKIPSTONE_PYTHON_PATH, python = SKIPSTONE_PYTHON_EXECUTABLE;
  if (path.empty())
    throw std::runtime_error("skipstone plot draws with the Python module, which this build lacks: install "
                             "python3-dev, pybind11-dev and python3-matplotlib (scripts/setup.sh --python) and build "
                             "again (cmake -DSKIPSTONE_PYTHON=ON)");
  if (!std::filesystem::exists(std::filesystem::path(path) / "skipstone" / "plot.py"))
    throw std::runtime_error("the Python module is not in " + path + " (build the target _skipstone)");
  const char* old = std::getenv("PYTHONPATH");
  const std::string pythonpath = path + (old && *old ? ":" + std::string(old) : "");
  ::setenv("PYTHONPATH", pythonpath.c_str(), 1);
  std::vector<std::string> argv_strings = {python, "-m", "skipstone.plot"};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv(python.c_str(), argv.data());
  throw std::runtime_error("cannot start " + python + ": " + std::strerror(errno));
}

}  // namespace skipstone

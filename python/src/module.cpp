// The compiled part of the Python module (python/skipstone/__init__.py wraps it): a scan run
// through the same code as `skipstone run` (run_in_process, host/app/run_session.hpp), with
// the kernels running while the GIL is released and Ctrl-C checked between chunks; one
// trajectory recorded as `skipstone trace` records it (host/app/trace_session.hpp); the
// document of `skipstone bench --json`; the status codes of include/skipstone/status.hpp; the
// two kinds of bad input as Python exceptions (ConfigError with the key path, UsageError),
// both ValueErrors.
#include <algorithm>
#include <cstdint>
#include <map>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "backends.hpp"
#include "commands.hpp"
#include "config.hpp"
#include "config_error.hpp"
#include "config_override.hpp"
#include "observables.hpp"
#include "output_writer.hpp"
#include "py_json.hpp"
#include "run_session.hpp"
#include "skipstone/status.hpp"
#include "systems.hpp"
#include "trace_session.hpp"

namespace py = pybind11;

namespace skipstone {
namespace {

// The thread count of a run without `threads`: OpenMP's default at import (all cores, or
// OMP_NUM_THREADS), as for a fresh `skipstone run`, not what an earlier run(threads=N) set.
int g_default_threads = 0;

// A vector's values as a NumPy array of `shape`; the array owns the vector (no copy).
template <class T>
py::array owning_array(std::vector<T>&& values, const std::vector<std::size_t>& shape) {
  auto* held = new std::vector<T>(std::move(values));
  py::capsule owner(held, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::vector<py::ssize_t>(shape.begin(), shape.end()), held->data(), owner);
}

// An observable's map with the dtype and shape of its .npy file (output_writer.hpp); the
// integer types converted as the writer converts them.
py::array observable_array(const RunConfig& rc, const std::string& name, std::vector<double>&& map) {
  const std::vector<std::size_t> shape = observable_shape(rc, name);
  switch (observable_info(name).type) {
    case ObservableType::int8: return owning_array(std::vector<std::int8_t>(map.begin(), map.end()), shape);
    case ObservableType::uint64: return owning_array(std::vector<std::uint64_t>(map.begin(), map.end()), shape);
    default: return owning_array(std::move(map), shape);
  }
}

RunConfig config_with_overrides(const std::optional<std::string>& path, py::handle config, const py::dict& overrides) {
  std::vector<ConfigOverride> list;
  for (const auto& item : overrides) {
    if (!py::isinstance<py::str>(item.first))
      throw py::type_error("overrides: key " + std::string(py::repr(item.first)) + " is not a str key path");
    const std::string key = item.first.cast<std::string>();
    list.push_back({key, json_from_python(item.second, key)});
  }
  return parse_config_with_overrides(path ? read_config_json(*path) : json_from_python(config, ""), list);
}

// Returns (observables in config order, meta.json text, sampled axis values of a random scan,
// the arrays of the outputs section by file name: output_arrays).
// `threads`: 0 for the default, else checked by the caller against MAX_THREADS.
// Called between chunks with the GIL released: a pending Ctrl-C (or another signal whose
// handler raises) stops the run with the handler's exception.
void check_signals() {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

py::tuple run(const std::optional<std::string>& path, py::object config, const py::dict& overrides,
              const std::optional<std::string>& out, bool overwrite, std::int64_t threads, bool progress,
              const std::string& backend, const std::string& command) {
  if (out && out->empty()) throw UsageError("out: empty path");
  if (backend != "auto" && backend != "cpu" && backend != "cuda")
    throw UsageError("backend " + backend + ": allowed values are auto, cpu, cuda");
  const RunConfig rc = config_with_overrides(path, config, overrides);
  RunRequest request;
  request.backend = backend;
  request.between_chunks = check_signals;
  request.threads = threads ? static_cast<int>(threads) : g_default_threads;
  if (out) request.out = *out;
  request.overwrite = overwrite;
  request.quiet = !progress;
  request.command_line = command;
  RunOutcome outcome;
  {
    py::gil_scoped_release release;
    outcome = run_in_process(std::move(request), rc);
  }
  py::dict maps;
  for (const std::string& name : rc.observables) maps[name.c_str()] = observable_array(rc, name, std::move(outcome.result->maps.at(name)));
  py::dict sampled;
  if (rc.spec.random)
    for (std::size_t j = 0; j < rc.axes.size(); ++j)
      sampled[rc.axes[j].name.c_str()] = owning_array(sampled_axis_values(rc, j), rc.shape);
  py::dict outputs;
  for (auto& [name, a] : output_arrays(rc, *outcome.result))
    outputs[name.c_str()] = a.integer ? owning_array(std::move(a.counts), a.shape) : owning_array(std::move(a.values), a.shape);
  return py::make_tuple(maps, outcome.meta.dump(), sampled, outputs);
}

// Returns (the CSV text of `skipstone trace`, the trajectory's index, status code, events, t_end).
// `index` < 0: from `coords` (param -> value), or trajectory 0 when both are absent.
py::tuple trace(const std::optional<std::string>& path, py::object config, const py::dict& overrides, std::int64_t index,
                const std::optional<std::map<std::string, double>>& coords, double sample, std::uint64_t max_rows) {
  const RunConfig rc = config_with_overrides(path, config, overrides);
  const std::uint64_t i = coords ? nearest_grid_index(rc, *coords, "coords") : static_cast<std::uint64_t>(std::max<std::int64_t>(index, 0));
  check_trace_index(rc, i, "index");
  Trace t;
  {
    py::gil_scoped_release release;
    t = record_trace(rc, i, sample, max_rows);
  }
  return py::make_tuple(py::bytes(t.csv), i, static_cast<int>(t.result.status), t.result.events, t.result.t_end);
}

// The parameters of `system` that have a default, with it (for the titles of skipstone.plot).
py::dict parameter_defaults(const std::string& system) {
  py::dict d;
  for (const ParamRule& rule : system_schema(system).parameters)
    if (rule.fallback) d[rule.name.c_str()] = *rule.fallback;
  return d;
}

// On all threads, as a fresh `skipstone bench`, whatever an earlier run(threads=N) set.
std::string bench(const std::vector<std::string>& args, bool progress, const std::string& command) {
  py::gil_scoped_release release;
  cpu::set_threads(g_default_threads);
  return bench_json(args, !progress, command).dump();
}

}  // namespace
}  // namespace skipstone

PYBIND11_MODULE(_skipstone, m) {
  using namespace skipstone;
  m.doc() = "The compiled part of skipstone; use the package skipstone (python/skipstone/__init__.py).";
  g_default_threads = cpu::max_threads();

  static py::exception<ConfigError> config_error(m, "ConfigError", PyExc_ValueError);
  static py::exception<UsageError> usage_error(m, "UsageError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ConfigError& e) {
      py::object err = py::handle(config_error.ptr())(py::str(e.what()));  // an instance, to give it .key
      err.attr("key") = e.key();
      PyErr_SetObject(config_error.ptr(), err.ptr());
    } catch (const UsageError& e) {
      usage_error(e.what());
    }
  });

  py::list names, ok;
  for (int s = 0; s < kStatusCount; ++s) {
    names.append(status_name(static_cast<Status>(s)));
    if (status_is_ok(static_cast<Status>(s))) ok.append(s);
  }
  m.attr("STATUS_NAMES") = py::tuple(names);
  m.attr("OK_STATUSES") = py::tuple(ok);
  m.attr("MAX_THREADS") = kMaxRunThreads;
  m.attr("DEFAULT_MAX_ROWS") = kDefaultMaxRows;
  m.attr("MAX_ROWS_LIMIT") = kMaxRowsLimit;

  m.def("run", &run, py::arg("path"), py::arg("config"), py::arg("overrides"), py::arg("out"), py::arg("overwrite"),
        py::arg("threads"), py::arg("progress"), py::arg("backend"), py::arg("command"),
        "Runs a scan as `skipstone run` does; see skipstone.run.");
  m.def("trace", &trace, py::arg("path"), py::arg("config"), py::arg("overrides"), py::arg("index"), py::arg("coords"),
        py::arg("sample"), py::arg("max_rows"), "Records one trajectory as `skipstone trace` does; see skipstone.trace.");
  m.def("parameter_defaults", &parameter_defaults, py::arg("system"),
        "The defaults of the parameters of a system that have one.");
  m.def("bench", &bench, py::arg("args"), py::arg("progress"), py::arg("command"),
        "The JSON document of `skipstone bench ARGS --json`; see skipstone.bench.");
}

// Python values to JSON, with the key path of each for errors.
#include "py_json.hpp"

#include "config_error.hpp"

namespace py = pybind11;

namespace skipstone {

namespace {

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

nlohmann::json json_from_int(py::handle value, const std::string& path) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow == 0) return v;
  if (overflow > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
    if (!PyErr_Occurred()) return u;
    PyErr_Clear();
  }
  throw ConfigError(path, "integer " + std::string(py::str(value)) + " is outside the 64-bit range");
}

}  // namespace

nlohmann::json json_from_python(py::handle value, const std::string& path) {
  if (value.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return json_from_int(value, path);
  if (py::isinstance<py::float_>(value)) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& item : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(item.first))
        throw ConfigError(path.empty() ? "(config)" : path,
                          "key " + std::string(py::repr(item.first)) + " is a " + type_name(item.first) + "; allowed: str keys");
      const std::string key = item.first.cast<std::string>();
      const std::string child = path.empty() ? key : path + "." + key;
      out[key] = json_from_python(item.second, child);
    }
    return out;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    nlohmann::json out = nlohmann::json::array();
    std::size_t i = 0;
    for (py::handle item : value) out.push_back(json_from_python(item, path + "[" + std::to_string(i++) + "]"));
    return out;
  }
  if (py::hasattr(value, "dtype") && py::hasattr(value, "tolist"))  // NumPy scalars and arrays
    return json_from_python(value.attr("tolist")(), path);
  throw ConfigError(path.empty() ? "(config)" : path,
                    "a Python " + type_name(value) +
                        " is not a config value; allowed: None, bool, int, float, str, list, tuple, dict with str keys, "
                        "NumPy scalars and arrays");
}

}  // namespace skipstone
